// The referrer filter in ClickHouse SQL (report and log queries): the same rules as eventMatches
// (warehouse/event-filter.ts) applies to live events, so both read a filter the same way.
// Instants are bound as epoch milliseconds.
import type { Binder } from '../db.js';
import type { EventFilter, RangeFilter } from '../../types.js';
import { liveEvent } from './schema.js';

/** An epoch-ms instant bound as a DateTime64(3, 'UTC'). */
export const instant = (b: Binder, ms: number) => `fromUnixTimestamp64Milli(${b.bind(ms, 'Int64')}, 'UTC')`;

/** Conditions (joined by AND, values bound) for the text filters; the caller adds the time condition. */
export function textConditions(b: Binder, f: EventFilter): string {
  const parts: string[] = [];
  if (f.zoneId !== undefined) parts.push(`position(lowerUTF8(zone_id), ${b.bind(f.zoneId, 'String')}) > 0`);
  if (f.advertiser !== undefined) parts.push(`advertiser = ${b.bind(f.advertiser, 'String')}`);
  if (f.publisher !== undefined) parts.push(`publisher = ${b.bind(f.publisher, 'String')}`);
  if (f.parentDomain !== undefined) parts.push(`parent_domain = ${b.bind(f.parentDomain, 'String')}`);
  if (!f.includeBots) parts.push('NOT is_bot');
  return parts.length ? parts.join(' AND ') : '1';
}

/** Raw events still counted (see schema.ts; needs `wm` in the WITH clause), within the range, plus the text filters. */
export function rawEventWhere(b: Binder, f: RangeFilter): string {
  return `seen_at >= ${instant(b, f.from)} AND seen_at <= ${instant(b, f.to)} AND ${liveEvent()} AND ${textConditions(b, f)}`;
}

/** Rollup rows whose [first_seen, last_seen] overlaps the range, plus the text filters (committed runs added by the caller). */
export function rollupWhere(b: Binder, f: RangeFilter): string {
  return `last_seen >= ${instant(b, f.from)} AND first_seen <= ${instant(b, f.to)} AND ${textConditions(b, f)}`;
}
