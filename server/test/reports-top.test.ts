// The Dashboard's 'Top Zones' and 'Top Advertisers' (GET /api/dashboard/top) against the
// hand-worked fixture (reports-fixture.ts) plus the rows below, every expected list worked out
// by hand: grouping, exclusions, ties, filters, limit, range, validation and access.
//
// Rows added to the fixture (R1–R6) — revenue / margin as stored:
//  row | date       | advertiser | publisher | zone    | geo | source | revenue | margin | why
//  E1  | 2026-03-02 | BidSphere  | PubA      | Z-100   | ES  | search |    5    |   2    | same zone as R1 on another day → summed
//  E2  | 2026-03-03 | Clickora   | PubC      | Z-100   | US  | search |    3    |   1    | same zone id, other publisher → another zone
//  E3  | 2026-03-02 | AdNova     | PubB      | Z-201   | MX  | social |    0    |   5    | zero revenue: not in Z-201's margin
//  E4  | 2026-03-03 | BidSphere  | PubB      | Z-500   | MX  | search |    2    |  0.5   | ties PubC - Z-300 (2)
//  E5  | 2026-03-01 | Zeta       | PubG      | Z-800   | ES  | search |    5    |   1    | advertiser tie with Clickora (5)
//  E6  | 2026-03-01 | Nulo       | PubH      | Z-900   | ES  | search |    3    |   1    | with E7 sums to 0 → in neither list
//  E7  | 2026-03-02 | Nulo       | PubH      | Z-900   | ES  | search |   −3    |  −1    |
//  E8  | 2026-03-04 | AdNova     | PubA      | Z-100   | ES  | search |  1000   |  400   | the day after the range
// Stored straight in the warehouse (the ingest refuses a blank zone id or advertiser):
//  W1  | 2026-03-02 | AdNova     | PubE      | ''      | ES  | search |   50    |  10    | no zone id: advertiser only
//  W2  | 2026-03-03 | BidSphere  | PubE      | '  '    | MX  | search |   40    |   8    | blank zone id: advertiser only
//  W3  | 2026-03-02 | ''         | PubF      | Z-700   | ES  | search |    7    |   2    | no advertiser: zone only
//
// In 2026-03-01..03 (R6 and E8 outside), zones by revenue: PubA - Z-100 15 / 6 (R1 10/4 + E1 5/2),
// PubF - Z-700 7 / 2, PubB - Z-201 6 / 3 (R5; E3 left out), PubG - Z-800 5 / 1, PubB - Z-200 4 / 1.2,
// PubC - Z-100 3 / 1, then the tie at 2 by name: PubB - Z-500 2 / 0.5, PubC - Z-300 2 / −1.
// Out: PubA - Z-101 (R3, revenue 0), PubH - Z-900 (sums to 0), W1 and W2 (no zone id).
// Advertisers (every row): AdNova 66 / 22 (R1 10/4, R3 0/0, R5 6/3, E3 0/5, W1 50/10),
// BidSphere 51 / 11.7 (R2 4/1.2, E1 5/2, E4 2/0.5, W2 40/8), then the tie at 5 by name:
// Clickora 5 / 0 (R4 2/−1, E2 3/1), Zeta 5 / 1. Out: Nulo (sums to 0), '' (W3).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DashboardTops, type Api } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';
import { FIXTURE_CSV, RANGE, postZoneReport, getJson } from './reports-fixture.js';
import type { ZoneReportRecord } from '../src/warehouse/index.js';

const EXTRA_CSV = [
  'date,advertiser,publisher,zone_id,geo,source,domain,impressions,monetized_impressions,clicks,revenue,rate_applied,p_revenue,margin,tq',
  '2026-03-02,BidSphere,PubA,Z-100,ES,search,a.com,100,,1,5,,,2,',
  '2026-03-03,Clickora,PubC,Z-100,US,search,c.com,100,,1,3,,,1,',
  '2026-03-03,BidSphere,PubB,Z-500,MX,search,b.com,100,,1,2,,,0.5,',
  '2026-03-01,Zeta,PubG,Z-800,ES,search,g.com,100,,1,5,,,1,',
  '2026-03-01,Nulo,PubH,Z-900,ES,search,h.com,100,,1,3,,,1,',
  '2026-03-04,AdNova,PubA,Z-100,ES,search,a.com,100,,1,1000,,,400,',
].join('\n');

