// `adops referrers` against a live server with events ingested at known instants: the SPEC's
// CSV (BOM, date YYYY-MM-DD HH:mm, zone_id, source, referrer; newest first; formula guard),
// JSON, filters and ranges, and the terminal table's '-' cells and empty state.
import { stripVTControlCharacters } from 'node:util';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOM, addDays, formatDateDMY, parseCsv, todayIn, type ReferrerRow } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { newConfigDir, runCli } from './helpers.js';

const d1 = addDays(todayIn('UTC'), -1);
const d3 = addDays(todayIn('UTC'), -3);

const EVENTS = [
  { zone_id: 'r-100', referrer: 'https://news.example.com/a', parent_domain: 'news.example.com', seen_at: `${d1}T08:05:10Z` },
  { zone_id: 'r-100', referrer: 'https://news.example.com/a', parent_domain: 'news.example.com', seen_at: `${d1}T09:30:00Z` },
  { zone_id: 'r-200', referrer: null, parent_domain: 'blog.example.org', seen_at: `${d1}T10:15:59Z` },
  { zone_id: 'r-200', referrer: '=HYPERLINK("http://evil.example")', parent_domain: 'blog.example.org', seen_at: `${d1}T11:00:00Z` },
  { zone_id: 'r-100', referrer: 'https://old.example.com/', parent_domain: 'old.example.com', seen_at: `${d3}T12:00:00Z` },
];

let server: TestServer;
let dir: string;
let tmp: string;
const cli = (args: string[], options?: Parameters<typeof runCli>[3]) => runCli(args, dir, server.url, options);

beforeAll(async () => {
  server = await startTestServer();
  const { token } = await server.admin();
  const res = await server.fetch('/api/ingest/referrers', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
    body: `${EVENTS.map((e) => JSON.stringify({ ...e, ip: '198.51.100.1', country: 'ES' })).join('\n')}\n`,
  });
  expect(res.status).toBe(200);
  dir = await newConfigDir();
  tmp = await mkdtemp(path.join(tmpdir(), 'adops-cli-refs-'));
  expect((await cli(['login', '--email', ADMIN.email], { stdin: `${ADMIN.password}\n` })).code).toBe(0);
});
afterAll(() => server?.close());

describe('adops referrers', () => {
  it('--csv FILE writes date (YYYY-MM-DD HH:mm), zone_id, source, referrer with a BOM, newest first, one row per distinct referrer', async () => {
    const file = path.join(tmp, 'refs.csv');
    const r = await cli(['referrers', '--preset', 'ayer', '--csv', file]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(`3 filas → ${file}`);
    const text = await readFile(file, 'utf8');
    expect(text.startsWith(BOM)).toBe(true);
    expect(parseCsv(text)).toEqual([
      ['date', 'zone_id', 'source', 'referrer'],
      [`${d1} 11:00`, 'r-200', 'blog.example.org', `'=HYPERLINK("http://evil.example")`],
      [`${d1} 10:15`, 'r-200', 'blog.example.org', ''],
      [`${d1} 09:30`, 'r-100', 'news.example.com', 'https://news.example.com/a'],
    ]);
  });

  it('filters by zone and source and spans --from/--to; --json answers hits per distinct referrer', async () => {
    const r = await cli(['referrers', '--json', '--zone', 'r-100', '--from', d3, '--to', d1]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { start_date: string; end_date: string; rows: ReferrerRow[]; total_rows: number; totals: { hits: number } };
    expect(out.rows.map((row) => [row.referrer, row.hits])).toEqual([
      ['https://news.example.com/a', 2],
      ['https://old.example.com/', 1],
    ]);
    // Counted and summed by the server over every matching referrer.
    expect([out.start_date, out.end_date]).toEqual([d3, d1]);
    expect(out.total_rows).toBe(2);
    expect(out.totals).toEqual({ hits: 3 });
    const bySource = JSON.parse((await cli(['referrers', '--json', '--source', 'blog.example.org', '--preset', 'ayer'])).stdout) as {
      rows: ReferrerRow[];
    };
    expect(bySource.rows.every((row) => row.zone_id === 'r-200')).toBe(true);
    expect(bySource.rows).toHaveLength(2);
  });

  it('--sort is applied by the server over every row; an unknown key is a usage error', async () => {
    const r = await cli(['referrers', '--json', '--from', d3, '--to', d1, '--sort', 'hits:desc', '--limit', '1']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { rows: ReferrerRow[]; total_rows: number; limit: number };
    expect(out.rows.map((row) => [row.referrer, row.hits])).toEqual([['https://news.example.com/a', 2]]);
    expect(out.total_rows).toBe(4);
    expect(out.limit).toBe(1);
    expect(r.stderr).toContain('--limit 1: 1 de 4 filas, las primeras del orden pedido');
    const bad = await cli(['referrers', '--json', '--sort', 'ip']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--sort no válido: ip');
  });

  it('--csv - writes the CSV to stdout, without the BOM a file gets (it would end up inside a pipe)', async () => {
    const r = await cli(['referrers', '--preset', 'ayer', '--zone', 'r-100', '--csv', '-']);
    expect(r.stdout).toBe(`date,zone_id,source,referrer\n${d1} 09:30,r-100,news.example.com,https://news.example.com/a\n`);
  });

  it('at a terminal shows Date, Zone ID, Source, Referrer with "-" for an empty referrer, and "No hay resultados" when empty', async () => {
    const r = await cli(['referrers', '--preset', 'ayer'], { isTTY: true });
    const text = stripVTControlCharacters(r.stdout);
    expect(text).toMatch(/Date\s+Zone ID\s+Source\s+Hits\s+Referrer/);
    expect(text).toMatch(new RegExp(`${formatDateDMY(d1)} 10:15\\s+r-200\\s+blog\\.example\\.org\\s+1\\s+-`));
    expect(text).toMatch(/Totales\s+4\s*\n/); // hits of the day's referrers, from the server
    expect(text).toContain('Página 1 de 1 · 3 filas · 20 por página');
    const empty = await cli(['referrers'], { isTTY: true });
    expect(empty.stdout).toContain('No hay resultados');
  });

  it('refuses an unknown preset and a bad date', async () => {
    const preset = await cli(['referrers', '--preset', 'trimestre']);
    expect(preset.code).toBe(2);
    expect(preset.stderr).toContain('usa hoy, ayer, ultimos7, ultimos7_hoy, mes_actual, mes_anterior');
    const date = await cli(['referrers', '--from', '31/02/2026']);
    expect(date.code).toBe(2);
    expect(date.stderr).toContain('Fecha no válida en --from: 31/02/2026');
  });
});
