// The embedded engine: DuckDB in one file of the data directory (data/warehouse.duckdb), or in
// memory. Opening creates or migrates the schema, so services never see a half-made store.
import { Db } from './db.js';
import { duckZoneReportWarehouse, ensureZoneReportSchema } from './zone-report/index.js';
import { KeyIndex, createReferrerSchema, duckReferrerWarehouse } from './referrers/index.js';
import { createSpendSchema, duckSpendWarehouse } from './spend/index.js';
import { getProfitParts, getZoneValues } from './profit/get-profit-parts.js';
import { visitCacheOf } from './profit/visit-cache.js';
import { getTrafficBursts } from './alerts/get-traffic-bursts.js';
import type { Warehouse } from '../types.js';

export interface DuckDbOptions {
  threads?: number;
  memoryLimit?: string;
  /** Aggregates read the rollup (default); off only to prove both answer the same. */
  rollup?: boolean;
}

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
  return {
    engine: 'duckdb',
    db,
    zoneReports: duckZoneReportWarehouse(db),
    referrers: duckReferrerWarehouse(db, keys),
    spend: duckSpendWarehouse(db),
    profit: { parts: (q) => getProfitParts(db, q), zoneValues: (q) => getZoneValues(db, q) },
    alerts: { bursts: (q) => getTrafficBursts(db, q) },
    ping: async () => {
      await db.one('SELECT 1 AS ok');
    },
    close: () => db.close(),
  };
}
