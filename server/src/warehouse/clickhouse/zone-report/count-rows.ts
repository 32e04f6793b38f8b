// How many zone-report rows are stored (one per natural key: replaced rows not counted).
import type { ClickHouseDb } from '../db.js';

export async function countRows(db: ClickHouseDb): Promise<number> {
  const row = await db.one<{ n: number }>(`SELECT count() AS n FROM ${db.t('zone_report')} FINAL`);
  return Number(row?.n ?? 0);
}
