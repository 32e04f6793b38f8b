// Events after a stream client's last seen id (up to the live ring buffer's oldest), for
// resuming a stream across a restart or a gap longer than the ring buffer.
import type { ClickHouseDb } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';
import type { ReferrerEvent } from '../../types.js';
import { liveEvent, watermarkSql } from './schema.js';

export async function getEventsAfter(db: ClickHouseDb, afterId: number, beforeId: number, limit: number): Promise<ReferrerEvent[]> {
  const b = new Binder(CLICKHOUSE);
  const rows = await db.all<Omit<ReferrerEvent, 'seen_ms'>>(
    `WITH ${watermarkSql(db)} AS wm
     SELECT * FROM (
       SELECT id, zone_id, parent_domain, referrer, seen_at, keyword, ip, country, publisher, advertiser, is_bot, reason,
              campaign_id, adset_id, ad_id, placement
       FROM ${db.t('referrer_event')}
       WHERE id > ${b.bind(afterId, 'UInt64')} AND id < ${b.bind(beforeId, 'UInt64')} AND ${liveEvent()}
       ORDER BY id DESC LIMIT ${b.bind(limit, 'UInt64')}
     ) ORDER BY id`,
    b.params,
  );
  return rows.map((r) => ({ ...r, seen_ms: Date.parse(r.seen_at) }));
}
