// The rows a ClickHouse report query reads (FINAL, or the rollup's current days) and its
// filters (../sql/filters.ts, user text always a bound value).
import type { ClickHouseDb } from './db.js';
import type { Binder } from '../sql/binder.js';
import { type WhereOptions, filterConditions } from '../sql/filters.js';

/**
 * The rows a query reads: stored rows deduplicated at read time (FINAL), or the rollup rows of
 * each day's current version, within the range (the subquery is one row per day).
 *
 * Why FINAL rather than argMax(…, version) per natural key: a replaced row and its replacement
 * share the sorting key, so FINAL only merges the key ranges where parts overlap (ClickHouse ≥ 23
 * skips non-intersecting ranges and never merges across partitions, here months); every
 * aggregate then reads the deduplicated rows once. argMax needs a GROUP BY of the full natural
 * key over every row in range before the real aggregate — a second hash aggregation the size of
 * the table. WHERE on non-key columns (domain) is applied after FINAL, so it is correct too.
 */
export function source(db: ClickHouseDb, b: Binder, rollup: boolean, range: { start: string; end: string }): string {
  if (!rollup) return `${db.t('zone_report')} FINAL`;
  return `${db.t('zone_report_rollup')} WHERE (date, version) IN (
    SELECT date, max(version) FROM ${db.t('zone_report_day')}
    WHERE date BETWEEN ${b.bind(range.start, 'Date32')} AND ${b.bind(range.end, 'Date32')} GROUP BY date)`;
}

/** FROM … WHERE of a report query: `source()` plus the filter conditions. */
export function fromWhere(
  db: ClickHouseDb,
  b: Binder,
  rollup: boolean,
  filters: Parameters<typeof filterConditions>[1],
  options: WhereOptions & { range: { start: string; end: string } },
): string {
  const src = source(db, b, rollup, options.range);
  const conditions = filterConditions(b, filters, options);
  return rollup ? `FROM ${src} AND ${conditions}` : `FROM ${src} WHERE ${conditions}`;
}
