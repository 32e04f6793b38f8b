// Sums per calendar day of a range under the report filters (Dashboard, deltas, totals).
import type { ReportFilters } from '@adops/core';
import type { Db } from '../db.js';
import type { DaySums } from './types.js';
import { SUMS_SQL, whereFilters } from './filters.js';

export function getDailySums(db: Db, filters: ReportFilters): Promise<DaySums[]> {
  const where = whereFilters(filters, { range: { start: filters.start_date, end: filters.end_date } });
  return db.all<DaySums>(
    `SELECT date, ${SUMS_SQL} FROM zone_report ${where.sql} GROUP BY date ORDER BY date`,
    where.params,
  );
}
