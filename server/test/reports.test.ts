// Every report endpoint's numbers against the hand-worked fixture (see reports-fixture.ts),
// with filters and their combinations, ordering, limits and the derived metrics.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ZoneDetails,
  ZoneRow,
  SummaryResponse,
  DashboardOverview,
  DailyRow,
  AdvertiserRevenue,
  FinanceMarginRow,
  derive,
  type Api,
} from '@adops/core';
import { z } from 'zod';
import { startTestServer, type TestServer } from './helpers.js';
import { FIXTURE_CSV, RANGE, postZoneReport, getJson } from './reports-fixture.js';

let s: TestServer;
let admin: Api & { token: string };
const get = (path: string, query: Record<string, string | string[]> = {}) => getJson(s, admin.token, path, query);

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.admin();
  await admin.publishers.set({ name: 'PubA', revenue_share: 0.6 });
  const res = await postZoneReport(s, admin.token, FIXTURE_CSV);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ inserted: 6, replaced: 0, rejected: [], rejected_total: 0 });
});
afterAll(() => s.close());

const close = (actual: number | null | undefined, expected: number) => expect(actual).toBeCloseTo(expected, 9);

describe('Ad Report zone details', () => {
  test('rows in range, newest day first and by revenue within a day, with stored and derived values', async () => {
    const { status, body } = await get('/api/ad-report/zone-details', RANGE);
    expect(status).toBe(200);
    const d = ZoneDetails.parse(body);
    // R6 (2026-02-28) is outside the range. Order: 03-03 R5; 03-02 R4 (rev 2), R3 (rev 0); 03-01 R1 (10), R2 (4).
    expect(d.data.map((r) => r.zone_id)).toEqual(['Z-201', 'Z-300', 'Z-101', 'Z-100', 'Z-200']);
    expect(d.total_rows).toBe(5);
    expect(d.truncated).toBe(false);
    expect(d.geoOptions).toEqual(['ES', 'MX', 'US']);
    expect(d.sourceOptions).toEqual(['search', 'social']);

    const [r5, r4, r3, r1, r2] = d.data;
    // R1: PubA's configured share 0.6 → p_revenue 6, margin 4; CTR on monetized 20/800 = 2.5 %.
    expect(r1).toMatchObject({ date: '2026-03-01', advertiser: 'AdNova', publisher: 'PubA', geo: 'ES', source: 'search', domain: 'a.com' });
    expect(r1).toMatchObject({ impressions: 1000, monetized_impressions: 800, clicks: 20, revenue: 10, rate_applied: 0.6, tq: 0.8 });
    close(r1.p_revenue, 6);
    close(r1.margin, 4);
    close(r1.ctr, 2.5);
    close(r1.cpm, 10); // 10 / 1000 × 1000
    close(r1.cpc, 0.5); // 10 / 20
    close(r1.cost, 6); // 10 − 4
    close(r1.rs_percent, 40); // 4 / 10 × 100
    close(r1.p_cpm, 6); // 6 / 1000 × 1000
    close(r1.p_cpc, 0.3); // 6 / 20
    // R2: no share configured → default 0.7; no monetized impressions → CTR on impressions 10/2000 = 0.5 %; no tq.
    expect(r2).toMatchObject({ monetized_impressions: null, tq: null, rate_applied: 0.7 });
    close(r2.p_revenue, 2.8);
    close(r2.margin, 1.2);
    close(r2.ctr, 0.5);
    // R3: zero impressions → every ratio is null (never NaN or Infinity); RS% null as revenue is 0.
    expect(r3).toMatchObject({ impressions: 0, clicks: 0, revenue: 0, ctr: null, cpm: null, cpc: null, rs_percent: null, p_cpm: null, p_cpc: null });
    expect(r3.cost).toBe(0);
    // R4: p_revenue 3 given → margin 2 − 3 = −1, RS% −50, rate 1.5 derived.
    close(r4.margin, -1);
    close(r4.rs_percent, -50);
    close(r4.rate_applied!, 1.5);
    close(r4.cost, 3);
    // R5: rate 0.5 given → p 3, margin 3; CTR 45 / 1500 = 3 %.
    close(r5.p_revenue, 3);
    close(r5.ctr, 3);
  });

  test('derived metrics of every row equal core formulas', async () => {
    const d = ZoneDetails.parse((await get('/api/ad-report/zone-details', RANGE)).body);
    for (const row of d.data) {
      const expected = derive(row);
      for (const k of ['ctr', 'cpm', 'cpc', 'cost', 'rs_percent', 'margin_percent', 'p_cpm', 'p_cpc'] as const) {
        if (expected[k] === null) expect(row[k]).toBeNull();
        else close(row[k], expected[k]!);
      }
    }
  });

  test('totals are sums with ratios from the sums, TQ weighted by impressions over rows with tq', async () => {
    const { totals } = ZoneDetails.parse((await get('/api/ad-report/zone-details', RANGE)).body);
    // impressions 1000+2000+0+500+3000 = 6500; monetized 800+0+500+1500 = 2800; clicks 20+10+0+5+45 = 80
    expect(totals).toMatchObject({ impressions: 6500, monetized_impressions: 2800, clicks: 80 });
    close(totals.revenue, 22); // 10+4+0+2+6
    close(totals.p_revenue, 14.8); // 6+2.8+0+3+3
    close(totals.margin, 7.2); // 4+1.2+0−1+3
    // CTR base per row: 800, 2000 (no monetized), 0, 500, 1500 = 4800 → 80/4800×100
    close(totals.ctr, 80 / 48);
    close(totals.cpm, (22 / 6500) * 1000);
    close(totals.cpc, 22 / 80);
    close(totals.cost, 14.8);
    close(totals.rs_percent, (7.2 / 22) * 100);
    close(totals.p_cpm, (14.8 / 6500) * 1000);
    close(totals.p_cpc, 14.8 / 80);
    // TQ: (0.8×1000 + 0.2×500 + 0.9×3000) / (1000+500+3000) = 3600/4500; R2 has none, R3 no impressions.
    close(totals.tq, 0.8);
  });

  test.each([
    ['advertiser', { advertiser: 'AdNova' }, ['Z-201', 'Z-101', 'Z-100'], 16],
    ['publisher', { publisher: 'PubB' }, ['Z-201', 'Z-200'], 10],
    ['geo', { geo: 'MX' }, ['Z-201', 'Z-200'], 10],
    ['source', { source: 'search' }, ['Z-201', 'Z-300', 'Z-100'], 18],
    ['domain', { domain: 'b.com' }, ['Z-201', 'Z-200'], 10],
    ['zone id substring, any case', { zone_id: 'z-10' }, ['Z-101', 'Z-100'], 10],
    ['advertiser and publisher', { advertiser: 'AdNova', publisher: 'PubB' }, ['Z-201'], 6],
    ['geo and source', { geo: 'MX', source: 'social' }, ['Z-200'], 4],
    ['zone and advertiser', { zone_id: '2', advertiser: 'BidSphere' }, ['Z-200'], 4],
    ["'Todos' and empty mean no filter", { advertiser: 'Todos', publisher: '', geo: 'Todos' }, ['Z-201', 'Z-300', 'Z-101', 'Z-100', 'Z-200'], 22],
    ['a value nobody has', { advertiser: 'Nadie' }, [], 0],
    ['zone id with _ taken literally (no wildcard)', { zone_id: 'Z_1' }, [], 0],
    ['zone id with % taken literally (no wildcard)', { zone_id: '%' }, [], 0],
    ['zone id with a backslash', { zone_id: '\\' }, [], 0],
  ])('filter by %s', async (_name, filter, zones, revenue) => {
    const d = ZoneDetails.parse((await get('/api/ad-report/zone-details', { ...RANGE, ...filter })).body);
    expect(d.data.map((r) => r.zone_id)).toEqual(zones);
    expect(d.total_rows).toBe(zones.length);
    close(d.totals.revenue, revenue);
  });

  test('geo and source options ignore their own filter but follow the others', async () => {
    const byGeo = ZoneDetails.parse((await get('/api/ad-report/zone-details', { ...RANGE, geo: 'MX' })).body);
    expect(byGeo.geoOptions).toEqual(['ES', 'MX', 'US']);
    const byAdvertiser = ZoneDetails.parse((await get('/api/ad-report/zone-details', { ...RANGE, advertiser: 'Clickora' })).body);
    expect(byAdvertiser.geoOptions).toEqual(['US']);
    expect(byAdvertiser.sourceOptions).toEqual(['search']);
  });

  test('a limit cuts the rows but not the totals, and says so', async () => {
    const d = ZoneDetails.parse((await get('/api/ad-report/zone-details', { ...RANGE, limit: '2' })).body);
    expect(d.data.map((r) => r.zone_id)).toEqual(['Z-201', 'Z-300']);
    expect(d.truncated).toBe(true);
    expect(d.total_rows).toBe(5);
    close(d.totals.revenue, 22);
    // A limit that cuts inside an older day (3 rows = 03-03 plus both of 03-02).
    const three = ZoneDetails.parse((await get('/api/ad-report/zone-details', { ...RANGE, limit: '3' })).body);
    expect(three.data.map((r) => r.zone_id)).toEqual(['Z-201', 'Z-300', 'Z-101']);
  });

  test('a range with no data answers empty lists and zero totals', async () => {
    const d = ZoneDetails.parse((await get('/api/ad-report/zone-details', { start_date: '2025-01-01', end_date: '2025-01-31' })).body);
    expect(d).toMatchObject({ data: [], geoOptions: [], sourceOptions: [], total_rows: 0, truncated: false });
    expect(d.totals).toMatchObject({ revenue: 0, impressions: 0, ctr: null, tq: null, rs_percent: null });
  });
});