const record = (date: string, advertiser: string, publisher: string, zone_id: string, revenue: number, margin: number): ZoneReportRecord => ({
  date,
  advertiser,
  publisher,
  zone_id,
  geo: 'ES',
  source: 'search',
  domain: 'e.com',
  impressions: 100,
  monetized_impressions: null,
  clicks: 1,
  revenue,
  rate_applied: null,
  p_revenue: revenue - margin,
  margin,
  tq: null,
});
// Loaded straight into the warehouse: rows the HTTP import refuses (no zone id, no advertiser,
// E7's negative revenue — a correction some older stores hold — and E3's margin above its
// revenue, a negative publisher revenue the import now refuses) must still rank right.
const BLANK_ROWS = [
  { ...record('2026-03-02', 'AdNova', 'PubB', 'Z-201', 0, 5), geo: 'MX', source: 'social', domain: 'b.com' },
  { ...record('2026-03-02', 'Nulo', 'PubH', 'Z-900', -3, -1), domain: 'h.com' },
  record('2026-03-02', 'AdNova', 'PubE', '', 50, 10),
  record('2026-03-03', 'BidSphere', 'PubE', '  ', 40, 8),
  record('2026-03-02', '', 'PubF', 'Z-700', 7, 2),
];

let s: TestServer;
let admin: Api & { token: string };
const get = (query: Record<string, string | string[]>, token: string | null = admin.token) => getJson(s, token, '/api/dashboard/top', query);

/** The answer, validated against the contract, with money rounded away from float noise. */
async function tops(query: Record<string, string | string[]>) {
  const { status, body } = await get(query);
  expect(status).toBe(200);
  const t = DashboardTops.parse(body);
  const cents = (n: number) => Math.round(n * 100) / 100;
  return {
    zones: t.zones.map((z) => [z.rank, `${z.publisher} - ${z.zone_id}`, cents(z.revenue), cents(z.margin)]),
    advertisers: t.advertisers.map((a) => [a.rank, a.advertiser, cents(a.revenue), cents(a.margin)]),
  };
}

const ALL_ZONES = [
  [1, 'PubA - Z-100', 15, 6],
  [2, 'PubF - Z-700', 7, 2],
  [3, 'PubB - Z-201', 6, 3],
  [4, 'PubG - Z-800', 5, 1],
  [5, 'PubB - Z-200', 4, 1.2],
  [6, 'PubC - Z-100', 3, 1],
  [7, 'PubB - Z-500', 2, 0.5],
  [8, 'PubC - Z-300', 2, -1],
];
const ALL_ADVERTISERS = [
  [1, 'AdNova', 66, 22],
  [2, 'BidSphere', 51, 11.7],
  [3, 'Clickora', 5, 0],
  [4, 'Zeta', 5, 1],
];

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.admin();
  await admin.publishers.set({ name: 'PubA', revenue_share: 0.6 });
  for (const csv of [FIXTURE_CSV, EXTRA_CSV]) {
    const res = await postZoneReport(s, admin.token, csv);
    expect(await res.json()).toMatchObject({ rejected_total: 0 });
  }
  const load = await s.app.services.warehouse.zoneReports.beginImport();
  try {
    BLANK_ROWS.forEach((r, i) => {
      load.add(r, i);
    });
    expect(await load.commit()).toEqual({ inserted: 5, replaced: 0, repeated: [], repeated_total: 0 });
  } finally {
    await load.close();
  }
});
afterAll(() => s.close());

