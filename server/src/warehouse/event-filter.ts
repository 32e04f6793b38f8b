// The referrer filter's meaning for live events (the stream): every engine's SQL for the report
// and the log reads a filter by these same rules.
import type { EventFilter, ReferrerEvent } from './types.js';

/** Whether a live event passes the filter (the same rules as the engines' SQL). */
export function eventMatches(e: ReferrerEvent, f: EventFilter): boolean {
  if (f.zoneId !== undefined && !e.zone_id.toLowerCase().includes(f.zoneId)) return false;
  if (f.advertiser !== undefined && e.advertiser !== f.advertiser) return false;
  if (f.publisher !== undefined && e.publisher !== f.publisher) return false;
  if (f.parentDomain !== undefined && e.parent_domain !== f.parentDomain) return false;
  if (f.from !== undefined && e.seen_ms < f.from) return false;
  if (f.to !== undefined && e.seen_ms > f.to) return false;
  if (e.is_bot && !f.includeBots) return false;
  return true;
}
