// Groups of the matching rows (by day, month, publisher, advertiser, zone, geo, source,
// domain…) with their sums: ordered by any dimension, sum or registry metric, one page of them
// and how many groups there are. Read from the rollup unless a zone is asked for.
import { SUM_KEYS, type SumKey } from '@adops/core';
import type { Db } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { usesRollup, whereFilters } from '../../sql/filters.js';
import { formulaOf, formulaSql, sumsSql } from '../../sql/formulas.js';
import { orderBy, pageSql } from '../../sql/order.js';
import { DUCKDB } from '../../sql/dialect.js';
import type { Dimension, GroupQuery, GroupRow } from '../../types.js';

const DIMENSION_SQL: Record<Dimension, string> = {
  date: 'date',
  month: "strftime(date, '%Y-%m')",
  advertiser: 'advertiser',
  publisher: 'publisher',
  zone_id: 'zone_id',
  geo: 'geo',
  source: 'source',
  domain: 'domain',
};

const isSum = (key: string): key is SumKey => (SUM_KEYS as readonly string[]).includes(key);

/** The grouped SELECT (columns named by dimension and sum key), its values bound through `b`. */
function groupedSql(db: Db, b: Binder, q: Omit<GroupQuery, 'limit' | 'offset'>): string {
  const rollup = usesRollup(db, q.filters, q.by);
  const where = whereFilters(b, q.filters, { range: { start: q.filters.start_date, end: q.filters.end_date } });
  const dims = q.by.map((d) => `${DIMENSION_SQL[d]} AS ${d}, `).join('');
  const groupBy = q.by.length ? `GROUP BY ${q.by.map((d) => DIMENSION_SQL[d]).join(', ')}` : '';
  return `SELECT ${dims}${sumsSql(DUCKDB, rollup)} FROM ${rollup ? 'zone_report_rollup' : 'zone_report'} ${where} ${groupBy}`;
}

/** The ORDER BY of a group query: the asked keys, then the dimensions for a total order. */
function groupOrder(q: Omit<GroupQuery, 'limit' | 'offset'>): string {
  return orderBy(
    DUCKDB,
    q.order,
    q.by.map((key) => ({ key, dir: 'asc' as const })),
    (key) => {
      if ((q.by as readonly string[]).includes(key) || isSum(key)) return key;
      const formula = formulaOf(key);
      return formula ? formulaSql(DUCKDB, formula, (k) => k) : undefined;
    },
  );
}

export async function getGroups(db: Db, q: GroupQuery): Promise<{ rows: GroupRow[]; total: number }> {
  const b = new Binder(DUCKDB);
  const grouped = groupedSql(db, b, q);
  const rows = await db.all<GroupRow & { __total: number }>(
    `SELECT *, count(*) OVER () AS __total FROM (${grouped}) ${groupOrder(q)} ${pageSql(b, q.limit, q.offset)}`,
    b.params,
  );
  let total = rows[0]?.__total ?? 0;
  if (rows.length === 0 && q.offset) total = (await db.one<{ n: number }>(`SELECT count(*) AS n FROM (${grouped})`, b.params))?.n ?? 0;
  for (const r of rows) delete (r as { __total?: number }).__total;
  return { rows, total };
}

export async function* streamGroups(db: Db, q: Omit<GroupQuery, 'limit' | 'offset'>): AsyncGenerator<GroupRow[]> {
  const b = new Binder(DUCKDB);
  yield* db.stream<GroupRow>(`${groupedSql(db, b, q)} ${groupOrder(q)}`, b.params);
}