describe('top lists of a range', () => {
  test('five zones and five advertisers by default, summed over the range, largest revenue first', async () => {
    expect(await tops(RANGE)).toEqual({ zones: ALL_ZONES.slice(0, 5), advertisers: ALL_ADVERTISERS });
  });

  test('limit lengthens or shortens both lists; equal revenues are ordered by name', async () => {
    expect(await tops({ ...RANGE, limit: '50' })).toEqual({ zones: ALL_ZONES, advertisers: ALL_ADVERTISERS });
    expect(await tops({ ...RANGE, limit: '1' })).toEqual({ zones: ALL_ZONES.slice(0, 1), advertisers: ALL_ADVERTISERS.slice(0, 1) });
    expect(await tops({ ...RANGE, limit: '7' })).toEqual({ zones: ALL_ZONES.slice(0, 7), advertisers: ALL_ADVERTISERS });
  });

  test('the same answer every time (ties never swap)', async () => {
    const first = (await get({ ...RANGE, limit: '50' })).body;
    for (let i = 0; i < 3; i++) expect((await get({ ...RANGE, limit: '50' })).body).toEqual(first);
  });

  test('rows outside the range are ignored; a range of their own shows only them', async () => {
    expect(await tops({ start_date: '2026-03-04', end_date: '2026-03-04' })).toEqual({
      zones: [[1, 'PubA - Z-100', 1000, 400]],
      advertisers: [[1, 'AdNova', 1000, 400]],
    });
    expect(await tops({ start_date: '2026-02-28', end_date: '2026-02-28' })).toEqual({
      zones: [[1, 'PubA - Z-100', 99, 39.6]],
      advertisers: [[1, 'AdNova', 99, 39.6]],
    });
  });

  test('a range with no rows, or only zero-revenue ones, gives two empty lists', async () => {
    expect(await tops({ start_date: '2026-04-01', end_date: '2026-04-30' })).toEqual({ zones: [], advertisers: [] });
    // Z-101 has only R3 (revenue 0).
    expect(await tops({ ...RANGE, zone_id: 'Z-101' })).toEqual({ zones: [], advertisers: [] });
  });

  test('a zone or advertiser with negative revenue is listed, below the positive ones', async () => {
    // 2026-03-02: W3 7/2, E1 5/2, R4 2/−1, E7 −3/−1 (R3 and E3 have no revenue; W1 has no zone id).
    expect(await tops({ start_date: '2026-03-02', end_date: '2026-03-02' })).toEqual({
      zones: [
        [1, 'PubF - Z-700', 7, 2],
        [2, 'PubA - Z-100', 5, 2],
        [3, 'PubC - Z-300', 2, -1],
        [4, 'PubH - Z-900', -3, -1],
      ],
      // AdNova: W1 50/10 + E3 0/5 + R3 0/0.
      advertisers: [
        [1, 'AdNova', 50, 15],
        [2, 'BidSphere', 5, 2],
        [3, 'Clickora', 2, -1],
        [4, 'Nulo', -3, -1],
      ],
    });
  });
});

describe('filters', () => {
  test.each([
    // PubB: Z-201 6/3 (E3 out), Z-200 4/1.2, Z-500 2/0.5; AdNova R5 6/3 + E3 0/5, BidSphere R2 4/1.2 + E4 2/0.5 → tie at 6 by name.
    [
      'publisher',
      { publisher: 'PubB' },
      [
        [1, 'PubB - Z-201', 6, 3],
        [2, 'PubB - Z-200', 4, 1.2],
        [3, 'PubB - Z-500', 2, 0.5],
      ],
      [
        [1, 'AdNova', 6, 8],
        [2, 'BidSphere', 6, 1.7],
      ],
    ],
    [
      'advertiser',
      { advertiser: 'Clickora' },
      [
        [1, 'PubC - Z-100', 3, 1],
        [2, 'PubC - Z-300', 2, -1],
      ],
      [[1, 'Clickora', 5, 0]],
    ],
    // Zone ids containing 'z-10' (any case): R1, R3 (0), E1, E2 — the blank-zone rows are not matched.
    [
      'zone id substring',
      { zone_id: 'z-10' },
      [
        [1, 'PubA - Z-100', 15, 6],
        [2, 'PubC - Z-100', 3, 1],
      ],
      [
        [1, 'AdNova', 10, 4],
        [2, 'BidSphere', 5, 2],
        [3, 'Clickora', 3, 1],
      ],
    ],
    [
      'geo',
      { geo: 'US' },
      [
        [1, 'PubC - Z-100', 3, 1],
        [2, 'PubC - Z-300', 2, -1],
      ],
      [[1, 'Clickora', 5, 0]],
    ],
    ['source', { source: 'social' }, [[1, 'PubB - Z-200', 4, 1.2]], [[1, 'BidSphere', 4, 1.2]]],
    [
      'domain',
      { domain: 'e.com' },
      [[1, 'PubF - Z-700', 7, 2]],
      [
        [1, 'AdNova', 50, 10],
        [2, 'BidSphere', 40, 8],
      ],
    ],
    ['advertiser and publisher', { advertiser: 'AdNova', publisher: 'PubB' }, [[1, 'PubB - Z-201', 6, 3]], [[1, 'AdNova', 6, 8]]],
    ["'Todos' and empty mean no filter", { advertiser: 'Todos', publisher: '' }, ALL_ZONES.slice(0, 5), ALL_ADVERTISERS],
    ['a value nobody has', { advertiser: 'Nadie' }, [], []],
  ])('%s', async (_name, filter, zones, advertisers) => {
    expect(await tops({ ...RANGE, ...(filter as Record<string, string>) })).toEqual({ zones, advertisers });
  });

  test.each([
    ['zone_id', '<script>alert(1)</script>'],
    ['advertiser', "' OR 1=1 --"],
    ['publisher', "Robert'); DROP TABLE zone_report;--"],
    ['geo', '%_'],
    ['source', '\\"; SELECT 1; --'],
    ['zone_id', 'Z_1'],
  ])('SQL- or script-like %s is plain text: nothing matches, nothing changes', async (key, value) => {
    expect(await tops({ ...RANGE, [key]: value })).toEqual({ zones: [], advertisers: [] });
    expect(await tops(RANGE)).toEqual({ zones: ALL_ZONES.slice(0, 5), advertisers: ALL_ADVERTISERS });
  });
});

