// The days of a range whose zone report has arrived (any row), ascending: what finality is about.
import type { ClickHouseDb } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';

export async function getReportDays(db: ClickHouseDb, range: { from: string; to: string }): Promise<string[]> {
  const b = new Binder(CLICKHOUSE);
  const rows = await db.all<{ day: string }>(
    `SELECT DISTINCT toString(date) AS day FROM ${db.t('zone_report')} FINAL
     WHERE date BETWEEN toDate32(${b.bind(range.from, 'String')}) AND toDate32(${b.bind(range.to, 'String')}) ORDER BY day`,
    b.params,
  );
  return rows.map((r) => r.day);
}
