// Sums of every row matching the report filters (the 'Totales' rows, cards, row counts).
import { EMPTY_SUMS, type Sums } from '@adops/core';
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import { sumsSql } from '../sql/formulas.js';
import type { Filters } from '../types.js';
import { sumsSource } from './key-months.js';

export async function getTotals(db: SqlDb, filters: Filters): Promise<Sums> {
  const b = new Binder(db.dialect);
  // A zone search's whole months from the key months (key-months.ts), else the rollup or the rows.
  const { from, rollup } = sumsSource(db, b, filters, []);
  const row = await db.one<Sums>(`SELECT ${sumsSql(db.dialect, rollup)} ${from}`, b.params);
  return row ?? { ...EMPTY_SUMS };
}
