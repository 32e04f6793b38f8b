// Zone-report ingest over HTTP: CSV, NDJSON and JSON arrays with refused lines, the upsert on
// the natural key (idempotent re-imports), revenue shares, size limits and who may import.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ZoneDetails, type Api } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';
import { FIXTURE_CSV, RANGE, postZoneReport, getJson } from './reports-fixture.js';

const INGEST_KEY = 'test-ingest-key-0123456789';
let s: TestServer;
let admin: Api & { token: string };

beforeAll(async () => {
  s = await startTestServer({ ingestKey: INGEST_KEY });
  admin = await s.admin();
  await admin.publishers.set({ name: 'PubA', revenue_share: 0.6 });
});
afterAll(() => s.close());

const zoneDetails = async (query: Record<string, string>) =>
  ZoneDetails.parse((await getJson(s, admin.token, '/api/ad-report/zone-details', query)).body);
const post = (body: BodyInit, type = 'text/csv', extra: Record<string, string> = {}) => postZoneReport(s, admin.token, body, type, extra);
const close = (actual: number | null | undefined, expected: number) => expect(actual).toBeCloseTo(expected, 9);

describe('upsert on the natural key', () => {
  test('importing the same file twice stores it once: the second import reports every row replaced', async () => {
    expect(await (await post(FIXTURE_CSV)).json()).toEqual({
      inserted: 6,
      replaced: 0,
      rejected: [],
      rejected_total: 0,
      duplicates: [],
      duplicates_total: 0,
      days: [
        { date: '2026-02-28', report: 'final' },
        { date: '2026-03-01', report: 'final' },
        { date: '2026-03-02', report: 'final' },
        { date: '2026-03-03', report: 'final' },
      ],
    });
    const first = await zoneDetails(RANGE);
    expect(await (await post(FIXTURE_CSV)).json()).toEqual({
      inserted: 0,
      replaced: 6,
      rejected: [],
      rejected_total: 0,
      duplicates: [],
      duplicates_total: 0,
      days: [
        { date: '2026-02-28', report: 'final' },
        { date: '2026-03-01', report: 'final' },
        { date: '2026-03-02', report: 'final' },
        { date: '2026-03-03', report: 'final' },
      ],
    });
    const second = await zoneDetails(RANGE);
    expect(second.total_rows).toBe(5);
    expect(second.totals).toEqual(first.totals);
    close(second.totals.revenue, 22);
  });

  test('re-importing a day replaces its rows (domain is not part of the key)', async () => {
    const csv = [
      'date,advertiser,publisher,zone_id,geo,source,domain,impressions,clicks,revenue',
      '2026-03-01,AdNova,PubA,Z-100,ES,search,a2.com,1000,20,20',
    ].join('\n');
    expect(await (await post(csv)).json()).toMatchObject({ inserted: 0, replaced: 1 });
    const d = await zoneDetails({ ...RANGE, zone_id: 'Z-100' });
    expect(d.rows).toHaveLength(1);
    expect(d.rows[0]).toMatchObject({ domain: 'a2.com', revenue: 20, monetized_impressions: null });
    close(d.totals.revenue, 20);
    close((await zoneDetails(RANGE)).totals.revenue, 32); // 22 − 10 + 20
    await post(FIXTURE_CSV); // back to the fixture
    close((await zoneDetails(RANGE)).totals.revenue, 22);
  });

  test('a key repeated within one file: the last line wins, and the answer names each repeat with the key\u2019s first line', async () => {
    const csv = [
      'date,advertiser,publisher,zone_id,geo,source,impressions,clicks,revenue', // 1
      '2026-05-01,AdNova,PubA,DUP-1,ES,search,10,1,1', // 2
      '2026-05-01,AdNova,PubA,DUP-2,ES,search,10,1,1', // 3
      '2026-05-01,AdNova,PubA,DUP-1,ES,search,10,1,7', // 4 repeats line 2
      '2026-05-01,AdNova,PubA,DUP-1,MX,search,10,1,2', // 5 another geo: another key
      '2026-05-01,AdNova,PubA,DUP-2,ES,search,-10,1,1', // 6 refused: not a repeat
      '2026-05-01,AdNova,PubA,DUP-1,ES,search,10,1,9', // 7 repeats line 2 again: stored
    ].join('\n');
    expect(await (await post(csv)).json()).toEqual({
      inserted: 3,
      replaced: 0,
      rejected: [{ line: 6, detail: 'impressions: no puede ser negativo' }],
      rejected_total: 1,
      duplicates: [
        {
          line: 4,
          first_line: 2,
          detail: 'misma clave (date, advertiser, publisher, zone_id, geo, source) que la línea 2: se guarda la última línea de la clave',
        },
        {
          line: 7,
          first_line: 2,
          detail: 'misma clave (date, advertiser, publisher, zone_id, geo, source) que la línea 2: se guarda la última línea de la clave',
        },
      ],
      duplicates_total: 2,
      days: [{ date: '2026-05-01', report: 'final' }],
    });
    const d = await zoneDetails({ start_date: '2026-05-01', end_date: '2026-05-01', zone_id: 'DUP-' });
    expect(d.rows.map((r) => [r.zone_id, r.geo, r.revenue]).sort()).toEqual([
      ['DUP-1', 'ES', 9],
      ['DUP-1', 'MX', 2],
      ['DUP-2', 'ES', 1],
    ]);
  });

  test('repeated keys are numbered the same in NDJSON lines and JSON array elements; at most 1,000 listed, all counted', async () => {
    const row = (zone: string, revenue: number) => ({
      date: '2026-05-03',
      advertiser: 'AdNova',
      publisher: 'PubA',
      zone_id: zone,
      impressions: 1,
      clicks: 0,
      revenue,
    });
    const ndjson = [JSON.stringify(row('R-1', 1)), '', JSON.stringify(row('R-2', 1)), JSON.stringify(row('R-1', 2))].join('\n');
    expect(await (await post(ndjson, 'application/x-ndjson')).json()).toMatchObject({
      inserted: 2,
      duplicates: [{ line: 4, first_line: 1 }],
      duplicates_total: 1,
    });
    const array = JSON.stringify([row('R-3', 1), row('R-3', 2), row('R-3', 3)]);
    expect(await (await post(array, 'application/json')).json()).toMatchObject({
      inserted: 1,
      duplicates: [
        { line: 2, first_line: 1 },
        { line: 3, first_line: 1 },
      ],
      duplicates_total: 2,
    });
    const many = [
      'date,advertiser,publisher,zone_id,impressions,clicks,revenue',
      ...Array.from({ length: 1501 }, (_, i) => `2026-05-04,AdNova,PubA,MANY,1,0,${i}`),
    ];
    const result = await (await post(many.join('\n'))).json();
    expect(result).toMatchObject({ inserted: 1, rejected_total: 0, duplicates_total: 1500 });
    expect(result.duplicates).toHaveLength(1000);
    expect(result.duplicates[999]).toMatchObject({ line: 1002, first_line: 2 });
    const d = await zoneDetails({ start_date: '2026-05-04', end_date: '2026-05-04', zone_id: 'MANY' });
    expect(d.rows.map((r) => r.revenue)).toEqual([1500]);
  });

  test('missing margin and publisher revenue come from the configured share, then the default', async () => {
    await admin.publishers.set({ name: 'ShareTest', revenue_share: 0.25 });
    const csv = [
      'date,advertiser,publisher,zone_id,impressions,clicks,revenue,margin,p_revenue,rate_applied',
      '2026-05-02,AdNova,ShareTest,S-1,100,1,8,,,', //   share 0.25 → p 2, margin 6
      '2026-05-02,AdNova,sharetest,S-2,100,1,8,,,', //   same publisher in another case
      '2026-05-02,AdNova,NoShare,S-3,100,1,10,,,', //    default 0.7 → p 7, margin 3
      '2026-05-02,AdNova,ShareTest,S-4,100,1,10,2.5,,', // margin given → p 7.5
      '2026-05-02,AdNova,ShareTest,S-5,100,1,10,,4,', //   p_revenue given → margin 6
      '2026-05-02,AdNova,ShareTest,S-6,100,1,10,,,0.9', // rate given → p 9, margin 1
    ].join('\n');
    expect(await (await post(csv)).json()).toMatchObject({ inserted: 6, rejected: [] });
    const d = await zoneDetails({ start_date: '2026-05-02', end_date: '2026-05-02', zone_id: 'S-' });
    const byZone = Object.fromEntries(d.rows.map((r) => [r.zone_id, r]));
    expect(byZone['S-1']).toMatchObject({ p_revenue: 2, margin: 6, rate_applied: 0.25 });
    expect(byZone['S-2']).toMatchObject({ p_revenue: 2, margin: 6, rate_applied: 0.25 });
    expect(byZone['S-3']).toMatchObject({ rate_applied: 0.7 });
    close(byZone['S-3'].p_revenue, 7);
    close(byZone['S-3'].margin, 3);
    expect(byZone['S-4']).toMatchObject({ p_revenue: 7.5, margin: 2.5, rate_applied: 0.75 });
    expect(byZone['S-5']).toMatchObject({ p_revenue: 4, margin: 6, rate_applied: 0.4 });
    expect(byZone['S-6']).toMatchObject({ p_revenue: 9, rate_applied: 0.9 });
    close(byZone['S-6'].margin, 1);
  });
});

