// The Referrers report, the raw log (Logs' polling) and the filter lists, against a fixture
// whose answers are worked out by hand below.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiError, ReferrerLogTable, ReferrerTable } from '@adops/core';
import type { TestServer } from './helpers.js';
import { daysAgo, logRows, postBatch, reportRows, setZoneOwners, startReferrerServer } from './referrers-fixture.js';

let t: TestServer;
let api: Awaited<ReturnType<TestServer['admin']>>;
const ids: number[] = [];

const ymd = (iso: string) => iso.slice(0, 10);
const ALL = { startDate: daysAgo(3), endDate: new Date(Date.parse(daysAgo(0)) - 1).toISOString() };

// Events 1..8 in ingest order (ids follow it).
const FIXTURE = [
  { zone_id: '1001', referrer: 'https://news.example.com/a', seen_at: daysAgo(3, 10), keyword: 'k1', ip: '10.0.0.1', country: 'ES' },
  { zone_id: '1001', referrer: 'https://news.example.com/a', seen_at: daysAgo(2, 9) },
  { zone_id: '1001', referrer: 'https://news.example.com/a', seen_at: daysAgo(1, 8) },
  { zone_id: '1001', referrer: 'https://news.example.com/b', seen_at: daysAgo(2, 12) },
  { zone_id: '1002', referrer: 'https://blog.example.org/x', seen_at: daysAgo(2, 13) },
  { zone_id: '2001', referrer: 'https://news.example.com/a', seen_at: daysAgo(1, 7) },
  { zone_id: '2001', parent_domain: 'direct.example', seen_at: daysAgo(1, 9, 30) },
  { zone_id: '10010', referrer: 'https://news.example.com/a', seen_at: daysAgo(1, 10) },
];

beforeAll(async () => {
  t = await startReferrerServer();
  api = await t.admin();
  const day = ymd(daysAgo(10));
  await setZoneOwners(t, [
    { date: day, zone_id: '1001', publisher: 'Pub A', advertiser: 'Adv X' },
    { date: day, zone_id: '1002', publisher: 'Pub A', advertiser: 'Adv Y' },
    { date: day, zone_id: '2001', publisher: 'Pub B', advertiser: 'Adv X' },
  ]);
  const res = await postBatch(t, FIXTURE);
  expect(res.status).toBe(200);
  const { first_id } = await res.json();
  for (let i = 0; i < FIXTURE.length; i++) ids.push(first_id + i);
});
afterAll(() => t.close());

const row = (zone_id: string, parent_domain: string | null, referrer: string | null, seen_at: string, first_seen: string, hits: number) => ({
  zone_id,
  parent_domain,
  referrer,
  seen_at,
  first_seen,
  hits,
});

