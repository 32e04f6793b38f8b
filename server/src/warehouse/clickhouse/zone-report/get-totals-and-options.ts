// The Ad Report's header figures in one scan: the sums of every matching row (the 'Totales'
// and the row count) and the geos and sources of the range under the other filters — the
// dropdowns ignore their own filter, so the sums apply geo and source as -If conditions.
import { SUM_KEYS, compareText, type Sums } from '@adops/core';
import type { ClickHouseDb } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';
import { fromWhere } from '../sql.js';
import { usesRollup } from '../../sql/filters.js';
import { sumsSql } from '../../sql/formulas.js';
import type { Filters } from '../../types.js';

export async function getTotalsAndOptions(db: ClickHouseDb, filters: Filters): Promise<{ totals: Sums; geos: string[]; sources: string[] }> {
  const rollup = usesRollup(db, filters);
  const b = new Binder(CLICKHOUSE);
  const own: string[] = [];
  for (const key of ['geo', 'source'] as const) {
    const value = filters[key];
    if (value !== undefined) own.push(`${key} = ${b.bind(value, 'String')}`);
  }
  const sums = own.length ? sumsSql(CLICKHOUSE, rollup, own.join(' AND ')) : sumsSql(CLICKHOUSE, rollup);
  const from = fromWhere(db, b, rollup, filters, { range: { start: filters.start_date, end: filters.end_date }, skip: ['geo', 'source'] });
  const row = await db.one<Sums & { geos: string[]; sources: string[] }>(
    `SELECT ${sums}, groupUniqArrayIf(geo, geo != '') AS geos, groupUniqArrayIf(source, source != '') AS sources ${from}`,
    b.params,
  );
  const totals = Object.fromEntries(SUM_KEYS.map((k) => [k, row?.[k] ?? 0])) as Sums;
  return { totals, geos: [...(row?.geos ?? [])].sort(compareText), sources: [...(row?.sources ?? [])].sort(compareText) };
}
