// Commits one batch of referrer events: one INSERT of JSONEachRow rows, resolved only once
// ClickHouse confirmed it (a synchronous insert writes its part before answering; with the
// asyncInsert option the server buffers batches of many callers and answers after the flush,
// wait_for_async_insert=1). The EventWriter already groups concurrent hits into one batch.
import type { ClickHouseDb } from '../db.js';
import type { ReferrerEvent } from '../../types.js';

export async function appendEvents(db: ClickHouseDb, events: readonly ReferrerEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.insert(
    'referrer_event',
    events.map((e) => ({
      id: e.id,
      seen_at: new Date(e.seen_ms).toISOString().replace('T', ' ').replace('Z', ''),
      zone_id: e.zone_id,
      parent_domain: e.parent_domain,
      referrer: e.referrer,
      keyword: e.keyword,
      ip: e.ip,
      country: e.country,
      publisher: e.publisher,
      advertiser: e.advertiser,
    })),
  );
}
