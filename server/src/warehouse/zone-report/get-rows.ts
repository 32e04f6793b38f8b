// Stored zone-report rows (Ad Report, Api Explorer) ordered by any column or registry metric —
// a row's ratios are the registry's formulas over the row itself — one page of them, or all
// of them streamed. Ties are broken by the natural key, so pages never overlap.
// On DuckDB an order that starts with the date is read day by day: a page only reads the days
// that hold rows offset…offset+limit (the rollup's rows per day say which, without a zone
// filter), and an export sorts one day at a time, so its memory is a day's rows, not the range's.
// ClickHouse keeps only the top offset+limit rows while it sorts, so a page needs no day windows.
import { type SumKey, TQ_WEIGHT_SQL } from '@adops/core';
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import type { Dialect } from '../sql/dialect.js';
import { usesRollup, whereFilters } from '../sql/filters.js';
import { formulaOf, formulaSql } from '../sql/formulas.js';
import { orderBy, pageSql } from '../sql/order.js';
import { ZONE_NATURAL_KEY, type RowQuery, type ZoneReportRecord, ZONE_REPORT_COLUMNS } from '../types.js';

/** Stored columns as the record has them (a date reads as 'YYYY-MM-DD'). */
const COLUMNS = ZONE_REPORT_COLUMNS.join(', ');

/** A stored row's sums as SQL over its own columns (a group of one). */
const rowSum = (d: Dialect): Record<SumKey, string> => ({
  rows: '1',
  impressions: 'impressions',
  monetized_impressions: 'monetized_impressions',
  ctr_base: d.ctrBase,
  clicks: 'clicks',
  revenue: 'revenue',
  p_revenue: 'p_revenue',
  margin: 'margin',
  tq_weighted: d.ifElse(TQ_WEIGHT_SQL, 'tq * impressions', '0'),
  tq_weight: d.ifElse(TQ_WEIGHT_SQL, 'impressions', '0'),
});

const STORED = new Set<string>(ZONE_REPORT_COLUMNS);

/** A row column (stored, or a derived metric over the row); tq is the row's reported one. */
const rowExpr =
  (d: Dialect) =>
  (key: string): string | undefined => {
    if (STORED.has(key)) return key;
    const formula = formulaOf(key);
    return formula ? formulaSql(d, formula, (k) => rowSum(d)[k]) : undefined;
  };

const NATURAL = ZONE_NATURAL_KEY.map((key) => ({ key, dir: 'asc' as const }));

function rowsSql(db: SqlDb, q: RowQuery, range: { start: string; end: string }, limit?: number, offset?: number) {
  const d = db.dialect;
  const b = new Binder(d);
  const where = whereFilters(b, q.filters, { range });
  const sql = `SELECT ${COLUMNS} FROM ${db.current('zone_report')} ${where} ${orderBy(d, q.order, NATURAL, rowExpr(d))} ${pageSql(b, limit, offset)}`;
  return { sql, params: b.params };
}

/** DuckDB: the days (and the offset within them) that hold rows offset … offset+limit of a date-led order. */
async function dayWindow(db: SqlDb, q: RowQuery, limit: number, offset: number) {
  const dir = q.order[0].dir;
  const b = new Binder(db.dialect);
  const where = whereFilters(b, q.filters, { range: { start: q.filters.start_date, end: q.filters.end_date } });
  const days = await db.all<{ date: string; rows: number }>(
    `SELECT date, sum(rows)::BIGINT AS rows FROM zone_report_rollup ${where} GROUP BY date ORDER BY date ${dir === 'asc' ? 'ASC' : 'DESC'}`,
    b.params,
  );
  let before = 0; // rows in the days skipped
  let through = 0; // rows up to the end of the last day taken
  let first: string | undefined;
  let last: string | undefined;
  for (const day of days) {
    if (first === undefined) {
      if (before + day.rows <= offset) {
        before += day.rows;
        continue;
      }
      first = day.date;
      through = before;
    }
    last = day.date;
    through += day.rows;
    if (through >= offset + limit) break;
  }
  if (first === undefined || last === undefined) return null;
  const [start, end] = dir === 'asc' ? [first, last] : [last, first];
  return { range: { start, end }, offset: offset - before };
}

export async function getRows(db: SqlDb, q: RowQuery): Promise<ZoneReportRecord[]> {
  let range = { start: q.filters.start_date, end: q.filters.end_date };
  let offset = q.offset ?? 0;
  if (db.dialect.engine === 'duckdb' && q.limit !== undefined && q.order[0]?.key === 'date' && usesRollup(db, q.filters)) {
    const window = await dayWindow(db, q, q.limit, offset);
    if (!window) return [];
    ({ range, offset } = window);
  }
  const { sql, params } = rowsSql(db, q, range, q.limit, offset);
  return db.all<ZoneReportRecord>(sql, params);
}

/** Rows an export sorts at once at most (a day with more is still one window). */
const EXPORT_WINDOW_ROWS = 100_000;

/** DuckDB: the range cut into runs of consecutive days of about EXPORT_WINDOW_ROWS rows, in the order's direction. */
async function dayWindows(db: SqlDb, q: Omit<RowQuery, 'limit' | 'offset'>, dir: 'asc' | 'desc') {
  const b = new Binder(db.dialect);
  const where = whereFilters(b, q.filters, { range: { start: q.filters.start_date, end: q.filters.end_date } });
  const counted = usesRollup(db, q.filters)
    ? `SELECT date, sum(rows)::BIGINT AS rows FROM zone_report_rollup ${where} GROUP BY date`
    : `SELECT date, count(*) AS rows FROM zone_report ${where} GROUP BY date`;
  const days = await db.all<{ date: string; rows: number }>(`${counted} ORDER BY date ${dir === 'asc' ? 'ASC' : 'DESC'}`, b.params);
  const windows: Array<{ start: string; end: string }> = [];
  const close = (first: string, last: string) => windows.push(dir === 'asc' ? { start: first, end: last } : { start: last, end: first });
  let first = '';
  let last = '';
  let rows = 0;
  for (const day of days) {
    if (rows > 0 && rows + day.rows > EXPORT_WINDOW_ROWS) {
      close(first, last);
      rows = 0;
    }
    if (rows === 0) first = day.date;
    last = day.date;
    rows += day.rows;
  }
  if (rows > 0) close(first, last);
  return windows;
}

export async function* streamRows(db: SqlDb, q: Omit<RowQuery, 'limit' | 'offset'>): AsyncGenerator<ZoneReportRecord[]> {
  if (db.dialect.engine === 'duckdb' && q.order[0]?.key === 'date') {
    const windows = await dayWindows(db, q, q.order[0].dir);
    yield* db.streamEach<ZoneReportRecord>(windows.map((range) => rowsSql(db, q, range)));
    return;
  }
  const { sql, params } = rowsSql(db, q, { start: q.filters.start_date, end: q.filters.end_date });
  yield* db.stream<ZoneReportRecord>(sql, params);
}
