// Stored zone-report rows (Ad Report, Api Explorer) ordered by any column or registry metric —
// a row's ratios are the registry's formulas over the row itself — one page of them, or all
// of them streamed. Ties are broken by the natural key, so pages never overlap.
// A page is cut before it is sorted, so the sort sees a few rows instead of the whole range:
// - an order led by the date reads only the days that hold rows offset…offset+limit (the
//   rollup's rows per day say which, without a zone filter), on both engines;
//   With a zone search, which the rollup cannot count, the day of the page's last row is read
//   first (dayCut), and the page sorts the days from there on.
// - an order led by a stored number (revenue, clicks…): the (offset+limit)-th value of that
//   column alone first (a one-column top-N, which DuckDB pushes into the scan as it goes), then
//   the sort of only the rows on its side of it. Every row of the page is there (they all rank
//   at or before that value), ties included. ClickHouse also narrows FINAL to the keys of those
//   rows (cutConditions). Not for a ratio (CTR…): computing it is most of the cost, and the
//   first read would pay it again — unless the page's rows all tie on it (ratioTies).
// - an order led by a ratio alone, ascending, whose first offset+limit rows all share its value (CTR
//   ascending: the rows without clicks, often most of them): the page is those tied rows in the
//   natural key's order, led by the day, so it reads only the days up to its last row's. A ratio
//   of two counts (CTR) cannot fall below 0, so with enough rows at 0 that day is the day of the
//   n-th row at 0, found as a zone search's (the first week, then two months): the day and two
//   counts of a few days read, no row's ratio computed (a year's CTR ascending page 40 at 10 M
//   rows: 191 → 16 ms in the warehouse). Another ratio's first read keeps the ratio and the day of each row (a
//   top-N of two numbers), where the page's own sort carries every column and the key's text
//   through the whole range.
// Both cuts are off with the rollup (the plain queries, which they must answer alike).
// On DuckDB an export sorts a window of about 160,000 rows at a time (days for an order led by the
// date, value ranges for one led by a number), the next window read while this one is written,
// so its memory is two windows' rows.
import { addDays, type SumKey, tqWeightSql } from '@adops/core';
import { Binder } from '../sql/binder.js';
import type { ColumnChunk, SqlDb } from '../sql/db.js';
import type { Dialect } from '../sql/dialect.js';
import { currentFilters, usesRollup, whereFilters } from '../sql/filters.js';
import { pageDays } from './page-days.js';
import { fromWhere } from './source.js';
import { formulaOf, formulaSql, isCount } from '../sql/formulas.js';
import { orderBy, pageSql } from '../sql/order.js';
import { TEXT_SORT_KEYS, ZONE_NATURAL_KEY, type Filters, type RowQuery, type ZoneReportRecord, ZONE_REPORT_COLUMNS } from '../types.js';

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
  tq_weighted: tqWeightSql(d.engine, 'tq_weighted'),
  tq_weight: tqWeightSql(d.engine, 'tq_weight'),
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

/** A page's cut on its leading number: only rows at or before `value` in the order's direction. */
interface Cut {
  expr: string;
  dir: 'asc' | 'desc';
  value: number;
}

const KEY = ZONE_NATURAL_KEY.join(', ');

/**
 * The conditions of a cut. ClickHouse also names the keys of the stored rows past the cut, read
 * without FINAL (a condition on a non-key column, read before any deduplication): every current
 * row past the cut is among them, so FINAL then merges the few parts' ranges holding those keys
 * instead of the whole range, and the cut, tested again after it, drops the replaced versions.
 */
function cutConditions(db: SqlDb, b: Binder, q: RowQuery, range: { start: string; end: string }, cut: Cut): string[] {
  const past = () => `${cut.expr} ${cut.dir === 'asc' ? '<=' : '>='} ${b.bind(cut.value, 'Float64')}`;
  if (db.dialect.engine === 'duckdb') return [past()];
  const stored = whereFilters(b, q.filters, { range, and: [past()] });
  return [past(), `(${KEY}) IN (SELECT ${KEY} FROM ${db.t('zone_report')} ${stored})`];
}

