// Sums per date × publisher or date × advertiser (Ad Report summaries, Demand).
import type { ReportFilters } from '@adops/core';
import type { Db } from '../db.js';
import type { GroupDaySums, SummaryDimension } from './types.js';
import { SUMS_SQL, whereFilters } from './filters.js';

/** The grouping column comes from this fixed map, never from the request. */
const COLUMN: Record<SummaryDimension, string> = { publisher: 'publisher', advertiser: 'advertiser' };

export function getSummarySums(db: Db, filters: ReportFilters, by: SummaryDimension): Promise<GroupDaySums[]> {
  const column = COLUMN[by];
  const where = whereFilters(filters, { range: { start: filters.start_date, end: filters.end_date } });
  return db.all<GroupDaySums>(
    `SELECT date, ${column} AS name, ${SUMS_SQL}
       FROM zone_report ${where.sql}
      GROUP BY date, ${column}
      ORDER BY date DESC, revenue DESC, name`,
    where.params,
  );
}
