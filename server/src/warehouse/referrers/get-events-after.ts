// Events after a stream client's last seen id (up to the live ring buffer's oldest), for
// resuming a stream across a restart or a gap longer than the ring buffer.
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import type { ReferrerEvent } from '../types.js';
import { andLive, withWatermark } from './filter.js';

export async function getEventsAfter(db: SqlDb, afterId: number, beforeId: number, limit: number): Promise<ReferrerEvent[]> {
  const b = new Binder(db.dialect);
  const rows = await db.all<Omit<ReferrerEvent, 'seen_ms'>>(
    `${withWatermark(db)}SELECT * FROM (
       SELECT id, zone_id, parent_domain, referrer, seen_at, keyword, ip, country, publisher, advertiser, is_bot, reason,
              campaign_id, adset_id, ad_id, placement
       FROM ${db.t('referrer_event')} WHERE id > ${b.bind(afterId, 'UInt64')} AND id < ${b.bind(beforeId, 'UInt64')}${andLive(db)}
       ORDER BY id DESC LIMIT ${b.bind(limit, 'UInt64')}
     ) ORDER BY id`,
    b.params,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), seen_ms: Date.parse(r.seen_at) }));
}
