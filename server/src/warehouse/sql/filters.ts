// Report filters in SQL, for both dialects: the conditions of a report's filters (user text
// always a bound value) and whether a query reads the rollup.
import type { Dimension, TextFilters } from '../types.js';
import type { Binder } from './binder.js';
import type { Engine } from './dialect.js';

/** Whether text has letters (a search without them is matched as is, not lower-cased). */
export const hasCase = (text: string) => text.toLowerCase() !== text.toUpperCase();

/**
 * Zone search: a case-insensitive substring (`value` lower-cased; the stored id lower-cased only
 * when the text has letters — most zone ids are digits), with a bound contains() (about twice as
 * fast as a bound ILIKE pattern). DuckDB tests digits on the rows themselves: a filter in the
 * scan, which a day-led page's top-N also narrows as it goes (a page 8× faster, sums 2× than the
 * join with the zone list, 2 million rows); text with letters on the list of stored zone ids
 * (zone_report_zones, see duckdb/zone-report/schema.ts), so lower() runs once per zone, not once
 * per row. ClickHouse tests the rows, with lowerUTF8 as DuckDB's lower().
 */
const ZONE_SEARCH: Record<Engine, (value: string, cased: boolean) => string> = {
  duckdb: (value, cased) =>
    cased ? `zone_id IN (SELECT zone_id FROM zone_report_zones WHERE contains(lower(zone_id), ${value}))` : `contains(zone_id, ${value})`,
  clickhouse: (value, cased) => (cased ? `position(lowerUTF8(zone_id), ${value}) > 0` : `position(zone_id, ${value}) > 0`),
};

/** The filters matched by equality, in the order their conditions are written. */
const EQUAL: ReadonlyArray<keyof TextFilters> = ['advertiser', 'publisher', 'geo', 'source', 'domain'];

export interface WhereOptions {
  /** Inclusive calendar-day range. */
  range?: { start: string; end: string };
  /** Filters left out (the geo/source dropdown options ignore their own filter). */
  skip?: ReadonlyArray<keyof TextFilters>;
  /** Extra fixed conditions (no user text). */
  and?: readonly string[];
}

function conditions(b: Binder, filters: Partial<TextFilters>, options: WhereOptions): string[] {
  const parts: string[] = [];
  if (options.range) parts.push(`date BETWEEN ${b.bind(options.range.start, 'Date32')} AND ${b.bind(options.range.end, 'Date32')}`);
  const zone = filters.zone_id;
  if (zone !== undefined && !options.skip?.includes('zone_id'))
    parts.push(ZONE_SEARCH[b.dialect.engine](b.bind(zone.toLowerCase(), 'String'), hasCase(zone)));
  for (const key of EQUAL) {
    const value = filters[key];
    if (value !== undefined && !options.skip?.includes(key)) parts.push(`${key} = ${b.bind(value, 'String')}`);
  }
  parts.push(...(options.and ?? []));
  return parts;
}

/** The conditions of the report filters joined by AND (the dialect's true when none), values bound through `b`. */
export function filterConditions(b: Binder, filters: Partial<TextFilters>, options: WhereOptions = {}): string {
  const parts = conditions(b, filters, options);
  return parts.length ? parts.join(' AND ') : b.dialect.true;
}

/** A WHERE clause of the report filters (nothing when none). */
export function whereFilters(b: Binder, filters: Partial<TextFilters>, options: WhereOptions = {}): string {
  const parts = conditions(b, filters, options);
  return parts.length ? `WHERE ${parts.join(' AND ')}` : '';
}

/** Whether a query reads the rollup: every aggregate that needs no zone does (unless the engine has it off). */
export function usesRollup(db: { readonly rollup: boolean }, filters: Partial<TextFilters>, by: readonly Dimension[] = []): boolean {
  return db.rollup && filters.zone_id === undefined && !by.includes('zone_id');
}
