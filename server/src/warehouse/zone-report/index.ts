// The ZoneReportWarehouse of either engine: one query per module in this folder, each written
// once for both dialects; imports are the engine's own (its folder's import.ts).
import type { SqlDb } from '../sql/db.js';
import type { ZoneReportWarehouse } from '../types.js';
import { countRows } from './count-rows.js';
import { getBusiestZones } from './get-busiest-zones.js';
import { getReportDays } from './get-days.js';
import { getDimensionValues } from './get-dimension-values.js';
import { getGroups, streamGroups } from './get-groups.js';
import { getRows, streamRowColumns, streamRows } from './get-rows.js';
import { getTopEarners } from './get-top-earners.js';
import { getTotals } from './get-totals.js';
import { getTotalsAndOptions } from './get-totals-and-options.js';
import { getZoneOwners } from './get-zone-owners.js';

export function zoneReportWarehouse(db: SqlDb, beginImport: ZoneReportWarehouse['beginImport']): ZoneReportWarehouse {
  return {
    countRows: () => countRows(db),
    totals: (filters) => getTotals(db, filters),
    groups: (q) => getGroups(db, q),
    streamGroups: (q) => streamGroups(db, q),
    rows: (q) => getRows(db, q),
    streamRows: (q) => streamRows(db, q),
    ...(db.streamColumns ? { streamColumns: (q) => streamRowColumns(db as Parameters<typeof streamRowColumns>[0], q) } : {}),
    topEarners: (filters, limit) => getTopEarners(db, filters, limit),
    totalsAndOptions: (filters) => getTotalsAndOptions(db, filters),
    dimensionValues: () => getDimensionValues(db),
    busiestZones: (limit) => getBusiestZones(db, limit),
    zoneOwners: (since) => getZoneOwners(db, since),
    days: (range) => getReportDays(db, range),
    beginImport,
  };
}
