// The demo's Alertas: `npm start` with the demo on (its zone reports, referrer history and live
// traffic through the bot classifier, the Meta sandbox's losing campaigns, the demo rules) fires
// at least one alert of every rule kind within minutes — here on a fast schedule (every 2 s)
// instead of every minute, with the classifier on as in production.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ALERT_RULE_KINDS, addDays, formatDateDMY, todayIn, type Alert } from '@adops/core';
import { loadConfig } from '../src/config.js';
import type { TestServer } from './helpers.js';
import { startReferrerServer, storedCount } from './referrers-fixture.js';

let t: TestServer;
/** The demo's "today": the day its zone reports were seeded, at start (a run may cross midnight after). */
let demoDay: string;

async function waitFor(check: () => Promise<boolean>, ms: number, what: () => string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 500)); // a poll of the server (each check is a request), not a wait on the clock
  }
}

beforeAll(async () => {
  const startedAt = new Date();
  t = await startReferrerServer({ demo: true, botFilter: true, alerts: { ...loadConfig({}).alerts, everySeconds: 2 } });
  await waitFor(
    async () => (await storedCount(t)) > 7 * 5000,
    60_000,
    () => 'the demo history',
  );
  demoDay = todayIn(t.app.services.config.tz, startedAt);
}, 90_000);
afterAll(() => t?.close());

test('the demo rules fire an alert of every kind on their own schedule, on human traffic', async () => {
  const api = await t.admin();
  const rules = await api.alerts.rules();
  expect(new Set(rules.map((r) => r.kind))).toEqual(new Set(ALERT_RULE_KINDS));
  let seen: Alert[] = [];
  const ofRule = (name: string) => seen.filter((a) => a.rule_name === name);
  // Every kind, and among the referrer rules the one on sites never seen before.
  const missing = () => [
    ...ALERT_RULE_KINDS.filter((k) => !seen.some((a) => a.kind === k)),
    ...(ofRule('Referrer nuevo con tráfico').length ? [] : ['referrer_burst (new_only)']),
  ];
  await waitFor(
    async () => {
      seen = (await api.alerts.list({ state: 'all', page_size: 500 })).rows;
      return missing().length === 0;
    },
    120_000,
    () => `alerts of ${missing().join(', ')} (fired so far: ${[...new Set(seen.map((a) => a.rule_name))].join(', ') || 'none'})`,
  );
  // The IP over its visits is one address, its visits counted under the classifier's per-minute rate (human).
  const ip = ofRule('Una IP con muchas visitas')[0];
  expect(ip.subject).toMatch(/^[\d.:a-f]+$/);
  expect(ip.figures.visits).toBeGreaterThan(60);
  expect(ip.figures.visits).toBeLessThanOrEqual(t.app.services.config.botIpRatePerMinute);
  // Never seen: no visit from that host, bots included, in the days before it fired.
  const fresh = ofRule('Referrer nuevo con tráfico')[0];
  const before = await t.app.services.warehouse.alerts.bursts({
    by: 'host',
    from: Date.now() - 10 * 86_400_000,
    to: Date.parse(fresh.opened_at) - 10 * 60_000,
    over: 0,
    host: fresh.subject,
    limit: 1,
  });
  expect(before).toEqual([]);
  expect(ofRule('Campañas que pierden dinero')[0].value).toBeLessThan(0);
}, 150_000);

test('the demo is coherent: the week of spend it syncs counts as synced, today’s zone report is partial and the rest final', async () => {
  const api = await t.admin();
  const today = demoDay;
  const week = { by: 'day' as const, start_date: addDays(today, -6), end_date: today };
  // The first scheduled sync (seconds after start) covers the nightly window: the whole week.
  await waitFor(
    async () => (await api.profit.table(week)).totals.spend_synced_at !== null,
    30_000,
    () => 'the first spend sync',
  );
  const { totals } = await api.profit.table(week);
  expect(totals.unsynced_days).toEqual([]);
  expect(totals.partial_days).toEqual([today]);
  // The demo's losing-campaign rule judges yesterday (matured), not today's partial report.
  const [loss] = (await api.alerts.list({ state: 'all', page_size: 500 })).rows.filter((a) => a.rule_name === 'Campañas que pierden dinero');
  // It leaves out the day it was evaluated on: the day it opened, or (a reopening across midnight) today.
  const tz = t.app.services.config.tz;
  const evaluated = [...new Set([todayIn(tz, new Date(loss.opened_at)), todayIn(tz)])].map((d) => `sin ${formatDateDMY(d)}`);
  expect(
    evaluated.some((words) => loss.message.includes(words)),
    `${loss.message} (expected ${evaluated.join(' or ')})`,
  ).toBe(true);
});
