import { describe, expect, it } from 'vitest';
import { csvDocument, parseCsv, type CsvDialect, type CsvField } from './csv.js';
import { TABLE_CSV, campaignCsvFields, financeCsvFields, profitCsvFields } from './exports.js';
import { groupMetrics, rowSums } from './metrics.js';
import { roundTo } from './rounding.js';

type AnyRow = Record<string, unknown>;

/** The cell of a written CSV as a number, in either dialect. */
const numberOf = (text: string, dialect: CsvDialect) => Number(dialect === 'excel-es' ? text.replace(',', '.') : text);

/** What a spreadsheet's SUM of a column gives: the column's cells read back and added. */
function columnSum(fields: readonly CsvField<AnyRow>[], rows: AnyRow[], header: string, dialect: CsvDialect): number {
  const [head, ...body] = parseCsv(csvDocument(fields, rows, dialect), dialect === 'excel-es' ? ';' : ',');
  const at = head.indexOf(header);
  expect(at).toBeGreaterThanOrEqual(0);
  return body.reduce((sum, cells) => sum + numberOf(cells[at], dialect), 0);
}

/**
 * 11,557 zone rows whose amounts each round up at the cent (x.xx5 and more): rounded one by one
 * they drift by about 0.5 cent a row, 57 units over the file.
 */
const drifting = Array.from({ length: 11557 }, (_, i) => {
  const revenue = 3.1605 + (i % 7) * 0.0011;
  const p_revenue = 2.2125 + (i % 5) * 0.0007;
  return {
    date: `2026-11-${String((i % 28) + 1).padStart(2, '0')}`,
    advertiser: 'BidSphere',
    publisher: `Pub${i % 40}`,
    zone_id: `Z-${i}`,
    geo: 'ES',
    source: 'search',
    ...groupMetrics(rowSums({ impressions: 1000, monetized_impressions: 900, clicks: 7, revenue, p_revenue, margin: revenue - p_revenue, tq: 0.8 })),
  };
});
const exact = (key: string) => drifting.reduce((sum, r) => sum + (r[key as keyof (typeof drifting)[number]] as number), 0);

describe.each<CsvDialect>(['standard', 'excel-es'])('a money column’s SUM is the report’s total to the cent (%s)', (dialect) => {
  it.each([
    ['zones', TABLE_CSV.zones.fields, 'revenue', 'revenue'],
    ['zones', TABLE_CSV.zones.fields, 'margin', 'margin'],
    ['zones', TABLE_CSV.zones.fields, 'P.Revenue', 'p_revenue'],
    ['explorer', TABLE_CSV.explorer.fields, 'Revenue', 'revenue'],
    ['publisher summary', TABLE_CSV.publisherSummary.fields, 'Rev', 'revenue'],
    ['daily', TABLE_CSV.daily.fields, 'P.Revenue', 'p_revenue'],
    ['demand', TABLE_CSV.demand.fields, 'Margin', 'margin'],
    ['publisher data', TABLE_CSV.publisherData.fields, 'p_revenue', 'p_revenue'],
  ])('%s: %s', (_table, fields, header, key) => {
    const total = roundTo(exact(key), 2);
    expect(roundTo(columnSum(fields, drifting, header, dialect), 2)).toBe(total);
    // Rounded one by one the same column would not add up (what the exports did before).
    expect(
      roundTo(
        drifting.reduce((sum, r) => sum + roundTo(r[key as 'revenue'], 2)!, 0),
        2,
      ),
    ).not.toBe(total);
  });

  it('Finance: each month column and Total add up to the exact totals', () => {
    const rows = drifting
      .slice(0, 3000)
      .map((r, i) => ({ advertiser: `A${i}`, '2026-10': r.revenue, '2026-11': r.margin, total: r.revenue + r.margin }));
    const fields = financeCsvFields('advertiser', ['2026-10', '2026-11']);
    for (const [header, key] of [
      ['2026-10', 'revenue'],
      ['2026-11', 'margin'],
    ] as const)
      expect(roundTo(columnSum(fields, rows, header, dialect), 2)).toBe(
        roundTo(
          drifting.slice(0, 3000).reduce((s, r) => s + r[key], 0),
          2,
        ),
      );
    expect(roundTo(columnSum(fields, rows, 'Total', dialect), 2)).toBe(
      roundTo(
        rows.reduce((s, r) => s + r.total, 0),
        2,
      ),
    );
  });

  it('Rentabilidad and campaigns: spend, revenue and profit add up; ratios keep their shown decimals', () => {
    const rows = drifting.slice(0, 2000).map((r, i) => ({
      key: `c${i}`,
      name: `Campaña ${i}`,
      id: `c${i}`,
      spend: r.p_revenue,
      revenue: r.revenue,
      profit: r.revenue - r.p_revenue,
      roi: 42.123456,
      meta_clicks: 3,
    }));
    const profit = profitCsvFields('campaign') as unknown as CsvField<AnyRow>[];
    const campaigns = campaignCsvFields('UTC');
    for (const [fields, header, key] of [
      [profit, 'Gasto', 'spend'],
      [profit, 'Beneficio', 'profit'],
      [campaigns, 'revenue', 'revenue'],
      [campaigns, 'spend', 'spend'],
    ] as const)
      expect(roundTo(columnSum(fields, rows, header, dialect), 2)).toBe(
        roundTo(
          rows.reduce((s, r) => s + r[key], 0),
          2,
        ),
      );
    const [head, first] = parseCsv(csvDocument(profit, rows, dialect), dialect === 'excel-es' ? ';' : ',');
    expect(first[head.indexOf('ROI %')]).toBe(dialect === 'excel-es' ? '42,12' : '42.12');
  });
});

describe('export columns', () => {
  it('a zone row: dates ISO in the standard file and dd/MM/yyyy in excel-es; money at stored precision, ratios as shown', () => {
    const row = drifting[0];
    const [head, std] = parseCsv(csvDocument(TABLE_CSV.zones.fields, [row]));
    const es = parseCsv(csvDocument(TABLE_CSV.zones.fields, [row], 'excel-es'), ';')[1];
    const at = (name: string) => head.indexOf(name);
    expect([std[at('date')], std[at('revenue')], std[at('CTR%')], std[at('CPC')]]).toEqual(['2026-11-01', '3.1605', '0.78', '0.45']);
    expect([es[at('date')], es[at('revenue')], es[at('CTR%')], es[at('CPC')]]).toEqual(['01/11/2026', '3,1605', '0,78', '0,45']);
  });

  it('Rentabilidad by day marks its key as a date', () => {
    const fields = profitCsvFields('day') as unknown as CsvField<AnyRow>[];
    expect(parseCsv(csvDocument(fields, [{ key: '2026-11-27', spend: 1 }], 'excel-es'), ';')[1][0]).toBe('27/11/2026');
  });
});
