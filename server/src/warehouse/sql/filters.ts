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
 * fast as a bound ILIKE pattern). DuckDB tests it on the list of stored zone ids
 * (zone_report_zones, see duckdb/zone-report/schema.ts), then joins — sums of every matching row
 * are faster so (a third, 10 million rows) — except for a page of rows (`inScan`) with digits:
 * there a filter of the scan lets the page's top-N narrow the scan as it goes (12× faster).
 * ClickHouse tests the rows, with lowerUTF8 as DuckDB's lower().
 */
const ZONE_SEARCH: Record<Engine, (value: string, cased: boolean, inScan: boolean) => string> = {
  duckdb: (value, cased, inScan) =>
    inScan && !cased
      ? `contains(zone_id, ${value})`
      : `zone_id IN (SELECT zone_id FROM zone_report_zones WHERE ${cased ? `contains(lower(zone_id), ${value})` : `contains(zone_id, ${value})`})`,
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
  /** Extra fixed conditions on columns of the natural key only (ClickHouse tests them before FINAL merges the versions). */
  andOnKey?: readonly string[];
  /** A page of rows: a DuckDB zone search of digits is a filter of the scan (see ZONE_SEARCH). */
  inScan?: boolean;
}

/** A condition, and whether it reads only columns of the natural key (which every stored version of a row shares). */
interface Condition {
  sql: string;
  onKey: boolean;
}

function keyedConditions(b: Binder, filters: Partial<TextFilters>, options: WhereOptions): Condition[] {
  const parts: Condition[] = [];
  if (options.range)
    parts.push({ sql: `date BETWEEN ${b.bind(options.range.start, 'Date32')} AND ${b.bind(options.range.end, 'Date32')}`, onKey: true });
  const zone = filters.zone_id;
  if (zone !== undefined && !options.skip?.includes('zone_id'))
    parts.push({ sql: ZONE_SEARCH[b.dialect.engine](b.bind(zone.toLowerCase(), 'String'), hasCase(zone), options.inScan ?? false), onKey: true });
  for (const key of EQUAL) {
    const value = filters[key];
    if (value !== undefined && !options.skip?.includes(key)) parts.push({ sql: `${key} = ${b.bind(value, 'String')}`, onKey: key !== 'domain' });
  }
  for (const sql of options.andOnKey ?? []) parts.push({ sql, onKey: true });
  for (const sql of options.and ?? []) parts.push({ sql, onKey: false });
  return parts;
}

const conditions = (b: Binder, filters: Partial<TextFilters>, options: WhereOptions): string[] =>
  keyedConditions(b, filters, options).map((c) => c.sql);

/**
 * The filters of a read of ClickHouse's current rows (FINAL): those on the natural key's columns
 * as PREWHERE, tested before the versions are merged — right, since a row's versions share
 * them, and FINAL then merges only the matching rows instead of every row of the range (a zone
 * search over a year, 10 M rows: 653 → 579 CPU ms) — and the others (domain, cuts) as WHERE,
 * after the merge, as they must be. DuckDB: a WHERE clause.
 */
export function currentFilters(b: Binder, filters: Partial<TextFilters>, options: WhereOptions = {}): string {
  if (b.dialect.engine !== 'clickhouse') return whereFilters(b, filters, options);
  const parts = keyedConditions(b, filters, options);
  const pre = parts.filter((c) => c.onKey).map((c) => c.sql);
  const post = parts.filter((c) => !c.onKey).map((c) => c.sql);
  return `${pre.length ? `PREWHERE ${pre.join(' AND ')}` : ''} ${post.length ? `WHERE ${post.join(' AND ')}` : ''}`;
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
