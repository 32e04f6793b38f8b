// Today's partial day in the Dashboard's 'Analytics' table: a day still running is neither
// rank-coloured nor allowed to stretch the min/max the complete days are coloured against.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DailyTable, addDays, todayIn, type Api } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';
import { getJson, postZoneReport } from './reports-fixture.js';

let s: TestServer;
let admin: Api & { token: string };
// The test server reports in UTC (no ADOPS_TZ).
const today = todayIn('UTC');
const day = (n: number) => addDays(today, -n);

// Revenue 100, 60, 40 on the three complete days and 5 so far today (margin 30 % of it: default share 0.7).
const SEED = [
  [day(3), 100],
  [day(2), 60],
  [day(1), 40],
  [today, 5],
] as const;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.admin();
  const csv = [
    'date,advertiser,publisher,zone_id,geo,source,domain,impressions,monetized_impressions,clicks,revenue,rate_applied,p_revenue,margin,tq',
    ...SEED.map(([date, revenue]) => `${date},AdNova,PubA,Z-1,ES,search,a.com,1000,1000,10,${revenue},,,,0.5`),
  ].join('\n');
  const res = await postZoneReport(s, admin.token, csv);
  expect(res.status).toBe(200);
});
afterAll(() => s.close());

const table = async (query: Record<string, string>) =>
  DailyTable.parse((await getJson(s, admin.token, '/api/dashboard/table/aggregated', query)).body);

describe('Dashboard Analytics rank colours and today', () => {
  test('today is not ranked, and the complete days are ranked between their own min and max', async () => {
    const t = await table({ start_date: day(3), end_date: today });
    expect(t.rows.map((r) => r.date)).toEqual([day(3), day(2), day(1), today]);
    // Today's 5 would be the minimum and make yesterday's 40 look middling (level 2); among the
    // complete days (min 40, max 100) yesterday is the worst (0) and 60 is a third of the way (2).
    expect(t.rows.map((r) => r.rank.revenue)).toEqual([5, 2, 0, null]);
    expect(t.rows.map((r) => r.rank.margin)).toEqual([5, 2, 0, null]);
    expect(t.rows.map((r) => r.rank.p_revenue)).toEqual([5, 2, 0, null]);
    // Today's figures are still in the table and its totals.
    expect(t.rows[3].revenue).toBe(5);
    expect(t.totals.revenue).toBe(205);
  });

  test('a range that ends yesterday ranks as before; a range of today alone ranks nothing', async () => {
    const past = await table({ start_date: day(3), end_date: day(1) });
    expect(past.rows.map((r) => r.rank.revenue)).toEqual([5, 2, 0]);
    const onlyToday = await table({ start_date: today, end_date: today });
    expect(onlyToday.rows.map((r) => r.rank)).toEqual([{ revenue: null, p_revenue: null, margin: null }]);
  });

  test('sorting or paging does not change which day gets which colour', async () => {
    const sorted = await table({ start_date: day(3), end_date: today, sort: 'revenue:asc', page_size: '2' });
    expect(sorted.rows.map((r) => [r.date, r.rank.revenue])).toEqual([
      [today, null],
      [day(1), 0],
    ]);
  });
});
