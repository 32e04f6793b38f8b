// adops report zones and the terminal's tables against a test server with seeded rows
// (seeded-server.ts): tables that fit the terminal, filter values and completion, top N, whole
// exports. The summaries are in report-summaries.test.tsx, adops dashboard in dashboard.test.tsx.
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AD_REPORT_COLUMNS,
  BOM,
  addDays,
  formatMetric,
  formatMoney,
  jsonFigures,
  parseCsv,
  presetRange,
  type ReportTotals,
  type ZoneRow,
} from '@adops/core';
import { atKeyboard, atRest, type Keyboard } from './helpers.js';
import { SEED, d1, d2, inDefaultRange, old, seededServer, strip, sum, today } from './seeded-server.js';

const seeded = seededServer();
const { cli } = seeded;

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
    const script = path.join(seeded.tmp, 'adops-completion.sh');
    await writeFile(script, (await cli(['completion', 'bash'])).stdout);
    const bin = fileURLToPath(new URL('../bin/adops.js', import.meta.url));
    const complete = async (words: string[]) => {
      const { stdout } = await promisify(execFile)('bash', [
        '-c',
        `adops() { ADOPS_CONFIG_DIR='${seeded.dir}' ADOPS_URL='${seeded.server.url}' '${process.execPath}' '${bin}' "$@"; }
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
    const api = await seeded.server.admin();
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
    const file = path.join(seeded.tmp, 'top2.csv');
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
    const file = path.join(seeded.tmp, 'zonas.csv');
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
    const direct = await (await seeded.server.admin()).adReport.zoneDetails({ start_date: range.from, end_date: range.to });
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
