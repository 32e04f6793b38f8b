// The Dashboard, Demand, Finance and Api Explorer cards against the hand-worked fixture (see
// reports-fixture.ts): summaries from sums, one CTR, deltas, top lists, exact amounts rounded once
// where shown. The Ad Report's and Api Explorer's pages are in reports.test.ts.
import { beforeAll, describe, expect, test } from 'vitest';
import {
  ZoneDetails,
  DashboardOverview,
  DailyTable,
  AdvertiserRevenue,
  FinanceAdvertiserTable,
  FinancePublisherTable,
  FinanceMarginRow,
  RevenueCards,
  addDays,
  formatMoney,
  jsonNumber,
  startOfMonth,
  todayIn,
  type Api,
} from '@adops/core';
import { z } from 'zod';
import type { TestServer } from './helpers.js';
import { RANGE, fixtureServer, postZoneReport, getJson } from './reports-fixture.js';

let s: TestServer;
let admin: Api & { token: string };
const get = (path: string, query: Record<string, string | string[]> = {}) => getJson(s, admin.token, path, query);

const fixture = fixtureServer();
beforeAll(() => {
  s = fixture.server;
  admin = fixture.admin;
});

/** A figure of a JSON answer: the expected value as JSON carries it (4 decimals at most). */
const close = (actual: number | null | undefined, expected: number) => expect(actual).toBe(jsonNumber(expected));

