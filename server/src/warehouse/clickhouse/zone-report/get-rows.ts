// Stored zone-report rows (Ad Report, Api Explorer) ordered by any column or registry metric —
// a row's ratios are the registry's formulas over the row itself — one page of them, or all
// of them streamed. Ties are broken by the natural key, so pages never overlap. ClickHouse
// keeps only the top offset+limit rows while it sorts, so a page needs no day windows.
import type { SumKey } from '@adops/core';
import type { ClickHouseDb } from '../db.js';
import type { Params } from '../../sql/binder.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';
import { filterConditions } from '../../sql/filters.js';
import { formulaOf, formulaSql } from '../../sql/formulas.js';
import { orderBy, pageSql } from '../../sql/order.js';
import { ZONE_NATURAL_KEY, type RowQuery, type ZoneReportRecord, ZONE_REPORT_COLUMNS } from '../../types.js';

/** Stored columns as the record has them (a Date32 reads as 'YYYY-MM-DD'). */
const COLUMNS = ZONE_REPORT_COLUMNS.join(', ');

/** A stored row's sums as SQL over its own columns (a group of one). */
const ROW_SUM: Record<SumKey, string> = {
  rows: '1',
  impressions: 'impressions',
  monetized_impressions: 'monetized_impressions',
  ctr_base: 'if(ifNull(monetized_impressions, 0) > 0, ifNull(monetized_impressions, 0), impressions)',
  clicks: 'clicks',
  revenue: 'revenue',
  p_revenue: 'p_revenue',
  margin: 'margin',
  tq_weighted: 'if(tq > 0 AND impressions > 0, tq * impressions, 0)',
  tq_weight: 'if(tq > 0 AND impressions > 0, impressions, 0)',
};

const STORED = new Set<string>(ZONE_REPORT_COLUMNS);

/** A row column (stored, or a derived metric over the row); tq is the row's reported one. */
function rowExpr(key: string): string | undefined {
  if (STORED.has(key)) return key;
  const formula = formulaOf(key);
  return formula ? formulaSql(CLICKHOUSE, formula, (k) => ROW_SUM[k]) : undefined;
}

const NATURAL = ZONE_NATURAL_KEY.map((key) => ({ key, dir: 'asc' as const }));

function rowsSql(db: ClickHouseDb, q: RowQuery): { sql: string; params: Params } {
  const b = new Binder(CLICKHOUSE);
  const where = filterConditions(b, q.filters, { range: { start: q.filters.start_date, end: q.filters.end_date } });
  const sql = `SELECT ${COLUMNS} FROM ${db.t('zone_report')} FINAL WHERE ${where} ${orderBy(CLICKHOUSE, q.order, NATURAL, rowExpr)} ${pageSql(b, q.limit, q.offset)}`;
  return { sql, params: b.params };
}

export async function getRows(db: ClickHouseDb, q: RowQuery): Promise<ZoneReportRecord[]> {
  const { sql, params } = rowsSql(db, q);
  return db.all<ZoneReportRecord>(sql, params);
}

export async function* streamRows(db: ClickHouseDb, q: Omit<RowQuery, 'limit' | 'offset'>): AsyncGenerator<ZoneReportRecord[]> {
  const { sql, params } = rowsSql(db, q);
  yield* db.stream<ZoneReportRecord>(sql, params);
}
