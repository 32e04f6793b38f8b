// Sums of every row matching the report filters (the 'Totales' rows, cards, row counts).
import { EMPTY_SUMS, type Sums } from '@adops/core';
import type { Db } from '../db.js';
import type { Filters } from '../../types.js';
import { Binder } from '../../sql/binder.js';
import { DUCKDB } from '../../sql/dialect.js';
import { usesRollup, whereFilters } from '../../sql/filters.js';
import { sumsSql } from '../../sql/formulas.js';

export async function getTotals(db: Db, filters: Filters): Promise<Sums> {
  const rollup = usesRollup(db, filters);
  const b = new Binder(DUCKDB);
  const where = whereFilters(b, filters, { range: { start: filters.start_date, end: filters.end_date } });
  const row = await db.one<Sums>(`SELECT ${sumsSql(DUCKDB, rollup)} FROM ${rollup ? 'zone_report_rollup' : 'zone_report'} ${where}`, b.params);
  return row ?? { ...EMPTY_SUMS };
}
