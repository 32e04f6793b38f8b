// The ClickHouse ReferrerWarehouse: one query per module in this folder, bound here.
import type { ClickHouseDb } from '../db.js';
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
import type { ReferrerWarehouse } from '../../types.js';

export function clickHouseReferrerWarehouse(db: ClickHouseDb): ReferrerWarehouse {
  return {
    append: (events, keys) => appendEvents(db, events, keys),
    seenKeys: (keys, since) => getSeenKeys(db, keys, since),
    // The key table's TTL drops expired days by itself.
    expireKeys: async () => 0,
    maxEventId: () => getMaxEventId(db),
    referrers: (q) => getReferrers(db, q),
    streamReferrers: (q) => streamReferrers(db, q),
    logs: (q) => getReferrerLogs(db, q),
    streamLogs: (q) => streamReferrerLogs(db, q),
    filterOptions: (limit) => getReferrerFilters(db, limit),
    ivt: (q) => getIvt(db, q),
    streamIvt: (q) => streamIvt(db, q),
    eventsAfter: (afterId, beforeId, limit) => getEventsAfter(db, afterId, beforeId, limit),
    rollUpBefore: (cutoffMs) => rollUpOldEvents(db, cutoffMs),
    countEvents: (only) => countEvents(db, only),
  };
}
