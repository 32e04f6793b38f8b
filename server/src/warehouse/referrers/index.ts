// The DuckDB ReferrerWarehouse: one query per module in this folder, bound here.
import type { Db } from '../db.js';
import { createReferrerSchema } from './schema.js';
import { appendEvents } from './append-events.js';
import { getMaxEventId } from './get-max-event-id.js';
import { getReferrers } from './get-referrers.js';
import { getReferrerLogs } from './get-referrer-logs.js';
import { getReferrerFilters } from './get-referrer-filters.js';
import { getEventsAfter } from './get-events-after.js';
import { getZoneOwners } from './get-zone-owners.js';
import { rollUpOldEvents } from './roll-up-old-events.js';
import { countEvents } from './count-events.js';
import type { ReferrerWarehouse } from './types.js';

export * from './types.js';
export { eventMatches } from './filter.js';
export { EventWriter, type EventWriterOptions } from './event-writer.js';

export function duckReferrerWarehouse(db: Db): ReferrerWarehouse {
  return {
    init: () => createReferrerSchema(db),
    append: (events) => appendEvents(db, events),
    maxEventId: () => getMaxEventId(db),
    referrers: (f, limit) => getReferrers(db, f, limit),
    logs: (f, limit) => getReferrerLogs(db, f, limit),
    filterOptions: (limit) => getReferrerFilters(db, limit),
    eventsAfter: (afterId, beforeId, limit) => getEventsAfter(db, afterId, beforeId, limit),
    zoneOwners: () => getZoneOwners(db),
    rollUpBefore: (cutoffMs) => rollUpOldEvents(db, cutoffMs),
    countEvents: () => countEvents(db),
  };
}
