// Sums of every row matching the report filters (the 'Totales' rows, cards, row counts).
import { EMPTY_SUMS, type Sums } from '@adops/core';
import type { ClickHouseDb } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';
import type { Filters } from '../../types.js';
import { fromWhere } from '../sql.js';
import { usesRollup } from '../../sql/filters.js';
import { sumsSql } from '../../sql/formulas.js';

export async function getTotals(db: ClickHouseDb, filters: Filters): Promise<Sums> {
  const rollup = usesRollup(db, filters);
  const b = new Binder(CLICKHOUSE);
  const from = fromWhere(db, b, rollup, filters, { range: { start: filters.start_date, end: filters.end_date } });
  const row = await db.one<Sums>(`SELECT ${sumsSql(CLICKHOUSE, rollup)} ${from}`, b.params);
  return row ?? { ...EMPTY_SUMS };
}
