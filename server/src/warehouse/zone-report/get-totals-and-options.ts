// The Ad Report's header figures in one scan: the sums of every matching row (the 'Totales'
// and the row count) and the geos and sources of the range under the other filters — the
// dropdowns ignore their own filter, so the sums apply geo and source as conditions of their own.
import { SUM_KEYS, compareText, type Sums } from '@adops/core';
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import type { Engine } from '../sql/dialect.js';
import { sumsSql } from '../sql/formulas.js';
import type { Filters } from '../types.js';
import { sumsSource } from './key-months.js';

/** The distinct non-empty values of a column. */
const KNOWN_VALUES: Record<Engine, (column: string) => string> = {
  duckdb: (column) => `coalesce(list(DISTINCT ${column}) FILTER (WHERE ${column} <> ''), [])`,
  clickhouse: (column) => `groupUniqArrayIf(${column}, ${column} != '')`,
};

export async function getTotalsAndOptions(db: SqlDb, filters: Filters): Promise<{ totals: Sums; geos: string[]; sources: string[] }> {
  const b = new Binder(db.dialect);
  // A zone search's whole months from the key months (key-months.ts), else the rollup or the rows.
  const { from, rollup } = sumsSource(db, b, filters, ['geo', 'source'], { skip: ['geo', 'source'] });
  const own: string[] = [];
  for (const key of ['geo', 'source'] as const) {
    const value = filters[key];
    if (value !== undefined) own.push(`${key} = ${b.bind(value, 'String')}`);
  }
  const sums = own.length ? sumsSql(db.dialect, rollup, own.join(' AND ')) : sumsSql(db.dialect, rollup);
  const known = KNOWN_VALUES[db.dialect.engine];
  const row = await db.one<Sums & { geos: string[]; sources: string[] }>(
    `SELECT ${sums}, ${known('geo')} AS geos, ${known('source')} AS sources ${from}`,
    b.params,
  );
  const totals = Object.fromEntries(SUM_KEYS.map((k) => [k, row?.[k] ?? 0])) as Sums;
  return { totals, geos: [...(row?.geos ?? [])].sort(compareText), sources: [...(row?.sources ?? [])].sort(compareText) };
}
