// The referrer filter in SQL, for both dialects (report and log queries): the same rules as
// eventMatches (warehouse/event-filter.ts) applies to live events, so both read a filter the
// same way. Values are bound; instants as each dialect binds them (Binder.instant).
import type { Binder } from '../sql/binder.js';
import type { Engine } from '../sql/dialect.js';
import { liveEvent } from '../clickhouse/referrers/schema.js';
import type { EventFilter, RangeFilter } from '../types.js';

/** A zone id containing the (lower-cased) text, case-insensitively. */
const ZONE_CONTAINS: Record<Engine, (value: string) => string> = {
  duckdb: (value) => `contains(lower(zone_id), ${value})`,
  clickhouse: (value) => `position(lowerUTF8(zone_id), ${value}) > 0`,
};

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

/**
 * Raw events still counted, seen within the range, plus the text filters. DuckDB deletes what
 * retention rolled up; ClickHouse keeps it behind the watermark (liveEvent: `wm` in the WITH clause).
 */
export function rawEventWhere(b: Binder, f: RangeFilter): string {
  const live = b.dialect.engine === 'clickhouse' ? ` AND ${liveEvent()}` : '';
  return `seen_at >= ${b.instant(f.from)} AND seen_at <= ${b.instant(f.to)}${live} AND ${textConditions(b, f)}`;
}

/** Rollup rows whose [first_seen, last_seen] overlaps the range, plus the text filters (ClickHouse: committed runs added by the caller). */
export function rollupWhere(b: Binder, f: RangeFilter): string {
  return `last_seen >= ${b.instant(f.from)} AND first_seen <= ${b.instant(f.to)} AND ${textConditions(b, f)}`;
}
