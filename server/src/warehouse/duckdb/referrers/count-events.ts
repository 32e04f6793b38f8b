// How many raw referrer events the warehouse holds.
import type { Db } from '../db.js';

export async function countEvents(db: Db): Promise<number> {
  const row = await db.one<{ n: number }>('SELECT count(*) AS n FROM referrer_event');
  return Number(row?.n ?? 0);
}
