// Demo referrer traffic: history for the demo zones on first start, then live hits that reach
// the stream, all through the real ingest path — a small share of it flagged by the bot
// classifier (crawlers, referrer spam, a burst from one IP), as 'Incluir bots' and IVT show.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { EventSource } from 'eventsource';
import { buildRequest, contract } from '@adops/core';
import type { TestServer } from './helpers.js';
import { daysAgo, reportRows, startReferrerServer, storedCount } from './referrers-fixture.js';

let t: TestServer;
let api: Awaited<ReturnType<TestServer['admin']>>;

async function waitFor(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  t = await startReferrerServer({ demo: true, botFilter: true });
  api = await t.admin();
  // The history (7 days × ~5,000 events, oldest first) is whole before the tests look at it.
  await waitFor(async () => (await storedCount(t)) > 7 * 5000, 45_000, 'the demo history');
}, 60_000);
afterAll(() => t.close());

test('the demo loads days of referrer history for zones that have reports, with owners', async () => {
  const d = daysAgo(2).slice(0, 10);
  const day = await api.referrers.logs({ startDate: d, endDate: d, page_size: 500 });
  expect(day.total_rows).toBeGreaterThan(1000);
  const logs = day.rows;
  expect(logs.filter((e) => e.keyword).length).toBeGreaterThan(logs.length / 2);
  expect(new Set(logs.map((e) => e.country)).size).toBeGreaterThan(3);
  const filters = await api.referrers.filters();
  expect(filters.publishers.length).toBeGreaterThan(5);
  expect(filters.advertisers.length).toBeGreaterThan(0);
  // A publisher from the list filters to its own zones' traffic.
  const publisher = filters.publishers[0];
  const mine = await reportRows(api, { startDate: daysAgo(3).slice(0, 10), publisher });
  expect(mine.length).toBeGreaterThan(0);
});

test('the simulator sends live hits that reach the stream', async () => {
  const es = new EventSource(buildRequest(contract.referrers.stream, { access_token: api.token }, t.url).url);
  const got: string[] = [];
  es.addEventListener('message', (m) => got.push(m.data));
  await waitFor(() => got.length >= 3, 10_000, 'live demo events');
  es.close();
  const record = JSON.parse(got[0]);
  expect(Math.abs(Date.parse(record.seen_at) - Date.now())).toBeLessThan(30_000);
  expect(record.zone_id).toMatch(/^\d+$/);
});

test('a small share of the demo traffic is flagged by the classifier, for several reasons, and the IVT table shows it', async () => {
  // The history's days (today's keep growing with live hits).
  const range = { startDate: daysAgo(7).slice(0, 10), endDate: daysAgo(1).slice(0, 10) };
  const ivt = await api.referrers.ivt({ ...range, by: 'zone' });
  expect(ivt.totals.bot_hits).toBeGreaterThan(0);
  expect(ivt.totals.bot_hits / ivt.totals.hits).toBeGreaterThan(0.02);
  expect(ivt.totals.bot_hits / ivt.totals.hits).toBeLessThan(0.15);
  // 'Incluir bots': every event of the history with its reason (the log's NDJSON export).
  const res = await t.fetch('/api/referrers_logs/', {
    method: 'POST',
    headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...range, include_bots: true, format: 'ndjson' }),
  });
  expect(res.status).toBe(200);
  const events = (await res.text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { is_bot: boolean; reason: string | null; ip: string | null; referrer: string | null });
  const byReason = new Map<string, typeof events>();
  for (const e of events) if (e.is_bot) byReason.set(e.reason ?? '', [...(byReason.get(e.reason ?? '') ?? []), e]);
  expect(byReason.get('user_agent')?.length).toBeGreaterThan(100);
  expect(byReason.get('spam_referrer')?.length).toBeGreaterThan(100);
  expect(
    byReason
      .get('spam_referrer')
      ?.every((e) => /^https:\/\/(semalt|darodar|buttons-for-website|ilovevitaly|free-share-buttons|social-buttons)\.com\//.test(e.referrer ?? '')),
  ).toBe(true);
  // Bursts: the hits beyond the per-minute rate of one address.
  const burst = byReason.get('ip_rate') ?? [];
  expect(burst.length).toBeGreaterThan(0);
  expect(new Set(burst.map((e) => e.ip)).size).toBeLessThanOrEqual(4);
  // Without bots, the log leaves every one of them out.
  const human = await api.referrers.logs({ ...range, page_size: 1 });
  expect(human.total_rows).toBe(events.length - [...byReason.values()].reduce((n, l) => n + l.length, 0));
});
