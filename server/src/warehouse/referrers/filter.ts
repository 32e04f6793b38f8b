// The referrer filter's meaning, once for SQL (report and log queries) and once for live
// events (the stream), so both read a filter the same way.
import type { Param } from '../db.js';
import type { EventFilter, RangeFilter, ReferrerEvent } from './types.js';

/** A UTC instant as a DuckDB TIMESTAMP literal parameter ('YYYY-MM-DD HH:MM:SS.mmm'). */
export const sqlTimestamp = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

/**
 * WHERE conditions (joined by AND, values bound) for the text filters; the caller adds the
 * time condition for its own columns.
 */
export function textConditions(f: EventFilter): { sql: string; params: Param[] } {
  const parts: string[] = [];
  const params: Param[] = [];
  if (f.zoneId !== undefined) {
    parts.push('contains(lower(zone_id), ?)');
    params.push(f.zoneId);
  }
  if (f.advertiser !== undefined) {
    parts.push('advertiser = ?');
    params.push(f.advertiser);
  }
  if (f.publisher !== undefined) {
    parts.push('publisher = ?');
    params.push(f.publisher);
  }
  if (f.parentDomain !== undefined) {
    parts.push('parent_domain = ?');
    params.push(f.parentDomain);
  }
  return { sql: parts.length ? parts.join(' AND ') : 'TRUE', params };
}

/** Raw events seen within the range plus the text filters. */
export function rawEventWhere(f: RangeFilter): { sql: string; params: Param[] } {
  const text = textConditions(f);
  return {
    sql: `seen_at >= ?::TIMESTAMP AND seen_at <= ?::TIMESTAMP AND ${text.sql}`,
    params: [sqlTimestamp(f.from), sqlTimestamp(f.to), ...text.params],
  };
}

/** Rollup rows whose [first_seen, last_seen] overlaps the range, plus the text filters. */
export function rollupWhere(f: RangeFilter): { sql: string; params: Param[] } {
  const text = textConditions(f);
  return {
    sql: `last_seen >= ?::TIMESTAMP AND first_seen <= ?::TIMESTAMP AND ${text.sql}`,
    params: [sqlTimestamp(f.from), sqlTimestamp(f.to), ...text.params],
  };
}

/** Whether a live event passes the filter (the same rules as the SQL above). */
export function eventMatches(e: ReferrerEvent, f: EventFilter): boolean {
  if (f.zoneId !== undefined && !e.zone_id.toLowerCase().includes(f.zoneId)) return false;
  if (f.advertiser !== undefined && e.advertiser !== f.advertiser) return false;
  if (f.publisher !== undefined && e.publisher !== f.publisher) return false;
  if (f.parentDomain !== undefined && e.parent_domain !== f.parentDomain) return false;
  if (f.from !== undefined && e.seen_ms < f.from) return false;
  if (f.to !== undefined && e.seen_ms > f.to) return false;
  return true;
}
