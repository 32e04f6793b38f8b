// The CLI on the one report query model, against a live server holding 200,000 zone rows
// imported as one CSV: the top N of the whole result (the maximum far past row 20,000), every
// row of a 200,000-row CSV export, --json streamed with the API's totals, --limit beyond one
// page, and the terminal screen asking the server for each page it shows.
import { stripVTControlCharacters } from 'node:util';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AD_REPORT_COLUMNS, formatMetric, jsonFigures, type ReportTotals, type ZoneRow } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { atKeyboard, atRest, newConfigDir, runCli } from './helpers.js';

/** Eight days of 25,000 rows each, written newest day first (so 2026-01-01 is the file's last block). */
const DAYS = ['2026-01-08', '2026-01-07', '2026-01-06', '2026-01-05', '2026-01-04', '2026-01-03', '2026-01-02', '2026-01-01'];
const PER_DAY = 25_000;
const TOTAL = DAYS.length * PER_DAY;
/** 2026-01-01 – 2026-01-02: 50,000 rows; in the table's default order (date desc) 2026-01-01 comes second. */
const SUBSET = { from: '2026-01-01', to: '2026-01-02' };
const SUBSET_ROWS = 2 * PER_DAY;

/**
 * The five largest revenues of the subset sit at the end of 2026-01-01's block: past row 45,000
 * of the subset in the default order and past row 199,000 of the file. A larger one on
 * 2026-01-05 lies outside the subset's range.
 */
const TOP = [
  { zone_id: 'top-5', revenue: 501 },
  { zone_id: 'top-3', revenue: 503 },
  { zone_id: 'top-1', revenue: 505 },
  { zone_id: 'top-4', revenue: 502 },
  { zone_id: 'top-2', revenue: 504 },
];
const OUTSIDE = { zone_id: 'outside-max', revenue: 9999, date: '2026-01-05' };

function fixtureCsv(): string {
  const lines = ['date,advertiser,publisher,zone_id,geo,source,domain,impressions,monetized_impressions,clicks,revenue,margin,tq'];
  const advertisers = ['AdNova', 'BidSphere', 'Clickora'];
  DAYS.forEach((date, d) => {
    for (let i = 0; i < PER_DAY; i++) {
      const n = d * PER_DAY + i;
      const special =
        date === '2026-01-01' && i >= PER_DAY - TOP.length ? TOP[i - (PER_DAY - TOP.length)] : date === OUTSIDE.date && i === 12_345 ? OUTSIDE : null;
      const zone = special ? special.zone_id : `z${n}`;
      const revenue = special ? special.revenue : ((n * 7919) % 9973) / 100; // < 100
      const margin = Math.round(revenue * 30) / 100;
      const tq = n % 5 === 0 ? '' : ((n % 10) / 10).toFixed(1);
      lines.push(
        `${date},${advertisers[n % 3]},Pub ${n % 11},${zone},${n % 2 ? 'ES' : 'MX'},web,d${n % 4}.com,${1000 + (n % 997)},${900 + (n % 50)},${n % 41},${revenue},${margin},${tq}`,
      );
    }
  });
  return `${lines.join('\n')}\n`;
}

let server: TestServer;
let dir: string;
let tmp: string;
const cli = (args: string[], options?: Parameters<typeof runCli>[3]) => runCli(args, dir, server.url, options);
const strip = (text: string) => stripVTControlCharacters(text);