function rowsSql(db: SqlDb, q: RowQuery, range: { start: string; end: string }, limit?: number, offset?: number, cut?: Cut, slice?: ValueSlice) {
  const d = db.dialect;
  const b = new Binder(d);
  const and = cut ? cutConditions(db, b, q, range, cut) : slice ? sliceConditions(b, slice) : [];
  const where = currentFilters(b, q.filters, { range, and, inScan: limit !== undefined });
  const sql = `SELECT ${COLUMNS} FROM ${db.current('zone_report')} ${where} ${orderBy(d, q.order, NATURAL, rowExpr(d))} ${pageSql(b, limit, offset)}`;
  return { sql, params: b.params };
}

/**
 * The cut of a page whose order is led by a stored number: the value of its `n`-th row
 * (offset+limit) among the rows that have one (missing values sort last). Undefined when the
 * order is led by anything else, or when fewer than `n` rows have a value (the page reaches the
 * missing ones).
 */
async function numberCut(db: SqlDb, q: RowQuery, range: { start: string; end: string }, n: number): Promise<Cut | undefined> {
  const lead = q.order[0];
  if (!lead || !STORED.has(lead.key) || lead.key === 'date' || TEXT_SORT_KEYS.has(lead.key) || n <= 0) return undefined;
  const d = db.dialect;
  const expr = lead.key;
  const b = new Binder(d);
  const where = currentFilters(b, q.filters, { range, and: [`${expr} IS NOT NULL`] });
  // As a double: ClickHouse would answer a 64-bit count as text; every stored value is exact in one.
  const row = await db.one<{ k: number }>(
    `SELECT ${d.double(expr)} AS k FROM ${db.current('zone_report')} ${where}
     ORDER BY ${expr} ${lead.dir === 'asc' ? 'ASC' : 'DESC'} LIMIT 1 OFFSET ${b.bind(n - 1, 'UInt64')}`,
    b.params,
  );
  return row && row.k !== null ? { expr, dir: lead.dir, value: row.k } : undefined;
}

/**
 * A page led by a ratio (a derived metric) alone, ascending, whose first `n` rows (with a value) all share
 * it: those rows are the ties, in the natural key's order (the day first), so the page lies in
 * the range up to the day of the n-th of them. Answers that narrowed range, or undefined when the
 * order goes on with other keys, fewer than `n` rows have a value, or the first `n` differ.
 */
async function ratioTies(db: SqlDb, q: RowQuery, range: { start: string; end: string }, n: number) {
  const lead = q.order[0];
  const rest = q.order.filter((o) => o.key !== lead?.key);
  // Ascending only: ratios tie at their floor (no clicks, no revenue), rarely at their top, and an
  // untied first read is a cost the page then pays on top of its own.
  const formula = lead?.dir === 'asc' && !STORED.has(lead.key) ? formulaOf(lead.key) : undefined;
  if (!lead || formula?.op !== 'ratio' || n <= 0) return undefined;
  if (rest.length > 1 || (rest.length === 1 && !(rest[0].key === 'date' && rest[0].dir === 'asc'))) return undefined;
  const d = db.dialect;
  // A cheap look first (a filter the scan applies, stopping at n): are there n rows whose ratio is
  // 0 (no clicks over a positive base)? Without them the ratio's first rows hardly tie, and the page is
  // sorted in one read as before (CPM ascending would pay this first read for nothing).
  const zeros = new Binder(d);
  const zero = await db.one<{ n: number }>(
    `SELECT ${d.cast(d.count(), 'int')} AS n FROM (SELECT 1 AS one FROM ${db.t('zone_report')}
       ${whereFilters(zeros, q.filters, { range, and: [`${rowSum(d)[formula.num]} = 0`, `${rowSum(d)[formula.den]} > 0`], inScan: true })} LIMIT ${zeros.bind(n, 'UInt64')}) AS z`,
    zeros.params,
  );
  if (Number(zero?.n ?? 0) < n) return undefined;
  // A ratio of two counts is never below 0 (imports refuse a negative count): with n rows at 0,
  // the page's rows are among those, in the key's order — led by the day, so the day of the n-th
  // is found as a date-led zone search's is (dayCut), in the first week before the whole range,
  // reading the day and the two counts instead of every row's ratio.
  if (isCount(formula.num) && isCount(formula.den)) {
    const zeros = [`${rowSum(d)[formula.num]} = 0`, `${rowSum(d)[formula.den]} > 0`];
    return dayCut(db, q.filters, 'asc', range, n, zeros);
  }
  const expr = rowExpr(d)(lead.key) as string;
  const b = new Binder(d);
  const where = currentFilters(b, q.filters, { range, and: [`${expr} IS NOT NULL`], inScan: true });
  const top = `SELECT ${expr} AS k, date FROM ${db.current('zone_report')} ${where}
     ORDER BY k ASC, date ASC LIMIT ${b.bind(n, 'UInt64')}`;
  const row = await db.one<{ n: number; lo: number; hi: number; last: string }>(
    `SELECT ${d.cast(d.count(), 'int')} AS n, ${d.double('min(k)')} AS lo, ${d.double('max(k)')} AS hi, max(date) AS last FROM (${top}) AS top`,
    b.params,
  );
  if (!row || Number(row.n) < n || row.lo !== row.hi) return undefined;
  return { start: range.start, end: row.last };
}

