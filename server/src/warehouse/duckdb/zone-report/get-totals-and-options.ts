// The Ad Report's header figures in one scan: the sums of every matching row (the 'Totales'
// and the row count) and the geos and sources of the range under the other filters — the
// dropdowns ignore their own filter, so the sums apply geo and source as FILTER clauses.
import { SUM_KEYS, compareText, type Sums } from '@adops/core';
import type { Db } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { usesRollup, whereFilters } from '../../sql/filters.js';
import { sumsSql } from '../../sql/formulas.js';
import { DUCKDB } from '../../sql/dialect.js';
import type { Filters } from '../../types.js';

export async function getTotalsAndOptions(db: Db, filters: Filters): Promise<{ totals: Sums; geos: string[]; sources: string[] }> {
  const rollup = usesRollup(db, filters);
  const b = new Binder(DUCKDB);
  const where = whereFilters(b, filters, { range: { start: filters.start_date, end: filters.end_date }, skip: ['geo', 'source'] });
  const own: string[] = [];
  for (const key of ['geo', 'source'] as const) {
    const value = filters[key];
    if (value !== undefined) own.push(`${key} = ${b.bind(value, 'String')}`);
  }
  const sums = own.length ? sumsSql(DUCKDB, rollup, own.join(' AND ')) : sumsSql(DUCKDB, rollup);
  const row = await db.one<Sums & { geos: string[]; sources: string[] }>(
    `SELECT ${sums},
            coalesce(list(DISTINCT geo) FILTER (WHERE geo <> ''), []) AS geos,
            coalesce(list(DISTINCT source) FILTER (WHERE source <> ''), []) AS sources
       FROM ${rollup ? 'zone_report_rollup' : 'zone_report'} ${where}`,
    b.params,
  );
  const totals = Object.fromEntries(SUM_KEYS.map((k) => [k, row?.[k] ?? 0])) as Sums;
  return { totals, geos: [...(row?.geos ?? [])].sort(compareText), sources: [...(row?.sources ?? [])].sort(compareText) };
}