beforeAll(async () => {
  server = await startTestServer();
  tmp = await mkdtemp(path.join(tmpdir(), 'adops-cli-query-'));
  dir = await newConfigDir();
  expect((await cli(['login', '--email', ADMIN.email], { stdin: `${ADMIN.password}\n` })).code).toBe(0);
  // One CSV import through the CLI, as an operator loads a day's files.
  const file = path.join(tmp, 'fixture.csv');
  await writeFile(file, fixtureCsv());
  const imported = await cli(['import', 'zone-report', file, '--json']);
  expect(imported.stderr).toBe('');
  expect(JSON.parse(imported.stdout)).toMatchObject({ inserted: TOTAL, rejected_total: 0 });
  await rm(file);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('top N over the whole result', () => {
  it('report zones --sort revenue:desc --limit 5 --json answers the true top 5 of 50,000 rows, the same as the API', async () => {
    const r = await cli(['report', 'zones', '--from', SUBSET.from, '--to', SUBSET.to, '--sort', 'revenue:desc', '--limit', '5', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { rows: ZoneRow[]; total_rows: number; limit: number; totals: ReportTotals };
    expect(out.rows.map((row) => [row.zone_id, row.revenue])).toEqual([
      ['top-1', 505],
      ['top-2', 504],
      ['top-3', 503],
      ['top-4', 502],
      ['top-5', 501],
    ]);
    expect(out.total_rows).toBe(SUBSET_ROWS);
    expect(out.limit).toBe(5);
    expect(r.stderr).toContain('--limit 5: 5 de 50.000 filas, las primeras del orden pedido (el resto se omite)');
    const api = await server.admin();
    const direct = await api.adReport.zoneDetails({ start_date: SUBSET.from, end_date: SUBSET.to, sort: 'revenue:desc', page_size: 5 });
    // The API's rows and totals, rounded for machine output (money to the cent, ratios to 4 decimals).
    expect(out.rows).toEqual(jsonFigures(direct.rows));
    expect(out.totals).toEqual(jsonFigures(direct.totals));
  });

  it('--limit above one page streams the sorted export and cuts it: the first 1,200 rows are the API’s first 1,200', async () => {
    const r = await cli(['report', 'zones', '--from', SUBSET.from, '--to', SUBSET.to, '--sort', 'revenue:desc', '--limit', '1200', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { rows: ZoneRow[]; total_rows: number; limit: number };
    expect(out.rows).toHaveLength(1200);
    expect(out.limit).toBe(1200);
    expect(r.stderr).toContain('--limit 1200: 1.200 de 50.000 filas, las primeras del orden pedido');
    const api = await server.admin();
    const pages = await Promise.all(
      [1, 2, 3].map((page) => api.adReport.zoneDetails({ start_date: SUBSET.from, end_date: SUBSET.to, sort: 'revenue:desc', page, page_size: 500 })),
    );
    expect(out.rows.map((row) => row.zone_id)).toEqual(
      pages
        .flatMap((p) => p.rows)
        .slice(0, 1200)
        .map((row) => row.zone_id),
    );
    expect(out.rows.slice(0, 5).map((row) => row.zone_id)).toEqual(['top-1', 'top-2', 'top-3', 'top-4', 'top-5']);
  });
});

describe('exports of every matching row', () => {
  it('--csv writes all 200,000 rows of the range, header first, in the API’s order', async () => {
    const file = path.join(tmp, 'zonas.csv');
    const started = performance.now();
    const r = await cli(['report', 'zones', '--from', DAYS.at(-1)!, '--to', DAYS[0], '--csv', file]);
    const ms = performance.now() - started;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(`${TOTAL} filas → ${file}`);
    let lines = 0;
    let header = '';
    let first = '';
    for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
      if (lines === 0) header = line;
      if (lines === 1) first = line;
      lines++;
    }
    expect(lines).toBe(TOTAL + 1);
    expect(header.replace(/^\uFEFF/, '').split(',')).toEqual(AD_REPORT_COLUMNS.map((c) => c.header));
    const api = await server.admin();
    const page = await api.adReport.zoneDetails({ start_date: DAYS.at(-1)!, end_date: DAYS[0], page_size: 1 });
    expect(first.split(',').slice(0, 4)).toEqual([page.rows[0].date, page.rows[0].advertiser, page.rows[0].publisher, page.rows[0].zone_id]);
    expect(ms).toBeLessThan(15_000);
    await rm(file);
  }, 30_000);

  it('--json streams every row of 50,000 into one document whose totals and total_rows are the API’s', async () => {
    const r = await cli(['report', 'zones', '--from', SUBSET.from, '--to', SUBSET.to, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as {
      start_date: string;
      end_date: string;
      rows: ZoneRow[];
      total_rows: number;
      totals: ReportTotals;
      limit?: number;
    };
    expect([out.start_date, out.end_date]).toEqual([SUBSET.from, SUBSET.to]);
    expect(out.rows).toHaveLength(SUBSET_ROWS);
    expect(out.total_rows).toBe(SUBSET_ROWS);
    expect(out).not.toHaveProperty('limit');
    expect(new Set(out.rows.map((row) => row.zone_id)).size).toBe(SUBSET_ROWS);
    const api = await server.admin();
    const first = await api.adReport.zoneDetails({ start_date: SUBSET.from, end_date: SUBSET.to, page_size: 500 });
    const last = await api.adReport.zoneDetails({ start_date: SUBSET.from, end_date: SUBSET.to, page: 100, page_size: 500 });
    expect(out.totals).toEqual(jsonFigures(first.totals));
    expect(out.rows.slice(0, 500)).toEqual(jsonFigures(first.rows));
    expect(out.rows.slice(-500)).toEqual(jsonFigures(last.rows));
  }, 30_000);

  it('report publishers --csv - streams the summary export to stdout with every row', async () => {
    const r = await cli(['report', 'publishers', '--from', SUBSET.from, '--to', SUBSET.to, '--csv', '-']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const api = await server.admin();
    const direct = await api.adReport.publisherSummary({ start_date: SUBSET.from, end_date: SUBSET.to, page_size: 1 });
    expect(lines).toHaveLength(direct.total_rows + 1);
    expect(direct.total_rows).toBe(2 * 11); // 2 days × 11 publishers
  });
});

describe('the terminal screen asks the server for its pages', () => {
  it('shows the server’s first page and Totales; n pages forward three times quickly; q exits 0', async () => {
    const kb = await atKeyboard(
      (o) => cli(['report', 'zones', '--from', SUBSET.from, '--to', SUBSET.to, '--sort', 'revenue:desc'], o),
      atRest,
      'page 1',
    );
    // Three keys in one read: none may be lost.
    await kb.press('nnn', (f) => f.includes('Página 4 de 2000') && atRest(f), 'page 4');
    const r = await kb.quit();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const text = strip(r.stdout);
    expect(text).toContain('Página 1 de 2000 · 50.000 filas · 25 por página · orden: Revenue ▼');
    expect(text).toContain('Página 4 de 2000 · 50.000 filas');
    // The first page starts with the true maximum; page 4 holds the API's rows 76–100.
    // The first row of page 1 is the true maximum (whichever order the columns take at this width).
    const firstRow = text.split('\n').find((l) => /^01\/01\/2026\s/.test(l) && !l.includes('–')) ?? '';
    expect(firstRow).toMatch(/\btop-1\b/);
    expect(firstRow).toMatch(/\bPub \d+\b/);
    const api = await server.admin();
    const page4 = await api.adReport.zoneDetails({ start_date: SUBSET.from, end_date: SUBSET.to, sort: 'revenue:desc', page: 4, page_size: 25 });
    const lastFrame = text.slice(text.lastIndexOf('Resumen diario por zona'));
    expect(lastFrame).toContain(` ${page4.rows[0].zone_id} `);
    expect(lastFrame).toContain(` ${page4.rows[24].zone_id} `);
    const totals = lastFrame.split('\n').find((l) => l.startsWith('Totales'))!;
    expect(totals).toContain(formatMetric('revenue', page4.totals.revenue));
  });
});
