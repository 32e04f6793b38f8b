// 'Valor': each visit in the log and on the live stream carries what it is worth — its zone's
// revenue per human visit that day (RPV) and the zone's TQ — by the profit query's rule: a day
// whose zone report has not arrived, or is partial (today's, imported while the day runs), takes
// the zone's trailing 7 reported days.
//
// Fixture (UTC days; D0 two days ago, D1 yesterday, today without a report):
//   zone | day | human visits | zone revenue      | impressions × TQ              | RPV              | TQ
//   Z1   | D0  | 10           | 15                | 500 × 0.9                     | 15 / 10 = 1.50   | 0.90
//   Z1   | D1  | 40           | 20 + 10 = 30      | 1000 × 0.8 + 500 × 0.5        | 30 / 40 = 0.75   | 1050 / 1500 = 0.70
//   Z2   | D1  | 24           | 12                | 600 × 0.6                     | 12 / 24 = 0.50   | 0.60
//   Z1   | today (estimado)   | trailing: (15 + 30) / (10 + 40)                   | = 0.90           | (450 + 1050) / 2000 = 0.75
//   Z2   | today (estimado)   | trailing: 12 / 24                                 | = 0.50           | 0.60
//   Z9   | today              | no reported day to go by: unknown                 | null (profit: 0) | null
// A flagged (bot) visit is worth 0 (the rule leaves it out of every revenue); it keeps its zone's TQ.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EventSource } from 'eventsource';
import { buildRequest, contract, type ReferrerLogRecord } from '@adops/core';
import type { TestServer } from './helpers.js';
import { daysAgo, postBatch, startReferrerServer } from './referrers-fixture.js';
import { event } from './warehouse-contract.js';

let t: TestServer;
let token: string;
const D0 = daysAgo(2).slice(0, 10);
const D1 = daysAgo(1).slice(0, 10);

const zoneRow = (date: string, zone_id: string, revenue: number, impressions: number, tq: number, advertiser = 'AdNova') => ({
  date,
  zone_id,
  advertiser,
  publisher: 'Pub V',
  geo: 'ES',
  source: 'web',
  domain: 'example.com',
  impressions,
  clicks: 0,
  revenue,
  p_revenue: revenue * 0.7,
  tq,
});

const visits = (n: number, zone_id: string, day: number) =>
  Array.from({ length: n }, (_, i) => ({ zone_id, seen_at: daysAgo(day, 10, i % 60), referrer: `https://r${i % 3}.example.com/` }));

beforeAll(async () => {
  t = await startReferrerServer();
  token = (await t.admin()).token;
  const rows = [
    zoneRow(D0, 'Z1', 15, 500, 0.9),
    zoneRow(D1, 'Z1', 20, 1000, 0.8),
    zoneRow(D1, 'Z1', 10, 500, 0.5, 'BidSphere'),
    zoneRow(D1, 'Z2', 12, 600, 0.6),
  ];
  const result = await t.app.services.ingest.ingest(rows.map((values, i) => ({ line: i + 1, values })));
  expect(result.rejected_total).toBe(0);
  const res = await postBatch(t, [...visits(10, 'Z1', 2), ...visits(40, 'Z1', 1), ...visits(24, 'Z2', 1)]);
  expect(res.status).toBe(200);
  // One flagged visit yesterday on Z1 (stored as the classifier would store it).
  await t.app.services.warehouse.referrers.append([
    event(9_000_001, Date.parse(daysAgo(1, 12)), { zone_id: 'Z1', is_bot: true, reason: 'user_agent' }),
  ]);
});
afterAll(() => t.close());

const logs = async (q: Record<string, unknown>) => (await (await t.admin()).referrers.logs({ page_size: 500, ...q })).rows;