describe('formats and refused lines', () => {
  test('CSV: good lines are kept, bad ones refused with their physical line number and reason', async () => {
    const csv = [
      'date,advertiser,publisher,zone_id,geo,source,domain,impressions,monetized_impressions,clicks,revenue,tq', // 1
      '2026-04-01,AdNova,PubA,C-1,ES,search,a.com,100,80,2,1.5,0.9', // 2 good
      '2026-04-31,AdNova,PubA,C-2,ES,search,a.com,100,80,2,1.5,0.9', // 3 no such day
      '2026-04-01,AdNova,PubA,,ES,search,a.com,100,80,2,1.5,0.9', // 4 no zone
      '2026-04-01,AdNova,PubA,C-3,ES,search,a.com,cien,80,2,1.5,0.9', // 5 not a number
      '2026-04-01,AdNova,PubA,C-4,ES,search,a.com,100,80,2', // 6 short (10 fields)
      '2026-04-01,AdNova,"Pub, ""Quoted""', // 7 a quoted field over two lines…
      'Name",C-5,ES,search,a.com,100,80,2,"1.5",', // 8 …good, no tq
      '', // 9 blank
      '2026-04-01,AdNova,PubA,C-6,ES,search,a.com,100,80,-2,1.5,0.9', // 10 negative clicks
      '2026-04-01,AdNova,PubA,C-7,ES,search,a.com,100,80,2,"1,5",0.9', // 11 decimal comma
      '2026-04-01,AdNova,PubA,C-8,ES,search,a.com,100,80,2,1.5,0.9,extra', // 12 long
      '2026-04-01,AdNova,PubA,C-9,ES,search,a.com,100,80,2,1.5,0.9\r', // 13 CRLF, good
      '2026-04-01,AdNova,PubA,C-10,ES,search,a.com,100,80,2,1e400,0.9', // 14 overflow
    ].join('\n');
    const result = await (await post(csv)).json();
    expect(result).toEqual({
      inserted: 3,
      replaced: 0,
      rejected: [
        { line: 3, detail: 'date: fecha no válida (YYYY-MM-DD)' },
        { line: 4, detail: 'zone_id: obligatorio' },
        { line: 5, detail: 'impressions: debe ser un número (con punto decimal)' },
        { line: 6, detail: 'tiene 10 campos y la cabecera 12' },
        { line: 10, detail: 'clicks: no puede ser negativo' },
        { line: 11, detail: 'revenue: debe ser un número (con punto decimal)' },
        { line: 12, detail: 'tiene 13 campos y la cabecera 12' },
        { line: 14, detail: 'revenue: número fuera de rango' },
      ],
      rejected_total: 8,
      duplicates: [],
      duplicates_total: 0,
      days: [{ date: '2026-04-01', report: 'final' }],
    });
    const d = await zoneDetails({ start_date: '2026-04-01', end_date: '2026-04-01', zone_id: 'C-' });
    expect(d.rows.map((r) => r.zone_id).sort()).toEqual(['C-1', 'C-5', 'C-9']);
    expect(d.rows.find((r) => r.zone_id === 'C-5')).toMatchObject({ publisher: 'Pub, "Quoted"\nName', tq: null, revenue: 1.5 });
  });

  test('a negative revenue or publisher revenue is refused with its line; the month keeps its sum', async () => {
    const before = await zoneDetails({ start_date: '2026-06-01', end_date: '2026-06-30' });
    const csv = [
      'date,advertiser,publisher,zone_id,impressions,clicks,revenue,p_revenue',
      '2026-06-02,AdNova,PubA,N-1,100,1,12.5,',
      '2026-06-02,AdNova,PubA,N-2,100,1,-999999,', // a clawback typed as a row
      '2026-06-02,AdNova,PubA,N-3,100,1,5,-1',
      '2026-06-02,AdNova,PubA,N-4,100,1,0,0', // zero is a real day without revenue
    ].join('\n');
    const result = await (await post(csv)).json();
    expect(result.rejected).toEqual([
      { line: 3, detail: 'revenue: no puede ser negativo' },
      { line: 4, detail: 'p_revenue: no puede ser negativo' },
    ]);
    expect(result.inserted).toBe(2);
    const after = await zoneDetails({ start_date: '2026-06-01', end_date: '2026-06-30' });
    close(after.totals.revenue, (before.totals.revenue ?? 0) + 12.5);
  });

  test('negative impressions, monetized impressions or clicks are refused with their line; the month keeps its counts', async () => {
    const range = { start_date: '2026-06-03', end_date: '2026-06-03' };
    const csv = [
      'date,advertiser,publisher,zone_id,impressions,monetized_impressions,clicks,revenue', // 1
      '2026-06-03,AdNova,PubA,NC-1,100,80,3,1', // 2 good
      '2026-06-03,AdNova,PubA,NC-2,-100,,3,1', // 3
      '2026-06-03,AdNova,PubA,NC-3,100,-80,3,1', // 4
      '2026-06-03,AdNova,PubA,NC-4,100,80,-3,1', // 5
      '2026-06-03,AdNova,PubA,NC-5,-1e3,80,3,1', // 6 written as an exponent
      '2026-06-03,AdNova,PubA,NC-6,0,0,0,0', // 7 zero is a real day without traffic
    ].join('\n');
    expect(await (await post(csv)).json()).toEqual({
      inserted: 2,
      replaced: 0,
      rejected: [
        { line: 3, detail: 'impressions: no puede ser negativo' },
        { line: 4, detail: 'monetized_impressions: no puede ser negativo' },
        { line: 5, detail: 'clicks: no puede ser negativo' },
        { line: 6, detail: 'impressions: no puede ser negativo' },
      ],
      rejected_total: 4,
      duplicates: [],
      duplicates_total: 0,
      days: [{ date: '2026-06-03', report: 'final' }],
    });
    const ndjson = '{"date":"2026-06-03","advertiser":"AdNova","publisher":"PubA","zone_id":"NC-7","impressions":-5,"clicks":1,"revenue":1}\n';
    expect(await (await post(ndjson, 'application/x-ndjson')).json()).toMatchObject({
      inserted: 0,
      rejected: [{ line: 1, detail: 'impressions: no puede ser negativo' }],
    });
    const d = await zoneDetails(range);
    expect(d.rows.map((r) => r.zone_id).sort()).toEqual(['NC-1', 'NC-6']);
    expect(d.totals).toMatchObject({ impressions: 100, clicks: 3 });
  });

  test('NDJSON: one object per line; malformed lines and non-objects refused', async () => {
    const lines = [
      '{"date":"2026-04-02","advertiser":"BidSphere","publisher":"PubB","zone_id":"N-1","impressions":10,"clicks":1,"revenue":0.5}',
      '{not json}',
      '[1,2]',
      '',
      '{"date":"2026-04-02","advertiser":"BidSphere","publisher":"PubB","zone_id":12345,"impressions":"10","clicks":1,"revenue":"0.5","margin":0.1}',
      '{"date":"2026-04-02","advertiser":"BidSphere","publisher":"PubB","zone_id":"N-3","impressions":1.5,"clicks":1,"revenue":0.5}',
    ].join('\n');
    const result = await (await post(lines, 'application/x-ndjson')).json();
    expect(result).toEqual({
      inserted: 2,
      replaced: 0,
      rejected: [
        { line: 2, detail: 'JSON mal formado' },
        { line: 3, detail: 'se esperaba un objeto JSON' },
        { line: 6, detail: 'impressions: debe ser un entero ≥ 0' },
      ],
      rejected_total: 3,
      duplicates: [],
      duplicates_total: 0,
      days: [{ date: '2026-04-02', report: 'final' }],
    });
    const d = await zoneDetails({ start_date: '2026-04-02', end_date: '2026-04-02' });
    const numeric = d.rows.find((r) => r.zone_id === '12345')!;
    expect(numeric).toMatchObject({ impressions: 10, revenue: 0.5, margin: 0.1 });
    close(numeric.p_revenue, 0.4);
  });

  test('JSON array: element positions number the refused ones', async () => {
    const body = JSON.stringify([
      { date: '2026-04-03', advertiser: 'Clickora', publisher: 'PubC', zone_id: 'J-1', impressions: 5, clicks: 0, revenue: 0.1 },
      'not a row',
      { date: '2026-04-03', advertiser: 'Clickora', publisher: 'PubC', zone_id: 'J-2', impressions: 5, clicks: 0 },
      { date: '2026-04-03', advertiser: 'Clickora', publisher: 'PubC', zone_id: 'J-3', impressions: 5, clicks: 0, revenue: 1, rate_applied: 3 },
    ]);
    expect(await (await post(body, 'application/json')).json()).toEqual({
      inserted: 1,
      replaced: 0,
      rejected: [
        { line: 2, detail: 'se esperaba un objeto JSON' },
        { line: 3, detail: 'revenue: obligatorio' },
        { line: 4, detail: 'rate_applied: debe estar entre 0 y 2' },
      ],
      rejected_total: 3,
      duplicates: [],
      duplicates_total: 0,
      days: [{ date: '2026-04-03', report: 'final' }],
    });
  });

  test('a gzip-compressed CSV is read the same', async () => {
    const csv = 'date,advertiser,publisher,zone_id,impressions,clicks,revenue\n2026-04-04,AdNova,PubA,G-1,10,1,2\n';
    const res = await post(gzipSync(csv), 'text/csv', { 'content-encoding': 'gzip' });
    expect(await res.json()).toMatchObject({ inserted: 1 });
    const broken = await post(Buffer.from('not gzip at all'), 'text/csv', { 'content-encoding': 'gzip' });
    expect(broken.status).toBe(400);
    expect((await broken.json()).detail).toBe('El cuerpo gzip está dañado');
  });

  test('at most 1,000 refused lines are listed, all are counted', async () => {
    const bad = Array.from({ length: 1500 }, (_, i) => `2026-13-01,AdNova,PubA,B-${i},1,1,1`);
    const result = await (await post(['date,advertiser,publisher,zone_id,impressions,clicks,revenue', ...bad].join('\n'))).json();
    expect(result.inserted).toBe(0);
    expect(result.rejected).toHaveLength(1000);
    expect(result.rejected_total).toBe(1500);
    expect(result.rejected[999]).toEqual({ line: 1001, detail: 'date: fecha no válida (YYYY-MM-DD)' });
  });
});