describe('Dashboard', () => {
  test('overview: summary from sums (the one CTR, as the Ad Report’s) and one chart point per day', async () => {
    const o = DashboardOverview.parse((await get('/api/dashboard/overview', RANGE)).body);
    expect(o.summary).toMatchObject({ impressions: 6500, clicks: 80 });
    close(o.summary.revenue, 22);
    close(o.summary.margin, 7.2);
    // One CTR on every screen: clicks over monetized impressions (impressions on rows without them), 80 / 4800.
    close(o.summary.ctr, (80 / 4800) * 100);
    const adReport = ZoneDetails.parse((await get('/api/ad-report/zone-details', RANGE)).body);
    expect(o.summary.ctr).toBe(adReport.totals.ctr);
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

  test('table/aggregated: one row per day with data, ratios from the day sums, Totales from every day', async () => {
    const range = { start_date: '2026-02-27', end_date: '2026-03-03' };
    const t = DailyTable.parse((await get('/api/dashboard/table/aggregated', range)).body);
    expect(t.rows.map((r) => r.date)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02', '2026-03-03']);
    expect(t).toMatchObject({ total_rows: 4, page: 1, page_size: 10, page_count: 1, sort: null });
    const [, d1, d2, d3] = t.rows;
    expect(d1).toMatchObject({ impressions: 3000, monetized_impressions: 800, clicks: 30, revenue: 14 });
    close(d1.ctr, (30 / 2800) * 100); // R1 20 clicks on 800 monetized, R2 10 on 2000 impressions (none monetized)
    close(d1.cpm, (14 / 3000) * 1000);
    close(d1.p_revenue, 14 - 5.2);
    close(d1.rs_percent, (5.2 / 14) * 100); // the Dashboard's 'Marg %'
    close(d2.rs_percent, -50);
    close(d3.ctr, 3); // 45 / 1500 monetized × 100
    close(d3.tq!, 0.9);
    // Totales: 121 revenue over the four days; its TQ is the TQ Avg card's, its CTR the CTR% card's.
    const overview = DashboardOverview.parse((await get('/api/dashboard/overview', range)).body);
    close(t.totals.revenue, 121);
    expect(t.totals.tq).toBe(overview.summary.tq);
    expect(t.totals.ctr).toBe(overview.summary.ctr);
  });

  test('table/aggregated ranks revenue, P.Revenue and margin of each day between the range’s min and max', async () => {
    const t = DailyTable.parse(
      (await get('/api/dashboard/table/aggregated', { start_date: '2026-02-27', end_date: '2026-03-03', page_size: '1' })).body,
    );
    // Revenue: 02-28 99 (max) → 5; the page holds one day but the ranking covers the four.
    expect(t.rows[0].rank.revenue).toBe(5);
    const all = DailyTable.parse((await get('/api/dashboard/table/aggregated', { start_date: '2026-02-27', end_date: '2026-03-03' })).body);
    // revenue 99, 14, 2, 6: (14−2)/97 = 0.12 → 1; 2 is the min → 0; (6−2)/97 = 0.04 → 0
    expect(all.rows.map((r) => r.rank.revenue)).toEqual([5, 1, 0, 0]);
    // margin 39.6, 5.2, −1, 3: (5.2+1)/40.6 = 0.15 → 1; −1 → 0; (3+1)/40.6 = 0.098 → 0
    expect(all.rows.map((r) => r.rank.margin)).toEqual([5, 1, 0, 0]);
  });

  test('table/aggregated sorts and pages on the server', async () => {
    const t = DailyTable.parse(
      (
        await get('/api/dashboard/table/aggregated', {
          start_date: '2026-02-27',
          end_date: '2026-03-03',
          sort: 'revenue:desc',
          page_size: '2',
          page: '2',
        })
      ).body,
    );
    expect(t.rows.map((r) => r.date)).toEqual(['2026-03-03', '2026-03-02']);
    expect(t).toMatchObject({ page: 2, page_count: 2, total_rows: 4, sort: { key: 'revenue', dir: 'desc' } });
    close(t.totals.revenue, 121);
  });

  test('table/aggregated format=csv is resumen_diario.csv with every day', async () => {
    const res = await s.fetch(
      `/api/dashboard/table/aggregated?${new URLSearchParams({ start_date: '2026-02-27', end_date: '2026-03-03', format: 'csv', page_size: '1' })}`,
      {
        headers: { authorization: `Bearer ${admin.token}` },
      },
    );
    expect(res.headers.get('content-disposition')).toContain('resumen_diario.csv');
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toBe('Date,Impr.,M. Impr.,Clicks,CTR%,CPM,CPC,Rev,P.Revenue,Marg.,Marg %,TQ');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['2026-02-28', '2026-03-01', '2026-03-02', '2026-03-03']);
    expect(lines[2]).toBe('2026-03-01,3000,800,30,1.07,4.67,0.47,14,8.8,5.2,37.14,0.8');
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
    const { advertisers: body } = AdvertiserRevenue.parse((await get('/api/demand/advertiser-revenue', RANGE)).body);
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
    expect(Object.keys(filtered.advertisers)).toEqual(['AdNova']);
  });

  test('each advertiser’s card totals come from the server, to the cent, and follow the filters', async () => {
    const { totals } = AdvertiserRevenue.parse((await get('/api/demand/advertiser-revenue', RANGE)).body);
    // AdNova R1 + R3 + R5: revenue 10 + 0 + 6, margin 4 + 0 + 3; BidSphere R2: margin 4 − 2.8 (1.2000000000000002 summed) → 1.2;
    // Clickora R4: a loss of 1.
    expect(totals).toEqual({
      AdNova: { revenue: 16, margin: 7 },
      BidSphere: { revenue: 4, margin: 1.2 },
      Clickora: { revenue: 2, margin: -1 },
    });
    expect(Object.keys(totals)).toEqual(['AdNova', 'BidSphere', 'Clickora']);
    // Publisher PubB: only R2 (BidSphere) and R5 (AdNova); AdNova's card no longer holds R1.
    const pubB = AdvertiserRevenue.parse((await get('/api/demand/advertiser-revenue', { ...RANGE, publisher: 'PubB' })).body);
    expect(pubB.totals).toEqual({ AdNova: { revenue: 6, margin: 3 }, BidSphere: { revenue: 4, margin: 1.2 } });
    const none = AdvertiserRevenue.parse((await get('/api/demand/advertiser-revenue', { start_date: '2024-01-01', end_date: '2024-01-31' })).body);
    expect(none).toEqual({ advertisers: {}, totals: {} });
  });

  test('format=csv downloads every advertiser’s day with SPEC’s labels, in the charts’ order', async () => {
    const res = await s.fetch(`/api/demand/advertiser-revenue?${new URLSearchParams({ ...RANGE, format: 'csv' })}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain('demand_2026-03-01_to_2026-03-03.csv');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8').trimEnd().split('\n')).toEqual([
      'Advertiser,Date,Revenue,Margin',
      'AdNova,2026-03-01,10,4',
      'AdNova,2026-03-02,0,0',
      'AdNova,2026-03-03,6,3',
      'BidSphere,2026-03-01,4,1.2',
      'BidSphere,2026-03-02,0,0',
      'BidSphere,2026-03-03,0,0',
      'Clickora,2026-03-01,0,0',
      'Clickora,2026-03-02,2,-1',
      'Clickora,2026-03-03,0,0',
    ]);
    // The filters apply to the file as to the charts.
    const filtered = await s.fetch(`/api/demand/advertiser-revenue?${new URLSearchParams({ ...RANGE, advertiser: 'Clickora', format: 'csv' })}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect((await filtered.text()).trimEnd().split('\n')).toEqual([
      'Advertiser,Date,Revenue,Margin',
      'Clickora,2026-03-01,0,0',
      'Clickora,2026-03-02,2,-1',
      'Clickora,2026-03-03,0,0',
    ]);
  });

  test.each([
    [{ format: 'xlsx' }, /^Formato: debe ser json, csv o ndjson$/],
    [{ start_date: '2026-03-04' }, /La fecha de inicio debe ser anterior o igual a la de fin/],
    [{ end_date: '03/03/2026' }, /debe ser una fecha AAAA-MM-DD/],
  ])('answers %j with 400 {detail} in Spanish', async (query, detail) => {
    const { status, body } = await get('/api/demand/advertiser-revenue', { ...RANGE, ...query });
    expect(status).toBe(400);
    expect(body.detail).toMatch(detail);
  });

  test('a CSV download without a session is refused with 401', async () => {
    const res = await s.fetch(`/api/demand/advertiser-revenue?${new URLSearchParams({ ...RANGE, format: 'csv' })}`);
    expect(res.status).toBe(401);
    expect((await res.json()).detail).toBeTruthy();
  });
});

describe('Finance', () => {
  const FEB_MAR = { start_date: '2026-02-01', end_date: '2026-03-31' };

  test('advertisers: a column per month, zero-filled, by total revenue, with the TOTAL row', async () => {
    const t = FinanceAdvertiserTable.parse((await get('/api/finance/advertisers', FEB_MAR)).body);
    // AdNova: Feb R6 99, Mar R1+R3+R5 = 16; BidSphere Mar 4; Clickora Mar 2.
    expect(t.months).toEqual(['2026-02', '2026-03']);
    expect(t.rows).toEqual([
      { advertiser: 'AdNova', '2026-02': 99, '2026-03': 16, total: 115 },
      { advertiser: 'BidSphere', '2026-02': 0, '2026-03': 4, total: 4 },
      { advertiser: 'Clickora', '2026-02': 0, '2026-03': 2, total: 2 },
    ]);
    expect(t.totals).toEqual({ '2026-02': 99, '2026-03': 22, total: 121 });
    expect(t).toMatchObject({ total_rows: 3, page: 1, page_count: 1, sort: null });
  });

  test('publishers: a column per month, filtered by domain, the same TOTAL row as the advertisers', async () => {
    const t = FinancePublisherTable.parse((await get('/api/finance/publishers', FEB_MAR)).body);
    expect(t.rows).toEqual([
      { publisher: 'PubA', '2026-02': 99, '2026-03': 10, total: 109 },
      { publisher: 'PubB', '2026-02': 0, '2026-03': 10, total: 10 },
      { publisher: 'PubC', '2026-02': 0, '2026-03': 2, total: 2 },
    ]);
    const advertisers = FinanceAdvertiserTable.parse((await get('/api/finance/advertisers', FEB_MAR)).body);
    expect(t.totals).toEqual(advertisers.totals);
    const byDomain = FinancePublisherTable.parse((await get('/api/finance/publishers', { ...FEB_MAR, domain: 'b.com' })).body);
    expect(byDomain.rows).toEqual([{ publisher: 'PubB', '2026-02': 0, '2026-03': 10, total: 10 }]);
  });

  test('finance tables sort by name, a month or the total, and page', async () => {
    const byMonth = FinancePublisherTable.parse((await get('/api/finance/publishers', { ...FEB_MAR, sort: '2026-03:desc' })).body);
    // PubA and PubB tie at 10 in March: by name.
    expect(byMonth.rows.map((r) => r.publisher)).toEqual(['PubA', 'PubB', 'PubC']);
    const byName = FinanceAdvertiserTable.parse(
      (await get('/api/finance/advertisers', { ...FEB_MAR, sort: 'advertiser:desc', page_size: '2', page: '2' })).body,
    );
    expect(byName.rows.map((r) => r.advertiser)).toEqual(['AdNova']);
    expect(byName).toMatchObject({ page: 2, page_count: 2, total_rows: 3 });
    expect(byName.totals.total).toBe(121);
    for (const sort of ['2026-13', 'publisher', 'revenue']) {
      const { status, body } = await get('/api/finance/advertisers', { ...FEB_MAR, sort });
      expect(status).toBe(400);
      expect(body.detail).toMatch(/Orden: columna de orden no válida/);
    }
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

describe('Api Explorer cards', () => {
  test('Ayer, Hoy and Mes cover all traffic in the reporting time zone; Filtro the search under its filters', async () => {
    const today = todayIn('UTC');
    const yesterday = addDays(today, -1);
    const csv = [
      'date,advertiser,publisher,zone_id,impressions,clicks,revenue',
      `${today},AdNova,PubA,C-1,100,1,7`,
      `${today},BidSphere,PubB,C-2,100,1,3`,
      `${yesterday},AdNova,PubA,C-1,100,1,5`,
    ].join('\n');
    expect((await postZoneReport(s, admin.token, csv)).status).toBe(200);
    const cards = RevenueCards.parse((await get('/api/ad-report/revenue-cards', { ...RANGE, advertiser: 'AdNova' })).body);
    expect(cards.dates).toEqual({ yesterday, today, month_start: startOfMonth(today) });
    close(cards.today, 10); // both advertisers: the cards ignore the search's filters
    close(cards.yesterday, 5);
    // Month so far: today's 10, plus yesterday's 5 when yesterday is in this month.
    close(cards.month, yesterday >= startOfMonth(today) ? 15 : 10);
    close(cards.filter, 16); // AdNova in the fixture's range: R1 10 + R3 0 + R5 6
  });

  test('the range is checked like every report', async () => {
    const { status, body } = await get('/api/ad-report/revenue-cards', { start_date: '2026-03-05', end_date: '2026-03-01' });
    expect(status).toBe(400);
    expect(body.detail).toBe('La fecha de inicio debe ser anterior o igual a la de fin');
  });
});

describe('Finance: exact amounts, rounded once where shown', () => {
  // April 2026: three rows of 0.335 under three advertisers and publishers. Each cell shows 0.34
  // (three of them add up to 1.02); the month's revenue is 1.005, shown 1.01. No cell is bent to
  // make the rows add up: the screen's footnote says rows may differ from the total by rounding.
  beforeAll(async () => {
    const csv = [
      'date,advertiser,publisher,zone_id,domain,impressions,clicks,revenue,p_revenue',
      '2026-04-10,AdNova,PubA,F-1,a.com,100,1,0.335,0.1',
      '2026-04-11,BidSphere,PubB,F-2,b.com,100,1,0.335,0.1',
      '2026-04-12,Clickora,PubC,F-3,c.com,100,1,0.335,0.1',
    ].join('\n');
    expect((await postZoneReport(s, admin.token, csv)).status).toBe(200);
  });
  const APRIL = { start_date: '2026-04-01', end_date: '2026-04-30' };

  test('each cell is its exact revenue and the TOTAL row each month’s exact revenue: shown, 0,34 three times and 1,01', async () => {
    const t = FinanceAdvertiserTable.parse((await get('/api/finance/advertisers', APRIL)).body);
    expect(t.totals).toEqual({ '2026-04': 1.005, total: 1.005 });
    expect(t.rows.map((r) => r['2026-04'])).toEqual([0.335, 0.335, 0.335]);
    for (const r of t.rows) expect(r.total).toBe(r['2026-04']);
    expect(t.rows.map((r) => formatMoney(r['2026-04']))).toEqual(['$0,34', '$0,34', '$0,34']);
    expect(formatMoney(t.totals['2026-04'])).toBe('$1,01');
  });

  test('the advertiser and publisher tables show the same TOTAL row', async () => {
    const range = { start_date: '2026-02-01', end_date: '2026-04-30' };
    const a = FinanceAdvertiserTable.parse((await get('/api/finance/advertisers', range)).body);
    const p = FinancePublisherTable.parse((await get('/api/finance/publishers', range)).body);
    expect(a.totals).toEqual(p.totals);
    // Exact sums: the rows' cells add up to the TOTAL row before anything is rounded.
    for (const t of [a, p]) for (const m of t.months) expect(t.rows.reduce((sum, r) => sum + r[m], 0)).toBeCloseTo(t.totals[m], 9);
  });

  test('margin per month is exact and its total sums the months', async () => {
    const [margin] = z.array(FinanceMarginRow).parse((await get('/api/finance/margin', APRIL)).body);
    expect(margin.by_month).toEqual({ '2026-04': 0.705 }); // 3 × (0.335 − 0.1)
    expect(margin.total).toBe(0.705);
  });

  test('format=csv exports the publishers table and the margin row, each headed as on screen', async () => {
    const download = async (path: string, query: Record<string, string>) => {
      const res = await s.fetch(`${path}?${new URLSearchParams({ ...query, format: 'csv' })}`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(res.status).toBe(200);
      return { file: res.headers.get('content-disposition'), lines: (await res.text()).trimEnd().split('\n') };
    };
    const publishers = await download('/api/finance/publishers', APRIL);
    expect(publishers.lines[0]).toBe('Publisher,2026-04,Total');
    expect(publishers.lines.at(-1)).toBe('TOTAL,1.005,1.005');
    const margin = await download('/api/finance/margin', APRIL);
    expect(margin.file).toContain('finance_margin_2026-04-01_to_2026-04-30.csv');
    // 3 × (0.335 − 0.1) = 0.705 at its stored precision.
    expect(margin.lines).toEqual(['Producto,2026-04,Total', 'Total,0.705,0.705']);
    const domain = await download('/api/finance/margin', { ...APRIL, domain: 'a.com' });
    expect(domain.lines).toEqual(['Producto,2026-04,Total', 'a.com,0.235,0.235']);
  });

  test('the margin refuses an unknown format or a reversed range with 400 {detail} in Spanish', async () => {
    const bad = await get('/api/finance/margin', { ...APRIL, format: 'xlsx' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('Formato: debe ser json, csv o ndjson');
    const reversed = await get('/api/finance/margin', { start_date: '2026-04-30', end_date: '2026-04-01' });
    expect(reversed.status).toBe(400);
    expect(reversed.body.detail).toMatch(/La fecha de inicio debe ser anterior o igual a la de fin/);
  });

  test('format=csv exports the table with its TOTAL row', async () => {
    const res = await s.fetch(`/api/finance/advertisers?${new URLSearchParams({ ...APRIL, format: 'csv' })}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(res.headers.get('content-disposition')).toContain('finance_advertisers_2026-04-01_to_2026-04-30.csv');
    // Headed as the screen heads the table: Advertiser, the month, Total.
    expect(lines[0]).toBe('Advertiser,2026-04,Total');
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('TOTAL,1.005,1.005');
    // NDJSON holds the rows only.
    const ndjson = await s.fetch(`/api/finance/advertisers?${new URLSearchParams({ ...APRIL, format: 'ndjson' })}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const rows = (await ndjson.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.advertiser).sort()).toEqual(['AdNova', 'BidSphere', 'Clickora']);
  });
});
