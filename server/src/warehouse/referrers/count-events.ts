// How many raw referrer events the warehouse holds (those retention rolled up no longer count),
// all or those attributed to a Meta campaign.
import type { SqlDb } from '../sql/db.js';
import { liveEvent } from '../clickhouse/referrers/schema.js';
import { withWatermark } from './filter.js';

export async function countEvents(db: SqlDb, only: { attributed?: boolean } = {}): Promise<number> {
  const conditions = [...(db.dialect.engine === 'clickhouse' ? [liveEvent()] : []), ...(only.attributed ? ['campaign_id IS NOT NULL'] : [])];
  const where = conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
  const row = await db.one<{ n: number }>(`${withWatermark(db)}SELECT ${db.dialect.count()} AS n FROM ${db.t('referrer_event')}${where}`);
  return Number(row?.n ?? 0);
}