describe('refused imports change nothing', () => {
  const totalRevenue = async () => (await zoneDetails({ start_date: '2026-01-01', end_date: '2026-12-31' })).totals.revenue;

  test.each([
    [
      'an unsupported content type',
      'hola',
      'text/plain',
      415,
      'Tipo de contenido no soportado: usa text/csv, application/x-ndjson o application/json',
    ],
    [
      'a CSV without required columns',
      'date,advertiser,publisher,zone_id,impressions,clicks\n2026-04-05,A,P,Z,1,1',
      'text/csv',
      400,
      'Faltan columnas en la cabecera CSV: revenue',
    ],
    [
      'a CSV with a repeated column',
      'date,advertiser,publisher,zone_id,impressions,clicks,revenue,revenue\n',
      'text/csv',
      400,
      'Columna repetida en la cabecera CSV: revenue',
    ],
    ['an empty CSV', '', 'text/csv', 400, 'El CSV está vacío: falta la fila de cabecera'],
    ['malformed JSON', '[{"date":', 'application/json', 400, 'JSON mal formado'],
    ['a JSON object instead of an array', '{"date":"2026-04-05"}', 'application/json', 400, 'Se esperaba un array JSON de filas'],
  ])('%s → %d', async (_name, body, type, status, detail) => {
    const before = await totalRevenue();
    const res = await post(body, type);
    expect(res.status).toBe(status);
    expect((await res.json()).detail).toBe(detail);
    expect(await totalRevenue()).toBe(before);
  });

  test('an unsupported content encoding → 415', async () => {
    const res = await post('x', 'text/csv', { 'content-encoding': 'br' });
    expect(res.status).toBe(415);
  });

  test('a body over the limit is refused with 413, by its declared length or while streaming', async () => {
    const limits = s.app.services.ingest.limits;
    const saved = { ...limits };
    limits.maxBytes = 2000;
    limits.maxJsonBytes = 1000;
    try {
      const before = await totalRevenue();
      const line = '2026-04-06,AdNova,PubA,L-1,ES,search,a.com,1,1,1\n';
      const big = `date,advertiser,publisher,zone_id,geo,source,domain,impressions,clicks,revenue\n${line.repeat(60)}`;
      const declared = await post(big);
      expect(declared.status).toBe(413);
      expect((await declared.json()).detail).toBe('El cuerpo supera el máximo de 2000 bytes');
      // No Content-Length: the stream is cut once it passes the limit.
      const encoder = new TextEncoder();
      const stream = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 10; i++) controller.enqueue(encoder.encode(big.slice(i * 300, (i + 1) * 300)));
          controller.close();
        },
      });
      const streamed = await s.fetch('/api/ingest/zone-report', {
        method: 'POST',
        headers: { 'content-type': 'text/csv', authorization: `Bearer ${admin.token}` },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      expect(streamed.status).toBe(413);
      expect((await streamed.json()).detail).toBe('El cuerpo supera el máximo de 2000 bytes');
      const json = await post(JSON.stringify(Array.from({ length: 60 }, () => ({ date: '2026-04-06' }))), 'application/json');
      expect(json.status).toBe(413);
      expect((await json.json()).detail).toMatch(/array JSON; usa CSV o NDJSON/);
      expect(await totalRevenue()).toBe(before);
    } finally {
      Object.assign(limits, saved);
    }
  });
});