describe('POST /api/referrers/ (distinct referrers)', () => {
  test('one row per zone, source and referrer with last and first time seen and hits, newest first', async () => {
    expect(await reportRows(api, ALL)).toEqual([
      row('10010', 'news.example.com', 'https://news.example.com/a', daysAgo(1, 10), daysAgo(1, 10), 1),
      row('2001', 'direct.example', null, daysAgo(1, 9, 30), daysAgo(1, 9, 30), 1),
      row('1001', 'news.example.com', 'https://news.example.com/a', daysAgo(1, 8), daysAgo(3, 10), 3),
      row('2001', 'news.example.com', 'https://news.example.com/a', daysAgo(1, 7), daysAgo(1, 7), 1),
      row('1002', 'blog.example.org', 'https://blog.example.org/x', daysAgo(2, 13), daysAgo(2, 13), 1),
      row('1001', 'news.example.com', 'https://news.example.com/b', daysAgo(2, 12), daysAgo(2, 12), 1),
    ]);
  });

  test('calendar days as dates cover whole days; hits count only inside the range', async () => {
    const d2 = ymd(daysAgo(2));
    expect(await reportRows(api, { startDate: d2, endDate: d2 })).toEqual([
      row('1002', 'blog.example.org', 'https://blog.example.org/x', daysAgo(2, 13), daysAgo(2, 13), 1),
      row('1001', 'news.example.com', 'https://news.example.com/b', daysAgo(2, 12), daysAgo(2, 12), 1),
      row('1001', 'news.example.com', 'https://news.example.com/a', daysAgo(2, 9), daysAgo(2, 9), 1),
    ]);
  });

  test('zone id matches as a case-insensitive substring; publisher, advertiser and source exactly', async () => {
    const zones = (rows: Array<{ zone_id: string; referrer: string | null }>) => rows.map((r) => `${r.zone_id} ${r.referrer}`);
    expect(zones(await reportRows(api, { ...ALL, zoneId: '1001' }))).toEqual([
      '10010 https://news.example.com/a',
      '1001 https://news.example.com/a',
      '1001 https://news.example.com/b',
    ]);
    expect(zones(await reportRows(api, { ...ALL, publisher: 'Pub A' }))).toEqual([
      '1001 https://news.example.com/a',
      '1002 https://blog.example.org/x',
      '1001 https://news.example.com/b',
    ]);
    expect(zones(await reportRows(api, { ...ALL, advertiser: 'Adv X', parentDomain: 'news.example.com' }))).toEqual([
      '1001 https://news.example.com/a',
      '2001 https://news.example.com/a',
      '1001 https://news.example.com/b',
    ]);
    expect(await reportRows(api, { ...ALL, publisher: 'pub a' })).toEqual([]);
  });

  test("'Todos', empty and null mean no filter", async () => {
    const all = await reportRows(api, ALL);
    const open = await reportRows(api, { ...ALL, zoneId: '', advertiser: 'Todos', publisher: 'Todos', parentDomain: '' });
    expect(open).toEqual(all);
    const res = await t.fetch('/api/referrers/', {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...ALL, zoneId: null, advertiser: null, publisher: null, parentDomain: null, page_size: 500 }),
    });
    expect((await res.json()).rows).toEqual(all);
  });

  test('without dates the range is today: a hit made now is there, the fixture is not', async () => {
    expect(await reportRows(api, {})).toEqual([]);
    await t.fetch('/api/hit?zone_id=3001&ref=https://today.example.com/');
    const today = await reportRows(api, {});
    expect(today.map((r) => r.zone_id)).toEqual(['3001']);
  });
});

