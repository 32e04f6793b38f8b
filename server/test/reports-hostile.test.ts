// Hostile and malformed input on every report route: missing, malformed, oversized and
// SQL- or script-like values are refused with 400 {detail} or matched literally as text;
// nothing crashes and stored data stays as it was.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Api } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';
import { FIXTURE_CSV, RANGE, postZoneReport, getJson } from './reports-fixture.js';

let s: TestServer;
let admin: Api & { token: string };
const get = (path: string, query: Record<string, string | string[]> = {}, token: string | null = admin.token) => getJson(s, token, path, query);

const HOSTILE = {
  zone_id: '<script>alert(1)</script>',
  advertiser: "' OR 1=1 --",
  publisher: "Robert'); DROP TABLE zone_report;--",
  domain: '"><img src=x onerror=alert(1)>',
  geo: '%_',
  source: '\\"; SELECT 1; --',
};

/**
 * Routes taking a date range and the text filters, how to read "nothing matched", and the
 * longest range in days (Finance, monthly, takes up to ten years).
 */
// biome-ignore lint/suspicious/noExplicitAny: each route's JSON answer has its own shape; the reader picks one field
const RANGE_ROUTES: Array<[string, (body: any) => unknown, unknown, number]> = [
  ['/api/dashboard/overview', (b) => b.summary.revenue, 0, 800],
  ['/api/dashboard/table/aggregated', (b) => b.rows, [], 800],
  ['/api/ad-report/zone-details', (b) => b.rows, [], 800],
  ['/api/ad-report/publisher-summary', (b) => b.rows, [], 800],
  ['/api/ad-report/advertiser-summary', (b) => b.rows, [], 800],
  ['/api/ad-report', (b) => b.rows, [], 800],
  ['/api/ad-report/revenue-cards', (b) => b.filter, 0, 800],
  ['/api/demand/advertiser-revenue', (b) => b.advertisers, {}, 800],
  ['/api/finance/advertisers', (b) => b.rows, [], 3660],
  ['/api/finance/publishers', (b) => b.rows, [], 3660],
  ['/api/finance/margin', (b) => b[0].total, 0, 3660],
];
const addDays = (ymd: string, n: number) => new Date(Date.parse(`${ymd}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const NO_INPUT_ROUTES = ['/api/dashboard/raw-options', '/api/dev1/dashboard/filters', '/api/dashboard/deltas/daily'];

/** The fixture's rows and totals (February–March; the hostile row below is in July). */
const fingerprint = async () => JSON.stringify((await get('/api/ad-report/zone-details', { start_date: '2026-02-01', end_date: '2026-03-31' })).body);
let stored: string;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.admin();
  expect((await postZoneReport(s, admin.token, FIXTURE_CSV)).status).toBe(200);
  stored = await fingerprint();
});
afterAll(() => s.close());

describe.each(RANGE_ROUTES)('%s', (path, read, nothing, maxDays) => {
  test.each([
    ['no dates', {}, 'Fecha de inicio: es obligatorio'],
    ['no end date', { start_date: '2026-03-01' }, 'Fecha de fin: es obligatorio'],
    ['a malformed date', { start_date: '2026-3-1', end_date: '2026-03-03' }, 'Fecha de inicio: debe ser una fecha AAAA-MM-DD'],
    ['an impossible date', { start_date: '2026-02-29', end_date: '2026-03-03' }, 'Fecha de inicio: debe ser una fecha AAAA-MM-DD'],
    ['a SQL-like date', { start_date: "2026-03-01' OR '1'='1", end_date: '2026-03-03' }, 'Fecha de inicio: debe ser una fecha AAAA-MM-DD'],
    ['start after end', { start_date: '2026-03-04', end_date: '2026-03-03' }, 'La fecha de inicio debe ser anterior o igual a la de fin'],
    [
      'one day more than its longest range',
      { start_date: '2024-01-01', end_date: addDays('2024-01-01', maxDays) },
      `El rango admite como mucho ${maxDays} días`,
    ],
    ['a repeated date', { start_date: ['2026-03-01', '2026-03-02'], end_date: '2026-03-03' }, 'Fecha de inicio: debe indicarse una sola vez'],
    ['a repeated filter', { ...RANGE, advertiser: ['AdNova', 'BidSphere'] }, /^Advertiser: /],
    ['an overlong zone id', { ...RANGE, zone_id: 'z'.repeat(101) }, /^Zone ID: /],
    ['an overlong advertiser', { ...RANGE, advertiser: 'a'.repeat(201) }, /^Advertiser: /],
  ])('refuses %s with 400 {detail}', async (_name, query, detail) => {
    const { status, body } = await get(path, query as Record<string, string | string[]>);
    expect(status).toBe(400);
    if (typeof detail === 'string') expect(body.detail).toBe(detail);
    else expect(body.detail).toMatch(detail);
  });

  test('its longest range is accepted', async () => {
    expect((await get(path, { start_date: '2024-01-01', end_date: addDays('2024-01-01', maxDays - 1) })).status).toBe(200);
  });

  test.each(Object.entries(HOSTILE))('SQL- or script-like %s is matched as plain text (nothing matches)', async (key, value) => {
    const { status, body } = await get(path, { ...RANGE, [key]: value });
    expect(status).toBe(200);
    expect(read(body)).toEqual(nothing);
  });

  test('a NUL byte or odd unicode in a filter is harmless', async () => {
    for (const value of ['\u0000', 'Ad\u0000Nova', '🙂'.repeat(40), '\u202e']) {
      const { status } = await get(path, { ...RANGE, advertiser: value });
      expect(status).toBe(200);
    }
  });

  test('401 without a session or with a forged one', async () => {
    expect((await get(path, RANGE, null)).status).toBe(401);
    expect((await get(path, RANGE, 'not.a.jwt')).status).toBe(401);
    const [h, p] = admin.token.split('.');
    expect((await get(path, RANGE, `${h}.${p}.forged-signature`)).status).toBe(401);
  });
});

describe('routes without a date range', () => {
  test.each(NO_INPUT_ROUTES)('%s: 401 without a session, 200 with one, odd extra parameters ignored', async (path) => {
    expect((await get(path, {}, null)).status).toBe(401);
    expect((await get(path, { start_date: 'garbage', x: "' OR 1=1 --" })).status).toBe(200);
  });

  test.each(Object.entries(HOSTILE))('deltas: SQL- or script-like %s matches nothing', async (key, value) => {
    const { status, body } = await get('/api/dashboard/deltas/daily', { [key]: value });
    expect(status).toBe(200);
    expect(body).toEqual({ revenue: null, margin: null, impressions: null, clicks: null, ctr: null, tq: null });
  });
});

/** Every table route: its path and a sort key it accepts. */
const TABLE_ROUTES: Array<[string, string]> = [
  ['/api/dashboard/table/aggregated', 'revenue'],
  ['/api/ad-report/zone-details', 'revenue'],
  ['/api/ad-report/publisher-summary', 'publisher'],
  ['/api/ad-report/advertiser-summary', 'advertiser'],
  ['/api/ad-report', 'ctr'],
  ['/api/finance/advertisers', 'total'],
  ['/api/finance/publishers', '2026-03'],
];

describe.each(TABLE_ROUTES)('table fields of %s', (path, goodKey) => {
  const query = path.startsWith('/api/finance') ? { start_date: '2026-02-01', end_date: '2026-03-31' } : RANGE;
  test.each([
    ['sort', "revenue'; DROP TABLE zone_report;--", /^Orden: columna de orden no válida/],
    ['sort', 'revenue desc', /^Orden: columna de orden no válida/],
    ['sort', `${goodKey}:desc:asc`, /^Orden: columna de orden no válida/],
    ['sort', 's'.repeat(65), /^Orden: /],
    ['sort', ['revenue', 'clicks'], /^Orden: /],
    ['page', '0', /^Página: /],
    ['page', '-1', /^Página: /],
    ['page', '1.5', /^Página: /],
    ['page', '9'.repeat(20), /^Página: /],
    ['page_size', '501', /^Filas por página: debe ser como máximo 500/],
    ['page_size', 'abc', /^Filas por página: /],
    ['format', 'xlsx', /^Formato: debe ser json, csv o ndjson/],
  ])('%s=%j is refused with 400 {detail}', async (key, value, detail) => {
    const { status, body } = await get(path, { ...query, [key]: value as string | string[] });
    expect(status).toBe(400);
    expect(body.detail).toMatch(detail);
  });

  test('a good sort key and a huge page number answer the last page', async () => {
    const { status, body } = await get(path, { ...query, sort: `${goodKey}:desc`, page: '999999999' });
    expect(status).toBe(200);
    expect(body.page).toBe(body.page_count);
  });
});

describe('hostile values stored and shown back', () => {
  test('script- and SQL-like names are stored as text and echoed inert in JSON', async () => {
    const row = { date: '2026-07-01', impressions: 10, clicks: 1, revenue: 1, ...HOSTILE, geo: 'ES' };
    const res = await postZoneReport(s, admin.token, JSON.stringify([row]), 'application/json');
    expect(await res.json()).toMatchObject({ inserted: 1, rejected: [] });

    const zone = await get('/api/ad-report/zone-details', { start_date: '2026-07-01', end_date: '2026-07-01' });
    expect(zone.type).toMatch(/^application\/json/);
    expect(zone.body.rows).toHaveLength(1);
    expect(zone.body.rows[0]).toMatchObject({
      zone_id: HOSTILE.zone_id,
      advertiser: HOSTILE.advertiser,
      publisher: HOSTILE.publisher,
      domain: HOSTILE.domain,
    });
    // Filtering by the exact hostile text finds exactly that row — and the table still exists.
    const byAdvertiser = await get('/api/ad-report', { start_date: '2026-01-01', end_date: '2026-12-31', advertiser: HOSTILE.advertiser });
    expect(byAdvertiser.body.rows.map((r: { zone_id: string }) => r.zone_id)).toEqual([HOSTILE.zone_id]);
    const byZone = await get('/api/ad-report', { start_date: '2026-01-01', end_date: '2026-12-31', zone_id: '<SCRIPT>' });
    expect(byZone.body.rows).toHaveLength(1);
    // An export writes the formula-like and script-like names inert.
    const exported = await s.fetch(`/api/ad-report?${new URLSearchParams({ start_date: '2026-07-01', end_date: '2026-07-01', format: 'csv' })}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const csv = await exported.text();
    // The publisher holds ';': quoted, so a spreadsheet reading ';' as its separator keeps it one cell.
    expect(csv).toContain(`2026-07-01,${HOSTILE.advertiser},${HOSTILE.zone_id},"${HOSTILE.publisher}",10,1,`);
    const options = await get('/api/dashboard/raw-options');
    expect(options.body.advertisers).toContain(HOSTILE.advertiser);
    expect((await get('/api/dev1/dashboard/filters')).body.domains).toContain(HOSTILE.domain);
    const margin = await get('/api/finance/margin', { start_date: '2026-07-01', end_date: '2026-07-31', domain: HOSTILE.domain });
    expect(margin.body[0].segment).toBe(HOSTILE.domain);
  });

  test('control characters in a name are refused at import', async () => {
    const csv = 'date,advertiser,publisher,zone_id,impressions,clicks,revenue\n2026-07-02,Ad\u0007Nova,PubA,Z,1,1,1\n';
    expect(await (await postZoneReport(s, admin.token, csv)).json()).toMatchObject({
      inserted: 0,
      rejected: [{ line: 2, detail: 'advertiser: contiene caracteres de control' }],
    });
  });

  test('after all of the above the fixture is intact', async () => {
    expect(await fingerprint()).toBe(stored);
    expect(JSON.parse(stored).total_rows).toBe(6);
  });
});
