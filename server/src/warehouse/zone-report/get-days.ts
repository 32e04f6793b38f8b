// The days of a range whose zone report has arrived (any row), ascending: what finality is about.
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';

export async function getReportDays(db: SqlDb, range: { from: string; to: string }): Promise<string[]> {
  const b = new Binder(db.dialect);
  const rows = await db.all<{ day: string }>(
    `SELECT DISTINCT ${db.dialect.day('date')} AS day FROM ${db.current('zone_report')}
     WHERE date BETWEEN ${b.bind(range.from, 'Date32')} AND ${b.bind(range.to, 'Date32')} ORDER BY day`,
    b.params,
  );
  return rows.map((r) => r.day);
}