describe('the log rows carry value and tq', () => {
  test('a reported day: the zone’s revenue ÷ its human visits that day, and its impression-weighted TQ', async () => {
    const rows = await logs({ startDate: D1, endDate: D1 });
    expect(rows).toHaveLength(64);
    for (const r of rows.filter((x) => x.zone_id === 'Z1')) {
      expect(r.value).toBeCloseTo(0.75, 9);
      expect(r.tq).toBeCloseTo(0.7, 9);
    }
    for (const r of rows.filter((x) => x.zone_id === 'Z2')) {
      expect(r.value).toBeCloseTo(0.5, 9);
      expect(r.tq).toBeCloseTo(0.6, 9);
    }
    const older = await logs({ startDate: D0, endDate: D0 });
    expect(older.map((r) => [r.value, r.tq])).toEqual(Array(10).fill([1.5, 0.9]));
  });

  test('a flagged visit is worth 0 and keeps its zone’s TQ', async () => {
    const rows = await logs({ startDate: D1, endDate: D1, include_bots: true });
    const bot = rows.find((r) => r.is_bot)!;
    expect(bot).toMatchObject({ zone_id: 'Z1', value: 0 });
    expect(bot.tq).toBeCloseTo(0.7, 9);
  });
});

describe('today, before its zone report: the trailing 7 reported days', () => {
  let es: EventSource;
  const received: ReferrerLogRecord[] = [];

  beforeAll(async () => {
    const url = buildRequest(contract.referrers.stream, { access_token: token }, t.url).url;
    es = new EventSource(url);
    es.addEventListener('message', (m) => received.push(JSON.parse(m.data) as ReferrerLogRecord));
    await new Promise<void>((resolve, reject) => {
      es.addEventListener('open', () => resolve(), { once: true });
      setTimeout(() => reject(new Error('stream did not open')), 5000);
    });
  });
  afterAll(() => es.close());

  test('live events (beacon hits) and the polled log rows carry the same estimated value', async () => {
    for (const zone of ['Z1', 'Z2', 'Z9']) expect((await t.fetch(`/api/hit?zone_id=${zone}&ref=https://live.example.com/`)).status).toBe(204);
    const until = Date.now() + 5000;
    while (received.length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const live = Object.fromEntries(received.map((r) => [r.zone_id, r]));
    expect(live.Z1.value).toBeCloseTo(0.9, 9);
    expect(live.Z1.tq).toBeCloseTo(0.75, 9);
    expect(live.Z2.value).toBeCloseTo(0.5, 9);
    expect(live.Z2.tq).toBeCloseTo(0.6, 9);
    expect(live.Z9).toMatchObject({ value: null, tq: null });
    // Polling (the fallback when SSE is not available) reads the same values from the log.
    const today = daysAgo(0).slice(0, 10);
    const polled = Object.fromEntries((await logs({ startDate: today, endDate: today })).map((r) => [r.zone_id, r]));
    for (const zone of ['Z1', 'Z2', 'Z9']) expect([polled[zone].value, polled[zone].tq]).toEqual([live[zone].value, live[zone].tq]);
  });

  test('an import of the day’s zone report while the day runs is partial and keeps the estimate; marked final, the day’s own RPV replaces it', async () => {
    const today = daysAgo(0).slice(0, 10);
    const partial = await t.app.services.ingest.ingest([{ line: 1, values: zoneRow(today, 'Z1', 4, 100, 0.4) }]);
    expect(partial).toMatchObject({ rejected_total: 0, days: [{ date: today, report: 'partial' }] });
    const z1 = async () => (await logs({ startDate: today, endDate: today })).filter((r) => r.zone_id === 'Z1').map((r) => [r.value, r.tq]);
    // Still the trailing RPV and TQ: a report loaded early would otherwise fall as visits come in.
    const [[value, tq]] = await z1();
    expect(value).toBeCloseTo(0.9, 9);
    expect(tq).toBeCloseTo(0.75, 9);
    const final = await t.app.services.ingest.ingest([{ line: 1, values: zoneRow(today, 'Z1', 4, 100, 0.4) }], { report: 'final' });
    expect(final.days).toEqual([{ date: today, report: 'final' }]);
    // One human visit today on Z1 (the beacon hit above) earned the whole 4.
    expect(await z1()).toEqual([[4, 0.4]]);
  });
});
