// How many zone-report rows are stored (demo load runs only on an empty table).
import type { Db } from '../db.js';

export async function countRows(db: Db): Promise<number> {
  const row = await db.one<{ n: number }>('SELECT count(*) AS n FROM zone_report');
  return row?.n ?? 0;
}