describe('refused input', () => {
  test.each([
    ['limit 0', { ...RANGE, limit: '0' }, /^Límite: /],
    ['limit 51', { ...RANGE, limit: '51' }, /^Límite: /],
    ["limit 'abc'", { ...RANGE, limit: 'abc' }, 'Límite: debe ser un número entero'],
    ['limit 2.5', { ...RANGE, limit: '2.5' }, 'Límite: debe ser un número entero'],
    ['limit -1', { ...RANGE, limit: '-1' }, 'Límite: debe ser un número entero'],
    ['an empty limit', { ...RANGE, limit: '' }, /^Límite: /],
    ['a huge limit', { ...RANGE, limit: '9'.repeat(30) }, /^Límite: /],
    ['a repeated limit', { ...RANGE, limit: ['5', '6'] }, /^Límite: /],
    ['no dates', {}, 'Fecha de inicio: es obligatorio'],
    ['no end date', { start_date: '2026-03-01' }, 'Fecha de fin: es obligatorio'],
    ['an impossible date', { start_date: '2026-02-30', end_date: '2026-03-03' }, 'Fecha de inicio: debe ser una fecha AAAA-MM-DD'],
    ['a SQL-like date', { start_date: "2026-03-01' OR '1'='1", end_date: '2026-03-03' }, 'Fecha de inicio: debe ser una fecha AAAA-MM-DD'],
    ['start after end', { start_date: '2026-03-04', end_date: '2026-03-03' }, 'La fecha de inicio debe ser anterior o igual a la de fin'],
    ['801 days', { start_date: '2024-01-01', end_date: '2026-03-11' }, 'El rango admite como mucho 800 días'],
    ['an overlong zone id', { ...RANGE, zone_id: 'z'.repeat(101) }, /^Zone ID: /],
    ['an overlong publisher', { ...RANGE, publisher: 'p'.repeat(201) }, /^Publisher: /],
    ['a repeated advertiser', { ...RANGE, advertiser: ['AdNova', 'Zeta'] }, /^Advertiser: /],
  ])('%s → 400 {detail}', async (_name, query, detail) => {
    const { status, body } = await get(query as Record<string, string | string[]>);
    expect(status).toBe(400);
    if (typeof detail === 'string') expect(body.detail).toBe(detail);
    else expect(body.detail).toMatch(detail);
  });

  test('800 days are accepted', async () => {
    expect((await get({ start_date: '2024-01-01', end_date: '2026-03-10' })).status).toBe(200);
  });

  test('401 without a session or with a forged one; any signed-in user may read it', async () => {
    expect((await get(RANGE, null)).status).toBe(401);
    expect((await get(RANGE, 'not.a.jwt')).status).toBe(401);
    const [h, p] = admin.token.split('.');
    expect((await get(RANGE, `${h}.${p}.forged-signature`)).status).toBe(401);
    await admin.admin.createUser({ first_name: 'Op', email: 'op-tops@example.com', password: 'op-pass-123' });
    const user = await s.as('op-tops@example.com', 'op-pass-123');
    expect((await get(RANGE, user.token)).body).toEqual((await get(RANGE)).body);
  });
});

test('the typed client reads the same lists', async () => {
  const t = await admin.dashboard.top({ ...RANGE, limit: 2 });
  expect(t.zones.map((z) => [z.rank, z.publisher, z.zone_id])).toEqual([
    [1, 'PubA', 'Z-100'],
    [2, 'PubF', 'Z-700'],
  ]);
  expect(t.advertisers.map((a) => a.advertiser)).toEqual(['AdNova', 'BidSphere']);
  expect(t.zones[0].revenue).toBeCloseTo(15, 9);
});
