// Meta spend on DuckDB (ad_spend): the SpendWarehouse of the embedded engine.
import type { Db } from '../db.js';
import type { SpendWarehouse } from '../../types.js';
import { upsertSpend } from './upsert.js';
import { countSpendRows, getSpendDays, getSpendMonths, getSpendRows } from './get-rows.js';

export { createSpendSchema } from './schema.js';

export function duckSpendWarehouse(db: Db): SpendWarehouse {
  return {
    upsert: (rows) => upsertSpend(db, rows),
    rows: (range) => getSpendRows(db, range),
    countRows: () => countSpendRows(db),
    months: () => getSpendMonths(db),
    days: (range) => getSpendDays(db, range),
  };
}
