// How many raw referrer events the warehouse holds (those retention rolled up no longer count).
import type { ClickHouseDb } from '../db.js';
import { liveEvent, watermarkSql } from './schema.js';

export async function countEvents(db: ClickHouseDb): Promise<number> {
  const row = await db.one<{ n: number }>(`WITH ${watermarkSql(db)} AS wm SELECT count() AS n FROM ${db.t('referrer_event')} WHERE ${liveEvent()}`);
  return Number(row?.n ?? 0);
}