describe('POST /api/referrers_logs/ (raw events)', () => {
  test('every event in the range with its fields, newest first', async () => {
    const logs = await logRows(api, ALL);
    expect(logs.map((e) => e.id)).toEqual([ids[7], ids[6], ids[2], ids[5], ids[4], ids[3], ids[1], ids[0]]);
    expect(logs[7]).toEqual({
      id: ids[0],
      zone_id: '1001',
      parent_domain: 'news.example.com',
      referrer: 'https://news.example.com/a',
      seen_at: daysAgo(3, 10),
      keyword: 'k1',
      ip: '10.0.0.1',
      country: 'ES',
      is_bot: false,
      reason: null,
      // 'Valor': no zone report in the 7 days before to go by (referrers-value.test.ts has the figures).
      value: null,
      tq: null,
    });
    expect(logs[1]).toMatchObject({ zone_id: '2001', parent_domain: 'direct.example', referrer: null, keyword: null, ip: null, country: null });
  });

  test('filters apply to the log as to the report', async () => {
    const logs = await logRows(api, { ...ALL, publisher: 'Pub A', parentDomain: 'news.example.com' });
    expect(logs.map((e) => e.id)).toEqual([ids[2], ids[3], ids[1], ids[0]]);
    const inRange = await logRows(api, { startDate: daysAgo(2, 12), endDate: daysAgo(2, 13) });
    expect(inRange.map((e) => e.id)).toEqual([ids[4], ids[3]]);
  });

  test('a local date-time reads in the reporting time zone (UTC here)', async () => {
    const start = daysAgo(2, 12).slice(0, 19);
    const end = daysAgo(2, 13).slice(0, 19);
    expect((await logRows(api, { startDate: start, endDate: end })).map((e) => e.id)).toEqual([ids[4], ids[3]]);
  });

  test('no cap: every event is counted and reachable page by page, the newest first', async () => {
    const base = Date.parse(daysAgo(5));
    const lines = Array.from({ length: 5010 }, (_, i) => ({ zone_id: 'cap9', seen_at: new Date(base + i * 1000).toISOString() }));
    expect((await postBatch(t, lines)).status).toBe(200);
    const filter = { zoneId: 'cap9', startDate: ymd(daysAgo(5)), endDate: ymd(daysAgo(5)) };
    const first = ReferrerLogTable.parse(await api.referrers.logs({ ...filter, page_size: 500 }));
    expect(first).toMatchObject({ total_rows: 5010, page_count: 11, page: 1 });
    expect(first.rows[0].seen_at).toBe(lines[5009].seen_at);
    const last = ReferrerLogTable.parse(await api.referrers.logs({ ...filter, page_size: 500, page: 11 }));
    expect(last.rows).toHaveLength(10);
    expect(last.rows[9].seen_at).toBe(lines[0].seen_at);
  });

  test('before_id keeps the pages still while new events arrive', async () => {
    const filter = { ...ALL, page_size: 3 };
    const page1 = ReferrerLogTable.parse(await api.referrers.logs(filter));
    const anchor = page1.totals.latest_id!;
    expect(anchor).toBeGreaterThanOrEqual(ids[7]);
    // A late event for yesterday (inside ALL) arrives and would be the newest.
    const late = await (await postBatch(t, [{ zone_id: '1001', referrer: 'https://late.example.com/', seen_at: daysAgo(1, 11) }])).json();
    const moved = ReferrerLogTable.parse(await api.referrers.logs({ ...filter, page: 2 }));
    const still = ReferrerLogTable.parse(await api.referrers.logs({ ...filter, page: 2, before_id: anchor }));
    expect(moved.rows[0].id).not.toBe(still.rows[0].id);
    // Pinned: page 2 is what followed page 1 before the arrival, and the count did not move.
    expect(still.rows.map((e) => e.id)).toEqual([ids[5], ids[4], ids[3]]);
    expect(still.total_rows).toBe(page1.total_rows);
    expect(moved.total_rows).toBe(page1.total_rows + 1);
    expect(moved.totals.latest_id).toBe(late.last_id);
  });

  test('sorts by any column over the whole log, ties newest first', async () => {
    const byZone = await logRows(api, { ...ALL, sort: 'zone_id:asc' });
    // Five events of 1001 (the late one included); zone ids compare character by character.
    expect(byZone.map((e) => e.zone_id)).toEqual(['1001', '1001', '1001', '1001', '1001', '10010', '1002', '2001', '2001']);
    // Same zone: the newest id first.
    const zone1001 = byZone.filter((e) => e.zone_id === '1001').map((e) => e.id);
    expect(zone1001).toEqual([...zone1001].sort((a, b) => b - a));
    // Keywords: only the first event has one; the rest (missing) last in both directions.
    for (const dir of ['asc', 'desc']) expect((await logRows(api, { ...ALL, sort: `keyword:${dir}` }))[0].keyword).toBe('k1');
  });

  test('format=csv exports every event of the filter with SPEC’s log columns', async () => {
    const res = await t.fetch('/api/referrers_logs/', {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...ALL, format: 'csv', page_size: 1 }),
    });
    expect(res.headers.get('content-disposition')).toMatch(/referrers_logs-\d{4}-\d{2}-\d{2}_to_\d{4}-\d{2}-\d{2}\.csv/);
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toBe('date,zone_id,source,referrer,keyword,ip,country');
    expect(lines).toHaveLength(1 + (await logRows(api, ALL)).length);
    expect(lines.at(-1)).toBe(`${daysAgo(3, 10).slice(0, 16).replace('T', ' ')},1001,news.example.com,https://news.example.com/a,k1,10.0.0.1,ES`);
  });
});

describe('the referrers report as a table', () => {
  test('counts every distinct referrer and their hits in all; pages do not overlap', async () => {
    const all = await reportRows(api, ALL);
    const t1 = ReferrerTable.parse(await api.referrers.report({ ...ALL, page_size: 2 }));
    expect(t1.total_rows).toBe(all.length);
    expect(t1.totals.hits).toBe(all.reduce((sum, r) => sum + r.hits, 0));
    const pages = [];
    for (let page = 1; page <= t1.page_count; page++)
      pages.push(...ReferrerTable.parse(await api.referrers.report({ ...ALL, page_size: 2, page })).rows);
    expect(pages).toEqual(all);
  });

  test('sorts by hits (ties by zone, source, referrer) and exports every row as SPEC’s CSV', async () => {
    const byHits = await reportRows(api, { ...ALL, sort: 'hits:desc' });
    expect(byHits[0]).toMatchObject({ zone_id: '1001', referrer: 'https://news.example.com/a' });
    expect(byHits.map((r) => r.hits)).toEqual([...byHits.map((r) => r.hits)].sort((a, b) => b - a));
    const res = await t.fetch('/api/referrers/', {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...ALL, format: 'csv', sort: 'hits:desc' }),
    });
    expect(res.headers.get('content-disposition')).toMatch(/referrers-\d{4}-\d{2}-\d{2}_to_\d{4}-\d{2}-\d{2}\.csv/);
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toBe('date,zone_id,source,referrer');
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(byHits.map((r) => r.zone_id));
  });

  test.each([
    [{ sort: 'ip' }, /^Orden: columna de orden no válida/],
    [{ page: 0 }, /^Página: /],
    [{ page_size: 501 }, /^Filas por página: /],
    [{ format: 'pdf' }, /^Formato: /],
  ])('%j → 400', async (bad, detail) => {
    const res = await t.fetch('/api/referrers/', {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...ALL, ...bad }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toMatch(detail);
  });
});

