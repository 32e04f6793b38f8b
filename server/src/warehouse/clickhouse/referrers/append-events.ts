// Commits one batch of referrer events: one INSERT of rows as arrays of values (JSONCompactEachRow), resolved only once
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
import { sqlTimestamp } from '../../sql/dialect.js';

/** The columns each event gives, in the order of its array (arrays of values parse faster than JSONEachRow's objects). */
const COLUMNS: [string, ...string[]] = [
  'id',
  'seen_at',
  'zone_id',
  'parent_domain',
  'referrer',
  'keyword',
  'ip',
  'country',
  'publisher',
  'advertiser',
  'is_bot',
  'reason',
  'campaign_id',
  'adset_id',
  'ad_id',
  'placement',
  'event_key',
];

export async function appendEvents(db: ClickHouseDb, events: readonly ReferrerEvent[], keyed?: EventKeys): Promise<void> {
  if (events.length === 0) return;
  const keys = keyed?.keys ?? [];
  if (keys.length > 0) {
    const taken = await getSeenKeys(db, keys, keyed!.since);
    if (taken.size > 0) throw new EventKeyConflict(taken);
  }
  const batchKeys = keys.join('\n');
  await db.insertColumns(
    'referrer_event',
    COLUMNS,
    events.map((e, i) => [
      e.id,
      sqlTimestamp(e.seen_ms),
      e.zone_id,
      e.parent_domain,
      e.referrer,
      e.keyword,
      e.ip,
      e.country,
      e.publisher,
      e.advertiser,
      e.is_bot === true,
      e.reason ?? null,
      e.campaign_id ?? null,
      e.adset_id ?? null,
      e.ad_id ?? null,
      e.placement ?? null,
      i === 0 ? batchKeys : '',
    ]),
  );
}