/** The days (and the offset within them) that hold rows offset … offset+limit of a date-led order. */
async function dayWindow(db: SqlDb, q: RowQuery, limit: number, offset: number) {
  const dir = q.order[0].dir;
  return pageDays(await rowsPerDay(db, q, dir), dir, offset, limit);
}

/** The spans (days) a day cut tries first from the order's start, before the whole range. */
const DAY_CUT_SPANS = [7, 62];

/**
 * A date-led page the rollup cannot count (a zone search): the day of its (offset+limit)-th row
 * first, then the range from that day on (in the order's direction), so the page reads and sorts
 * only those days. That day is looked for in the first week of the order, then two months, then
 * the whole range: a search's first pages are found without reading the year. Undefined when
 * fewer rows match (the page reaches the range's far end).
 */
async function dayCut(db: SqlDb, filters: Filters, dir: 'asc' | 'desc', range: { start: string; end: string }, n: number, and: string[] = []) {
  const nth = async (span: { start: string; end: string }) => {
    const b = new Binder(db.dialect);
    const where = currentFilters(b, filters, { range: span, and, inScan: true });
    return db.one<{ date: string }>(
      `SELECT date FROM ${db.current('zone_report')} ${where} ORDER BY date ${dir === 'asc' ? 'ASC' : 'DESC'} LIMIT 1 OFFSET ${b.bind(n - 1, 'UInt64')}`,
      b.params,
    );
  };
  for (const days of DAY_CUT_SPANS) {
    const span =
      dir === 'asc' ? { start: range.start, end: addDays(range.start, days - 1) } : { start: addDays(range.end, -(days - 1)), end: range.end };
    if (span.start <= range.start && span.end >= range.end) break; // the whole range: read once, below
    const row = await nth(span);
    if (row) return dir === 'asc' ? { start: range.start, end: row.date } : { start: row.date, end: range.end };
  }
  const row = await nth(range);
  if (!row) return undefined;
  return dir === 'asc' ? { start: range.start, end: row.date } : { start: row.date, end: range.end };
}

export async function getRows(db: SqlDb, q: RowQuery): Promise<ZoneReportRecord[]> {
  let range = { start: q.filters.start_date, end: q.filters.end_date };
  let offset = q.offset ?? 0;
  let cut: Cut | undefined;
  if (q.limit !== undefined && q.order[0]?.key === 'date' && usesRollup(db, q.filters)) {
    const window = await dayWindow(db, q, q.limit, offset);
    if (!window.range) return [];
    ({ range, offset } = window);
  } else if (q.limit !== undefined && q.order[0]?.key === 'date' && db.rollup) {
    range = (await dayCut(db, q.filters, q.order[0].dir, range, offset + q.limit)) ?? range;
  } else if (q.limit !== undefined && db.rollup) {
    const ties = await ratioTies(db, q, range, offset + q.limit);
    if (ties) range = ties;
    else cut = await numberCut(db, q, range, offset + q.limit);
  }
  const { sql, params } = rowsSql(db, q, range, q.limit, offset, cut);
  return db.all<ZoneReportRecord>(sql, params);
}