test('the report and the log answer without the trailing slash too', async () => {
  for (const [path, expected] of [
    ['/api/referrers', await api.referrers.report(ALL)],
    ['/api/referrers_logs', await api.referrers.logs(ALL)],
  ] as const) {
    const res = await t.fetch(path, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(ALL),
    });
    expect(await res.json()).toEqual(expected);
  }
});

describe('GET /api/referrers/filters', () => {
  test('lists sources, publishers and advertisers that have traffic, sorted', async () => {
    const f = await api.referrers.filters();
    expect(f.publishers).toEqual(['Pub A', 'Pub B']);
    expect(f.advertisers).toEqual(['Adv X', 'Adv Y']);
    expect(f.parentDomains).toEqual(['blog.example.org', 'direct.example', 'late.example.com', 'news.example.com', 'today.example.com']);
  });

  test('needs a session', async () => {
    await expect(t.anon.referrers.filters()).rejects.toMatchObject({ status: 401 });
  });
});

describe('bad filters', () => {
  const post = (path: string, body: string, token: string | null = api.token) =>
    t.fetch(path, {
      method: 'POST',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
      body,
    });

  test.each([
    ['start after end', { startDate: daysAgo(1), endDate: daysAgo(2) }, 'La fecha de inicio debe ser anterior o igual a la de fin'],
    ['start after end as days', { startDate: ymd(daysAgo(1)), endDate: ymd(daysAgo(2)) }, 'La fecha de inicio debe ser anterior o igual a la de fin'],
    ['a date that is not ISO', { startDate: '01/02/2025' }, 'Fecha de inicio: '],
    ['an impossible date', { endDate: '2025-02-30T00:00:00Z' }, 'Fecha de fin: '],
    ['a span over 800 days', { startDate: '2020-01-01T00:00:00Z', endDate: '2023-01-01T00:00:00Z' }, '800'],
    ['a zone id over 64 characters', { zoneId: 'z'.repeat(65) }, 'Zone ID: '],
    ['an advertiser over 200 characters', { advertiser: 'a'.repeat(201) }, 'Advertiser: '],
    ['a publisher that is not text', { publisher: { $ne: 1 } }, 'Publisher: '],
  ])('%s → 400 on the report and the log', async (_name, filter, field) => {
    for (const path of ['/api/referrers/', '/api/referrers_logs/']) {
      const res = await post(path, JSON.stringify(filter));
      expect(res.status).toBe(400);
      expect((await res.json()).detail).toContain(field);
    }
  });

  test('malformed JSON → 400; a body over 1 MB → 413; no session → 401', async () => {
    const bad = await post('/api/referrers/', '{"zoneId": ');
    expect([bad.status, (await bad.json()).detail]).toEqual([400, 'JSON mal formado']);
    const big = await post('/api/referrers_logs/', JSON.stringify({ zoneId: 'x', pad: 'p'.repeat(1_100_000) }));
    expect(big.status).toBe(413);
    expect((await post('/api/referrers/', '{}', null)).status).toBe(401);
    await expect(t.anon.referrers.logs({})).rejects.toBeInstanceOf(ApiError);
  });

  test('hostile filter text is only ever a value: nothing matches and nothing changes', async () => {
    const before = await logRows(api, ALL);
    for (const zoneId of ["' OR '1'='1", "%' --", '_', '%']) expect(await reportRows(api, { ...ALL, zoneId })).toEqual([]);
    expect(await logRows(api, { ...ALL, parentDomain: "x'; DROP TABLE referrer_event; --" })).toEqual([]);
    expect(await logRows(api, ALL)).toEqual(before);
  });
});
