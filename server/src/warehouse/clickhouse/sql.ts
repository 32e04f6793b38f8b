// SQL fragments of the ClickHouse engine, twins of duckdb/sql.ts and built the same way from
// fixed pieces only: report filters as a WHERE clause (user text always a bound {pN:Type}
// parameter), the additive sums over stored rows or over the rollup, the registry's formulas
// and the table orders (missing values last, text in Spanish collation then exactly, ties
// broken by a total order in byte order).
import { METRICS, SUM_KEYS, type Formula, type MetricDef, type SumKey } from '@adops/core';
import type { Binder, ClickHouseDb } from './db.js';
import type { Dimension, Order, TextFilters } from '../types.js';
import { TEXT_SORT_KEYS } from '../types.js';

/**
 * Zone search: a case-insensitive substring. Text without letters (most zone ids are digits) is
 * matched as is; otherwise the stored id is lower-cased (lowerUTF8, as DuckDB's lower()).
 */
const hasCase = (text: string) => text.toLowerCase() !== text.toUpperCase();
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

/** Whether a query reads the rollup: every aggregate that needs no zone does (unless the engine has it off). */
export function usesRollup(db: ClickHouseDb, filters: Partial<TextFilters>, by: readonly Dimension[] = []): boolean {
  return db.rollup && filters.zone_id === undefined && !by.includes('zone_id');
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

const isCount = (k: SumKey) => !['revenue', 'p_revenue', 'margin', 'tq_weighted'].includes(k);

/** Each sum over stored zone_report rows (`and` narrows it to the rows passing a condition). */
function rawSum(key: SumKey, and?: string): string {
  const cond = (...c: Array<string | undefined>) => c.filter(Boolean).join(' AND ');
  const sum = (expr: string, condition?: string) => {
    const all = cond(condition, and);
    return all ? `ifNull(sumIf(${expr}, ${all}), 0)` : `ifNull(sum(${expr}), 0)`;
  };
  switch (key) {
    case 'rows':
      return and ? `countIf(${and})` : 'count()';
    case 'ctr_base':
      return sum('if(ifNull(monetized_impressions, 0) > 0, ifNull(monetized_impressions, 0), impressions)');
    case 'tq_weighted':
      return sum('tq * impressions', 'tq > 0 AND impressions > 0');
    case 'tq_weight':
      return sum('impressions', 'tq > 0 AND impressions > 0');
    default:
      return sum(key);
  }
}

/**
 * The select list of sums (aliased by their keys) over stored rows or over the rollup's sums;
 * `and` (fixed SQL with bound parameters) limits the sums to the rows passing it. Counts are
 * Int64, money Float64 (the same doubles DuckDB sums).
 */
export function sumsSql(rollup: boolean, and?: string): string {
  return SUM_KEYS.map((k) => {
    const expr = rollup ? (and ? `sumIf(${k}, ${and})` : `sum(${k})`) : rawSum(k, and);
    return `${isCount(k) ? 'toInt64' : 'toFloat64'}(${expr}) AS ${k}`;
  }).join(',\n  ');
}

/** A registry formula in SQL over the given expressions of its sums. */
export function formulaSql(formula: Formula, sum: (key: SumKey) => string): string {
  if (formula.op === 'diff') return `(${sum(formula.a)} - ${sum(formula.b)})`;
  const num = `toFloat64(${sum(formula.num)})`;
  const den = sum(formula.den);
  return formula.positiveBase ? `if(${den} > 0, ${num} / ${den} * ${formula.scale}, NULL)` : `(${num} / nullIf(${den}, 0) * ${formula.scale})`;
}

/**
 * ORDER BY terms for one key given its SQL expression: missing values (NULL, and '' for text)
 * last in both directions; text in Spanish collation (ICU 'es', as DuckDB's COLLATE es and
 * core's compareText), then exactly (byte order).
 */
export function orderTerms(key: string, expr: string, dir: 'asc' | 'desc', text = TEXT_SORT_KEYS.has(key)): string[] {
  const d = dir === 'asc' ? 'ASC' : 'DESC';
  if (!text) return [`${expr} ${d} NULLS LAST`];
  return [`nullIf(${expr}, '') ${d} NULLS LAST COLLATE 'es'`, `${expr} ${d} NULLS LAST`];
}

/** A whole ORDER BY clause: the requested keys, then `then` in plain byte order (see duckdb/sql.ts). */
export function orderBy(order: Order, then: Order, expr: (key: string) => string | undefined): string {
  const seen = new Set<string>();
  const terms: string[] = [];
  const sqlOf = (key: string) => {
    const sql = expr(key);
    if (sql === undefined) throw new Error(`orden no soportado: ${key}`);
    return sql;
  };
  for (const { key, dir } of order) {
    if (seen.has(key)) continue;
    seen.add(key);
    terms.push(...orderTerms(key, sqlOf(key), dir));
  }
  for (const { key, dir } of then) terms.push(`${sqlOf(key)} ${dir === 'asc' ? 'ASC' : 'DESC'} NULLS LAST`);
  return terms.length ? `ORDER BY ${terms.join(', ')}` : '';
}

/** A registry metric's formula, if it is derived. */
export const formulaOf = (key: string): Formula | undefined =>
  Object.hasOwn(METRICS, key) ? (METRICS[key as keyof typeof METRICS] as MetricDef).formula : undefined;

/** LIMIT / OFFSET as bound parameters (nothing when neither). */
export function pageSql(b: Binder, limit?: number, offset?: number): string {
  if (limit === undefined) return offset ? `OFFSET ${b.bind(offset, 'UInt64')}` : '';
  return `LIMIT ${b.bind(limit, 'UInt64')} OFFSET ${b.bind(offset ?? 0, 'UInt64')}`;
}
