// Revenue per month × advertiser or × publisher (Finance).
import type { ReportFilters } from '@adops/core';
import type { Db } from '../db.js';
import type { MonthAmount, SummaryDimension } from './types.js';
import { whereFilters } from './filters.js';

const COLUMN: Record<SummaryDimension, string> = { publisher: 'publisher', advertiser: 'advertiser' };

export function getMonthlyRevenue(db: Db, filters: ReportFilters, by: SummaryDimension): Promise<MonthAmount[]> {
  const column = COLUMN[by];
  const where = whereFilters(filters, { range: { start: filters.start_date, end: filters.end_date } });
  return db.all<MonthAmount>(
    `SELECT strftime(date, '%Y-%m') AS month, ${column} AS name, sum(revenue) AS amount
       FROM zone_report ${where.sql}
      GROUP BY month, name
      ORDER BY month, name`,
    where.params,
  );
}
