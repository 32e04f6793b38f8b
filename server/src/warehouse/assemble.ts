// One warehouse over either engine's handle: every query written once for both dialects
// (zone-report/, referrers/, spend/, alerts/), and the few parts each engine does its own way —
// imports, event appends and retention, spend upserts, the profit query — handed in by its index.
import { getTrafficBursts } from './alerts/get-traffic-bursts.js';
import { type ReferrerWrites, referrerWarehouse } from './referrers/index.js';
import { spendWarehouse } from './spend/index.js';
import type { SqlDb } from './sql/db.js';
import type { ProfitWarehouse, SpendWarehouse, Warehouse, ZoneReportWarehouse } from './types.js';
import { zoneReportWarehouse } from './zone-report/index.js';

/** What an engine does its own way. */
export interface EngineParts {
  beginImport: ZoneReportWarehouse['beginImport'];
  referrerWrites: ReferrerWrites;
  upsertSpend: SpendWarehouse['upsert'];
  profit: ProfitWarehouse;
}

export function assembleWarehouse<D extends SqlDb & { close(): Promise<void> }>(db: D, own: EngineParts): Warehouse & { db: D } {
  return {
    engine: db.dialect.engine,
    db,
    zoneReports: zoneReportWarehouse(db, own.beginImport),
    referrers: referrerWarehouse(db, own.referrerWrites),
    spend: spendWarehouse(db, own.upsertSpend),
    profit: own.profit,
    alerts: { bursts: (q) => getTrafficBursts(db, q) },
    ping: async () => {
      await db.one('SELECT 1 AS ok');
    },
    close: () => db.close(),
  };
}
