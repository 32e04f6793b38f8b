// `adops profit`, `adops spend sync` and `adops rates` against a live server holding the issue's
// hand-worked fixture (server/test/profit.test.ts works its figures out; in short: C1 earns 19.00
// on 15.40 USD of spend, C2 13.50 on 22.00 — a loss — and the second day has no zone report yet,
// so its revenue is estimated). The CLI's --json is the API's answer for the same filter; the
// terminal shows the same figures, marks the losing row with ▼ (not colour alone) and says which
// days are estimates and which exchange rates are missing.
import { stripVTControlCharacters } from 'node:util';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, formatDateDMY, formatProfitMetric, jsonFigures, todayIn, type Api, type ProfitTable } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { D1, D2, LAST_MONTH, loadProfitFixture } from '../../server/test/profit-fixture.js';
import { newConfigDir, runCli } from './helpers.js';
import { event } from '../../server/test/warehouse-contract.js';

let server: TestServer;
let api: Api;
let dir: string;
const cli = (args: string[], options?: Parameters<typeof runCli>[3]) => runCli(args, dir, server.url, options);
const strip = (text: string) => stripVTControlCharacters(text);
const RANGE = ['--from', D1, '--to', D2];

beforeAll(async () => {
  server = await startTestServer();
  api = await server.admin();
  await loadProfitFixture(server.app.services.warehouse);
  dir = await newConfigDir();
  expect((await cli(['login', '--email', ADMIN.email], { stdin: `${ADMIN.password}\n` })).code).toBe(0);
}, 60_000);
afterAll(() => server?.close());

