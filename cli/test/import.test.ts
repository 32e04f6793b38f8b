// `adops import zone-report|referrers` and `adops seed` against a live server: counts of new,
// replaced and refused lines (refused ones listed, exit 1), formats by extension or --format,
// gzip, admin only, referrer batches with file line numbers, and the demo data through ingest.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, formatDateDMY, todayIn, type IngestResult } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { newConfigDir, runCli } from './helpers.js';
import { REFERRER_BATCH_EVENTS } from '../src/commands/import.js';

const d1 = addDays(todayIn('UTC'), -1);

let server: TestServer;
let dir: string;
let tmp: string;
const cli = (args: string[], options?: Parameters<typeof runCli>[3]) => runCli(args, dir, server.url, options);
const file = async (name: string, content: string | Buffer) => {
  const full = path.join(tmp, name);
  await writeFile(full, content);
  return full;
};
const zoneRows = async (zone: string) =>
  (await (await server.admin()).adReport.zoneDetails({ start_date: d1, end_date: d1, zone_id: zone, page_size: 500 })).rows;

beforeAll(async () => {
  server = await startTestServer();
  dir = await newConfigDir();
  tmp = await mkdtemp(path.join(tmpdir(), 'adops-cli-import-'));
  expect((await cli(['login', '--email', ADMIN.email], { stdin: `${ADMIN.password}\n` })).code).toBe(0);
});
afterAll(() => server?.close());

const CSV = [
  'date,advertiser,publisher,zone_id,geo,source,impressions,clicks,revenue,margin',
  `${d1},AdNova,Pub Imp,imp-1,ES,web,1000,10,5.5,1.5`,
  `${d1},AdNova,Pub Imp,imp-2,ES,web,2000,20,abc,1`,
  `${d1},BidSphere,Pub Imp,imp-3,MX,push,3000,30,7,2`,
  `not-a-date,BidSphere,Pub Imp,imp-4,MX,push,3000,30,7,2`,
].join('\n');

