// SQL fragments of the DuckDB engine, built only from fixed pieces: report filters as a WHERE
// clause (user text always a bound $n parameter) and pages; orders, sums and formulas are the
// shared ones (../sql/) in the DuckDB dialect.
import type { Param } from './db.js';
import type { TextFilters } from '../types.js';
import { hasCase } from '../sql/filters.js';

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

/** LIMIT / OFFSET as bound parameters after `used` others (nothing when no limit). */
export function pageSql(used: number, limit?: number, offset?: number): { sql: string; params: Param[] } {
  if (limit === undefined) return offset ? { sql: `OFFSET $${used + 1}`, params: [offset] } : { sql: '', params: [] };
  return { sql: `LIMIT $${used + 1} OFFSET $${used + 2}`, params: [limit, offset ?? 0] };
}
