// The DuckDB referrer writes: appends (through the appender, keeping the profit caches right),
// idempotency keys (an in-memory index confirmed against the stored keys) and retention. The
// queries are shared with ClickHouse (../../referrers/).
import type { Db } from '../db.js';
import { appendEvents } from './append-events.js';
import { rollUpOldEvents } from './roll-up-old-events.js';
import { getSeenKeys } from './get-seen-keys.js';
import { expireKeys } from './expire-keys.js';
import type { KeyIndex } from './key-index.js';
import { visitCacheOf } from '../profit/visit-cache.js';
import { dayVisitsOf } from '../profit/day-visits.js';
import type { ReferrerWrites } from '../../referrers/index.js';

export { createReferrerSchema } from './schema.js';
export { KeyIndex } from './key-index.js';

/** The referrer writes on `db`; `keys` is the in-memory index of its idempotency keys (KeyIndex.load). */
export function duckReferrerWrites(db: Db, keys: KeyIndex): ReferrerWrites {
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
    rollUpBefore: (cutoffMs) => {
      // Counts of days still filling start again (before and after: a read in between may have counted deleted events).
      const counts = dayVisitsOf(db);
      counts.invalidate();
      const dropped = visitCacheOf(db).beforeRetention(cutoffMs);
      const rolled = rollUpOldEvents(db, cutoffMs).finally(() => counts.invalidate());
      return dropped ? Promise.all([dropped, rolled]).then(([, r]) => r) : rolled;
    },
  };
}
