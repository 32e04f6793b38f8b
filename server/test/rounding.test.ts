// One rounding rule over HTTP (rounding.clickhouse.test.ts runs it again on ClickHouse): the same
// advertiser and month shows the same cents in Finance, Demand, the Ad Report, the Api Explorer
// and the Dashboard; Finance's TOTAL is each month's exact revenue and its rows may differ from
// it by rounding; every export's money column adds up to the report's total in both CSV
// dialects; JSON answers carry figures to 4 decimals. The fixture (three advertisers whose
// November revenues round differently) is money-fixture.ts's.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatMoney, jsonNumber, parseCsv, roundTo, type Api, type CsvDialect } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';
import { getJson, postZoneReport } from './reports-fixture.js';
import { loadProfitFixture, D1, D2, LAST_MONTH } from './profit-fixture.js';
import { ADVERTISERS, FIXTURE, NOVEMBER } from './money-fixture.js';

let s: TestServer;
let admin: Api & { token: string };
/** PubB's publisher-data token. */
let pubToken: string;
const get = (path: string, query: Record<string, string> = {}) => getJson(s, admin.token, path, query);

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.admin();
  expect((await postZoneReport(s, admin.token, FIXTURE)).status).toBe(200);
  pubToken = (await admin.admin.createToken({ publisher_name: 'PubB' })).token;
});
afterAll(() => s.close());

