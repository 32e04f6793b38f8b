// SQL fragments of the DuckDB engine, built only from fixed pieces: report filters as a WHERE
// clause (user text always a bound $n parameter), the additive sums over stored rows or over
// the rollup, the registry's formulas and the table orders (missing values last, text
// case-insensitive then exact, ties broken by a total order).
import { METRICS, SUM_KEYS, type Formula, type MetricDef, type SumKey } from '@adops/core';
import type { Db, Param } from './db.js';
import type { Dimension, Order, TextFilters } from '../types.js';
import { TEXT_SORT_KEYS } from '../types.js';

export interface Where {
  sql: string;
  params: Param[];
}

/**
 * Zone search is a case-insensitive substring, tested on the list of stored zone ids (see
 * schema.ts), not on every row. Text without letters (most zone ids are digits) is matched as
 * is; otherwise both sides are lower-cased. DuckDB runs a bound contains() about twice as fast
 * as a bound ILIKE pattern, and lower() only costs when needed.
 */
const hasCase = (text: string) => text.toLowerCase() !== text.toUpperCase();
const zoneSearch = (n: number, value: string) =>
  `zone_id IN (SELECT zone_id FROM zone_report_zones WHERE ${hasCase(value) ? `contains(lower(zone_id), $${n})` : `contains(zone_id, $${n})`})`;

const TEXT_FILTERS: ReadonlyArray<[keyof TextFilters, (n: number, value: string) => string]> = [
  ['zone_id', zoneSearch],
  ['advertiser', (n) => `advertiser = $${n}`],
  ['publisher', (n) => `publisher = $${n}`],
  ['geo', (n) => `geo = $${n}`],
  ['source', (n) => `source = $${n}`],
  ['domain', (n) => `domain = $${n}`],
];

export interface WhereOptions {
  /** Inclusive calendar-day range. */
  range?: { start: string; end: string };
  /** Filters left out (the geo/source dropdown options ignore their own filter). */
  skip?: ReadonlyArray<keyof TextFilters>;
  /** Parameters already used by the caller before this clause. */
  offset?: number;
  /** Extra fixed conditions (no user text). */
  and?: readonly string[];
}

export function whereFilters(filters: Partial<TextFilters>, options: WhereOptions = {}): Where {
  const parts: string[] = [];
  const params: Param[] = [];
  const next = () => (options.offset ?? 0) + params.length + 1;
  if (options.range) {
    parts.push(`date BETWEEN $${next()}::DATE AND $${next() + 1}::DATE`);
    params.push(options.range.start, options.range.end);
  }
  for (const [key, fragment] of TEXT_FILTERS) {
    const value = filters[key];
    if (value === undefined || options.skip?.includes(key)) continue;
    parts.push(fragment(next(), value));
    params.push(key === 'zone_id' ? value.toLowerCase() : value);
  }
  parts.push(...(options.and ?? []));
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/** Whether a query reads the rollup: every aggregate that needs no zone does (unless the engine has it off). */
export function usesRollup(db: Db, filters: Partial<TextFilters>, by: readonly Dimension[] = []): boolean {
  return db.rollup && filters.zone_id === undefined && !by.includes('zone_id');
}

/** Each sum over stored zone_report rows (`and` narrows it to the rows passing a condition). */
function rawSum(key: SumKey, and?: string): string {
  const only = (condition?: string) => {
    const all = [condition, and].filter(Boolean);
    return all.length ? ` FILTER (WHERE ${all.join(' AND ')})` : '';
  };
  switch (key) {
    case 'rows':
      return `count(*)${only()}`;
    case 'ctr_base':
      return `coalesce(sum(CASE WHEN monetized_impressions > 0 THEN monetized_impressions ELSE impressions END)${only()}, 0)`;
    case 'tq_weighted':
      return `coalesce(sum(tq * impressions)${only('tq > 0 AND impressions > 0')}, 0)`;
    case 'tq_weight':
      return `coalesce(sum(impressions)${only('tq > 0 AND impressions > 0')}, 0)`;
    default:
      return `coalesce(sum(${key})${only()}, 0)`;
  }
}

/**
 * The select list of sums (aliased by their keys) over stored rows or over the rollup's sums;
 * `and` (fixed SQL with bound parameters) limits the sums to the rows passing it.
 */
export function sumsSql(rollup: boolean, and?: string): string {
  return SUM_KEYS.map((k) => {
    const expr = rollup ? `coalesce(sum(${k})${and ? ` FILTER (WHERE ${and})` : ''}, 0)` : rawSum(k, and);
    // Sums of BIGINT are HUGEINT in DuckDB: cast counts back to BIGINT, money stays DOUBLE.
    return `${expr}::${isCount(k) ? 'BIGINT' : 'DOUBLE'} AS ${k}`;
  }).join(',\n  ');
}

const isCount = (k: SumKey) => !['revenue', 'p_revenue', 'margin', 'tq_weighted'].includes(k);

/** Rollup columns: the dimensions it keeps and its sums (see schema.ts). */
export const ROLLUP_SUMS_SQL = sumsSql(false);

/** A registry formula in SQL over the given expressions of its sums. */
export function formulaSql(formula: Formula, sum: (key: SumKey) => string): string {
  if (formula.op === 'diff') return `(${sum(formula.a)} - ${sum(formula.b)})`;
  const num = `CAST(${sum(formula.num)} AS DOUBLE)`;
  const den = sum(formula.den);
  return formula.positiveBase
    ? `(CASE WHEN ${den} > 0 THEN ${num} / ${den} * ${formula.scale} END)`
    : `(${num} / NULLIF(${den}, 0) * ${formula.scale})`;
}

/**
 * ORDER BY terms for one key given its SQL expression: missing values (NULL, and '' for text)
 * last in both directions; text in Spanish collation (ICU 'es', as core's compareText), then
 * exactly.
 */
export function orderTerms(key: string, expr: string, dir: 'asc' | 'desc', text = TEXT_SORT_KEYS.has(key)): string[] {
  const d = dir === 'asc' ? 'ASC' : 'DESC';
  if (!text) return [`${expr} ${d} NULLS LAST`];
  return [`NULLIF(${expr}, '') COLLATE es ${d} NULLS LAST`, `${expr} ${d}`];
}

/**
 * A whole ORDER BY clause: the requested keys (text in Spanish collation), then `then` — the
 * natural key or the group's dimensions — in plain byte order, which is total and cheap: a
 * collation on every tie-breaker made a top-25 of 9 million rows six times slower. `expr` maps
 * a key to its SQL; it answers undefined for keys a caller never lets through.
 */
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

/** LIMIT / OFFSET as bound parameters after `used` others (nothing when no limit). */
export function pageSql(used: number, limit?: number, offset?: number): { sql: string; params: Param[] } {
  if (limit === undefined) return offset ? { sql: `OFFSET $${used + 1}`, params: [offset] } : { sql: '', params: [] };
  return { sql: `LIMIT $${used + 1} OFFSET $${used + 2}`, params: [limit, offset ?? 0] };
}
