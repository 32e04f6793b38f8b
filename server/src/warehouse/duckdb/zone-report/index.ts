// The DuckDB ZoneReportWarehouse: one query per module in this folder, bound here.
import type { Db } from '../db.js';
import type { ZoneReportWarehouse } from '../../types.js';
import { countRows } from './count-rows.js';
import { getTotals } from './get-totals.js';
import { getGroups, streamGroups } from './get-groups.js';
import { getRows, streamRows } from './get-rows.js';
import { getTopEarners } from './get-top-earners.js';
import { getTotalsAndOptions } from './get-totals-and-options.js';
import { getDimensionValues } from './get-dimension-values.js';
import { getBusiestZones } from './get-busiest-zones.js';
import { getZoneOwners } from './get-zone-owners.js';
import { beginZoneReportImport } from './import.js';
import { getReportDays } from './get-days.js';

export { ensureZoneReportSchema, ZONE_REPORT_COLUMNS_SQL } from './schema.js';

export function duckZoneReportWarehouse(db: Db): ZoneReportWarehouse {
  return {
    countRows: () => countRows(db),
    totals: (filters) => getTotals(db, filters),
    groups: (q) => getGroups(db, q),
    streamGroups: (q) => streamGroups(db, q),
    rows: (q) => getRows(db, q),
    streamRows: (q) => streamRows(db, q),
    topEarners: (filters, limit) => getTopEarners(db, filters, limit),
    totalsAndOptions: (filters) => getTotalsAndOptions(db, filters),
    dimensionValues: () => getDimensionValues(db),
    busiestZones: (limit) => getBusiestZones(db, limit),
    zoneOwners: () => getZoneOwners(db),
    days: (range) => getReportDays(db, range),
    beginImport: () => beginZoneReportImport(db),
  };
}
