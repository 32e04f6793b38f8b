// The referrer filter in SQL, for both dialects (report and log queries): the same rules as
// eventMatches (warehouse/event-filter.ts) applies to live events, so both read a filter the
// same way. Values are bound; instants as each dialect binds them (Binder.instant).
// What retention rolled up: DuckDB deletes those raw events; ClickHouse keeps them behind its
// watermark (a retention run's cutoff and last id) until their month is dropped, and counts a
// daily rollup row only once its run committed (clickhouse/referrers/schema.ts).
import type { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import type { Engine } from '../sql/dialect.js';
import { committedDaily, liveEvent, watermarkSql } from '../clickhouse/referrers/schema.js';
import type { EventFilter, RangeFilter } from '../types.js';

/** A zone id containing the (lower-cased) text, case-insensitively. */
const ZONE_CONTAINS: Record<Engine, (value: string) => string> = {
  duckdb: (value) => `contains(lower(zone_id), ${value})`,
  clickhouse: (value) => `position(lowerUTF8(zone_id), ${value}) > 0`,
};

/** The WITH clause a query over raw events opens with ('' or ClickHouse's watermark `wm`, which liveEvent reads). */
export const withWatermark = (db: SqlDb) => (db.dialect.engine === 'clickhouse' ? `WITH ${watermarkSql(db)} AS wm ` : '');

/** Conditions a raw event still counted meets, ANDed after others ('' on DuckDB: the rolled-up ones are gone). */
export const andLive = (db: SqlDb) => (db.dialect.engine === 'clickhouse' ? ` AND ${liveEvent()}` : '');

/** Conditions (joined by AND, values bound) for the text filters; the caller adds the time condition. */
export function textConditions(b: Binder, f: EventFilter): string {
  const parts: string[] = [];
  if (f.zoneId !== undefined) parts.push(ZONE_CONTAINS[b.dialect.engine](b.bind(f.zoneId, 'String')));
  if (f.advertiser !== undefined) parts.push(`advertiser = ${b.bind(f.advertiser, 'String')}`);
  if (f.publisher !== undefined) parts.push(`publisher = ${b.bind(f.publisher, 'String')}`);
  if (f.parentDomain !== undefined) parts.push(`parent_domain = ${b.bind(f.parentDomain, 'String')}`);
  if (!f.includeBots) parts.push('NOT is_bot');
  return parts.length ? parts.join(' AND ') : b.dialect.true;
}

/** Raw events still counted (withWatermark on ClickHouse), seen within the range, plus the text filters. */
export function rawEventWhere(db: SqlDb, b: Binder, f: RangeFilter): string {
  return `seen_at >= ${b.instant(f.from)} AND seen_at <= ${b.instant(f.to)}${andLive(db)} AND ${textConditions(b, f)}`;
}

/** Daily rollup rows counted, whose [first_seen, last_seen] overlaps the range, plus the text filters. */
export function rollupWhere(db: SqlDb, b: Binder, f: RangeFilter): string {
  const where = `last_seen >= ${b.instant(f.from)} AND first_seen <= ${b.instant(f.to)} AND ${textConditions(b, f)}`;
  return db.dialect.engine === 'clickhouse' ? `${where} AND ${committedDaily(db)}` : where;
}

/**
 * A query over raw events and daily rollup rows together (`rows`: their UNION ALL), `select`
 * then `rest` (GROUP BY …): DuckDB names the rows in a CTE; ClickHouse reads them as a subquery,
 * its watermark in the WITH clause.
 */
export function overSeen(db: SqlDb, rows: string, select: string, rest: string): string {
  return db.dialect.engine === 'duckdb'
    ? `WITH seen AS (${rows}\n)\n${select}\nFROM seen\n${rest}`
    : `${withWatermark(db)}\n${select}\nFROM (${rows}\n)\n${rest}`;
}
