// The zone CSV test fixture shared by the engines' column-path tests (export-columns*.test.ts):
// rows whose text needs quotes or a formula guard, unicode, missing values, ratios over a zero
// base and money with many digits; the CSV as the row path and as the column writer write it.
import { csvHeader, csvRow, TABLE_CSV, type CsvDialect, type ZoneColumns, zoneCsvWriter } from '@adops/core';
import { zoneRow } from '../src/services/reports.js';
import type { TableExport } from '../src/tables.js';
import type { RowQuery, ZoneReportRecord } from '../src/warehouse/index.js';
import type { SqlDb } from '../src/warehouse/sql/db.js';
import { streamRowColumns, streamRows } from '../src/warehouse/zone-report/get-rows.js';
import { expect, test, type MockInstance } from 'vitest';
import type { ReportService } from '../src/services/reports.js';

const DAYS = ['2026-03-01', '2026-03-02', '2026-03-03'];
const TEXTS = ['AdNova', 'Bid, "Sphere"', 'Clíckora; ñ €', '=SUM(A1)', '+34 600', 'línea\nnueva', '-', '数据', 'tab\there'];
const MONEY = [0, 1234567.123456789, 0.1 + 0.2, 1e-7, -17.005, 99999999.99999, 2.675, 1 / 3];
/** More rows than two DuckDB chunks (2,048), values cycling at different periods so every combination shows. */
export const ROWS = 5000;

export function fixture(): ZoneReportRecord[] {
  const rows: ZoneReportRecord[] = [];
  for (let i = 0; i < ROWS; i++) {
    const revenue = MONEY[i % MONEY.length] * ((i % 3) + 1);
    rows.push({
      date: DAYS[i % DAYS.length],
      advertiser: TEXTS[i % TEXTS.length],
      publisher: TEXTS[(i + 3) % TEXTS.length],
      zone_id: `Z-${i}`,
      geo: i % 11 === 0 ? '' : 'ES',
      source: TEXTS[(i + 5) % TEXTS.length],
      domain: 'a.com',
      impressions: i % 13 === 0 ? 0 : 1000 + (i % 97) * 37, // a zero base: CTR, CPM, P.CPM empty
      monetized_impressions: i % 7 === 0 ? null : i % 5 === 0 ? 0 : 900 + (i % 31),
      clicks: i % 6 === 0 ? 0 : i % 41, // no clicks: CPC, P.CPC empty
      revenue,
      rate_applied: 0.6,
      p_revenue: revenue * 0.6123456789,
      margin: revenue * 0.3876543211 - (i % 4 === 0 ? 0.001 : 0),
      tq: i % 9 === 0 ? null : (i % 17) / 7,
    });
  }
  return rows;
}

export const RANGE = { start_date: DAYS[0], end_date: DAYS.at(-1) as string };
export const ORDERS: RowQuery['order'][] = [[{ key: 'date', dir: 'desc' }], [{ key: 'revenue', dir: 'desc' }], [{ key: 'ctr', dir: 'asc' }]];

/** The CSV as the row path writes it: each stored row made a zone row, each zone row a line. */
export async function rowPath(screen: 'zones' | 'explorer', dialect: CsvDialect, chunks: AsyncIterable<ZoneReportRecord[]>) {
  const { fields } = TABLE_CSV[screen];
  let text = csvHeader(fields, { dialect });
  for await (const chunk of chunks) for (const r of chunk) text += csvRow(fields, zoneRow(r), dialect);
  return text;
}

/** The CSV as the column writer writes it from the same query's column chunks. */
export async function columnPath(screen: 'zones' | 'explorer', dialect: CsvDialect, chunks: AsyncIterable<ZoneColumns>) {
  const write = zoneCsvWriter(TABLE_CSV[screen].columns, dialect);
  let text = csvHeader(TABLE_CSV[screen].fields, { dialect });
  let n = 0;
  const utf8 = new TextDecoder();
  for await (const chunk of chunks) {
    text += utf8.decode(write(chunk));
    n++;
  }
  return { text, chunks: n };
}

export async function exportText(exp: TableExport<unknown>, dialect: CsvDialect): Promise<string> {
  let text = csvHeader(exp.fields, { dialect });
  if (exp.csvLines) for await (const lines of exp.csvLines(dialect)) text += new TextDecoder().decode(lines);
  else for await (const chunk of exp.chunks) for (const row of chunk) text += csvRow(exp.fields, row, dialect);
  return text;
}

/**
 * The engine's column path writes the row path's file byte for byte: both screens, both dialects,
 * every order, in one window and in windows of 700 rows (several chunks each). `db` is read when
 * the tests run (the warehouse is opened in the caller's beforeAll).
 */
export function rowPathBytesTests(db: () => SqlDb & Required<Pick<SqlDb, 'streamColumns'>>): void {
  for (const screen of ['zones', 'explorer'] as const)
    for (const dialect of ['standard', 'excel-es'] as const)
      test(`${screen}, ${dialect}: the row path's bytes, in every order and window size`, async () => {
        for (const order of ORDERS)
          for (const windowRows of [100_000, 700]) {
            const q = { filters: RANGE, order };
            const rows = await rowPath(screen, dialect, streamRows(db(), q, windowRows));
            const columns = await columnPath(screen, dialect, streamRowColumns(db(), q, windowRows));
            expect(columns.text).toBe(rows);
            expect(columns.chunks).toBeGreaterThanOrEqual(3); // several chunks (and windows at 700)
          }
      });
}

/** The NDJSON export (its `chunks`) reads rows — `viaRows`, once — and has every row. */
export async function expectNdjsonFromRows(
  reports: ReportService,
  request: { page: number; page_size: number; sort: { key: string; dir: 'asc' | 'desc' } },
  viaRows: MockInstance,
) {
  viaRows.mockClear();
  let lines = 0;
  for await (const chunk of reports.zoneExport(RANGE, request, 'zones').chunks) lines += chunk.length;
  expect(lines).toBe(ROWS);
  expect(viaRows).toHaveBeenCalledTimes(1);
}
