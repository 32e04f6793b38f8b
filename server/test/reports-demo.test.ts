// Demo zone reports: loaded on start when demo is on and the table is empty, through the
// ingest path; deterministic, 90 days ending today, and shaped like real traffic.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addDays, todayIn, FIXED_ADVERTISERS, DashboardOverview, SummaryTable, type Api } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';
import { getJson, postZoneReport } from './reports-fixture.js';
import { demoZoneReportItems, loadDemoZoneReports, DEMO_LOSS_PUBLISHER_SHARE } from '../src/sandbox/demo/zone-reports.js';

let s: TestServer;
let admin: Api & { token: string };
let today: string;
const get = (path: string, query: Record<string, string> = {}) => getJson(s, admin.token, path, query);
/** Every stored zone-report row of the demo's 90 days (and a little more), through the warehouse. */
async function storedRows(t: TestServer = s) {
  const rows = [];
  const filters = { start_date: addDays(today, -120), end_date: addDays(today, 1) };
  for await (const chunk of t.app.services.warehouse.zoneReports.streamRows({ filters, order: [] })) rows.push(...chunk);
  return rows;
}
/** The demo's rows as loaded at start, read once for the tests that only look at them (~180,000 rows). */
let loadedRows: ReturnType<typeof storedRows> | undefined;
const demoRows = () => (loadedRows ??= storedRows());

beforeAll(async () => {
  s = await startTestServer({ demo: true, tz: 'America/Mexico_City' });
  admin = await s.admin();
  today = todayIn('America/Mexico_City');
}, 60_000);
afterAll(() => s.close());

describe('demo zone reports', () => {
  test('three fixed advertisers, about 40 publishers with revenue shares, about 2,000 zones', async () => {
    const options = (await get('/api/dashboard/raw-options')).body;
    expect(options.advertisers).toEqual([...FIXED_ADVERTISERS]);
    expect(options.publishers).toHaveLength(40);
    expect(options.geoOptions.length).toBeGreaterThanOrEqual(8);
    expect(options.sourceOptions.length).toBeGreaterThanOrEqual(5);
    expect((await get('/api/dev1/dashboard/filters')).body.domains.length).toBeGreaterThanOrEqual(40);
    const shares = await admin.publishers.list();
    expect(shares).toHaveLength(40);
    expect(shares.every((p) => p.configured)).toBe(true);
    expect(shares.filter((p) => p.revenue_share > 1).map((p) => p.revenue_share)).toEqual([DEMO_LOSS_PUBLISHER_SHARE]);
    const zones = new Set((await demoRows()).map((r) => r.zone_id)).size;
    expect(zones).toBeGreaterThan(1800);
    expect(zones).toBeLessThanOrEqual(2000);
  });

  test('90 days ending today in the reporting time zone, every day with data', async () => {
    const o = DashboardOverview.parse((await get('/api/dashboard/overview', { start_date: addDays(today, -90), end_date: today })).body);
    expect(o.chart).toHaveLength(91);
    expect(o.chart[0].revenue).toBe(0); // the day before the 90
    expect(o.chart.slice(1).every((p) => p.revenue > 0 && p.impressions > 0)).toBe(true);
    expect(o.summary.tq).toBeGreaterThan(0.5);
    expect(o.summary.tq).toBeLessThan(1);
  });

  test('a weekly cycle: weekends earn less than midweek', async () => {
    const o = DashboardOverview.parse((await get('/api/dashboard/overview', { start_date: addDays(today, -84), end_date: addDays(today, -1) })).body);
    const byWeekday = new Map<number, number[]>();
    for (const p of o.chart) {
      const wd = new Date(`${p.date}T00:00:00Z`).getUTCDay();
      byWeekday.set(wd, [...(byWeekday.get(wd) ?? []), p.revenue]);
    }
    const mean = (wd: number) => byWeekday.get(wd)!.reduce((a, b) => a + b, 0) / byWeekday.get(wd)!.length;
    expect(mean(6)).toBeLessThan(mean(2) * 0.9); // Saturday vs Tuesday
    expect(mean(0)).toBeLessThan(mean(3) * 0.9); // Sunday vs Wednesday
  });

  test('realistic blemishes: zero-impression rows, missing tq, low-quality zones, a publisher losing money', async () => {
    const rows = await demoRows();
    expect(rows.filter((r) => r.impressions === 0).length).toBeGreaterThan(100);
    expect(rows.filter((r) => r.tq === null).length).toBeGreaterThan(1000);
    expect(new Set(rows.filter((r) => r.tq !== null && r.tq < 0.35).map((r) => r.zone_id)).size).toBeGreaterThan(10);
    const summary = SummaryTable.parse(
      (
        await get('/api/ad-report/publisher-summary', {
          start_date: addDays(today, -7),
          end_date: addDays(today, -1),
          sort: 'margin:asc',
          page_size: '500',
        })
      ).body,
    );
    const losing = new Set(summary.rows.filter((r) => r.margin < 0).map((r) => r.publisher));
    expect(losing.size).toBe(1);
  });

  test('the same `now` always gives the same rows', () => {
    const now = new Date('2026-03-15T12:00:00Z');
    const a = [...demoZoneReportItems('UTC', { now, zones: 50, days: 5 })];
    const b = [...demoZoneReportItems('UTC', { now, zones: 50, days: 5 })];
    expect(a.length).toBeGreaterThan(50);
    expect(b).toEqual(a);
    expect(a[0]).toMatchObject({ line: 1, values: { date: '2026-03-11' } });
  });

  test('loading again (adops seed) replaces the same keys instead of duplicating them', async () => {
    const before = await s.app.services.warehouse.zoneReports.countRows();
    const pastRange = { start_date: addDays(today, -89), end_date: addDays(today, -1) };
    const revenueBefore = DashboardOverview.parse((await get('/api/dashboard/overview', pastRange)).body).summary.revenue;
    const result = await loadDemoZoneReports(s.app.services);
    expect(result.rejected).toEqual([]);
    expect(result.replaced).toBe(before);
    expect(await s.app.services.warehouse.zoneReports.countRows()).toBe(before);
    const revenueAfter = DashboardOverview.parse((await get('/api/dashboard/overview', pastRange)).body).summary.revenue;
    expect(revenueAfter).toBeCloseTo(revenueBefore, 6);
  }, 30_000);

  test('not loaded when demo is off or the table already has rows', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'adops-demo-'));
    try {
      const off = await startTestServer({ demo: false }, dir);
      expect(await off.app.services.warehouse.zoneReports.countRows()).toBe(0);
      const csv = 'date,advertiser,publisher,zone_id,impressions,clicks,revenue\n2026-01-01,Mine,Mine,M-1,1,1,1\n';
      expect((await postZoneReport(off, (await off.admin()).token, csv)).status).toBe(200);
      await off.close();
      const on = await startTestServer({ demo: true }, dir);
      expect(await on.app.services.warehouse.zoneReports.countRows()).toBe(1);
      await on.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
