// Commits one batch of referrer events: one INSERT of JSONEachRow rows, resolved only once
// ClickHouse confirmed it (a synchronous insert writes its part before answering; with the
// asyncInsert option the server buffers batches of many callers and answers after the flush,
// wait_for_async_insert=1). The EventWriter already groups concurrent hits into one batch.
// A batch's idempotency keys ride in its first event's event_key (one per line); the
// materialized view copies them into referrer_event_key within the same INSERT. ClickHouse has no transaction across the check and
// the insert: the keys are checked just before (EventKeyConflict), which closes the gap within
// one instance (its batches commit one at a time) but not between two instances inserting the
// same key at the same instant (docs/deploy.md).
import type { ClickHouseDb } from '../db.js';
import { EventKeyConflict, type EventKeys, type ReferrerEvent } from '../../types.js';
import { getSeenKeys } from './get-seen-keys.js';

export async function appendEvents(db: ClickHouseDb, events: readonly ReferrerEvent[], keyed?: EventKeys): Promise<void> {
  if (events.length === 0) return;
  const keys = keyed?.keys ?? [];
  if (keys.length > 0) {
    const taken = await getSeenKeys(db, keys, keyed!.since);
    if (taken.size > 0) throw new EventKeyConflict(taken);
  }
  await db.insert(
    'referrer_event',
    events.map((e, i) => ({
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
      is_bot: e.is_bot === true,
      reason: e.reason ?? null,
      campaign_id: e.campaign_id ?? null,
      adset_id: e.adset_id ?? null,
      ad_id: e.ad_id ?? null,
      placement: e.placement ?? null,
      ...(i === 0 && keys.length > 0 ? { event_key: keys.join('\n') } : {}),
    })),
  );
}
