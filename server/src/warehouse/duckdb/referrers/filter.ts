// The referrer filter in DuckDB SQL (report and log queries): the same rules as eventMatches
// (warehouse/event-filter.ts) applies to live events, so both read a filter the same way.
import type { Param } from '../db.js';
import type { EventFilter, RangeFilter } from '../../types.js';

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
  if (!f.includeBots) parts.push('NOT is_bot');
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
