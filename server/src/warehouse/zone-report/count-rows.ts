// How many zone-report rows are stored (one per natural key: replaced rows not counted; the demo
// load runs only on an empty table).
import type { SqlDb } from '../sql/db.js';

export async function countRows(db: SqlDb): Promise<number> {
  const row = await db.one<{ n: number }>(`SELECT ${db.dialect.count()} AS n FROM ${db.current('zone_report')}`);
  return Number(row?.n ?? 0);
}
