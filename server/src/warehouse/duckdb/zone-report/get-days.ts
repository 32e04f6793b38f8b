// The days of a range whose zone report has arrived (any row), ascending: what finality is about.
import type { Db } from '../db.js';

export async function getReportDays(db: Db, range: { from: string; to: string }): Promise<string[]> {
  const rows = await db.all<{ day: string }>(
    `SELECT DISTINCT strftime(date, '%Y-%m-%d') AS day FROM zone_report WHERE date BETWEEN $from::DATE AND $to::DATE ORDER BY day`,
    range,
  );
  return rows.map((r) => r.day);
}
