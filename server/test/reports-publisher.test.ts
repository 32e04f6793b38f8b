// The publisher-data URL (token, only that publisher, never revenue or margin, CSV), the
// admins' revenue-share settings, and the Dashboard deltas in the reporting time zone.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addDays, jsonNumber, todayIn, DailyDeltas, PublisherDataTable, PublisherShare, type Api } from '@adops/core';
import { z } from 'zod';
import { startTestServer, type TestServer } from './helpers.js';
import { FIXTURE_CSV, postZoneReport, getJson } from './reports-fixture.js';

let s: TestServer;
let admin: Api & { token: string };

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.admin();
  await admin.publishers.set({ name: 'PubA', revenue_share: 0.6 });
  expect((await postZoneReport(s, admin.token, FIXTURE_CSV)).status).toBe(200);
});
afterAll(() => s.close());

/** A figure of a JSON answer: the expected value as JSON carries it (4 decimals at most). */
const close = (actual: number | null | undefined, expected: number) => expect(actual).toBe(jsonNumber(expected));
const publisherData = (query: Record<string, string>) => getJson(s, null, '/api/publisher/data', query);

describe('publisher data', () => {
  test("a publisher's token shows only its rows by date × zone × geo, without revenue or margin", async () => {
    // Token names need not match case: 'puba' is PubA.
    const { token } = await admin.admin.createToken({ publisher_name: 'puba' });
    const { status, body: table } = await publisherData({ start_date: '2026-02-28', end_date: '2026-03-03', token });
    expect(status).toBe(200);
    const body = PublisherDataTable.parse(table).rows;
    expect(table).toMatchObject({ total_rows: 3, page: 1, page_size: 500, page_count: 1, sort: null });
    // Totals of the publisher's rows: impressions 1000 + 0 + 9999, p_revenue 6 + 0 + 59.4.
    expect(table.totals).toMatchObject({ impressions: 10999, clicks: 119 });
    close(table.totals.p_revenue, 65.4);
    expect(Object.keys(table.totals).sort()).toEqual(['clicks', 'ctr', 'impressions', 'p_cpm', 'p_revenue']);
    // PubA: R3 (03-02, Z-101), R1 (03-01, Z-100), R6 (02-28, Z-100) — newest first.
    expect(body.map((r: { date: string; zone_id: string }) => [r.date, r.zone_id])).toEqual([
      ['2026-03-02', 'Z-101'],
      ['2026-03-01', 'Z-100'],
      ['2026-02-28', 'Z-100'],
    ]);
    for (const row of body) expect(Object.keys(row).sort()).toEqual(['clicks', 'ctr', 'date', 'geo', 'impressions', 'p_cpm', 'p_revenue', 'zone_id']);
    const text = JSON.stringify(table);
    expect(text).not.toMatch(/"revenue"|"margin"|advertiser|AdNova|PubB|PubC/);
    // R1: ctr 20/800 = 2.5 %, p_revenue 6, p_cpm 6/1000×1000 = 6. R3: no impressions → null ratios.
    expect(body[1]).toEqual({ date: '2026-03-01', zone_id: 'Z-100', geo: 'ES', impressions: 1000, clicks: 20, ctr: 2.5, p_revenue: 6, p_cpm: 6 });
    expect(body[0]).toMatchObject({ impressions: 0, ctr: null, p_revenue: 0, p_cpm: null });
    close(body[2].p_revenue, 59.4); // 99 × 0.6
    close(body[2].p_cpm, (59.4 / 9999) * 1000);
  });

  test('the publisher pages and sorts its rows like every table, and exports them all as NDJSON', async () => {
    const token = (await admin.admin.listTokens()).find((t) => t.publisher_name === 'puba')!.token;
    const range = { start_date: '2026-02-28', end_date: '2026-03-03', token };
    const page = await publisherData({ ...range, sort: 'impressions:desc', page_size: '1', page: '2' });
    expect(page.body.rows.map((r: { date: string }) => r.date)).toEqual(['2026-03-01']);
    expect(page.body).toMatchObject({ total_rows: 3, page: 2, page_count: 3, sort: { key: 'impressions', dir: 'desc' } });
    const res = await s.fetch(`/api/publisher/data?${new URLSearchParams({ ...range, format: 'ndjson', page_size: '1' })}`);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = (await res.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((r) => r.date)).toEqual(['2026-03-02', '2026-03-01', '2026-02-28']);
    for (const bad of [{ sort: 'revenue' }, { sort: 'margin:desc' }, { page_size: '501' }]) {
      const { status, body } = await publisherData({ ...range, ...bad });
      expect(status).toBe(400);
      expect(body.detail).toMatch(/^(Orden|Filas por página): /);
    }
  });

  test('its use is recorded on the token (last_used_at)', async () => {
    const { token } = await admin.admin.createToken({ publisher_name: 'PubB' });
    expect((await admin.admin.listTokens()).find((t) => t.publisher_name === 'PubB')!.last_used_at).toBeNull();
    await publisherData({ start_date: '2026-03-01', end_date: '2026-03-03', token });
    const used = (await admin.admin.listTokens()).find((t) => t.publisher_name === 'PubB')!;
    expect(used.last_used_at).not.toBeNull();
  });

  test('format=csv answers a CSV file with the same rows', async () => {
    const token = (await admin.admin.listTokens()).find((t) => t.publisher_name === 'puba')!.token;
    const res = await s.fetch(`/api/publisher/data?start_date=2026-03-01&end_date=2026-03-03&token=${encodeURIComponent(token)}&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain('publisher-data-2026-03-01_to_2026-03-03.csv');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 BOM for spreadsheets
    expect(bytes.subarray(3).toString('utf8')).toBe(
      'date,zone_id,geo,impressions,clicks,ctr,p_revenue,p_cpm\n' + '2026-03-02,Z-101,ES,0,0,,0,\n' + '2026-03-01,Z-100,ES,1000,20,2.5,6,6\n',
    );
  });

  test('a missing, unknown or deleted token is a 401 and shows nothing', async () => {
    const range = { start_date: '2026-03-01', end_date: '2026-03-03' };
    for (const query of [range, { ...range, token: '' }, { ...range, token: 'not-a-token' }, { ...range, token: "' OR 1=1 --" }]) {
      const { status, body } = await publisherData(query);
      expect(status).toBe(401);
      expect(body).toEqual({ detail: 'Token de publisher no válido' });
    }
    const { token, id } = await admin.admin.createToken({ publisher_name: 'PubC' });
    await admin.admin.deleteToken({ id });
    expect((await publisherData({ ...range, token })).status).toBe(401);
  });

  test('bad dates are refused with 400; an overlong token is refused too', async () => {
    const token = (await admin.admin.listTokens())[0].token;
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ start_date: '2026-03-05', end_date: '2026-03-01', token }, /^La fecha de inicio debe ser anterior o igual a la de fin$/],
      [{ start_date: '03/01/2026', end_date: '2026-03-01', token }, /^Fecha de inicio: debe ser una fecha AAAA-MM-DD$/],
      [{ end_date: '2026-03-01', token }, /^Fecha de inicio: es obligatorio$/],
      [{ start_date: '2026-03-01', end_date: '2026-03-01', token, format: 'xml' }, /^Formato: debe ser json, csv o ndjson$/],
      [{ start_date: '2026-03-01', end_date: '2026-03-01', token: 'x'.repeat(500) }, /^Token: /],
    ];
    for (const [query, detail] of cases) {
      const { status, body } = await publisherData(query);
      expect(status).toBe(400);
      expect(body.detail).toMatch(detail);
    }
  });

  test('a zone id that looks like a spreadsheet formula is neutralised in the CSV', async () => {
    const csv = 'date,advertiser,publisher,zone_id,geo,impressions,clicks,revenue\n2026-06-01,AdNova,PubB,=HYPERLINK("x"),ES,10,1,1\n';
    expect((await postZoneReport(s, admin.token, csv)).status).toBe(200);
    const token = (await admin.admin.listTokens()).find((t) => t.publisher_name === 'PubB')!.token;
    const res = await s.fetch(`/api/publisher/data?start_date=2026-06-01&end_date=2026-06-01&token=${token}&format=csv`);
    expect(await res.text()).toContain(`'=HYPERLINK(""x"")`);
    const json = await publisherData({ start_date: '2026-06-01', end_date: '2026-06-01', token });
    expect(json.body.rows[0].zone_id).toBe('=HYPERLINK("x")');
  });
});

describe('revenue shares', () => {
  test('admins list configured publishers and those only seen in the data (at the default share)', async () => {
    const list = z.array(PublisherShare).parse(await admin.publishers.list());
    expect(list).toEqual(
      expect.arrayContaining([
        { name: 'PubA', revenue_share: 0.6, configured: true },
        { name: 'PubB', revenue_share: 0.7, configured: false },
        { name: 'PubC', revenue_share: 0.7, configured: false },
      ]),
    );
  });

  test('setting a share changes later imports only; a name in another case updates the same publisher', async () => {
    expect(await admin.publishers.set({ name: ' pubc ', revenue_share: 0.5 })).toEqual({ name: 'pubc', revenue_share: 0.5, configured: true });
    expect(await admin.publishers.set({ name: 'PUBC', revenue_share: 0.4 })).toEqual({ name: 'pubc', revenue_share: 0.4, configured: true });
    const list = await admin.publishers.list();
    expect(list.filter((p) => p.name.toLowerCase() === 'pubc')).toEqual([{ name: 'pubc', revenue_share: 0.4, configured: true }]);
    // R4 kept its stored margin (−1); a new PubC row uses 0.4.
    const csv = 'date,advertiser,publisher,zone_id,impressions,clicks,revenue\n2026-06-02,Clickora,PubC,RS-1,10,1,10\n';
    expect((await postZoneReport(s, admin.token, csv)).status).toBe(200);
    const rows = (await getJson(s, admin.token, '/api/ad-report', { start_date: '2026-03-02', end_date: '2026-06-02', publisher: 'PubC' })).body.rows;
    expect(rows.map((r: { zone_id: string; margin: number }) => [r.zone_id, r.margin])).toEqual([
      ['RS-1', 6],
      ['Z-300', -1],
    ]);
  });

  test('bad input is refused with 400 and nothing changes', async () => {
    const before = await admin.publishers.list();
    for (const body of [
      {},
      { name: '', revenue_share: 0.5 },
      { name: 'X', revenue_share: 2.5 },
      { name: 'X', revenue_share: -0.1 },
      { name: 'X', revenue_share: '0.5' },
      { name: 'x'.repeat(201), revenue_share: 0.5 },
      { name: ['X'], revenue_share: 0.5 },
    ]) {
      const res = await s.fetch('/api/admin/publishers', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).detail).toMatch(/^(Nombre|Revenue share|El nombre del publisher)/);
    }
    const malformed = await s.fetch('/api/admin/publishers', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
      body: '{"name": ',
    });
    expect(malformed.status).toBe(400);
    expect(await admin.publishers.list()).toEqual(before);
  });

  test('only admins see or set shares', async () => {
    await admin.admin.createUser({ first_name: 'Op', email: 'op-shares@example.com', password: 'op-pass-123' });
    const op = await s.as('op-shares@example.com', 'op-pass-123');
    for (const call of [op.publishers.list(), op.publishers.set({ name: 'PubA', revenue_share: 1 })]) {
      await expect(call).rejects.toMatchObject({ status: 403, detail: 'No autorizado' });
    }
    await expect(s.anon.publishers.list()).rejects.toMatchObject({ status: 401 });
    expect((await admin.publishers.list()).find((p) => p.name === 'PubA')!.revenue_share).toBe(0.6);
  });
});

