// The zone CSV (adreport_zonas.csv, ad_report.csv) is written column by column from the engine's
// chunks (zoneCsvWriter), no object per row: here on DuckDB, from its vectors (ClickHouse:
// export-columns.clickhouse.test.ts). It must be the row path's file byte for byte — csvRow over
// zoneRow, what NDJSON still takes — for text that needs quotes or a formula guard, unicode, missing
// values, ratios over a zero base, money with many digits, in both dialects, across several chunks
// and sort windows.
import { DuckDBDataChunk } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ReportService } from '../src/services/reports.js';
import type { TableExport } from '../src/tables.js';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import { importRows } from './warehouse-contract-helpers.js';
import { ORDERS, RANGE, ROWS, columnPath, exportText, fixture, rowPath, rowPathBytesTests, expectNdjsonFromRows } from './export-columns-fixture.js';
import { streamRowColumns, streamRows } from '../src/warehouse/zone-report/get-rows.js';

type Warehouse = Awaited<ReturnType<typeof openDuckDbWarehouse>>;
let w: Warehouse;

beforeAll(async () => {
  w = await openDuckDbWarehouse(':memory:');
  await importRows(w, fixture());
});
afterAll(() => w.close());

describe('the zone CSV written column by column', () => {
  rowPathBytesTests(() => w.db);

  test('the fixture reaches what must be written with care (quotes, guard, empty ratios, many digits)', async () => {
    const text = (await columnPath('zones', 'standard', streamRowColumns(w.db, { filters: RANGE, order: ORDERS[0] }))).text;
    expect(text).toContain('"Bid, ""Sphere"""');
    expect(text).toContain("'=SUM(A1)");
    expect(text).toContain('"línea\nnueva"');
    expect(text).toContain('数据');
    expect(text).toContain('1234567.12345679'); // 15 significant digits, no binary noise
    expect(text).toMatch(/,0,,/); // a zero base leaves its ratio empty
    const es = (await columnPath('zones', 'excel-es', streamRowColumns(w.db, { filters: RANGE, order: ORDERS[0] }))).text;
    expect(es).toContain('03/03/2026;');
    expect(es).toContain('1234567,12345679');
  });

  test('a filtered export (nothing matching too) is the row path', async () => {
    for (const filters of [
      { ...RANGE, advertiser: 'AdNova' },
      { ...RANGE, advertiser: 'Nadie' },
    ]) {
      const q = { filters, order: ORDERS[1] };
      expect((await columnPath('zones', 'standard', streamRowColumns(w.db, q))).text).toBe(await rowPath('zones', 'standard', streamRows(w.db, q)));
    }
  });

  test('the service writes the DuckDB CSV from column chunks, never a row object; NDJSON reads rows', async () => {
    const reports = new ReportService(w.zoneReports, 'Europe/Madrid');
    const request = { page: 1, page_size: 50, sort: { key: 'revenue', dir: 'desc' as const } };
    const viaRows = vi.spyOn(w.zoneReports, 'streamRows');
    const viaColumns = vi.spyOn(w.zoneReports, 'streamColumns' as 'streamRows');
    try {
      const exp = reports.zoneExport(RANGE, request, 'zones') as TableExport<unknown>;
      expect(exp.csvLines).toBeTypeOf('function');
      const text = await exportText(exp, 'standard');
      expect(viaColumns).toHaveBeenCalledTimes(1);
      expect(viaRows).not.toHaveBeenCalled();
      const q = { filters: RANGE, order: [{ key: 'revenue' as const, dir: 'desc' as const }] };
      expect(text).toBe(await rowPath('zones', 'standard', streamRows(w.db, q)));
      // Each chunk the writer gets is columns of the chunk's length, not rows.
      for await (const chunk of w.zoneReports.streamColumns!(q)) {
        expect(Object.keys(chunk.columns)).toContain('revenue');
        expect(chunk.columns.revenue).toHaveLength(chunk.rows);
        expect(typeof chunk.columns.revenue[0]).toBe('number');
      }
      await expectNdjsonFromRows(reports, request, viaRows);
    } finally {
      viaRows.mockRestore();
      viaColumns.mockRestore();
    }
  });

  test("the CSV's chunks are bytes written from the engine's vectors: no value object, no string a line", async () => {
    const reports = new ReportService(w.zoneReports, 'Europe/Madrid');
    const request = { page: 1, page_size: 50, sort: { key: 'date', dir: 'desc' as const } };
    // The library's per-value reading (a callback and an object or string a value) is what the vectors' typed arrays replace.
    const perValue = vi.spyOn(DuckDBDataChunk.prototype, 'getColumnValues');
    try {
      const exp = reports.zoneExport(RANGE, request, 'zones') as TableExport<unknown>;
      let bytes = 0;
      for await (const chunk of exp.csvLines!('standard')) {
        expect(chunk).toBeInstanceOf(Uint8Array);
        bytes += chunk.length;
      }
      expect(bytes).toBeGreaterThan(ROWS * 50);
      expect(perValue).not.toHaveBeenCalled();
    } finally {
      perValue.mockRestore();
    }
  });
});
