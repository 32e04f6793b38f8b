// Events after a stream client's last seen id (up to the live ring buffer's oldest), for
// resuming a stream across a restart or a gap longer than the ring buffer.
import type { Db } from '../db.js';
import type { ReferrerEvent } from '../../types.js';

export async function getEventsAfter(db: Db, afterId: number, beforeId: number, limit: number): Promise<ReferrerEvent[]> {
  const rows = await db.all<Omit<ReferrerEvent, 'seen_ms'>>(
    `SELECT * FROM (
       SELECT id, zone_id, parent_domain, referrer, seen_at, keyword, ip, country, publisher, advertiser, is_bot, reason,
              campaign_id, adset_id, ad_id, placement
       FROM referrer_event WHERE id > $after AND id < $before
       ORDER BY id DESC LIMIT $limit
     ) ORDER BY id`,
    { after: afterId, before: beforeId, limit },
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), seen_ms: Date.parse(r.seen_at) }));
}
