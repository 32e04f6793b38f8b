// The rows a report query reads, per engine. DuckDB: the stored rows, or the rollup (rewritten in
// the same transaction as each import). ClickHouse: the stored rows deduplicated at read time
// (FINAL), or the rollup rows of each day's current version (clickhouse/zone-report/schema.ts).
import type { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import { type WhereOptions, currentFilters, filterConditions, whereFilters } from '../sql/filters.js';
import type { TextFilters } from '../types.js';

/**
 * ClickHouse's rollup rows of each day's current version, within the range (the subquery is one
 * row per day). Stored rows are read deduplicated (FINAL, see currentFilters in sql/filters.ts).
 *
 * Why FINAL rather than argMax(…, version) per natural key: a replaced row and its replacement
 * share the sorting key, so FINAL only merges the key ranges where parts overlap (ClickHouse ≥ 23
 * skips non-intersecting ranges and never merges across partitions, here months); every
 * aggregate then reads the deduplicated rows once. argMax needs a GROUP BY of the full natural
 * key over every row in range before the real aggregate — a second hash aggregation the size of
 * the table. WHERE on non-key columns (domain) is applied after FINAL, so it is correct too; conditions
 * on key columns are PREWHERE, before it.
 */
function clickHouseRollup(db: SqlDb, b: Binder, range: { start: string; end: string }): string {
  return `${db.t('zone_report_rollup')} WHERE (date, version) IN (
    SELECT date, max(version) FROM ${db.t('zone_report_day')}
    WHERE date BETWEEN ${b.bind(range.start, 'Date32')} AND ${b.bind(range.end, 'Date32')} GROUP BY date)`;
}

/** FROM … WHERE of a report query: the stored rows or the rollup, and the report filters' conditions. */
export function fromWhere(
  db: SqlDb,
  b: Binder,
  rollup: boolean,
  filters: Partial<TextFilters>,
  options: WhereOptions & { range: { start: string; end: string } },
): string {
  if (db.dialect.engine === 'duckdb') return `FROM ${rollup ? 'zone_report_rollup' : 'zone_report'} ${whereFilters(b, filters, options)}`;
  if (!rollup) return `FROM ${db.current('zone_report')} ${currentFilters(b, filters, options)}`;
  return `FROM ${clickHouseRollup(db, b, options.range)} AND ${filterConditions(b, filters, options)}`;
}

/** The rollup's rows a query without a range reads (ClickHouse: each day's current version). */
export function rollupRows(db: SqlDb, columns: string): string {
  if (db.dialect.engine === 'duckdb') return 'zone_report_rollup';
  return `(SELECT ${columns} FROM ${db.t('zone_report_rollup')}
        WHERE (date, version) IN (SELECT date, max(version) FROM ${db.t('zone_report_day')} GROUP BY date))`;
}
