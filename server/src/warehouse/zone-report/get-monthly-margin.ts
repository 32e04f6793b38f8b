// Margin per month over the filtered rows (Finance 'Margen mensual').
import type { ReportFilters } from '@adops/core';
import type { Db } from '../db.js';
import type { MonthAmount } from './types.js';
import { whereFilters } from './filters.js';

export function getMonthlyMargin(db: Db, filters: ReportFilters): Promise<MonthAmount[]> {
  const where = whereFilters(filters, { range: { start: filters.start_date, end: filters.end_date } });
  return db.all<MonthAmount>(
    `SELECT strftime(date, '%Y-%m') AS month, '' AS name, sum(margin) AS amount
       FROM zone_report ${where.sql}
      GROUP BY month
      ORDER BY month`,
    where.params,
  );
}
