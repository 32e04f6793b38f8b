// A zone search's sums over a range holding whole months (the Ad Report's and the Api Explorer's
// totals and Geo / Source options): the whole months from the key months — every report sum per
// month × report dimension but the day, kept by imports (duckdb/zone-report/schema.ts; ClickHouse's
// current version of each, clickhouse/zone-report/zone-periods.ts) — and the days at the range's
// ends from the stored rows. A year of 10 M rows: 11 months of key months (a twentieth of the
// rows) and at most 61 days of rows, instead of reading the zone id of every row of the year.
// The rollup's shape either way, so sumsSql(…, true) sums it.
import { SUM_KEYS } from '@adops/core';
import type { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import { filterConditions, usesRollup, whereFilters, type WhereOptions } from '../sql/filters.js';
import { sumsSql } from '../sql/formulas.js';
import type { Filters } from '../types.js';
import { wholeMonths } from './get-top-earners.js';
import { fromWhere } from './source.js';

/**
 * FROM a union of rollup-shaped rows (`dims`, then every report sum) of a zone search: the range's
 * whole months from the key months, its other days from the stored rows. Undefined without a zone
 * search, without a whole month in the range, or with the engine's rollups off: the caller reads
 * the stored rows.
 */
function keyMonthsFrom(
  db: SqlDb,
  b: Binder,
  filters: Filters,
  dims: readonly string[],
  options: Pick<WhereOptions, 'skip'> = {},
): string | undefined {
  if (!db.rollup || filters.zone_id === undefined) return undefined;
  const split = wholeMonths(filters.start_date, filters.end_date);
  if (!split) return undefined;
  const columns = [...dims, ...SUM_KEYS].join(', ');
  const first = b.bind(split.months.start, 'Date32');
  const last = b.bind(split.months.end, 'Date32');
  const months =
    db.dialect.engine === 'duckdb'
      ? `SELECT ${columns} FROM zone_report_key_month ${whereFilters(b, filters, { ...options, and: [`month BETWEEN ${first} AND ${last}`] })}`
      : `SELECT ${columns} FROM ${db.t('zone_report_key_month')}
          WHERE (month, version) IN (SELECT month, max(version) FROM ${db.t('zone_report_key_month_current')} WHERE month BETWEEN ${first} AND ${last} GROUP BY month)
            AND month BETWEEN ${first} AND ${last} AND ${filterConditions(b, filters, options)}`;
  const grouped = dims.length ? `GROUP BY ${dims.join(', ')}` : '';
  const days = [split.before, split.after]
    .filter((r) => r.start <= r.end)
    .map(
      (range) =>
        `SELECT ${dims.map((d) => `${d}, `).join('')}${sumsSql(db.dialect, false)} ${fromWhere(db, b, false, filters, { ...options, range })} ${grouped}`,
    );
  return `FROM (${[months, ...days].join('\n  UNION ALL ')})`;
}

/**
 * The FROM … WHERE of a report's sums over its range, and whether its rows are rollup-shaped
 * (sumsSql(…, true) sums them): a zone search's key months and end days (keyMonthsFrom), else
 * the rollup or the stored rows (source.ts). `dims` are the columns the union keeps for the caller.
 */
export function sumsSource(
  db: SqlDb,
  b: Binder,
  filters: Filters,
  dims: readonly string[],
  options: Pick<WhereOptions, 'skip'> = {},
): { from: string; rollup: boolean } {
  const months = keyMonthsFrom(db, b, filters, dims, options);
  if (months !== undefined) return { from: months, rollup: true };
  const rollup = usesRollup(db, filters);
  return { from: fromWhere(db, b, rollup, filters, { ...options, range: { start: filters.start_date, end: filters.end_date } }), rollup };
}
