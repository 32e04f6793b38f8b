// The DuckDB ReferrerWarehouse: one query per module in this folder, bound here.
import type { Db } from '../db.js';
import { appendEvents } from './append-events.js';
import { getMaxEventId } from './get-max-event-id.js';
import { getReferrers, streamReferrers } from './get-referrers.js';
import { getReferrerLogs, streamReferrerLogs } from './get-referrer-logs.js';
import { getReferrerFilters } from './get-referrer-filters.js';
import { getIvt, streamIvt } from './get-ivt.js';
import { getEventsAfter } from './get-events-after.js';
import { rollUpOldEvents } from './roll-up-old-events.js';
import { countEvents } from './count-events.js';
import { getSeenKeys } from './get-seen-keys.js';
import { expireKeys } from './expire-keys.js';
import type { KeyIndex } from './key-index.js';
import { visitCacheOf } from '../profit/visit-cache.js';
import { dayVisitsOf } from '../profit/day-visits.js';
import type { ReferrerWarehouse } from '../../types.js';

export { createReferrerSchema } from './schema.js';
export { KeyIndex } from './key-index.js';

/** The referrer warehouse on `db`; `keys` is the in-memory index of its idempotency keys (KeyIndex.load). */
export function duckReferrerWarehouse(db: Db, keys: KeyIndex): ReferrerWarehouse {
  return {
    append: (events, keyed) => {
      // The profit visit cache drops the days an old event falls on (its job queued first); the
      // counts of days still filling start again after a batch out of id order.
      const dropped = visitCacheOf(db).beforeAppend(events);
      const outOfOrder = dayVisitsOf(db).beforeAppend(events);
      let appended = appendEvents(db, keys, events, keyed);
      if (outOfOrder) appended = appended.finally(outOfOrder);
      return dropped ? Promise.all([dropped, appended]).then(() => undefined) : appended;
    },
    seenKeys: (list, since) => getSeenKeys(db, keys, list, since),
    expireKeys: (before) => expireKeys(db, keys, before),
    maxEventId: () => getMaxEventId(db),
    referrers: (q) => getReferrers(db, q),
    streamReferrers: (q) => streamReferrers(db, q),
    logs: (q) => getReferrerLogs(db, q),
    streamLogs: (q) => streamReferrerLogs(db, q),
    filterOptions: (limit) => getReferrerFilters(db, limit),
    ivt: (q) => getIvt(db, q),
    streamIvt: (q) => streamIvt(db, q),
    eventsAfter: (afterId, beforeId, limit) => getEventsAfter(db, afterId, beforeId, limit),
    rollUpBefore: (cutoffMs) => {
      // Counts of days still filling start again (before and after: a read in between may have counted deleted events).
      const counts = dayVisitsOf(db);
      counts.invalidate();
      const dropped = visitCacheOf(db).beforeRetention(cutoffMs);
      const rolled = rollUpOldEvents(db, cutoffMs).finally(() => counts.invalidate());
      return dropped ? Promise.all([dropped, rolled]).then(([, r]) => r) : rolled;
    },
    countEvents: (only) => countEvents(db, only),
  };
}
