// A campaign history built by hand for the alert rules' tests: on each day, each campaign's own
// zone earns what the test says over its visits (so its revenue is exactly that), and its Meta
// spend per ad and day. Zone reports go straight into the warehouse (a past day without a
// finality record counts as final) unless a test imports a partial one through the ingest.
import type { ReferrerEvent } from '../src/warehouse/index.js';
import type { SandboxAd } from '../src/providers/meta/sandbox.js';
import type { TestServer } from './helpers.js';
import { zoneReportRow } from './helpers.js';
import { event, importRows } from './warehouse-contract.js';

let nextEventId = 1_000_000;

/** `n` active sandbox campaigns (one ad of each) that `used` has not handed out yet. */
export function activeCampaigns(s: TestServer, n: number, used: Set<string>): SandboxAd[] {
  const sandbox = s.app.services.campaigns.providers.metaSandbox!;
  const out: SandboxAd[] = [];
  for (const ad of sandbox.ads()) {
    if (out.length === n) break;
    if (used.has(ad.campaign_id) || sandbox.objects.get(ad.campaign_id)?.status !== 'ACTIVE') continue;
    used.add(ad.campaign_id);
    out.push(ad);
  }
  if (out.length < n) throw new Error('the sandbox has too few active campaigns');
  return out;
}

/** One campaign's day: its spend (none: no spend row) and what its visits earned, `visits` of them from `at` a second apart. */
export interface CampaignDay {
  ad: SandboxAd;
  day: string;
  spend?: number;
  revenue?: number;
  visits?: number;
  /** The first visit's instant (default: the day's 10:00 UTC). */
  at?: number;
  /** Meta clicks behind the spend (default 20). */
  clicks?: number;
}

/** Stores campaign days: a zone per campaign and day reporting its revenue, its visits there, its spend. */
export async function loadCampaignDays(s: TestServer, days: readonly CampaignDay[]): Promise<void> {
  const w = s.app.services.warehouse;
  const reports = [];
  const events: ReferrerEvent[] = [];
  for (const d of days) {
    const zone = `Z-${d.ad.campaign_id}-${d.day}`;
    if (d.revenue !== undefined) reports.push(zoneReportRow(d.day, zone, { revenue: d.revenue }));
    const start = d.at ?? Date.parse(`${d.day}T10:00:00Z`);
    for (let i = 0; i < (d.visits ?? 10); i++)
      events.push(
        event(nextEventId++, start + i * 1000, { zone_id: zone, campaign_id: d.ad.campaign_id, adset_id: d.ad.adset_id, ad_id: d.ad.ad_id }),
      );
  }
  if (reports.length) await importRows(w, reports);
  if (events.length) await w.referrers.append(events);
  await setSpend(s, days);
}

/** The campaigns' spend on their days (upserted: a later call corrects it). */
export async function setSpend(s: TestServer, days: readonly CampaignDay[]): Promise<void> {
  const rows = days
    .filter((d) => d.spend !== undefined)
    .map((d) => ({
      date: d.day,
      account_id: 'act_1000000000001',
      campaign_id: d.ad.campaign_id,
      adset_id: d.ad.adset_id,
      ad_id: d.ad.ad_id,
      campaign_name: d.ad.campaign_name,
      adset_name: 'Conjunto',
      ad_name: 'Anuncio',
      spend: d.spend!,
      impressions: 1000,
      clicks: d.clicks ?? 20,
      currency: 'USD',
    }));
  if (rows.length) await s.app.services.warehouse.spend.upsert(rows);
}

/** A zone report of `day` through the ingest (the path that records its finality): `partial` marks the day incomplete. */
export async function ingestReport(s: TestServer, token: string, day: string, zone: string, revenue: number, report: 'final' | 'partial') {
  const res = await s.fetch(`/api/ingest/zone-report?report=${report}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify([{ date: day, advertiser: 'AdNova', publisher: 'PubA', zone_id: zone, impressions: 5000, clicks: 50, revenue }]),
  });
  if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
}

/** The zone a campaign's day of loadCampaignDays uses. */
export const zoneOf = (d: Pick<CampaignDay, 'ad' | 'day'>) => `Z-${d.ad.campaign_id}-${d.day}`;
