// The ReferrerWarehouse of either engine: its queries written once for both dialects (this
// folder), its writes — append, idempotency keys, retention — the engine's own.
import type { SqlDb } from '../sql/db.js';
import type { ReferrerWarehouse } from '../types.js';
import { countEventWindows, countEvents } from './count-events.js';
import { getEventsAfter } from './get-events-after.js';
import { getIvt, streamIvt } from './get-ivt.js';
import { getMaxEventId } from './get-max-event-id.js';
import { getReferrerFilters } from './get-referrer-filters.js';
import { getReferrerLogs, streamReferrerLogs } from './get-referrer-logs.js';
import { getReferrers, streamReferrers } from './get-referrers.js';

/** The writes each engine does its own way. */
export type ReferrerWrites = Pick<ReferrerWarehouse, 'append' | 'seenKeys' | 'expireKeys' | 'rollUpBefore'>;

export function referrerWarehouse(db: SqlDb, writes: ReferrerWrites): ReferrerWarehouse {
  return {
    ...writes,
    maxEventId: () => getMaxEventId(db),
    referrers: (q) => getReferrers(db, q),
    streamReferrers: (q) => streamReferrers(db, q),
    logs: (q) => getReferrerLogs(db, q),
    streamLogs: (q) => streamReferrerLogs(db, q),
    filterOptions: (limit) => getReferrerFilters(db, limit),
    ivt: (q) => getIvt(db, q),
    streamIvt: (q) => streamIvt(db, q),
    eventsAfter: (afterId, beforeId, limit) => getEventsAfter(db, afterId, beforeId, limit),
    countEvents: (only) => countEvents(db, only),
    countEventWindows: (size) => countEventWindows(db, size),
  };
}
