// A ClickHouse zone-report import holds a bounded number of rows whatever the file's size:
// parsing outruns ClickHouse's inserts, so the import makes the reader wait while a chunk is on
// its way instead of queueing every chunk of the file in memory behind it.
import { Readable } from 'node:stream';
import { expect, test } from 'vitest';
import { ZoneReportIngest } from '../src/services/ingest-zone-report.js';
import { openClickHouseWarehouse } from '../src/warehouse/clickhouse/index.js';
import { type ClickHouseZoneReportImport, beginZoneReportImport } from '../src/warehouse/clickhouse/zone-report/import.js';
import { chdbClient } from './helpers.js';

const { client } = await chdbClient('chdb-import-memory');
/** Rows an import sends at once here (small, so that a small file spans many chunks). */
const CHUNK = 500;

test.each([2_000, 8_000])('a %i-row CSV holds at most two chunks of rows at once, and every row is stored', async (rows) => {
  const w = await openClickHouseWarehouse(client, { database: `rows${rows}` });
  try {
    let started: ClickHouseZoneReportImport | undefined;
    const ingest = new ZoneReportIngest(
      { ...w.zoneReports, beginImport: async () => (started = await beginZoneReportImport(w.db, CHUNK)) },
      async () => new Map(),
      () => undefined,
    );
    const lines = Array.from({ length: rows }, (_, i) => `2026-03-01,AdNova,PubA,Z-${i},100,1,2`);
    // The whole file in one piece: every line is parsed before the reader would wait for input.
    const csv = Buffer.from(['date,advertiser,publisher,zone_id,impressions,clicks,revenue', ...lines].join('\n'));
    const answer = await ingest.ingestBody(Readable.from([csv]), { contentType: 'text/csv' });
    expect(answer).toMatchObject({ inserted: rows, replaced: 0, rejected_total: 0 });
    expect(await w.zoneReports.countRows()).toBe(rows);
    expect((await w.zoneReports.totals({ start_date: '2026-03-01', end_date: '2026-03-01' })).revenue).toBe(2 * rows);
    expect(started?.peakRows).toBeLessThanOrEqual(2 * CHUNK);
  } finally {
    await w.close();
  }
});
