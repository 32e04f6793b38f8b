// Demo referrer traffic: history for the demo zones on first start, then live hits that reach
// the stream, all through the real ingest path.
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
  t = await startReferrerServer({ demo: true });
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