/** An export as text (its BOM kept), with the server's headers. */
async function download(path: string, query: Record<string, string>, token: string | null = admin.token) {
  const res = await s.fetch(`${path}?${new URLSearchParams(query)}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(res.status).toBe(200);
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
  return { text, type: res.headers.get('content-type'), file: res.headers.get('content-disposition') };
}

/** A POST with a JSON body and the admin's session. */
const post = (path: string, body: unknown) =>
  s.fetch(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** What a spreadsheet's SUM of a column of the CSV gives, in either dialect. */
function columnSum(text: string, header: string, dialect: CsvDialect = 'standard', skipLast = false): number {
  const [head, ...body] = parseCsv(text, dialect === 'excel-es' ? ';' : ',');
  const at = head.indexOf(header);
  expect(at, `${header} in ${head.join(',')}`).toBeGreaterThanOrEqual(0);
  const rows = skipLast ? body.slice(0, -1) : body;
  return rows.reduce((sum, cells) => sum + Number(dialect === 'excel-es' ? cells[at].replace(',', '.') : cells[at]), 0);
}

describe('one advertiser and month, the same cents on every screen', () => {
  test('Finance, Demand, Ad Report (zones and summary), Api Explorer and the Dashboard show each advertiser’s November alike', async () => {
    const finance = (await get('/api/finance/advertisers', NOVEMBER)).body;
    const demand = (await get('/api/demand/advertiser-revenue', NOVEMBER)).body;
    for (const advertiser of ADVERTISERS) {
      const only = { ...NOVEMBER, advertiser };
      const figures = {
        finance: finance.rows.find((r: { advertiser: string }) => r.advertiser === advertiser)['2025-11'],
        financeTotal: finance.rows.find((r: { advertiser: string }) => r.advertiser === advertiser).total,
        demand: demand.totals[advertiser].revenue,
        demandDays: demand.advertisers[advertiser].reduce((sum: number, p: { revenue: number }) => sum + p.revenue, 0),
        zones: (await get('/api/ad-report/zone-details', only)).body.totals.revenue,
        summary: (await get('/api/ad-report/advertiser-summary', only)).body.totals.revenue,
        explorer: (await get('/api/ad-report', only)).body.totals.revenue,
        dashboard: (await get('/api/dashboard/overview', only)).body.summary.revenue,
        analytics: (await get('/api/dashboard/table/aggregated', only)).body.totals.revenue,
        cards: (await get('/api/ad-report/revenue-cards', only)).body.filter,
      };
      const shown = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, formatMoney(v)]));
      expect(shown, advertiser).toEqual(Object.fromEntries(Object.keys(figures).map((k) => [k, '$1,33'])));
    }
  });

  test('Finance’s TOTAL is each month’s exact revenue rounded once — the Dashboard’s — and its rows may differ from it by rounding', async () => {
    const advertisers = (await get('/api/finance/advertisers', NOVEMBER)).body;
    const publishers = (await get('/api/finance/publishers', NOVEMBER)).body;
    expect(advertisers.totals).toEqual(publishers.totals);
    const dashboard = (await get('/api/dashboard/overview', NOVEMBER)).body.summary.revenue;
    expect([formatMoney(advertisers.totals['2025-11']), formatMoney(advertisers.totals.total), formatMoney(dashboard)]).toEqual([
      '$4,00',
      '$4,00',
      '$4,00',
    ]);
    // No cent is moved to make the rows add up: 1,33 three times.
    const shownRows = advertisers.rows.map((r: Record<string, number>) => roundTo(r['2025-11'], 2));
    expect(shownRows).toEqual([1.33, 1.33, 1.33]);
    expect(
      roundTo(
        shownRows.reduce((a: number, b: number) => a + b, 0),
        2,
      ),
    ).toBe(3.99);
    // Publishers: each its exact sum; PubB's 2.4445 shows 2,44 as on the Ad Report.
    const pubB = publishers.rows.find((r: { publisher: string }) => r.publisher === 'PubB');
    expect(pubB['2025-11']).toBe(2.4445);
    const zones = (await get('/api/ad-report/zone-details', { ...NOVEMBER, publisher: 'PubB' })).body.totals.revenue;
    expect([formatMoney(pubB['2025-11']), formatMoney(zones)]).toEqual(['$2,44', '$2,44']);
  });

  test('a row’s Total is its exact revenue over the range, as the Ad Report gives it for the same range', async () => {
    const range = { start_date: '2025-10-01', end_date: '2025-12-31' };
    const row = (await get('/api/finance/advertisers', range)).body.rows.find((r: { advertiser: string }) => r.advertiser === 'AdNova');
    // 0.123457 + 1.3333 + 2 = 3.456757: to 4 decimals in JSON, 3,46 shown.
    expect(row.total).toBe(3.4568);
    const zones = (await get('/api/ad-report/zone-details', { ...range, advertiser: 'AdNova' })).body.totals.revenue;
    expect(formatMoney(row.total)).toBe(formatMoney(zones));
  });
});

describe('the daily digest', () => {
  test('a zone’s revenue split over two publishers is summed exact, then rounded: 0.004 + 0.004 moves it by 0,01', async () => {
    const csv = [
      'date,advertiser,publisher,zone_id,impressions,clicks,revenue',
      '2025-09-10,AdNova,PubA,M-1,100,1,0.004',
      '2025-09-10,AdNova,PubB,M-1,100,1,0.004',
    ].join('\n');
    expect((await postZoneReport(s, admin.token, csv)).status).toBe(200);
    const movers = await s.app.services.reports.movers('2025-09-10', 'zone_id');
    const m = movers.find((x) => x.name === 'M-1');
    // Rounded a publisher at a time, each 0.004 would be 0,00 and the zone no mover at all.
    expect(m).toBeDefined();
    expect([formatMoney(m!.previous), formatMoney(m!.revenue), formatMoney(m!.change)]).toEqual(['$0,00', '$0,01', '$0,01']);
  });
});

describe('exports carry money at stored precision: a column’s SUM is the report’s total', () => {
  test.each<CsvDialect>(['standard', 'excel-es'])('every report table of November, %s', async (dialect) => {
    const csv = { format: 'csv', csv: dialect };
    const total = (await get('/api/ad-report/zone-details', NOVEMBER)).body.totals;
    const cents = (n: number) => roundTo(n, 2);
    for (const [path, header] of [
      ['/api/ad-report/zone-details', 'revenue'],
      ['/api/ad-report/zone-details', 'margin'],
      ['/api/ad-report/zone-details', 'P.Revenue'],
      ['/api/ad-report', 'Revenue'],
      ['/api/ad-report/publisher-summary', 'Rev'],
      ['/api/ad-report/advertiser-summary', 'Marg.'],
      ['/api/dashboard/table/aggregated', 'Rev'],
      ['/api/dashboard/table/aggregated', 'P.Revenue'],
      ['/api/demand/advertiser-revenue', 'Revenue'],
    ] as const) {
      const { text } = await download(path, { ...NOVEMBER, ...csv });
      const key = {
        revenue: 'revenue',
        Revenue: 'revenue',
        Rev: 'revenue',
        margin: 'margin',
        'Marg.': 'margin',
        'P.Revenue': 'p_revenue',
      }[header];
      expect(cents(columnSum(text, header, dialect)), `${path} ${header}`).toBe(cents(total[key]));
    }
    // Finance: the month column and Total add up to the TOTAL line (the file's last).
    const finance = await download('/api/finance/advertisers', { ...NOVEMBER, ...csv });
    expect(cents(columnSum(finance.text, '2025-11', dialect, true))).toBe(4);
    expect(finance.text.trimEnd().split(/\r?\n/).at(-1)).toBe(dialect === 'excel-es' ? 'TOTAL;4;4' : 'TOTAL,4,4');
    // The publisher's own URL: its P.Revenue adds up to its totals.
    const pub = await download('/api/publisher/data', { ...NOVEMBER, token: pubToken, ...csv }, null);
    const pubTotals = (await getJson(s, null, '/api/publisher/data', { ...NOVEMBER, token: pubToken })).body.totals;
    expect(cents(columnSum(pub.text, 'p_revenue', dialect))).toBe(cents(pubTotals.p_revenue));
    expect(cents(pubTotals.p_revenue)).toBe(1.71); // 0.3111 + 0.4667 + 0.9334 = 1.7112
  });

  test('excel-es: semicolons, comma decimals, dates dd/MM/yyyy, CRLF and a BOM; the standard file keeps commas, points and ISO dates', async () => {
    const query = { ...NOVEMBER, advertiser: 'Clickora', format: 'csv' };
    const es = await download('/api/ad-report/zone-details', { ...query, csv: 'excel-es' });
    expect(es.type).toBe('text/csv; charset=utf-8');
    expect(es.file).toContain('adreport_zonas.csv');
    const [head, line] = es.text.split('\r\n');
    expect(head).toBe(
      '\uFEFFdate;advertiser;publisher;zone_id;geo;source;impressions;monetized_impressions;clicks;CTR%;P.CPM;P.CPC;P.Revenue;TQ;revenue;margin;CPM;CPC;RS%',
    );
    // N-6: CTR 13 / 1100 = 1.18 %, P.CPM 0.9334 / 1300 × 1000 = 0.72, P.CPC 0.07, CPM 1.03, CPC 0.10, RS% 30.00.
    expect(line).toBe('25/11/2025;Clickora;PubB;N-6;US;social;1300;1100;13;1,18;0,72;0,07;0,9334;0,75;1,3334;0,4;1,03;0,1;30');
    const std = await download('/api/ad-report/zone-details', query);
    expect(std.text.startsWith('\uFEFFdate,advertiser,')).toBe(true);
    expect(std.text.split('\n')[1]).toBe('2025-11-25,Clickora,PubB,N-6,US,social,1300,1100,13,1.18,0.72,0.07,0.9334,0.75,1.3334,0.4,1.03,0.1,30');
  });

  test('an unknown CSV dialect is refused with 400 {detail} in Spanish', async () => {
    const query = { ...NOVEMBER, format: 'csv', csv: 'excel' };
    for (const path of ['/api/ad-report/zone-details', '/api/demand/advertiser-revenue', '/api/finance/margin', '/api/publisher/data']) {
      const { status, body } = await get(path, query);
      expect(status, path).toBe(400);
      expect(body.detail).toMatch(/^Formato CSV: debe ser standard o excel-es$/);
    }
    const profit = await post('/api/profit', query);
    expect(profit.status).toBe(400);
    expect((await profit.json()).detail).toMatch(/^Formato CSV: debe ser standard o excel-es$/);
  });
});

describe('JSON answers carry figures to 4 decimals at most', () => {
  /** Every number of a JSON text with more than 4 decimals. */
  const noisy = (text: string) => text.match(/-?\d+\.\d{5,}/g) ?? [];

  test('every report route over a range with 6-decimal revenue and ratios that never end', async () => {
    const range = { start_date: '2025-10-01', end_date: '2025-11-30' };
    const routes = [
      '/api/ad-report/zone-details',
      '/api/ad-report',
      '/api/ad-report/publisher-summary',
      '/api/ad-report/advertiser-summary',
      '/api/ad-report/revenue-cards',
      '/api/dashboard/overview',
      '/api/dashboard/table/aggregated',
      '/api/dashboard/top',
      '/api/demand/advertiser-revenue',
      '/api/finance/advertisers',
      '/api/finance/publishers',
      '/api/finance/margin',
    ];
    for (const path of routes) {
      const res = await s.fetch(`${path}?${new URLSearchParams(range)}`, { headers: { authorization: `Bearer ${admin.token}` } });
      const text = await res.text();
      expect(res.status, path).toBe(200);
      expect(noisy(text), path).toEqual([]);
    }
    // The 6-decimal revenue of 2025-10-30 travels as 0.1235; its CPC 0.123457 / 3 as 0.0412.
    const october = (await get('/api/ad-report/zone-details', { start_date: '2025-10-30', end_date: '2025-10-30' })).body.rows[0];
    expect([october.revenue, october.cpc, october.ctr]).toEqual([0.1235, 0.0412, jsonNumber((3 / 300) * 100)]);
  });

  test('Rentabilidad: ROI, ROAS, RPV, CPC and TQ to 4 decimals; an exchange rate (a setting) as stored', async () => {
    await loadProfitFixture(s.app.services.warehouse);
    await admin.profit.setRates({ rates: [{ month: LAST_MONTH, currency: 'EUR', rate: 1.0987654 }] });
    const text = await (await post('/api/profit', { start_date: D1, end_date: D2, by: 'campaign' })).text();
    expect(noisy(text)).toEqual([]);
    const profit = JSON.parse(text);
    const c2 = profit.rows.find((r: { key: string }) => r.key === 'C2');
    // C2: visit-weighted TQ 10.7 / 17 = 0.629411…; RPV 13.5 / 22 = 0.613636…
    expect([c2.tq, c2.rpv]).toEqual([0.6294, 0.6136]);
    expect((await get('/api/rates')).body.rates).toEqual([{ month: LAST_MONTH, currency: 'EUR', rate: 1.0987654 }]);
  });
});
