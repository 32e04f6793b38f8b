// The SpendWarehouse of either engine: its reads written once for both dialects, its upsert the
// engine's own (DuckDB: INSERT OR REPLACE on the key; ClickHouse: an insert with a higher version).
import type { SqlDb } from '../sql/db.js';
import type { SpendWarehouse } from '../types.js';
import { countSpendRows, getSpendDays, getSpendMonths, getSpendRows } from './get-rows.js';

export function spendWarehouse(db: SqlDb, upsert: SpendWarehouse['upsert']): SpendWarehouse {
  return {
    upsert,
    rows: (range) => getSpendRows(db, range),
    countRows: () => countSpendRows(db),
    months: () => getSpendMonths(db),
    days: (range) => getSpendDays(db, range),
  };
}
