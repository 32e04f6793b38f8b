// adops report publishers | advertisers, demand, finance and explorer against a test server with
// seeded rows (seeded-server.ts): the API's figures, totals and order, as tables and as JSON/CSV.
// adops report zones is in reports.test.tsx, adops dashboard in dashboard.test.tsx.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOM, addDays, contract, formatDateDMY, formatMoney, formatMonthName, parseCsv, type SummaryRow, type ZoneRow } from '@adops/core';
import { newConfigDir, runCli } from './helpers.js';
import { SEED, d1, d2, inDefaultRange, old, seededServer, strip, sum, today } from './seeded-server.js';

const seeded = seededServer();
const { cli } = seeded;

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
    const api = await seeded.server.admin();
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
    const file = path.join(seeded.tmp, 'demand.csv');
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
    const api = await seeded.server.admin();
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
    const api = await seeded.server.admin();
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
    const api = await seeded.server.admin();
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

    const api = await seeded.server.admin();
    const q = { start_date: old, end_date: today };
    const file = path.join(seeded.tmp, 'finance.csv');
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
    const api = await seeded.server.admin();
    const q = { start_date: old, end_date: today };
    // Finance: ';', decimal commas, the TOTAL line last — byte for byte the server's excel-es export.
    const file = path.join(seeded.tmp, 'finance-excel.csv');
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
    const api = await seeded.server.admin();
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
    const r = await runCli(['report', 'zones', '--json'], await newConfigDir(), seeded.server.url);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('adops login');
  });
});
