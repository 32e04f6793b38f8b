// The hand-built history of issue 28's backtest test (alerts-backtest.test.ts works it out, and
// the terminal's test replays it): two campaigns over 10 days, D1 … D10 = 12 … 3 days ago (UTC),
// each campaign's visits in its own zone, so its revenue each day is exactly the figure below.
//
//   day     D1  D2  D3  D4  D5  D6  D7  D8  D9  D10
//   L spend 20  20  20  20  20  20  20  20  20  20      losing from day 4: ROI +50 %, then −50 %
//   L rev.  30  30  30  10  10  10  10  10  10  10
//   N spend 20  20  20  20  20  20  20  20  20  20      noisy around break-even: ROI +10 %, −10 % …
//   N rev.  22  18  22  18  22  18  22  18  22  18
//
// And two more that never enter a backtest's actions but show in the evaluation log: U's visits
// on D11 (2 days ago), a day nobody's spend was synced; E's spend and visits on D12 (yesterday),
// whose zone report came in partial.
import { addDays, todayIn } from '@adops/core';
import type { SandboxAd } from '../src/providers/meta/sandbox.js';
import type { TestServer } from './helpers.js';
import { activeCampaigns, ingestReport, loadCampaignDays, zoneOf, type CampaignDay } from './campaign-history.js';

export const TODAY = todayIn('UTC');
/** D(k): the history's k-th day (D1 is 12 days ago, D10 three, D11 two, D12 yesterday). */
export const D = (k: number) => addDays(TODAY, k - 13);
/** An instant of the history: day k at `hour`:00 UTC. */
export const at = (k: number, hour = 0) => new Date(Date.parse(`${D(k)}T00:00:00Z`) + hour * 3_600_000).toISOString();

export const L_REVENUE = [30, 30, 30, 10, 10, 10, 10, 10, 10, 10];
export const N_REVENUE = [22, 18, 22, 18, 22, 18, 22, 18, 22, 18];

export interface BacktestHistory {
  L: SandboxAd;
  N: SandboxAd;
  U: SandboxAd;
  E: SandboxAd;
}

/** Stores the history on `s` (its admin's token imports E's partial report). */
export async function loadBacktestHistory(s: TestServer, adminToken: string): Promise<BacktestHistory> {
  const [L, N, U, E] = activeCampaigns(s, 4, new Set());
  const days: CampaignDay[] = [];
  for (let k = 1; k <= 10; k++) {
    days.push({ ad: L, day: D(k), spend: 20, revenue: L_REVENUE[k - 1] });
    days.push({ ad: N, day: D(k), spend: 20, revenue: N_REVENUE[k - 1] });
  }
  days.push({ ad: U, day: D(11), revenue: 10 });
  const e: CampaignDay = { ad: E, day: D(12), spend: 30 };
  days.push(e);
  await loadCampaignDays(s, days);
  await ingestReport(s, adminToken, D(12), zoneOf(e), 5, 'partial');
  return { L, N, U, E };
}

/** The rule of the test: ROI below 0 % over the last 24 h (≥ 10 spent), pause on Meta, a 25-hour wait, 1 action a day, reactivar. */
export const BACKTEST_RULE = {
  name: 'Pierden dinero',
  kind: 'campaign_roi',
  params: { level: 'campaign', threshold: 0, hours: 24, min_spend: 10 },
  action: { mode: 'pause', cooldown_minutes: 25 * 60, daily_cap: 1, reactivate: true },
} as const;