describe('who may import', () => {
  const csv = 'date,advertiser,publisher,zone_id,impressions,clicks,revenue\n2026-04-07,AdNova,PubA,K-1,1,0,1\n';
  const send = (headers: Record<string, string>) =>
    s.fetch('/api/ingest/zone-report', { method: 'POST', headers: { 'content-type': 'text/csv', ...headers }, body: csv });

  test('no credentials or a wrong key → 401', async () => {
    expect((await send({})).status).toBe(401);
    expect((await send({ 'x-ingest-key': 'wrong-key-wrong-key-000' })).status).toBe(401);
    expect((await send({ authorization: 'Bearer wrong-key-wrong-key-000' })).status).toBe(401);
  });

  test('the ingest key as X-Ingest-Key or as a bearer token is accepted', async () => {
    expect((await send({ 'x-ingest-key': INGEST_KEY })).status).toBe(200);
    const res = await send({ authorization: `Bearer ${INGEST_KEY}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ inserted: 0, replaced: 1 });
  });

  test("a signed-in user who is not an admin is refused (403 'No autorizado')", async () => {
    await admin.admin.createUser({ first_name: 'Op', email: 'op-ingest@example.com', password: 'op-pass-123' });
    const op = await s.as('op-ingest@example.com', 'op-pass-123');
    const res = await send({ authorization: `Bearer ${op.token}` });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toBe('No autorizado');
  });

  test('without a configured ingest key only an admin session imports', async () => {
    const other = await startTestServer();
    try {
      const res = await other.fetch('/api/ingest/zone-report', {
        method: 'POST',
        headers: { 'content-type': 'text/csv', 'x-ingest-key': INGEST_KEY },
        body: csv,
      });
      expect(res.status).toBe(401);
      const otherAdmin = await other.admin();
      expect((await postZoneReport(other, otherAdmin.token, csv)).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});
