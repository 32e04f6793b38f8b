// The zone CSV on ClickHouse is written column by column too: each export window is read as
// columns (ClickHouse's Native format, no object per row) and written by the same zoneCsvWriter as
// DuckDB's vectors. It must be the row path's file byte for byte, as on DuckDB (export-columns.test.ts).
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ReportService } from '../src/services/reports.js';
import type { TableExport } from '../src/tables.js';
import { openClickHouseWarehouse } from '../src/warehouse/clickhouse/index.js';
import { streamRows } from '../src/warehouse/zone-report/get-rows.js';
import { RANGE, exportText, fixture, rowPath, rowPathBytesTests, expectNdjsonFromRows } from './export-columns-fixture.js';
import { importRows } from './warehouse-contract-helpers.js';
import { chdbClient } from './helpers.js';

const { client } = await chdbClient('chdb-export-columns');
let w: Awaited<ReturnType<typeof openClickHouseWarehouse>>;

beforeAll(async () => {
  w = await openClickHouseWarehouse(client, { database: 'columns', embedded: true });
  await importRows(w, fixture());
});
afterAll(() => w.close());

describe('the zone CSV written column by column on ClickHouse', () => {
  rowPathBytesTests(() => w.db);

  test('the service writes the CSV from column chunks, never a row object; NDJSON reads rows', async () => {
    const reports = new ReportService(w.zoneReports, 'Europe/Madrid');
    const request = { page: 1, page_size: 50, sort: { key: 'revenue', dir: 'desc' as const } };
    const viaRows = vi.spyOn(w.zoneReports, 'streamRows');
    const asRows = vi.spyOn(w.db, 'stream');
    try {
      const exp = reports.zoneExport(RANGE, request, 'zones') as TableExport<unknown>;
      expect(exp.csvLines).toBeTypeOf('function');
      const text = await exportText(exp, 'standard');
      expect(viaRows).not.toHaveBeenCalled();
      expect(asRows).not.toHaveBeenCalled();
      const q = { filters: RANGE, order: [{ key: 'revenue' as const, dir: 'desc' as const }] };
      expect(text).toBe(await rowPath('zones', 'standard', streamRows(w.db, q)));
      // Each chunk is columns of the chunk's length: numbers as numbers, days as text.
      for await (const chunk of w.zoneReports.streamColumns!(q)) {
        expect(chunk.columns.revenue).toHaveLength(chunk.rows);
        expect(typeof chunk.columns.revenue[0]).toBe('number');
        expect(typeof chunk.columns.impressions[0]).toBe('number');
        expect(chunk.columns.date[0]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
      await expectNdjsonFromRows(reports, request, viaRows);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
