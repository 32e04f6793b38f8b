// The embedded engine: DuckDB in one file of the data directory (data/warehouse.duckdb), or in
// memory. Opening creates or migrates the schema, so services never see a half-made store.
import { Db, type DuckDbOpenOptions } from './db.js';
import { ensureZoneReportSchema } from './zone-report/schema.js';
import { beginZoneReportImport } from './zone-report/import.js';
import { KeyIndex, createReferrerSchema, duckReferrerWrites } from './referrers/index.js';
import { createSpendSchema } from './spend/schema.js';
import { upsertSpend } from './spend/upsert.js';
import { getProfitParts, getZoneValues } from './profit/get-profit-parts.js';
import { visitCacheOf } from './profit/visit-cache.js';
import type { Warehouse } from '../types.js';
import { assembleWarehouse } from '../assemble.js';

export type DuckDbOptions = DuckDbOpenOptions;

export async function openDuckDbWarehouse(dir: string | ':memory:', options: DuckDbOptions = {}): Promise<Warehouse & { db: Db }> {
  const db = await Db.open(dir, options);
  let keys: KeyIndex;
  try {
    await ensureZoneReportSchema(db);
    await createReferrerSchema(db);
    await createSpendSchema(db);
    await visitCacheOf(db).open();
    keys = await KeyIndex.load(db);
  } catch (e) {
    await db.close();
    throw e;
  }
  return assembleWarehouse(db, {
    beginImport: () => beginZoneReportImport(db),
    referrerWrites: duckReferrerWrites(db, keys),
    upsertSpend: (rows) => upsertSpend(db, rows),
    profit: { parts: (q) => getProfitParts(db, q), zoneValues: (q) => getZoneValues(db, q) },
  });
}