describe('Api Explorer', () => {
  test('answers the same rows as zone-details as a plain list', async () => {
    const { body } = await get('/api/ad-report', RANGE);
    const rows = z.array(ZoneRow).parse(body);
    expect(rows.map((r) => r.zone_id)).toEqual(['Z-201', 'Z-300', 'Z-101', 'Z-100', 'Z-200']);
    const zoneDetails = ZoneDetails.parse((await get('/api/ad-report/zone-details', RANGE)).body);
    expect(rows).toEqual(zoneDetails.data);
  });

  test('filters by advertiser and honours the limit', async () => {
    const rows = z.array(ZoneRow).parse((await get('/api/ad-report', { ...RANGE, advertiser: 'AdNova', limit: '1' })).body);
    expect(rows.map((r) => r.zone_id)).toEqual(['Z-201']);
  });
});

describe('Ad Report summaries', () => {
  test('publisher summary: one row per date × publisher, date desc then revenue desc', async () => {
    const { data } = SummaryResponse.parse((await get('/api/ad-report/publisher-summary', RANGE)).body);
    expect(data.map((r) => [r.date, r.publisher])).toEqual([
      ['2026-03-03', 'PubB'],
      ['2026-03-02', 'PubC'],
      ['2026-03-02', 'PubA'],
      ['2026-03-01', 'PubA'],
      ['2026-03-01', 'PubB'],
    ]);
    expect(data.every((r) => r.advertiser === undefined)).toBe(true);
    const pubC = data[1];
    close(pubC.margin, -1);
    close(pubC.rs_percent, -50);
    const pubA0301 = data[3];
    expect(pubA0301).toMatchObject({ impressions: 1000, clicks: 20, revenue: 10, tq: 0.8 });
    close(pubA0301.ctr, 2.5);
    // PubA on 03-02 is R3 alone: zero impressions, so no ratios and no TQ.
    expect(data[2]).toMatchObject({ impressions: 0, ctr: null, cpm: null, tq: null });
  });

  test('advertiser summary: one row per date × advertiser, filters apply', async () => {
    const { data } = SummaryResponse.parse((await get('/api/ad-report/advertiser-summary', RANGE)).body);
    expect(data.map((r) => [r.date, r.advertiser])).toEqual([
      ['2026-03-03', 'AdNova'],
      ['2026-03-02', 'Clickora'],
      ['2026-03-02', 'AdNova'],
      ['2026-03-01', 'AdNova'],
      ['2026-03-01', 'BidSphere'],
    ]);
    const filtered = SummaryResponse.parse((await get('/api/ad-report/advertiser-summary', { ...RANGE, publisher: 'PubB' })).body);
    expect(filtered.data.map((r) => [r.date, r.advertiser, r.revenue])).toEqual([
      ['2026-03-03', 'AdNova', 6],
      ['2026-03-01', 'BidSphere', 4],
    ]);
  });
});

