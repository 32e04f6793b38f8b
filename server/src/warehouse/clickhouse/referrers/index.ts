// The ClickHouse referrer writes: appends (one INSERT; keys copied by a materialized view),
// idempotency keys looked up by key, and retention behind a watermark. The queries are shared
// with DuckDB (../../referrers/).
import type { ClickHouseDb } from '../db.js';
import { appendEvents } from './append-events.js';
import { rollUpOldEvents } from './roll-up-old-events.js';
import { getSeenKeys } from './get-seen-keys.js';
import type { ReferrerWrites } from '../../referrers/index.js';

export function clickHouseReferrerWrites(db: ClickHouseDb): ReferrerWrites {
  return {
    append: (events, keys) => appendEvents(db, events, keys),
    seenKeys: (keys, since) => getSeenKeys(db, keys, since),
    // The key table's TTL drops expired days by itself.
    expireKeys: async () => 0,
    rollUpBefore: (cutoffMs) => rollUpOldEvents(db, cutoffMs),
  };
}
