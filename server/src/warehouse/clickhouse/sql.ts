// SQL fragments of the ClickHouse engine, built only from fixed pieces: report filters as a
// WHERE clause (user text always a bound {pN:Type} parameter), the rows a report reads (FINAL or
// the rollup's current days) and pages; orders, sums and formulas are the shared ones (../sql/)
// in the ClickHouse dialect.
import type { Binder, ClickHouseDb } from './db.js';
import type { TextFilters } from '../types.js';
import { hasCase } from '../sql/filters.js';

/**
 * Zone search: a case-insensitive substring. Text without letters (most zone ids are digits) is
 * matched as is; otherwise the stored id is lower-cased (lowerUTF8, as DuckDB's lower()).
 */
const zoneSearch = (param: string, value: string) =>
  hasCase(value) ? `position(lowerUTF8(zone_id), ${param}) > 0` : `position(zone_id, ${param}) > 0`;

const TEXT_FILTERS: ReadonlyArray<[keyof TextFilters, (param: string, value: string) => string]> = [
  ['zone_id', zoneSearch],
  ['advertiser', (p) => `advertiser = ${p}`],
  ['publisher', (p) => `publisher = ${p}`],
  ['geo', (p) => `geo = ${p}`],
  ['source', (p) => `source = ${p}`],
  ['domain', (p) => `domain = ${p}`],
];

export interface WhereOptions {
  /** Inclusive calendar-day range. */
  range?: { start: string; end: string };
  /** Filters left out (the geo/source dropdown options ignore their own filter). */
  skip?: ReadonlyArray<keyof TextFilters>;
  /** Extra fixed conditions (no user text). */
  and?: readonly string[];
}

/** The conditions of the report filters joined by AND ('1' when none), values bound through `b`. */
export function filterConditions(b: Binder, filters: Partial<TextFilters>, options: WhereOptions = {}): string {
  const parts: string[] = [];
  if (options.range) parts.push(`date BETWEEN ${b.bind(options.range.start, 'Date32')} AND ${b.bind(options.range.end, 'Date32')}`);
  for (const [key, fragment] of TEXT_FILTERS) {
    const value = filters[key];
    if (value === undefined || options.skip?.includes(key)) continue;
    parts.push(fragment(b.bind(key === 'zone_id' ? value.toLowerCase() : value, 'String'), value));
  }
  parts.push(...(options.and ?? []));
  return parts.length ? parts.join(' AND ') : '1';
}

export function whereFilters(b: Binder, filters: Partial<TextFilters>, options: WhereOptions = {}): string {
  return `WHERE ${filterConditions(b, filters, options)}`;
}

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

/** LIMIT / OFFSET as bound parameters (nothing when neither). */
export function pageSql(b: Binder, limit?: number, offset?: number): string {
  if (limit === undefined) return offset ? `OFFSET ${b.bind(offset, 'UInt64')}` : '';
  return `LIMIT ${b.bind(limit, 'UInt64')} OFFSET ${b.bind(offset ?? 0, 'UInt64')}`;
}