describe('Dashboard', () => {
  test('overview: summary from sums (CTR on impressions) and one chart point per day', async () => {
    const o = DashboardOverview.parse((await get('/api/dashboard/overview', RANGE)).body);
    expect(o.summary).toMatchObject({ impressions: 6500, clicks: 80 });
    close(o.summary.revenue, 22);
    close(o.summary.margin, 7.2);
    close(o.summary.ctr, (80 / 6500) * 100); // Dashboard CTR: clicks / impressions
    close(o.summary.tq, 0.8);
    expect(o.chart.map((p) => p.date)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
    // 03-01: R1+R2 → revenue 14, margin 5.2, impressions 3000, clicks 30, tq 800/1000 (R2 has no tq)
    expect(o.chart[0]).toMatchObject({ impressions: 3000, clicks: 30, revenue: 14 });
    close(o.chart[0].margin, 5.2);
    close(o.chart[0].tq!, 0.8);
    // 03-02: R3+R4 → revenue 2, margin −1, tq 100/500 = 0.2 (R3 has no impressions)
    close(o.chart[1].margin, -1);
    close(o.chart[1].tq!, 0.2);
  });

  test('overview chart is zero-filled for days without data; the day outside is counted when in range', async () => {
    const o = DashboardOverview.parse((await get('/api/dashboard/overview', { start_date: '2026-02-27', end_date: '2026-03-01' })).body);
    expect(o.chart).toEqual([
      { date: '2026-02-27', revenue: 0, margin: 0, tq: null, clicks: 0, impressions: 0 },
      expect.objectContaining({ date: '2026-02-28', revenue: 99, impressions: 9999, clicks: 99, tq: 0.1 }),
      expect.objectContaining({ date: '2026-03-01', revenue: 14 }),
    ]);
    close(o.summary.revenue, 113);
  });

  test('overview follows advertiser, publisher and zone filters', async () => {
    const o = DashboardOverview.parse((await get('/api/dashboard/overview', { ...RANGE, advertiser: 'AdNova', zone_id: 'Z-10' })).body);
    // R1 + R3: revenue 10, impressions 1000, clicks 20, tq 0.8 (R3 no impressions)
    expect(o.summary).toMatchObject({ revenue: 10, impressions: 1000, clicks: 20 });
    close(o.summary.tq, 0.8);
    const none = DashboardOverview.parse((await get('/api/dashboard/overview', { ...RANGE, publisher: 'PubC', advertiser: 'AdNova' })).body);
    expect(none.summary).toEqual({ revenue: 0, margin: 0, impressions: 0, clicks: 0, ctr: null, tq: null });
  });

  test('table/aggregated: one row per day with data, with ratios from the day sums', async () => {
    const rows = z.array(DailyRow).parse((await get('/api/dashboard/table/aggregated', { start_date: '2026-02-27', end_date: '2026-03-03' })).body);
    expect(rows.map((r) => r.date)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02', '2026-03-03']);
    const [, d1, d2, d3] = rows;
    expect(d1).toMatchObject({ impressions: 3000, monetized_impressions: 800, clicks: 30, revenue: 14 });
    close(d1.ctr, 1); // 30 / 3000 × 100 (Dashboard CTR on impressions)
    close(d1.cpm, (14 / 3000) * 1000);
    close(d1.cost, 14 - 5.2);
    close(d1.margin_percent, (5.2 / 14) * 100);
    close(d2.margin_percent, -50);
    close(d3.ctr, 1.5); // 45 / 3000 × 100
    close(d3.tq!, 0.9);
  });

  test('raw options list every advertiser, publisher, geo and source stored', async () => {
    const { body } = await get('/api/dashboard/raw-options');
    expect(body).toEqual({
      advertisers: ['AdNova', 'BidSphere', 'Clickora'],
      publishers: ['PubA', 'PubB', 'PubC'],
      geoOptions: ['ES', 'MX', 'US'],
      sourceOptions: ['search', 'social'],
    });
  });
});

describe('Demand', () => {
  test('advertiser → a point per day, zero-filled, advertisers by revenue', async () => {
    const body = AdvertiserRevenue.parse((await get('/api/demand/advertiser-revenue', RANGE)).body);
    expect(Object.keys(body)).toEqual(['AdNova', 'BidSphere', 'Clickora']);
    expect(body.AdNova.map((p) => [p.date, p.revenue])).toEqual([
      ['2026-03-01', 10],
      ['2026-03-02', 0],
      ['2026-03-03', 6],
    ]);
    close(body.AdNova[0].margin, 4);
    close(body.AdNova[2].margin, 3);
    expect(body.Clickora.map((p) => p.revenue)).toEqual([0, 2, 0]);
    close(body.Clickora[1].margin, -1);
    const filtered = AdvertiserRevenue.parse((await get('/api/demand/advertiser-revenue', { ...RANGE, publisher: 'PubA' })).body);
    expect(Object.keys(filtered)).toEqual(['AdNova']);
  });
});

describe('Finance', () => {
  const FEB_MAR = { start_date: '2026-02-01', end_date: '2026-03-31' };

  test('advertisers: a column per month, zero-filled, by total revenue', async () => {
    const { body } = await get('/api/finance/advertisers', FEB_MAR);
    // AdNova: Feb R6 99, Mar R1+R3+R5 = 16; BidSphere Mar 4; Clickora Mar 2.
    expect(body).toEqual([
      { advertiser: 'AdNova', '2026-02': 99, '2026-03': 16 },
      { advertiser: 'BidSphere', '2026-02': 0, '2026-03': 4 },
      { advertiser: 'Clickora', '2026-02': 0, '2026-03': 2 },
    ]);
  });

  test('publishers: a column per month, filtered by domain', async () => {
    expect((await get('/api/finance/publishers', FEB_MAR)).body).toEqual([
      { publisher: 'PubA', '2026-02': 99, '2026-03': 10 },
      { publisher: 'PubB', '2026-02': 0, '2026-03': 10 },
      { publisher: 'PubC', '2026-02': 0, '2026-03': 2 },
    ]);
    expect((await get('/api/finance/publishers', { ...FEB_MAR, domain: 'b.com' })).body).toEqual([
      { publisher: 'PubB', '2026-02': 0, '2026-03': 10 },
    ]);
  });

  test('margin: one Total row, or the chosen domain, by month and in total', async () => {
    const [total] = z.array(FinanceMarginRow).parse((await get('/api/finance/margin', FEB_MAR)).body);
    expect(total.segment).toBe('Total');
    close(total.by_month['2026-02'], 39.6); // R6: 99 − 59.4
    close(total.by_month['2026-03'], 7.2);
    close(total['2026-03'] as number, 7.2);
    close(total.total, 46.8);
    const { body } = await get('/api/finance/margin', { ...FEB_MAR, domain: 'a.com' });
    expect(body).toHaveLength(1);
    expect(body[0].segment).toBe('a.com');
    close(body[0].by_month['2026-03'], 4); // R1 4 + R3 0
    close(body[0].total, 43.6);
  });

  test('domains for the Finance filter', async () => {
    expect((await get('/api/dev1/dashboard/filters')).body).toEqual({ domains: ['a.com', 'b.com', 'c.com'] });
  });
});