describe('adops profit before the month has an exchange rate', () => {
  it('--json says which rate is missing and leaves spend and profit unknown, as the API does; the screen says it in words', async () => {
    const r = await cli(['profit', ...RANGE, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as ProfitTable;
    expect(out.totals.missing_rates).toEqual([{ month: LAST_MONTH, currency: 'EUR' }]);
    expect(out.rows.every((row) => row.spend === null && row.profit === null && row.missing_rate)).toBe(true);
    const screen = strip((await cli(['profit', ...RANGE], { isTTY: true, columns: 120 })).stdout);
    expect(screen).toContain(`⚠ Sin tipo de cambio EUR ${LAST_MONTH}: gasto y beneficio sin calcular (adops rates)`);
    expect(screen).toMatch(/Campaña vuelos\s+-\s+-\s+-\s+\$13,50\*/);
  });
});

describe('adops rates', () => {
  it('set stores a month’s rate (1,10 or 1.10), list shows it; a bad rate or month is refused and nothing changes', async () => {
    const set = await cli(['rates', 'set', LAST_MONTH, 'eur', '1,10'], { isTTY: true });
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout.trim()).toBe(`Tipo de cambio de ${LAST_MONTH}: 1 EUR = 1,1 USD`);
    expect(await api.profit.rates()).toEqual({ currency: 'USD', rates: [{ month: LAST_MONTH, currency: 'EUR', rate: 1.1 }] });
    const list = await cli(['rates'], { isTTY: true });
    expect(list.stdout).toContain(`${LAST_MONTH}  1 EUR = 1,1 USD`);
    expect(JSON.parse((await cli(['rates', 'list', '--json'])).stdout)).toEqual(await api.profit.rates());

    const badRate = await cli(['rates', 'set', LAST_MONTH, 'EUR', 'mucho']);
    expect(badRate.code).toBe(2);
    expect(badRate.stderr).toContain('Tipo de cambio no válido: mucho');
    const badMonth = await cli(['rates', 'set', '2026-13', 'EUR', '1.2']);
    expect(badMonth.code).toBe(2);
    expect(badMonth.stderr).toContain('Mes no válido: 2026-13 (usa AAAA-MM)');
    const zero = await cli(['rates', 'set', LAST_MONTH, 'EUR', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('un número mayor que 0');
    // What only the server knows: it refuses, the command fails with its words (exit 1).
    const currency = await cli(['rates', 'set', LAST_MONTH, 'EURO', '1.2']);
    expect(currency.code).toBe(1);
    expect(currency.stderr).toContain('La moneda debe ser un código ISO de 3 letras');
    expect((await api.profit.rates()).rates).toEqual([{ month: LAST_MONTH, currency: 'EUR', rate: 1.1 }]);
  });

  it('a non-admin reads the rates but may not change them, nor sync spend ("No autorizado", exit 4)', async () => {
    await api.admin.createUser({ first_name: 'Mar', last_name: '', email: 'mar@test.local', password: 'mar-pass-1234', is_admin: false });
    const other = await newConfigDir();
    expect((await runCli(['login', '--email', 'mar@test.local'], other, server.url, { stdin: 'mar-pass-1234\n' })).code).toBe(0);
    expect((await runCli(['rates'], other, server.url, { isTTY: true })).stdout).toContain('1 EUR = 1,1 USD');
    for (const args of [
      ['rates', 'set', LAST_MONTH, 'EUR', '2'],
      ['rates', 'delete', LAST_MONTH, 'EUR'],
      ['spend', 'sync'],
    ]) {
      const r = await runCli(args, other, server.url);
      expect(r.code).toBe(4);
      expect(r.stderr.trim()).toBe('No autorizado');
    }
    expect((await api.profit.rates()).rates).toEqual([{ month: LAST_MONTH, currency: 'EUR', rate: 1.1 }]);
  });
});

describe('adops profit', () => {
  it('--json is the API’s answer for the same filter: by campaign, and by keyword inside one campaign', async () => {
    for (const [args, query] of [
      [RANGE, { by: 'campaign' as const }],
      [[...RANGE, '--by', 'keyword', '--campaign', 'C1'], { by: 'keyword' as const, campaign_id: 'C1' }],
      [[...RANGE, '--by', 'day', '--sort', 'profit:asc'], { by: 'day' as const, sort: 'profit:asc' }],
    ] as const) {
      const r = await cli(['profit', ...args, '--json']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout) as ProfitTable & { by: string; start_date: string; end_date: string };
      const direct = await api.profit.table({ start_date: D1, end_date: D2, page_size: 500, ...query });
      expect(out).toMatchObject({ by: query.by, start_date: D1, end_date: D2, total_rows: direct.total_rows });
      expect(out.rows).toEqual(jsonFigures(direct.rows));
      expect(out.totals).toEqual(jsonFigures(direct.totals));
    }
    // The fixture's worked figures come through.
    const out = JSON.parse((await cli(['profit', ...RANGE, '--json'])).stdout) as ProfitTable;
    expect(out.rows.map((row) => [row.key, row.losing])).toEqual([
      ['C2', true],
      ['C1', false],
    ]);
    expect(out.totals.revenue).toBeCloseTo(32.5, 6);
    expect(out.totals.profit).toBeCloseTo(-4.9, 6);
    expect(out.totals.estimated_days).toEqual([D2]);
  });

  it('--csv - is the server’s export; a bad --by or --sort is a usage error before asking the server', async () => {
    const r = await cli(['profit', ...RANGE, '--csv', '-']);
    expect(r.code).toBe(0);
    const res = await fetch(`${server.url}/api/profit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${(api as Api & { token: string }).token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ start_date: D1, end_date: D2, format: 'csv' }),
    });
    expect(r.stdout).toBe((await res.text()).replace(/^\uFEFF/, ''));
    const file = path.join(tmpdir(), `rentabilidad-${process.pid}.csv`);
    const saved = await cli(['profit', ...RANGE, '--csv', file]);
    expect(saved.stdout.trim()).toBe(`2 filas → ${file}`);
    expect((await readFile(file, 'utf8')).startsWith('\uFEFF')).toBe(true);
    await rm(file);
    const by = await cli(['profit', '--by', 'pais']);
    expect(by.code).toBe(2);
    expect(by.stderr).toContain('--by no válido: pais (usa campaign, adset, ad, keyword, day)');
    expect((await cli(['profit', '--sort', 'ctr'])).code).toBe(2);
  });

  describe('on a terminal', () => {
    const screenAt = async (columns: number, extra: string[] = []) => {
      const r = await cli(['profit', ...RANGE, ...extra], { isTTY: true, columns });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return strip(r.stdout).split('\n');
    };

    it('at 80 and 120 columns: every line fits, the losing campaign carries ▼, Totales are the server’s, estimated days are named', async () => {
      const direct = await api.profit.table({ start_date: D1, end_date: D2 });
      for (const columns of [80, 120]) {
        const lines = await screenAt(columns);
        for (const line of lines) expect(line.length, `${columns}: ${line}`).toBeLessThanOrEqual(columns);
        expect(lines[0]).toContain('Rentabilidad por campaña');
        expect(lines.some((l) => l.includes(`${formatDateDMY(D1)} – ${formatDateDMY(D2)}`) && l.includes('importes en USD'))).toBe(true);
        const header = lines.find((l) => /^Campaña\s/.test(l))!;
        expect(header).toMatch(/Beneficio\s+ROI %\s+Gasto/);
        const c2 = lines.find((l) => l.includes('Campaña vuelos'))!;
        const c1 = lines.find((l) => l.includes('Campaña seguros'))!;
        expect(c2.trimStart().startsWith('▼')).toBe(true);
        expect(c1.trimStart().startsWith('▼')).toBe(false);
        expect(c2).toContain(formatProfitMetric('profit', -8.5)); // -$8,50
        expect(lines.indexOf(c2)).toBeLessThan(lines.indexOf(c1)); // most spend first
        const totals = lines.find((l) => l.startsWith('Totales'))!;
        expect(totals).toContain(formatProfitMetric('profit', direct.totals.profit));
        expect(totals).toContain(formatProfitMetric('roi', direct.totals.roi));
        expect(lines.some((l) => l.startsWith(`* Revenue estimado el ${formatDateDMY(D2)}: sin informe de zonas final`))).toBe(true);
        expect(lines).toContain('El gasto de Meta no se ha sincronizado nunca');
        if (columns === 120) {
          expect(header).toMatch(/Revenue est\. \*\s+Visitas\s+RPV/);
          expect(c1).toContain(`${formatProfitMetric('revenue', 19)}*`);
        }
      }
    });

    it('a wide terminal shows every column, the ids last (what --campaign takes)', async () => {
      const lines = await screenAt(220);
      expect(lines.find((l) => /^Campaña\s/.test(l))).toMatch(/\sTQ\s+ID$/);
      expect(lines.find((l) => l.includes('Campaña vuelos'))).toMatch(/\sC2$/);
    });

    it('--by keyword --campaign C1 lists that campaign’s keywords under its name in the subtitle', async () => {
      const lines = await screenAt(120, ['--by', 'keyword', '--campaign', 'C1']);
      expect(lines[0]).toContain('Rentabilidad por keyword');
      expect(lines.some((l) => l.includes('campaña C1'))).toBe(true);
      expect(lines.some((l) => /^\s+seguros\s/.test(l))).toBe(true);
      expect(lines.some((l) => l.includes('vuelos'))).toBe(false);
    });
  });
});

describe('adops profit says what its figures lack', () => {
  // D3: 5 visits from C1 to Z1 (worth Z1's trailing RPV, 1.00: no report that day), and no spend synced or stored.
  const D3 = `${LAST_MONTH}-03`;
  const WIDE = ['--from', D1, '--to', D3];
  beforeAll(async () => {
    await server.app.services.warehouse.referrers.append(
      Array.from({ length: 5 }, (_, i) =>
        event(10_000 + i, Date.parse(`${D3}T10:00:00Z`) + i * 1000, { zone_id: 'Z1', campaign_id: 'C1', adset_id: 'S1', ad_id: 'A1' }),
      ),
    );
  });

  it('--json carries the unsynced, estimated and partial days and the last sync, as the API answers them', async () => {
    const out = JSON.parse((await cli(['profit', ...WIDE, '--json'])).stdout) as ProfitTable;
    expect(out.totals).toMatchObject({
      unsynced_days: [D3],
      estimated_days: [D2, D3],
      partial_days: [],
      spend_synced_at: null,
      spend_unsynced: false,
    });
    expect(out.totals.unsynced_revenue).toBeCloseTo(5, 6);
    const c1 = out.rows.find((r) => r.key === 'C1')!;
    // C1's figures are D1 and D2's (19.00 earned on 15.40): D3's 5.00 is apart, not a free profit.
    expect(c1.revenue).toBeCloseTo(19, 6);
    expect(c1.profit).toBeCloseTo(3.6, 6);
    expect(c1.unsynced_revenue).toBeCloseTo(5, 6);
  });

  it('on a terminal: the unsynced day is named (never a spend of 0), the revenue left apart is marked †, and by day its spend reads “sin sincronizar”', async () => {
    const screen = strip((await cli(['profit', ...WIDE], { isTTY: true, columns: 160 })).stdout).split('\n');
    expect(screen).toContain('El gasto de Meta no se ha sincronizado nunca');
    expect(
      screen.some((l) =>
        l.startsWith(
          `† Gasto de Meta sin sincronizar el ${formatDateDMY(D3)}: esos días no cuentan en el gasto, el beneficio, el ROI ni el ROAS (no son 0)`,
        ),
      ),
    ).toBe(true);
    expect(screen.find((l) => l.includes('Campaña seguros'))).toContain(`${formatProfitMetric('revenue', 19)}*†`);
    const byDay = strip((await cli(['profit', ...WIDE, '--by', 'day'], { isTTY: true, columns: 160 })).stdout).split('\n');
    const d3 = byDay.find((l) => l.trimStart().startsWith(formatDateDMY(D3)))!;
    expect(d3).toContain('sin sincronizar');
    expect(d3).not.toContain(formatProfitMetric('spend', 0));
  });
});

describe('adops spend sync', () => {
  it('reads the sandbox’s spend for the days asked; a second run stores nothing new; the default is the last 7 days', async () => {
    const today = todayIn('UTC', new Date());
    const from = addDays(today, -2);
    const first = await cli(['spend', 'sync', '--from', from, '--to', today, '--json']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const a = JSON.parse(first.stdout);
    expect(a).toMatchObject({ start_date: from, end_date: today, updated: 0, unchanged: 0, currencies: ['EUR'] });
    expect(a.rows).toBeGreaterThan(0);
    expect(a.inserted).toBe(a.rows);
    const again = await cli(['spend', 'sync', '--from', from, '--to', today], { isTTY: true });
    expect(again.code).toBe(0);
    expect(again.stdout.trim()).toBe(
      `Gasto sincronizado (${formatDateDMY(from)} – ${formatDateDMY(today)}): ${a.rows} filas anuncio-día de ${a.ads} anuncios — 0 nuevas, 0 cambiadas, ${a.rows} sin cambios · monedas: EUR`,
    );
    const week = JSON.parse((await cli(['spend', 'sync', '--json'])).stdout);
    expect(week).toMatchObject({ start_date: addDays(today, -6), end_date: today });
    expect(week.unchanged).toBe(a.rows);
    const reversed = await cli(['spend', 'sync', '--from', today, '--to', from]);
    expect(reversed.code).toBe(2);
    expect((await cli(['spend', 'sync', '--to', today])).code).toBe(2);
  });
});