/**
 * Rows an export sorts at once at most, by engine (a day with more is still one window). Each
 * window of values scans the whole range again (every column: 0.2–0.3 s of DuckDB's CPU on 5 M
 * rows), so fewer, larger windows cost less CPU; two of DuckDB's size stay under +100 MB
 * (docs/benchmarks.md). ClickHouse reads a window deduplicated (FINAL) and sorted in more memory
 * per row: at the default 128 MB limit four days of the bench's rows (100,000) read, eight failed.
 */
const EXPORT_WINDOW_ROWS = { duckdb: 160_000, clickhouse: 80_000 } as const;

/**
 * One window of an export led by a stored number: the rows whose value is above `above` and at
 * most `atMost` (either side open when absent), or those without a value (`missing`).
 */
interface ValueSlice {
  expr: string;
  above?: number;
  atMost?: number;
  missing?: boolean;
}

function sliceConditions(b: Binder, slice: ValueSlice): string[] {
  if (slice.missing) return [`${slice.expr} IS NULL`];
  const and: string[] = [];
  if (slice.above !== undefined) and.push(`${slice.expr} > ${b.bind(slice.above, 'Float64')}`);
  if (slice.atMost !== undefined) and.push(`${slice.expr} <= ${b.bind(slice.atMost, 'Float64')}`);
  return and;
}

/**
 * An export led by a number (stored, as revenue or clicks, or a row's ratio, as CTR) cut
 * into windows of that number's values of about `windowRows` rows each, in the order's direction, then the rows without one
 * (missing values sort last either way). The bounds are the column's approximate quantiles (a
 * t-digest: a tenth of an exact quantile's time on 5 M rows, and any bounds cut the order right;
 * only the windows' sizes depend on them): a window holds
 * every row of its values, ties included, so the windows one after the other are the whole
 * order, and the engine sorts a window's rows at a time instead of every row at once (a full sort of
 * millions of rows took hundreds of MB, past the engine's limit into the process). Undefined for
 * any other order, or when the rows fit one window.
 */
async function valueSlices(
  db: SqlDb,
  q: Omit<RowQuery, 'limit' | 'offset'>,
  expected: number,
  windowRows: number,
): Promise<ValueSlice[] | undefined> {
  const lead = q.order[0];
  if (!lead || lead.key === 'date' || TEXT_SORT_KEYS.has(lead.key) || expected <= windowRows) return undefined;
  // A ratio (CTR, CPM…) is the same SQL in the bounds' query and in each window's: the same double a row.
  const expr = rowExpr(db.dialect)(lead.key);
  if (expr === undefined) return undefined;
  const parts = Math.ceil(expected / windowRows);
  const b = new Binder(db.dialect);
  const from = fromWhere(db, b, false, q.filters, { range: { start: q.filters.start_date, end: q.filters.end_date }, and: [`${expr} IS NOT NULL`] });
  const fractions = Array.from({ length: parts - 1 }, (_, i) => (i + 1) / parts);
  const row = await db.one<{ q: number[] | null }>(`SELECT ${db.dialect.quantiles(expr, fractions)} AS q ${from}`, b.params);
  // Equal quantiles (many ties) would make empty windows: each bound once, ascending.
  const bounds = [...new Set(row?.q ?? [])].sort((x, y) => x - y);
  const slices: ValueSlice[] = [];
  for (let i = 0; i <= bounds.length; i++)
    slices.push({ expr, ...(i > 0 ? { above: bounds[i - 1] } : {}), ...(i < bounds.length ? { atMost: bounds[i] } : {}) });
  if (lead.dir === 'desc') slices.reverse();
  slices.push({ expr, missing: true });
  return slices;
}

/** The matching rows of each day of the range, in the order's direction (the rollup's counts without a zone filter): a page by day and an export plan their days from it. */
async function rowsPerDay(db: SqlDb, q: Omit<RowQuery, 'limit' | 'offset'>, dir: 'asc' | 'desc') {
  const d = db.dialect;
  const b = new Binder(d);
  const rollup = usesRollup(db, q.filters);
  const from = fromWhere(db, b, rollup, q.filters, { range: { start: q.filters.start_date, end: q.filters.end_date } });
  const n = d.cast(rollup ? 'sum(rows)' : d.count(), 'int');
  return db.all<{ date: string; n: number }>(
    `SELECT date, ${n} AS n ${from} GROUP BY date ORDER BY date ${dir === 'asc' ? 'ASC' : 'DESC'}`,
    b.params,
  );
}

