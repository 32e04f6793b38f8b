// How many raw referrer events the warehouse holds (those retention rolled up no longer count),
// all or those attributed to a Meta campaign.
import type { ClickHouseDb } from '../db.js';
import { liveEvent, watermarkSql } from './schema.js';

export async function countEvents(db: ClickHouseDb, only: { attributed?: boolean } = {}): Promise<number> {
  const attributed = only.attributed ? ' AND campaign_id IS NOT NULL' : '';
  const row = await db.one<{ n: number }>(
    `WITH ${watermarkSql(db)} AS wm SELECT count() AS n FROM ${db.t('referrer_event')} WHERE ${liveEvent()}${attributed}`,
  );
  return Number(row?.n ?? 0);
}
