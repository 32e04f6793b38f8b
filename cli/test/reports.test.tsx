import { promisify, stripVTControlCharacters } from 'node:util';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { readFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { keyboardReady, waitFor } from './wait.js';
import {
  AD_REPORT_COLUMNS,
  BOM,
  DASHBOARD_COLUMNS,
  addDays,
  contract,
  formatDateDMY,
  formatMetric,
  formatMoney,
  formatMonthName,
  formatPercent,
  jsonFigures,
  parseCsv,
  presetRange,
  todayIn,
  type PresetKey,
  type ReportTotals,
  type SummaryRow,
  type ZoneRow,
} from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { atKeyboard, atRest, newConfigDir, runCli, type Keyboard } from './helpers.js';
import { Dashboard, deltaText, sparkline } from '../src/ui/Dashboard.js';
import { FIRST_PAGE, dashboardLoader } from '../src/commands/dashboard.js';

const today = todayIn('UTC');
const d1 = addDays(today, -1);
const d2 = addDays(today, -2);
const old = addDays(today, -20);

/** The seeded zone rows; every expected number below is derived from these. */
const SEED = [
  {
    date: d1,
    advertiser: 'AdNova',
    publisher: 'Pub Uno',
    zone_id: '1001',
    geo: 'ES',
    source: 'web',
    domain: 'uno.com',
    impressions: 10000,
    monetized_impressions: 8000,
    clicks: 80,
    revenue: 12.5,
    margin: 3.75,
    tq: 0.8,
  },
  {
    date: d1,
    advertiser: 'BidSphere',
    publisher: 'Pub Dos',
    zone_id: '2002',
    geo: 'MX',
    source: 'push',
    domain: 'dos.com',
    impressions: 5000,
    monetized_impressions: null,
    clicks: 25,
    revenue: 4,
    margin: 1,
    tq: 0.5,
  },
  {
    date: d1,
    advertiser: 'Clickora',
    publisher: '=SUM(A1:A9)',
    zone_id: '3003',
    geo: 'AR',
    source: 'web',
    domain: 'tres.com',
    impressions: 30000,
    monetized_impressions: 20000,
    clicks: 10,
    revenue: 1,
    margin: 0.2,
    tq: null,
  },
  {
    date: d2,
    advertiser: 'AdNova',
    publisher: 'Pub Uno',
    zone_id: '1001',
    geo: 'ES',
    source: 'web',
    domain: 'uno.com',
    impressions: 20000,
    monetized_impressions: 16000,
    clicks: 160,
    revenue: 30,
    margin: 9,
    tq: 0.9,
  },
  {
    date: d2,
    advertiser: 'Clickora',
    publisher: 'Pub Dos',
    zone_id: '2002',
    geo: 'MX',
    source: 'push',
    domain: 'dos.com',
    impressions: 1000,
    monetized_impressions: 900,
    clicks: 0,
    revenue: 0.5,
    margin: 0.1,
    tq: null,
  },
  {
    date: old,
    advertiser: 'AdNova',
    publisher: 'Pub Uno',
    zone_id: '1001',
    geo: 'ES',
    source: 'web',
    domain: 'uno.com',
    impressions: 99999,
    monetized_impressions: 99999,
    clicks: 999,
    revenue: 999,
    margin: 99,
    tq: 0.7,
  },
];
const inDefaultRange = SEED.filter((r) => r.date !== old);
const sum = (rows: typeof SEED, key: 'impressions' | 'clicks' | 'revenue' | 'margin') => rows.reduce((s, r) => s + r[key], 0);

let server: TestServer;
let dir: string;
let tmp: string;
const cli = (args: string[], options?: Parameters<typeof runCli>[3]) => runCli(args, dir, server.url, options);
const strip = (text: string) => stripVTControlCharacters(text);
/** Frames with the dates of the moving range replaced, so assertions do not depend on today (people's dates read dd/MM/yyyy). */
const normalise = (text: string) =>
  strip(text)
    .replace(/\d{2}\/\d{2}\/\d{4}/g, 'DD/MM/YYYY')
    .replace(/\d{4}-\d{2}-\d{2}/g, 'YYYY-MM-DD');

beforeAll(async () => {
  server = await startTestServer();
  const admin = await server.admin();
  const ndjson = `${SEED.map((r) => JSON.stringify(r)).join('\n')}\n`;
  const result = await admin.ingest.zoneReport(undefined, { rawBody: ndjson, headers: { 'content-type': 'application/x-ndjson' } });
  expect(result).toMatchObject({ inserted: SEED.length, rejected_total: 0 });
  dir = await newConfigDir();
  tmp = await mkdtemp(path.join(tmpdir(), 'adops-cli-reports-'));
  expect((await cli(['login', '--email', ADMIN.email], { stdin: `${ADMIN.password}\n` })).code).toBe(0);
});
afterAll(() => server?.close());

describe('tables that fit the terminal', () => {
  /** Opens a report screen at `columns` × `rows`, waits for its first page, answers `keys`, quits. */
  async function screen(args: string[], columns: number, rows: number, keys: (kb: Keyboard) => Promise<void> = async () => {}) {
    const kb = await atKeyboard((o) => cli(args, { ...o, columns, rows }), atRest, 'the first page and its key line');
    await keys(kb);
    const r = await kb.quit();
    expect(r.code, r.stderr).toBe(0);
    return Object.assign(strip(r.stdout).split('\n'), { raw: r.stdout });
  }

  it('a window 30 lines high gets a page of 17 rows (the rest of the screen is its frame), and the frame fits', async () => {
    const lines = await screen(['report', 'zones', '--from', old, '--to', today], 200, 30);
    expect(lines.join('\n')).toContain('17 por página');
  });

  it('+ never grows a page past the window: it stops and says so', async () => {
    for (const height of [30, 60]) {
      // + grows the page (a new page drawn at rest) until the window is full, then says so.
      const full = (f: string) => f.includes('no caben más filas en la ventana');
      const lines = await screen(['report', 'zones', '--from', old, '--to', today], 120, height, async (kb) => {
        for (let i = 0; i < 6 && !full(kb.frame()); i++) await kb.press('+', (f) => full(f) || atRest(f), 'the answer to +');
      });
      const text = lines.join('\n');
      expect(text, `${height} rows`).toContain('no caben más filas en la ventana');
      // A frame as tall as the window makes Ink clear the screen and its scrollback: never.
      expect(lines.raw).not.toContain('\u001b[2J');
      // The last frame (after Ink's last erase) fits under the prompt's line.
      const last = lines.raw.slice(lines.raw.lastIndexOf('\u001b[G') + 3);
      expect(strip(last).trimEnd().split('\n').length, `${height} rows`).toBeLessThan(height);
    }
  });

  it('at 80 columns the key line breaks between its items, never inside one', async () => {
    const lines = await screen(['report', 'zones', '--from', old, '--to', today], 80, 30);
    // The wrapped footer still leaves the page inside the window: Ink never clears the screen.
    expect(lines.raw).not.toContain('\u001b[2J');
    const at = lines.findIndex((l) => l.startsWith('←/→ página'));
    const keyLines = lines.slice(at, lines.findIndex((l, i) => i > at && l.includes('q salir')) + 1);
    expect(keyLines.length).toBeGreaterThan(1);
    for (const line of keyLines) expect(line.length, line).toBeLessThan(80);
    const items = keyLines.flatMap((l) => l.trim().split(/ {3}/));
    expect(items).toEqual(expect.arrayContaining(['←/→ página', '+/- filas', 's ordenar', '3 Últimos 7 días', '/ filtrar', '? teclas', 'q salir']));
  });

  it('at 80 and 120 columns revenue and margin come before the dimensions, and the hidden columns are counted', async () => {
    for (const width of [80, 120]) {
      const lines = await screen(['report', 'zones', '--from', old, '--to', today], width, 40);
      const header = lines.find((l) => /^Date\s/.test(l))!;
      expect(header.length, `${width}`).toBeLessThanOrEqual(width);
      expect(header, `${width}`).toMatch(/^Date\s+Zone ID\s+Publisher\s+Revenue\s+Margin\b/);
      expect(lines.join('\n'), `${width}`).toMatch(/ · \+\d+ columnas \(>\)/);
    }
    // Wide enough for every column: the table's own order.
    const wide = await screen(['report', 'zones', '--from', old, '--to', today], 400, 40);
    expect(wide.find((l) => /^Date\s/.test(l))).toMatch(/^Date\s+Advertiser\s+Publisher\s+Zone ID/);
  });

  it('--columns shows only the columns asked for, in that order; an unknown one is refused with the table’s', async () => {
    const lines = await screen(['report', 'zones', '--from', old, '--to', today, '--columns', 'zone_id,revenue,margin'], 200, 40);
    expect(lines.find((l) => /^Zone ID\s/.test(l))).toMatch(/^Zone ID\s+Revenue\s+Margin$/);
    const bad = await cli(['report', 'zones', '--columns', 'zone_id,ingresos'], { isTTY: true });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--columns: ingresos no es una columna de esta tabla (columnas: date, advertiser');
  });
});

describe('filter values', () => {
  it('match the server’s values regardless of case and accents; an unknown one is refused with the closest ones', async () => {
    const exact = JSON.parse((await cli(['report', 'zones', '--json', '--advertiser', 'AdNova'])).stdout);
    const folded = await cli(['report', 'zones', '--json', '--advertiser', 'adnova']);
    expect(folded.code).toBe(0);
    expect(JSON.parse(folded.stdout).totals).toEqual(exact.totals);
    expect(exact.totals.impressions).toBeGreaterThan(0);
    const typo = await cli(['report', 'zones', '--json', '--advertiser', 'adnoba']);
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim()).toBe('Advertiser desconocido: adnoba. ¿Quisiste decir AdNova? (adops options los lista)');
    expect(typo.stdout).toBe('');
    const dashboard = await cli(['dashboard', '--json', '--publisher', 'PUB UNO']);
    expect(dashboard.code).toBe(0);
    const nothing = await cli(['dashboard', '--json', '--publisher', 'zzzz']);
    expect(nothing.stderr.trim()).toBe('Publisher desconocido: zzzz. (adops options los lista)');
  });

  it('adops options lists every filter’s values for any signed-in user', async () => {
    const r = await cli(['options', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, string[]>;
    expect(out.advertisers).toEqual(['AdNova', 'BidSphere', 'Clickora']);
    expect(out.publishers).toContain('Pub Uno');
    expect(out.geos).toEqual(expect.arrayContaining(['AR', 'ES', 'MX']));
    expect(out.domains).toEqual(expect.arrayContaining(['uno.com', 'dos.com']));
    const text = (await cli(['options'], { isTTY: true })).stdout;
    expect(text).toContain('Advertisers (--advertiser): AdNova, BidSphere, Clickora');
  });

  it('--values lists one filter one per line, and bash completes --advertiser and --publisher with the server’s values', async () => {
    const values = await cli(['options', '--values', 'publisher']);
    expect(values.code).toBe(0);
    expect(values.stdout.split('\n')).toEqual(expect.arrayContaining(['Pub Uno', 'Pub Dos', '']));
    const wrong = await cli(['options', '--values', 'zona']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--values: zona no es un filtro (filtros: advertiser, publisher, geo, source, domain)');

    // The completion script asks the installed `adops` (here the built binary, signed in to this server).
    const script = path.join(tmp, 'adops-completion.sh');
    await writeFile(script, (await cli(['completion', 'bash'])).stdout);
    const bin = fileURLToPath(new URL('../bin/adops.js', import.meta.url));
    const complete = async (words: string[]) => {
      const { stdout } = await promisify(execFile)('bash', [
        '-c',
        `adops() { ADOPS_CONFIG_DIR='${dir}' ADOPS_URL='${server.url}' '${process.execPath}' '${bin}' "$@"; }
source '${script}'; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _adops; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ]);
      return stdout.split('\n').filter(Boolean);
    };
    expect(await complete(['adops', 'report', 'zones', '--advertiser', 'ad'])).toEqual(['AdNova']);
    expect(await complete(['adops', 'report', 'zones', '--publisher', 'Pub'])).toEqual(expect.arrayContaining(['Pub\\ Uno', 'Pub\\ Dos']));
    expect(await complete(['adops', 'report', 'zones', '--geo', ''])).toEqual(expect.arrayContaining(['AR', 'ES', 'MX']));
  });
});

describe('adops report zones', () => {
  it('--json answers the seeded rows of the last 7 days (to yesterday) with their sums and ratios', async () => {
    const r = await cli(['report', 'zones', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { start_date: string; end_date: string; rows: ZoneRow[]; totals: ReportTotals; total_rows: number };
    expect([out.start_date, out.end_date]).toEqual([addDays(today, -7), d1]);
    expect(out.rows).toHaveLength(inDefaultRange.length);
    expect(out.total_rows).toBe(inDefaultRange.length);
    expect(out.totals.revenue).toBeCloseTo(sum(inDefaultRange, 'revenue'), 9);
    expect(out.totals.margin).toBeCloseTo(sum(inDefaultRange, 'margin'), 9);
    expect(out.totals.impressions).toBe(sum(inDefaultRange, 'impressions'));
    expect(out.totals.clicks).toBe(sum(inDefaultRange, 'clicks'));
    const zone1 = out.rows.find((row) => row.date === d1 && row.zone_id === '1001')!;
    expect(zone1).toMatchObject({ advertiser: 'AdNova', publisher: 'Pub Uno', impressions: 10000, clicks: 80, revenue: 12.5, margin: 3.75 });
    // CTR on monetized impressions when reported, else impressions.
    expect(zone1.ctr).toBeCloseTo((80 / 8000) * 100, 4);
    expect(out.rows.find((row) => row.zone_id === '2002' && row.date === d1)!.ctr).toBeCloseTo((25 / 5000) * 100, 4);
    expect(zone1.rs_percent).toBeCloseTo((3.75 / 12.5) * 100, 4);
    // The totals are the server's, as the API answers them (the CLI sums nothing).
    const api = await server.admin();
    const direct = await api.adReport.zoneDetails({ start_date: out.start_date, end_date: out.end_date });
    expect(out.totals).toEqual(jsonFigures(direct.totals));
    expect(out.rows.slice(0, direct.rows.length)).toEqual(jsonFigures(direct.rows));
    // Machine output without float noise: money to the cent, ratios to 4 decimals.
    expect(r.stdout).not.toMatch(/\d\.\d{5,}/);
    expect(out.totals.revenue).toBe(Math.round(sum(inDefaultRange, 'revenue') * 100) / 100);
  });

  it('applies --zone and --from/--to, and refuses a bad range or preset as a usage error', async () => {
    const zone = JSON.parse((await cli(['report', 'zones', '--json', '--zone', '100', '--from', old, '--to', today])).stdout) as { rows: ZoneRow[] };
    expect(zone.rows.map((row) => row.date).sort()).toEqual([old, d2, d1].sort());
    expect(zone.rows.every((row) => row.zone_id === '1001')).toBe(true);

    const reversed = await cli(['report', 'zones', '--json', '--from', d1, '--to', d2]);
    expect(reversed.code).toBe(2);
    expect(reversed.stderr).toContain('Rango de fechas no válido');
    const preset = await cli(['report', 'zones', '--json', '--preset', 'semana']);
    expect(preset.code).toBe(2);
    expect(preset.stderr).toContain('Preset no válido: semana');
    const both = await cli(['report', 'zones', '--json', '--preset', 'ayer', '--from', d1]);
    expect(both.code).toBe(2);
  });

  it('--preset ayer and --sort revenue:desc order the rows; an unknown sort key is refused', async () => {
    const out = JSON.parse((await cli(['report', 'zones', '--json', '--preset', 'ayer', '--sort', 'revenue:desc'])).stdout) as { rows: ZoneRow[] };
    const expected = SEED.filter((r) => r.date === d1)
      .map((r) => r.revenue)
      .sort((a, b) => b - a);
    expect(out.rows.map((row) => row.revenue)).toEqual(expected);
    const bad = await cli(['report', 'zones', '--json', '--sort', 'price']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--sort no válido: price');
    // Any column of the zone table sorts, text ones too (the contract's keys).
    const byPublisher = JSON.parse((await cli(['report', 'zones', '--json', '--preset', 'ayer', '--sort', 'publisher:desc'])).stdout) as {
      rows: ZoneRow[];
    };
    expect(byPublisher.rows.map((row) => row.publisher)).toEqual(['Pub Uno', 'Pub Dos', '=SUM(A1:A9)']);
  });

  it('--limit N keeps the top N of the server’s order, says so on stderr and in the JSON', async () => {
    const r = await cli(['report', 'zones', '--json', '--sort', 'revenue:desc', '--limit', '2']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { rows: ZoneRow[]; total_rows: number; limit: number };
    expect(out.rows.map((row) => row.revenue)).toEqual([30, 12.5]);
    expect(out.total_rows).toBe(inDefaultRange.length);
    expect(out.limit).toBe(2);
    expect(r.stderr).toBe(`--limit 2: 2 de ${inDefaultRange.length} filas, las primeras del orden pedido (el resto se omite)\n`);
    const file = path.join(tmp, 'top2.csv');
    const csv = await cli(['report', 'zones', '--csv', file, '--sort', 'revenue:desc', '--limit', '2']);
    expect(csv.stdout.trim()).toBe(`2 filas → ${file}`);
    expect(csv.stderr).toContain('--limit 2');
    const [, ...rows] = parseCsv(await readFile(file, 'utf8'));
    expect(rows.map((row) => row[AD_REPORT_COLUMNS.findIndex((c) => c.key === 'revenue')])).toEqual(['30', '12.5']);
    const bad = await cli(['report', 'zones', '--json', '--limit', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit no válido: 0');
  });

  it('--csv FILE writes the 19 Ad Report columns with a BOM, values rounded as shown and formulas guarded', async () => {
    const file = path.join(tmp, 'zonas.csv');
    const r = await cli(['report', 'zones', '--csv', file, '--sort', 'revenue:desc']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(`${inDefaultRange.length} filas → ${file}`);
    const text = await readFile(file, 'utf8');
    expect(text.startsWith(BOM)).toBe(true);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(AD_REPORT_COLUMNS.map((c) => c.header));
    expect(header).toHaveLength(19);
    expect(rows).toHaveLength(inDefaultRange.length);
    const col = (name: string) => header.indexOf(name);
    const top = rows[0];
    expect(top[col('date')]).toBe(d2);
    expect(top[col('revenue')]).toBe('30');
    expect(top[col('CTR%')]).toBe('1');
    expect(top[col('RS%')]).toBe('30');
    // A publisher name a spreadsheet would run as a formula is neutralised.
    expect(rows.find((row) => row[col('zone_id')] === '3003')![col('publisher')]).toBe("'=SUM(A1:A9)");
    // A missing TQ is an empty field.
    expect(rows.find((row) => row[col('zone_id')] === '3003')![col('TQ')]).toBe('');
  });

  it('at a terminal draws the table with the server’s Totales, cell for cell as the web formats them', async () => {
    const r = await cli(['report', 'zones'], { isTTY: true });
    expect(r.code).toBe(0);
    const text = strip(r.stdout);
    expect(text).toContain('Resumen diario por zona');
    // SPEC's screen labels, the same as the web's Ad Report.
    expect(text).toMatch(/Date\s+Advertiser\s+Publisher\s+Zone ID\s+Geo\s+Source\s+Impr\./);
    const totals = text.split('\n').find((l) => l.startsWith('Totales'))!;
    expect(totals).toContain(formatMoney(sum(inDefaultRange, 'revenue')));
    expect(totals).toContain('66.000'); // impressions of the range, es-ES grouping
    // Every metric cell of the row is the server's total, formatted by core's registry.
    const range = presetRange('ultimos7', new Date(), 'UTC');
    const direct = await (await server.admin()).adReport.zoneDetails({ start_date: range.from, end_date: range.to });
    const expected = AD_REPORT_COLUMNS.slice(6).map((c) => formatMetric(c.key, direct.totals[c.key as keyof ReportTotals]));
    expect(
      totals
        .trim()
        .split(/\s{2,}/)
        .slice(1),
    ).toEqual(expected);
    expect(text).toContain(`Página 1 de 1 · ${inDefaultRange.length} filas · 25 por página`);
  });
});

describe('adops report publishers | advertisers, demand, finance, explorer', () => {
  it('publisher and advertiser summaries sum the seeded rows per day and name', async () => {
    const pubs = JSON.parse((await cli(['report', 'publishers', '--json'])).stdout) as { rows: SummaryRow[]; totals: { revenue: number } };
    const uno = pubs.rows.find((row) => row.publisher === 'Pub Uno' && row.date === d2)!;
    expect(uno.revenue).toBeCloseTo(30, 9);
    expect(pubs.totals.revenue).toBeCloseTo(sum(inDefaultRange, 'revenue'), 9);
    const advs = JSON.parse((await cli(['report', 'advertisers', '--json', '--preset', 'ayer'])).stdout) as { rows: SummaryRow[] };
    expect(advs.rows.map((row) => row.advertiser).sort()).toEqual(['AdNova', 'BidSphere', 'Clickora']);
    expect(advs.rows.find((row) => row.advertiser === 'BidSphere')!.clicks).toBe(25);
  });

  it('demand answers each advertiser’s daily revenue and margin in the range', async () => {
    const r = await cli(['demand', '--json', '--from', d2, '--to', d1]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { advertisers: Record<string, Array<{ date: string; revenue: number; margin: number }>> };
    expect(out.advertisers.AdNova.find((p) => p.date === d2)).toMatchObject({ revenue: 30, margin: 9 });
    expect(out.advertisers.Clickora.find((p) => p.date === d1)!.revenue).toBeCloseTo(1, 9);
    const tty = strip((await cli(['demand', '--from', d2, '--to', d1], { isTTY: true })).stdout);
    expect(tty).toContain('AdNova');
    expect(tty).toContain('$30,00');
  });

  it('demand shows each advertiser’s totals as the server answers them, in JSON and on the terminal', async () => {
    const r = await cli(['demand', '--json', '--from', d2, '--to', d1]);
    const out = JSON.parse(r.stdout) as { totals: Record<string, { revenue: number; margin: number }> };
    // Clickora's margin 0.1 + 0.2 arrives as 0.3 (the server rounds to the cent), the same as the API's.
    expect(out.totals).toEqual({
      AdNova: { revenue: 42.5, margin: 12.75 },
      BidSphere: { revenue: 4, margin: 1 },
      Clickora: { revenue: 1.5, margin: 0.3 },
    });
    const api = await server.admin();
    expect(out.totals).toEqual((await api.demand.advertiserRevenue({ start_date: d2, end_date: d1 })).totals);
    const lines = strip((await cli(['demand', '--from', d2, '--to', d1], { isTTY: true })).stdout).split('\n');
    const totals = lines.filter((l) => l.startsWith('Totales')).map((l) => l.trim().split(/\s{2,}/));
    expect(totals).toEqual([
      ['Totales', '$42,50', '$12,75'],
      ['Totales', '$4,00', '$1,00'],
      ['Totales', '$1,50', '$0,30'],
    ]);
  });

  it('demand --csv FILE saves the server’s export (SPEC’s labels, a row per advertiser and day); --csv - pipes it', async () => {
    const file = path.join(tmp, 'demand.csv');
    const r = await cli(['demand', '--from', d2, '--to', d1, '--csv', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`6 filas → ${file}`);
    const text = await readFile(file, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(parseCsv(text.slice(1))).toEqual([
      ['Advertiser', 'Date', 'Revenue', 'Margin'],
      ['AdNova', d2, '30', '9'],
      ['AdNova', d1, '12.5', '3.75'],
      ['BidSphere', d2, '0', '0'],
      ['BidSphere', d1, '4', '1'],
      ['Clickora', d2, '0.5', '0.1'],
      ['Clickora', d1, '1', '0.2'],
    ]);
    // Byte for byte the file the web's 'Descargar CSV' saves.
    const api = await server.admin();
    const web = await api.open(contract.demand.advertiserRevenue, { start_date: d2, end_date: d1, format: 'csv' });
    expect(text).toBe(`${BOM}${await web.text()}`);
    const piped = await cli(['demand', '--from', d2, '--to', d1, '--advertiser', 'bidsphere', '--csv', '-']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(`Advertiser,Date,Revenue,Margin\nBidSphere,${d2},0,0\nBidSphere,${d1},4,1\n`);
  });

  it('demand refuses a reversed range before asking the server (exit 2, in Spanish)', async () => {
    const r = await cli(['demand', '--from', d1, '--to', d2, '--csv', '-']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Rango de fechas no válido');
  });

  it('finance answers the server’s monthly tables and TOTAL rows; the terminal shows them as answered', async () => {
    const r = await cli(['finance', '--json', '--from', old, '--to', today]);
    expect(r.code).toBe(0);
    type Table = { rows: Array<Record<string, number | string>>; total_rows: number; totals: Record<string, number> };
    const out = JSON.parse(r.stdout) as { months: string[]; advertisers: Table; publishers: Table; margin: Array<{ total: number }> };
    const adNova = out.advertisers.rows.find((a) => a.advertiser === 'AdNova')!;
    expect(adNova.total).toBeCloseTo(999 + 30 + 12.5, 6);
    expect(out.margin[0].total).toBeCloseTo(sum(SEED, 'margin'), 6);
    const api = await server.admin();
    const q = { start_date: old, end_date: today };
    const [advertisers, publishers] = await Promise.all([api.finance.advertisers(q), api.finance.publishers(q)]);
    expect(out.advertisers.totals).toEqual(advertisers.totals);
    expect(out.publishers.totals).toEqual(publishers.totals);
    expect(out.advertisers.rows).toEqual(advertisers.rows);
    expect(out.months).toEqual(advertisers.months);
    const tty = strip((await cli(['finance', '--from', old, '--to', today], { isTTY: true })).stdout);
    expect(tty).toContain('Revenue mensual - Advertisers');
    expect(tty).toContain('Revenue mensual - Publishers');
    expect(tty).toMatch(/Margen mensual - Total/);
    // Both TOTAL rows show the server's month sums and grand total (the same figure in both tables).
    const totalLines = tty.split('\n').filter((l) => l.startsWith('TOTAL'));
    expect(totalLines).toHaveLength(2);
    const cells = (totals: Record<string, number>) => [...advertisers.months, 'total'].map((m) => formatMoney(totals[m]));
    expect(
      totalLines[0]
        .trim()
        .split(/\s{2,}/)
        .slice(1),
    ).toEqual(cells(advertisers.totals));
    expect(
      totalLines[1]
        .trim()
        .split(/\s{2,}/)
        .slice(1),
    ).toEqual(cells(publishers.totals));
    expect(totalLines[0]).toContain(formatMoney(sum(SEED, 'revenue')));
  });

  it('finance on a narrow terminal draws the latest months that fit whole and says which it hides', async () => {
    const api = await server.admin();
    const from = addDays(today, -200);
    const q = { start_date: from, end_date: today };
    const { months, totals } = await api.finance.advertisers(q);
    expect(months.length).toBeGreaterThan(3);
    const tty = strip((await cli(['finance', '--from', from, '--to', today], { isTTY: true, columns: 60 })).stdout);
    const lines = tty.split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(60);
    const header = lines
      .find((l) => l.startsWith('Nombre'))!
      .trim()
      .split(/\s{2,}/);
    const shown = header.slice(1, -1);
    // The latest months, in order, ending with the range's last month; the Total column last.
    expect(shown.length).toBeGreaterThan(0);
    expect(shown).toEqual(months.slice(months.length - shown.length).map(formatMonthName));
    expect(header.at(-1)).toBe('Total');
    const hidden = months.length - shown.length;
    expect(tty.replace(/\s+/g, ' ')).toContain(
      `No caben ${hidden} meses (${formatMonthName(months[0])} a ${formatMonthName(months[hidden - 1])}) en 60 columnas`,
    );
    // The TOTAL still is the whole range's (the server's figure), not the sum of the months shown.
    const totalLine = lines
      .find((l) => l.startsWith('TOTAL'))!
      .trim()
      .split(/\s{2,}/);
    expect(totalLine.at(-1)).toBe(formatMoney(totals.total));
  });

  it('finance --sort orders both tables on the server; --csv saves the server’s export of the --table asked for', async () => {
    const byName = JSON.parse((await cli(['finance', '--json', '--from', old, '--to', today, '--sort', 'name:asc'])).stdout) as {
      advertisers: { rows: Array<{ advertiser: string }> };
      publishers: { rows: Array<{ publisher: string }> };
    };
    expect(byName.advertisers.rows.map((r) => r.advertiser)).toEqual(['AdNova', 'BidSphere', 'Clickora']);
    expect(byName.publishers.rows.map((r) => r.publisher)).toEqual(['=SUM(A1:A9)', 'Pub Dos', 'Pub Uno']);
    const bad = await cli(['finance', '--json', '--sort', 'revenue']);
    expect(bad.code).toBe(2);

    const api = await server.admin();
    const q = { start_date: old, end_date: today };
    const file = path.join(tmp, 'finance.csv');
    const r = await cli(['finance', '--from', old, '--to', today, '--csv', file]);
    expect(r.code, r.stderr).toBe(0);
    const text = await readFile(file, 'utf8');
    // The advertisers table by default: headed as on screen, its TOTAL row last — the web's file.
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header[0]).toBe('Advertiser');
    expect(header.at(-1)).toBe('Total');
    expect(rows.map((row) => row[0])).toEqual(['AdNova', 'BidSphere', 'Clickora', 'TOTAL']);
    expect(Number(rows.at(-1)!.at(-1))).toBeCloseTo(sum(SEED, 'revenue'), 2);
    const web = await api.open(contract.finance.advertisers, { ...q, format: 'csv' });
    expect(text).toBe(`${BOM}${await web.text()}`);

    // --sort applies to the export; publishers and the margin come with --table.
    const publishers = await cli(['finance', '--from', old, '--to', today, '--table', 'publishers', '--sort', 'name:desc', '--csv', '-']);
    expect(publishers.code).toBe(0);
    const pubRows = parseCsv(publishers.stdout);
    expect(pubRows[0][0]).toBe('Publisher');
    expect(pubRows.slice(1).map((row) => row[0])).toEqual(['Pub Uno', 'Pub Dos', "'=SUM(A1:A9)", 'TOTAL']);
    const margin = await cli(['finance', '--from', old, '--to', today, '--table', 'margin', '--csv', '-']);
    const [marginHeader, marginRow] = parseCsv(margin.stdout);
    expect(marginHeader[0]).toBe('Producto');
    expect(marginRow[0]).toBe('Total');
    expect(Number(marginRow.at(-1))).toBeCloseTo(sum(SEED, 'margin'), 2);

    const wrong = await cli(['finance', '--table', 'zones', '--csv', '-']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--table no válido: zones (usa advertisers, publishers o margin)');
  });

  it('--excel with --csv saves the Spanish-spreadsheet file (the web’s "CSV (Excel España)"); the terminal notes Finance’s rounding', async () => {
    const api = await server.admin();
    const q = { start_date: old, end_date: today };
    // Finance: ';', decimal commas, the TOTAL line last — byte for byte the server's excel-es export.
    const file = path.join(tmp, 'finance-excel.csv');
    const r = await cli(['finance', '--from', old, '--to', today, '--csv', file, '--excel']);
    expect(r.code, r.stderr).toBe(0);
    const text = await readFile(file, 'utf8');
    const web = await api.open(contract.finance.advertisers, { ...q, format: 'csv', csv: 'excel-es' });
    expect(text).toBe(`${BOM}${await web.text()}`);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toMatch(/^Advertiser;\d{4}-\d{2};/);
    expect(
      lines
        .find((l) => l.startsWith('TOTAL;'))!
        .split(';')
        .at(-1),
    ).toBe(String(sum(SEED, 'revenue')).replace('.', ','));
    // The zone report: dates dd/MM/yyyy, and its revenue column adds up to the report's total.
    const zones = await cli(['report', 'zones', '--from', d2, '--to', d1, '--csv', '-', '--excel']);
    expect(zones.code, zones.stderr).toBe(0);
    const [head, ...rows] = parseCsv(zones.stdout, ';');
    expect(head.slice(0, 3)).toEqual(['date', 'advertiser', 'publisher']);
    expect(new Set(rows.map((row) => row[0]))).toEqual(new Set([d1, d2].map(formatDateDMY)));
    const at = head.indexOf('revenue');
    const csvSum = rows.reduce((s, row) => s + Number(row[at].replace(',', '.')), 0);
    const totals = (await api.adReport.zoneDetails({ start_date: d2, end_date: d1 })).totals;
    expect(formatMoney(csvSum)).toBe(formatMoney(totals.revenue));
    // Demand too; and --excel alone is a usage error.
    const demand = await cli(['demand', '--from', d2, '--to', d1, '--advertiser', 'AdNova', '--csv', '-', '--excel']);
    expect(demand.stdout).toBe(`Advertiser;Date;Revenue;Margin\r\nAdNova;${formatDateDMY(d2)};30;9\r\nAdNova;${formatDateDMY(d1)};12,5;3,75\r\n`);
    const alone = await cli(['report', 'zones', '--excel']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--excel va con --csv');
    // The terminal's Finance says its rows may differ from the TOTAL by rounding.
    const tty = strip((await cli(['finance', '--from', old, '--to', today], { isTTY: true })).stdout);
    expect(tty.replace(/\s+/g, ' ')).toContain('la suma de las filas puede diferir ligeramente del total');
  });

  it('explorer lists the zone rows of the range with the server’s totals and the web’s revenue cards', async () => {
    const r = await cli(['explorer', '--json', '--from', d1, '--to', d1]);
    const out = JSON.parse(r.stdout) as { rows: ZoneRow[]; totals: { revenue: number }; cards: Record<string, unknown> };
    expect(out.rows).toHaveLength(3);
    expect(out.totals.revenue).toBeCloseTo(17.5, 9);
    const api = await server.admin();
    const cards = await api.adReport.revenueCards({ start_date: d1, end_date: d1 });
    expect(out.cards).toEqual(cards);
    expect(cards.filter).toBeCloseTo(17.5, 9);
    const tty = strip((await cli(['explorer', '--from', d1, '--to', d1], { isTTY: true })).stdout);
    for (const card of ['Revenue Ayer', 'Revenue Hoy', 'Revenue Mes', 'Revenue Filtro']) expect(tty).toContain(card);
    expect(tty).toContain(formatMoney(17.5));
    // Ayer is yesterday's revenue over all traffic, whatever the search's filters (as on the web).
    const filtered = strip((await cli(['explorer', '--from', d1, '--to', d1, '--advertiser', 'BidSphere'], { isTTY: true })).stdout);
    const yesterday = SEED.filter((row) => row.date === d1).reduce((t, row) => t + row.revenue, 0);
    expect(filtered).toContain(formatMoney(yesterday));
    expect(filtered).toContain(formatMoney(4));
  });

  it('needs a session: without one, exit code 3 and a hint', async () => {
    const r = await runCli(['report', 'zones', '--json'], await newConfigDir(), server.url);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('adops login');
  });
});

describe('adops dashboard', () => {
  it('--json has the summary, yesterday-vs-day-before deltas, top lists and daily rows', async () => {
    const r = await cli(['dashboard', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect([out.start_date, out.end_date]).toEqual([addDays(today, -6), today]);
    expect(out.summary.revenue).toBeCloseTo(sum(inDefaultRange, 'revenue'), 9);
    const dayRevenue = (d: string) => SEED.filter((s) => s.date === d).reduce((t, s) => t + s.revenue, 0);
    expect(out.deltas.revenue).toBeCloseTo(((dayRevenue(d1) - dayRevenue(d2)) / dayRevenue(d2)) * 100, 2);
    // Zones are publisher × zone id summed over the range: 1001 12,5 + 30; 2002 4 + 0,5; 3003 1.
    expect(out.top_zones.map((z: { rank: number; publisher: string; zone_id: string }) => [z.rank, z.publisher, z.zone_id])).toEqual([
      [1, 'Pub Uno', '1001'],
      [2, 'Pub Dos', '2002'],
      [3, '=SUM(A1:A9)', '3003'],
    ]);
    expect(out.top_zones[0].revenue).toBeCloseTo(42.5, 9);
    expect(out.top_zones[0].margin).toBeCloseTo(12.75, 9);
    expect(out.top_zones[1].revenue).toBeCloseTo(4.5, 9);
    // Advertisers: AdNova 42,5, BidSphere 4, Clickora 1 + 0,5.
    expect(out.top_advertisers.map((a: { rank: number; advertiser: string }) => [a.rank, a.advertiser])).toEqual([
      [1, 'AdNova'],
      [2, 'BidSphere'],
      [3, 'Clickora'],
    ]);
    expect(out.top_advertisers[2].revenue).toBeCloseTo(1.5, 9);
    expect(out.daily.map((d: { date: string }) => d.date)).toEqual([d2, d1]);
  });

  const presets = ['hoy', 'ayer', 'ultimos7', 'ultimos7_hoy', 'mes_actual', 'mes_anterior'] as const;
  const last7 = { ...presetRange('ultimos7_hoy', new Date(), 'UTC'), preset: 'ultimos7_hoy' as const };
  const rangeFor = (preset: PresetKey | null) =>
    preset === null || preset === last7.preset ? last7 : { ...presetRange(preset, new Date(), 'UTC'), preset };
  const firstLoad = async () => {
    const api = await server.admin();
    const load = dashboardLoader(api, rangeFor, {});
    const query = { ...FIRST_PAGE, preset: last7.preset };
    return { load, initial: await load(query, query) };
  };

  it('draws cards, ▲/▼ deltas, the trend and the Analytics table; s/r sort on the server and 2 loads Ayer', async () => {
    const { load, initial } = await firstLoad();
    const ui = render(<Dashboard initial={initial} preset={last7.preset} interactive presets={presets} load={load} />);
    const frame = () => normalise(ui.lastFrame() ?? '');
    expect(frame()).toContain('Últimos 7 días (con hoy) (DD/MM/YYYY – DD/MM/YYYY)');
    // Every date on the screen reads dd/MM/yyyy: no ISO day anywhere.
    expect(frame()).not.toContain('YYYY-MM-DD');
    for (const card of ['Revenue', 'Margin', 'Impressions', 'Clicks', 'CTR%', 'TQ Avg']) expect(frame()).toContain(card);
    expect(frame()).toContain(formatMoney(sum(inDefaultRange, 'revenue')));
    // Revenue fell from the day before to yesterday; impressions rose.
    const deltas = initial.deltas;
    expect(deltas.revenue!).toBeLessThan(0);
    expect(deltas.impressions!).toBeGreaterThan(0);
    expect(frame()).toContain(`▼ ${formatPercent(Math.abs(deltas.revenue!))}`);
    expect(frame()).toContain(`▲ ${formatPercent(deltas.impressions!)}`);
    expect(frame()).toContain('Trends · Revenue');
    expect(frame()).toContain('#1 Pub Uno - 1001');
    expect(frame()).toMatch(/Date\s+Impr\.\s+M\. Impr\.\s+Clicks\s+CTR%\s+CPM\s+CPC\s+Rev\s+P\.Revenue\s+Marg\.\s+Marg %\s+TQ/);
    expect(frame()).toContain('Página 1 de 1');
    // 'Totales' is the server's: its TQ is the TQ Avg card's, every cell as the web shows it.
    expect(initial.daily.totals.tq).toBe(initial.overview.summary.tq);
    const totalsLine = frame()
      .split('\n')
      .find((l) => l.startsWith('Totales'))!;
    expect(
      totalsLine
        .trim()
        .split(/\s{2,}/)
        .slice(1),
    ).toEqual(DASHBOARD_COLUMNS.slice(1).map((c) => formatMetric(c.key, initial.daily.totals[c.key as keyof ReportTotals])));

    await keyboardReady(ui.stdin);
    ui.stdin.write('s');
    await waitFor(() => frame().includes('Date ▲'));
    // The Analytics rows' impressions, top to bottom: the day before (21.000) first when ascending.
    const impressions = () => [...frame().matchAll(/^DD\/MM\/YYYY\s+([\d.]+)\s/gm)].map((m) => m[1]);
    expect(impressions()).toEqual(['21.000', '45.000']);
    ui.stdin.write('r');
    await waitFor(() => frame().includes('Date ▼'));
    expect(impressions()).toEqual(['45.000', '21.000']);
    ui.stdin.write('s');
    await waitFor(() => frame().includes('Impr. ▲'));

    ui.stdin.write('2');
    await waitFor(() => frame().includes('Ayer (DD/MM/YYYY)'));
    expect(frame()).toContain(formatMoney(SEED.filter((s) => s.date === d1).reduce((t, s) => t + s.revenue, 0)));
    ui.unmount();
  });

  it('on a short terminal shows one-line cards with deltas, and Tab switches between the summary and the table', async () => {
    const { load, initial } = await firstLoad();
    const ui = render(<Dashboard initial={initial} preset={last7.preset} interactive load={load} terminalRows={24} />);
    const frame = () => normalise(ui.lastFrame() ?? '');
    const revenueLine = frame()
      .split('\n')
      .find((l) => l.startsWith('Revenue'))!;
    expect(revenueLine).toMatch(
      new RegExp(`^Revenue\\s+\\${formatMoney(sum(inDefaultRange, 'revenue'))}\\s+▼ ${formatPercent(Math.abs(initial.deltas.revenue!))}`),
    );
    expect(frame()).toContain('Top Zones');
    expect(frame()).not.toContain('Analytics');
    expect(frame().split('\n').length).toBeLessThanOrEqual(24);
    await keyboardReady(ui.stdin);
    ui.stdin.write('\t');
    await waitFor(() => frame().includes('Analytics'));
    expect(frame()).not.toContain('Top Zones');
    ui.unmount();
  });

  it('at a terminal with a keyboard, s sorts the Analytics table and q ends the command with exit 0', async () => {
    const kb = await atKeyboard((o) => cli(['dashboard', '--from', old, '--to', today], o), atRest, 'the keyboard and the key line');
    await kb.press('s', (f) => f.includes('orden: Date ▲'), 'the table sorted by Date');
    const r = await kb.quit();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(strip(r.stdout)).toContain('Página 1 de 1 · 3 filas');
    expect(strip(r.stdout)).toContain('orden: Date ▲');
    expect(strip(r.stdout)).toContain('q salir');
    expect(kb.rawModes.at(-1)).toBe(false);
  });

  it('on a terminal without a keyboard draws once and exits 0', async () => {
    const r = await cli(['dashboard', '--preset', 'ayer'], { isTTY: true });
    expect(r.code).toBe(0);
    const text = normalise(r.stdout);
    expect(text).toContain('Ayer (DD/MM/YYYY)');
    expect(text).toContain('Analytics');
    expect(text).not.toContain('YYYY-MM-DD');
    expect(text).not.toContain('q salir');
  });

  it('arrows and sparkline follow the sign and shape of the data', () => {
    expect(deltaText(12.345)).toEqual({ text: '▲ 12,35%', color: 'green' });
    expect(deltaText(-3.2)).toEqual({ text: '▼ 3,20%', color: 'red' });
    expect(deltaText(0)).toEqual({ text: '▼ 0,00%', color: 'red' });
    expect(deltaText(null)).toEqual({ text: '-' });
    expect(sparkline([0, 5, 10])).toBe('▁▅█');
    expect(sparkline([3, 3])).toBe('▄▄');
    expect(sparkline(Array.from({ length: 120 }, (_, i) => i))).toHaveLength(60);
  });
});