/** The range cut into runs of consecutive days of about `windowRows` rows, in the order's direction. */
function dayWindows(days: ReadonlyArray<{ date: string; n: number }>, dir: 'asc' | 'desc', windowRows: number) {
  const windows: Array<{ start: string; end: string }> = [];
  const close = (first: string, last: string) => windows.push(dir === 'asc' ? { start: first, end: last } : { start: last, end: first });
  let first = '';
  let last = '';
  let rows = 0;
  for (const day of days) {
    if (rows > 0 && rows + day.n > windowRows) {
      close(first, last);
      rows = 0;
    }
    if (rows === 0) first = day.date;
    last = day.date;
    rows += day.n;
  }
  if (rows > 0) close(first, last);
  return windows;
}

/**
 * DuckDB's stream ends as if complete when the engine fails half-way (out of memory past its
 * limit: @duckdb/node-api returns an empty chunk, not the error), so an export counts what it
 * sent against the rows that match and fails — the download aborts — rather than end short.
 */
export async function* whole<T extends { length: number } | { rows: number }>(chunks: AsyncIterable<T>, expected: number): AsyncGenerator<T> {
  let sent = 0;
  for await (const chunk of chunks) {
    sent += 'rows' in chunk ? chunk.rows : chunk.length;
    yield chunk;
  }
  if (sent < expected) throw new Error(`export ended after ${sent} of ${expected} rows: the engine stopped the query (memory limit?)`);
}

/**
 * An export's queries — windows of about `windowRows` rows (days for a date-led order, value
 * ranges for one led by a stored number), each sorted on its own — and how many rows match. One
 * query of every row would sort them all at once: past the engine's memory limit on millions
 * (ClickHouse failed a 5 M-row export at 128 MB; without a limit the embedded engine held 4.6 GB).
 */
async function exportPlan(db: SqlDb, q: Omit<RowQuery, 'limit' | 'offset'>, windowRows: number) {
  const dir = q.order[0]?.key === 'date' ? q.order[0].dir : 'asc';
  const days = await rowsPerDay(db, q, dir);
  const expected = days.reduce((n, d) => n + d.n, 0);
  const range = { start: q.filters.start_date, end: q.filters.end_date };
  if (q.order[0]?.key === 'date') return { expected, queries: dayWindows(days, dir, windowRows).map((r) => rowsSql(db, q, r)) };
  const slices = await valueSlices(db, q, expected, windowRows);
  if (slices) return { expected, queries: slices.map((slice) => rowsSql(db, q, range, undefined, undefined, undefined, slice)) };
  return { expected, queries: [rowsSql(db, q, range)] };
}

/**
 * Every matching row in the query's order, in chunks, read in windows of about `windowRows` rows
 * (exportPlan); `windowRows` is a parameter only so tests can make windows of a few rows.
 */
export async function* streamRows(
  db: SqlDb,
  q: Omit<RowQuery, 'limit' | 'offset'>,
  windowRows: number = EXPORT_WINDOW_ROWS[db.dialect.engine],
): AsyncGenerator<ZoneReportRecord[]> {
  const { expected, queries } = await exportPlan(db, q, windowRows);
  yield* whole(db.streamEach<ZoneReportRecord>(queries), expected);
}

/**
 * The rows of streamRows, in the same windows and order, as column chunks without an object per
 * row (DuckDB: the zone CSV is written column by column from them).
 */
export async function* streamRowColumns(
  db: SqlDb & Required<Pick<SqlDb, 'streamColumns'>>,
  q: Omit<RowQuery, 'limit' | 'offset'>,
  windowRows: number = EXPORT_WINDOW_ROWS[db.dialect.engine],
): AsyncGenerator<ColumnChunk> {
  const { expected, queries } = await exportPlan(db, q, windowRows);
  yield* whole(db.streamColumns(queries), expected);
}
