// The highest event id ever assigned: the newest raw event or the highest id retention rolled up.
import type { ClickHouseDb } from '../db.js';

export async function getMaxEventId(db: ClickHouseDb): Promise<number> {
  const row = await db.one<{ id: number }>(
    `SELECT greatest((SELECT max(id) FROM ${db.t('referrer_event')}), (SELECT max(last_id) FROM ${db.t('referrer_event_watermark')})) AS id`,
  );
  return Number(row?.id ?? 0);
}
