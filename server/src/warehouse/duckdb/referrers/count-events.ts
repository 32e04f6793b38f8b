// How many raw referrer events the warehouse holds (all, or those attributed to a Meta campaign).
import type { Db } from '../db.js';

export async function countEvents(db: Db, only: { attributed?: boolean } = {}): Promise<number> {
  const where = only.attributed ? ' WHERE campaign_id IS NOT NULL' : '';
  const row = await db.one<{ n: number }>(`SELECT count(*) AS n FROM referrer_event${where}`);
  return Number(row?.n ?? 0);
}
