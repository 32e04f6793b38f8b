// Groups of the matching rows (by day, month, publisher, advertiser, zone, geo, source,
// domain…) with their sums: ordered by any dimension, sum or registry metric, one page of them
// and how many groups there are. Read from the rollup unless a zone is asked for.
import { SUM_KEYS, type SumKey } from '@adops/core';
import type { Db, Param } from '../db.js';
import { pageSql, whereFilters } from '../sql.js';
import { usesRollup } from '../../sql/filters.js';
import { formulaOf, formulaSql, sumsSql } from '../../sql/formulas.js';
import { orderBy } from '../../sql/order.js';
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

/** The grouped SELECT (columns named by dimension and sum key) and its bound parameters. */
function groupedSql(db: Db, q: Omit<GroupQuery, 'limit' | 'offset'>): { sql: string; params: Param[] } {
  const rollup = usesRollup(db, q.filters, q.by);
  const where = whereFilters(q.filters, { range: { start: q.filters.start_date, end: q.filters.end_date } });
  const dims = q.by.map((d) => `${DIMENSION_SQL[d]} AS ${d}, `).join('');
  const groupBy = q.by.length ? `GROUP BY ${q.by.map((d) => DIMENSION_SQL[d]).join(', ')}` : '';
  return {
    sql: `SELECT ${dims}${sumsSql(DUCKDB, rollup)} FROM ${rollup ? 'zone_report_rollup' : 'zone_report'} ${where.sql} ${groupBy}`,
    params: where.params,
  };
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
  const grouped = groupedSql(db, q);
  const page = pageSql(grouped.params.length, q.limit, q.offset);
  const rows = await db.all<GroupRow & { __total: number }>(
    `SELECT *, count(*) OVER () AS __total FROM (${grouped.sql}) ${groupOrder(q)} ${page.sql}`,
    [...grouped.params, ...page.params],
  );
  let total = rows[0]?.__total ?? 0;
  if (rows.length === 0 && q.offset) total = (await db.one<{ n: number }>(`SELECT count(*) AS n FROM (${grouped.sql})`, grouped.params))?.n ?? 0;
  for (const r of rows) delete (r as { __total?: number }).__total;
  return { rows, total };
}

export async function* streamGroups(db: Db, q: Omit<GroupQuery, 'limit' | 'offset'>): AsyncGenerator<GroupRow[]> {
  const grouped = groupedSql(db, q);
  yield* db.stream<GroupRow>(`${grouped.sql} ${groupOrder(q)}`, grouped.params);
}