describe('Dashboard deltas (reporting time zone)', () => {
  // UTC+14: its "yesterday" is often a different calendar day from UTC's.
  const TZ = 'Pacific/Kiritimati';
  let k: TestServer;
  let kAdmin: Api & { token: string };
  const yesterday = () => addDays(todayIn(TZ), -1);
  const deltas = async (query: Record<string, string> = {}) =>
    DailyDeltas.parse((await getJson(k, kAdmin.token, '/api/dashboard/deltas/daily', query)).body);

  beforeAll(async () => {
    k = await startTestServer({ tz: TZ });
    kAdmin = await k.admin();
    const y = yesterday();
    const b = addDays(y, -1);
    const csv = [
      'date,advertiser,publisher,zone_id,impressions,clicks,revenue,tq',
      `${b},AdNova,PubA,D-1,1000,20,10,0.8`, //  day before: ctr 2 %, margin 10 × 0.3 = 3
      `${y},AdNova,PubA,D-1,1200,30,15,0.6`, //  yesterday:  ctr 2.5 %, margin 4.5
      `${y},BidSphere,PubNew,D-2,100,1,1,`, //   only yesterday
      `${addDays(y, -2)},AdNova,PubA,D-1,1,1,999,0.1`, // older: not compared
      `${addDays(y, 1)},AdNova,PubA,D-1,1,1,999,0.1`, //  today: not compared
    ].join('\n');
    expect(await (await postZoneReport(k, kAdmin.token, csv)).json()).toMatchObject({ inserted: 5, rejected: [] });
  });
  afterAll(() => k.close());

  test('% change of yesterday against the day before, from each day’s sums', async () => {
    const d = await deltas({ advertiser: 'AdNova' });
    close(d.revenue, 50); // 15 vs 10
    close(d.margin, 50); // 4.5 vs 3
    close(d.impressions, 20); // 1200 vs 1000
    close(d.clicks, 50); // 30 vs 20
    close(d.ctr, 25); // 2.5 vs 2
    close(d.tq, -25); // 0.6 vs 0.8
  });

  test('all filters together: yesterday 16 vs 10 revenue over both advertisers', async () => {
    const d = await deltas();
    close(d.revenue, 60); // (15 + 1) vs 10
    close(d.impressions, 30); // 1300 vs 1000
  });

  test('null where the day before had nothing (base 0), never Infinity', async () => {
    expect(await deltas({ publisher: 'PubNew' })).toEqual({ revenue: null, margin: null, impressions: null, clicks: null, ctr: null, tq: null });
    expect(await deltas({ zone_id: 'no-such-zone' })).toEqual({ revenue: null, margin: null, impressions: null, clicks: null, ctr: null, tq: null });
  });

  test('deltas take no dates but refuse bad filters', async () => {
    const { status, body } = await getJson(k, kAdmin.token, '/api/dashboard/deltas/daily', { advertiser: ['A', 'B'] });
    expect(status).toBe(400);
    expect(body.detail).toMatch(/^Advertiser: /);
  });
});