describe('adops import zone-report', () => {
  it('stores the good lines, lists the refused ones with their line and reason, and exits 1', async () => {
    const r = await cli(['import', 'zone-report', await file('zonas.csv', CSV)], { isTTY: true });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Filas nuevas: 2 · reemplazadas: 0 · rechazadas: 2');
    expect(r.stdout).toMatch(/línea 3: revenue: debe ser un número/);
    expect(r.stdout).toMatch(/línea 5: date: fecha no válida/);
    // The terminal's progress line is cleared before the answer; the failure is the last line.
    expect(r.stderr.split('\u001b[2K').at(-1)!.trim()).toBe('2 líneas rechazadas');
    const stored = await zoneRows('imp-');
    expect(stored.map((row) => [row.zone_id, row.revenue, row.margin]).sort()).toEqual([
      ['imp-1', 5.5, 1.5],
      ['imp-3', 7, 2],
    ]);
  });

  it('a line whose figures disagree refuses the whole file: the line and column named, exit non-zero, nothing stored', async () => {
    const csv = [
      'date,advertiser,publisher,zone_id,impressions,clicks,revenue,p_revenue,margin',
      `${d1},AdNova,Pub Money,money-1,1000,10,10,5,5`,
      `${d1},AdNova,Pub Money,money-2,1000,10,10,5,999.999`,
    ].join('\n');
    const r = await cli(['import', 'zone-report', await file('dinero.csv', csv)]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'Línea 3: margin (999.999) no es revenue − p_revenue (10 − 5 = 5): el margen es el revenue menos el revenue del publisher, con un céntimo de tolerancia. No se ha importado nada',
    );
    expect(await zoneRows('money-')).toEqual([]);
  });

  it('importing the same day again replaces it (--json, NDJSON gzip, exit 0)', async () => {
    const rows = [
      {
        date: d1,
        advertiser: 'AdNova',
        publisher: 'Pub Imp',
        zone_id: 'imp-1',
        geo: 'ES',
        source: 'web',
        impressions: 1000,
        clicks: 10,
        revenue: 6,
        margin: 2,
      },
      {
        date: d1,
        advertiser: 'Clickora',
        publisher: 'Pub Imp',
        zone_id: 'imp-5',
        geo: 'AR',
        source: 'web',
        impressions: 500,
        clicks: 5,
        revenue: 1,
        margin: 0.5,
      },
    ];
    const gz = gzipSync(`${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
    const r = await cli(['import', 'zone-report', '--json', await file('zonas.ndjson.gz', gz)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout) as IngestResult).toEqual({
      inserted: 1,
      replaced: 1,
      rejected: [],
      rejected_total: 0,
      duplicates: [],
      duplicates_total: 0,
      days: [{ date: d1, report: 'final' }],
    });
    expect((await zoneRows('imp-1'))[0]).toMatchObject({ revenue: 6, margin: 2 });
  });

  it('a key repeated within the file is listed with its first line; the last line is stored and the exit is 0', async () => {
    const csv = [
      'date,advertiser,publisher,zone_id,geo,source,impressions,clicks,revenue,margin', // 1
      `${d1},AdNova,Pub Imp,imp-rep,ES,web,100,1,3,1`, // 2
      `${d1},AdNova,Pub Imp,imp-rep,ES,web,100,1,4,1`, // 3 repeats line 2: stored
    ].join('\n');
    const r = await cli(['import', 'zone-report', await file('repetidas.csv', csv)], { isTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Filas nuevas: 1 · reemplazadas: 0 · rechazadas: 0 · claves repetidas: 1');
    expect(r.stdout).toContain(
      'línea 3: misma clave (date, advertiser, publisher, zone_id, geo, source) que la línea 2: se guarda la última línea de la clave',
    );
    expect((await zoneRows('imp-rep')).map((row) => row.revenue)).toEqual([4]);
  });

  it('says which days’ reports are final or partial: by the clock, or --partial / --final; both at once is a usage error', async () => {
    const today = todayIn('UTC');
    const line = (date: string, zone: string) => `${date},AdNova,Pub Imp,${zone},ES,web,100,1,1,0.5`;
    const csv = await file('finalidad.csv', [CSV.split('\n')[0], line(d1, 'fin-1'), line(today, 'fin-1')].join('\n'));
    const auto = await cli(['import', 'zone-report', csv], { isTTY: true });
    expect(auto.code).toBe(0);
    expect(auto.stdout).toContain(
      `Informe de zonas final: ${formatDateDMY(d1)} · parcial: ${formatDateDMY(today)} (su revenue es una estimación hasta importar el informe final, o con --final)`,
    );
    const partial = JSON.parse((await cli(['import', 'zone-report', '--partial', '--json', csv])).stdout) as IngestResult;
    expect(partial.days).toEqual([
      { date: d1, report: 'partial' },
      { date: today, report: 'partial' },
    ]);
    const final = await cli(['import', 'zone-report', '--final', csv], { isTTY: true });
    expect(final.stdout).toContain(`Informe de zonas final: ${formatDateDMY(d1)} y ${formatDateDMY(today)}`);
    const both = await cli(['import', 'zone-report', '--final', '--partial', csv]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Usa --final o --partial, no ambos');
  });

  it('needs a known format (or --format) and a readable file', async () => {
    const odd = await file('zonas.txt', CSV);
    const unknown = await cli(['import', 'zone-report', odd]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--format csv|ndjson|json');
    const forced = await cli(['import', 'zone-report', '--format', 'csv', '--json', odd]);
    expect((JSON.parse(forced.stdout) as IngestResult).rejected_total).toBe(2);
    const missing = await cli(['import', 'zone-report', path.join(tmp, 'nope.csv')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No se puede leer el archivo');
  });

  it('refuses a non-admin with exit 4 and stores nothing', async () => {
    const admin = await server.admin();
    await admin.admin.createUser({ first_name: 'Ana', last_name: '', email: 'ana@test.local', password: 'ana-pass-1234', is_admin: false });
    const userDir = await newConfigDir();
    await runCli(['login', '--email', 'ana@test.local'], userDir, server.url, { stdin: 'ana-pass-1234\n' });
    const rows = `date,advertiser,publisher,zone_id,impressions,clicks,revenue\n${d1},AdNova,Pub Ana,imp-ana,1,0,1\n`;
    const r = await runCli(['import', 'zone-report', await file('ana.csv', rows)], userDir, server.url);
    expect(r.code).toBe(4);
    expect(r.stderr.trim()).toBe('No autorizado');
    expect(await zoneRows('imp-ana')).toEqual([]);
  });
});

describe('adops import referrers', () => {
  const event = (i: number) =>
    JSON.stringify({ zone_id: 'imp-ref', keyword: `k${i}`, referrer: `https://site.example/${i}`, seen_at: `${d1}T12:00:00Z` });
  /** Events in the warehouse (the log endpoint answers at most 5,000). */
  const stored = () => server.app.services.referrers.warehouse.countEvents();

  it('sends a large file in batches and stores every event', async () => {
    const count = REFERRER_BATCH_EVENTS + 25;
    const text = `${Array.from({ length: count }, (_, i) => event(i)).join('\n')}\n\n`;
    const r = await cli(['import', 'referrers', '--json', await file('refs.ndjson', text)]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { accepted: number; batches: number; first_id: number; last_id: number };
    expect(out).toMatchObject({ accepted: count, batches: 2 });
    expect(out.last_id - out.first_id + 1).toBe(count);
    expect(await stored()).toBe(count);
  });

  it('stops at a bad line, naming its line in the file; earlier batches stay stored', async () => {
    const before = await stored();
    const lines = Array.from({ length: REFERRER_BATCH_EVENTS + 10 }, (_, i) => event(100_000 + i));
    lines[REFERRER_BATCH_EVENTS + 4] = '{"zone_id": "imp ref with spaces"}';
    const r = await cli(['import', 'referrers', await file('bad.ndjson', `${lines.join('\n')}\n`)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`línea ${REFERRER_BATCH_EVENTS + 5}: Zone ID`);
    expect(r.stderr).toContain(`(${REFERRER_BATCH_EVENTS} eventos de lotes anteriores sí se guardaron)`);
    expect(await stored()).toBe(before + REFERRER_BATCH_EVENTS);
  });

  it('the same file imported again (a retry after a cut) stores nothing twice and says how many were there', async () => {
    const text = `${Array.from({ length: REFERRER_BATCH_EVENTS + 7 }, (_, i) => event(200_000 + i)).join('\n')}\n`;
    const path = await file('again.ndjson', text);
    const first = await cli(['import', 'referrers', '--json', path]);
    expect(JSON.parse(first.stdout)).toMatchObject({ accepted: REFERRER_BATCH_EVENTS + 7, duplicates: 0 });
    const before = await stored();
    const again = await cli(['import', 'referrers', path], { isTTY: true });
    expect(again.code).toBe(0);
    expect(again.stdout.trim()).toBe(`Eventos guardados: 0 · ya guardados antes (no se duplican): ${REFERRER_BATCH_EVENTS + 7}`);
    expect(await stored()).toBe(before);
    // The same lines in another order are other batches: events without event_id are stored again.
    const shuffled = await cli([
      'import',
      'referrers',
      '--json',
      await file('shuffled.ndjson', `${text.trimEnd().split('\n').reverse().join('\n')}\n`),
    ]);
    expect(JSON.parse(shuffled.stdout)).toMatchObject({ accepted: REFERRER_BATCH_EVENTS + 7, duplicates: 0 });
  });

  it('events with event_id are stored once whatever file brings them', async () => {
    const keyed = (i: number) => JSON.stringify({ event_id: `ev-${i}`, zone_id: 'imp-ref', keyword: `e${i}`, seen_at: `${d1}T13:00:00Z` });
    const a = await cli(['import', 'referrers', '--json', await file('keyed-a.ndjson', `${[1, 2, 3].map(keyed).join('\n')}\n`)]);
    expect(JSON.parse(a.stdout)).toMatchObject({ accepted: 3, duplicates: 0 });
    const b = await cli(['import', 'referrers', '--json', await file('keyed-b.ndjson', `${[3, 4].map(keyed).join('\n')}\n`)]);
    expect(JSON.parse(b.stdout)).toMatchObject({ accepted: 1, duplicates: 1 });
  });

  it('refuses a file without events', async () => {
    const r = await cli(['import', 'referrers', await file('empty.ndjson', '\n\n')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no contiene eventos');
  });
});

describe('adops seed', () => {
  it('loads the demo zone reports and publishers’ revenue shares through ingest; again, it replaces instead of duplicating', async () => {
    const first = await cli(['seed', '--days', '3', '--zones', '40', '--json']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const loaded = JSON.parse(first.stdout) as IngestResult & { revenue_shares_set: number };
    expect(loaded.inserted).toBeGreaterThan(40);
    expect(loaded.rejected_total).toBe(0);
    expect(loaded.revenue_shares_set).toBe(40);
    const api = await server.admin();
    const overview = await api.dashboard.overview({ start_date: addDays(todayIn('UTC'), -2), end_date: todayIn('UTC') });
    expect(overview.summary.revenue).toBeGreaterThan(0);
    expect((await api.publishers.list()).filter((p) => p.configured)).toHaveLength(40);

    const again = JSON.parse((await cli(['seed', '--days', '3', '--zones', '40', '--json'])).stdout) as IngestResult & { revenue_shares_set: number };
    expect(again).toMatchObject({ inserted: 0, replaced: loaded.inserted, revenue_shares_set: 0 });
  });
});

describe('import with the ingest key, and its progress on a terminal', () => {
  const KEY = 'cli-ingest-key-0123456789';
  let keyed: TestServer;
  beforeAll(async () => {
    keyed = await startTestServer({ ingestKey: KEY });
  });
  afterAll(() => keyed?.close());
  // No login: a fresh config dir, so only the key can authorise the import.
  const run = async (args: string[], options: Parameters<typeof runCli>[3] = {}) => runCli(args, await newConfigDir(), keyed.url, options);

  it('--ingest-key or ADOPS_INGEST_KEY imports without a session; a wrong key is said as such (exit 3)', async () => {
    const csv = await file(
      'keyed.csv',
      ['date,advertiser,publisher,zone_id,impressions,clicks,revenue', `${d1},AdNova,Pub Key,key-1,100,1,1.25`].join('\n'),
    );
    const flag = await run(['import', 'zone-report', csv, '--ingest-key', KEY, '--json']);
    expect(flag.code, flag.stderr).toBe(0);
    expect(JSON.parse(flag.stdout)).toMatchObject({ inserted: 1 });
    const env = await run(['import', 'zone-report', csv, '--json'], { env: { ADOPS_INGEST_KEY: KEY } });
    expect(JSON.parse(env.stdout)).toMatchObject({ replaced: 1 });
    const events = await file('keyed.ndjson', '{"zone_id":"key-1","referrer":"https://a.example/x"}\n');
    const referrers = await run(['import', 'referrers', events, '--json'], { env: { ADOPS_INGEST_KEY: KEY } });
    expect(JSON.parse(referrers.stdout)).toMatchObject({ accepted: 1 });
    const wrong = await run(['import', 'zone-report', csv, '--ingest-key', `${KEY}-wrong`]);
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('El servidor rechazó la clave de ingesta');
    const none = await run(['import', 'zone-report', csv]);
    expect(none.code).toBe(3); // not signed in, no key
  });

  it('on a terminal shows the share sent, rows and rows/s, then that the server is processing', async () => {
    const lines = ['date,advertiser,publisher,zone_id,impressions,clicks,revenue'];
    for (let i = 0; i < 30_000; i++) lines.push(`${d1},AdNova,Pub Big,big-${i},${100 + (i % 50)},${i % 7},${(i % 100) / 10}`);
    const csv = await file('big.csv', `${lines.join('\n')}\n`);
    const r = await run(['import', 'zone-report', csv, '--ingest-key', KEY], { isTTY: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/100% · 30\.000 filas · [\d.]+ filas\/s · procesando en el servidor…/);
    expect(r.stdout).toContain('Filas nuevas: 30000');
    // Piped (machine output): no progress on stderr.
    const piped = await run(['import', 'zone-report', csv, '--ingest-key', KEY, '--json']);
    expect(piped.stderr).toBe('');
  });
});
