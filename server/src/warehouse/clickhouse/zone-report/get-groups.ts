// Groups of the matching rows (by day, month, publisher, advertiser, zone, geo, source,
// domain…) with their sums: ordered by any dimension, sum or registry metric, one page of them
// and how many groups there are. Read from the rollup unless a zone is asked for.
import { SUM_KEYS, type SumKey } from '@adops/core';
import type { ClickHouseDb } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';
import { fromWhere } from '../sql.js';
import { usesRollup } from '../../sql/filters.js';
import { formulaOf, formulaSql, sumsSql } from '../../sql/formulas.js';
import { orderBy, pageSql } from '../../sql/order.js';
import type { Dimension, GroupQuery, GroupRow } from '../../types.js';

const DIMENSION_SQL: Record<Dimension, string> = {
  date: 'date',
  month: 'substring(toString(date), 1, 7)',
  advertiser: 'advertiser',
  publisher: 'publisher',
  zone_id: 'zone_id',
  geo: 'geo',
  source: 'source',
  domain: 'domain',
};

const isSum = (key: string): key is SumKey => (SUM_KEYS as readonly string[]).includes(key);

/** The grouped SELECT (columns named by dimension and sum key). */
function groupedSql(db: ClickHouseDb, b: Binder, q: Omit<GroupQuery, 'limit' | 'offset'>): string {
  const rollup = usesRollup(db, q.filters, q.by);
  const from = fromWhere(db, b, rollup, q.filters, { range: { start: q.filters.start_date, end: q.filters.end_date } });
  const dims = q.by.map((d) => `${DIMENSION_SQL[d]} AS ${d}, `).join('');
  const groupBy = q.by.length ? `GROUP BY ${q.by.map((d) => DIMENSION_SQL[d]).join(', ')}` : '';
  return `SELECT ${dims}${sumsSql(CLICKHOUSE, rollup)} ${from} ${groupBy}`;
}

/** The ORDER BY of a group query: the asked keys, then the dimensions for a total order. */
function groupOrder(q: Omit<GroupQuery, 'limit' | 'offset'>): string {
  return orderBy(
    CLICKHOUSE,
    q.order,
    q.by.map((key) => ({ key, dir: 'asc' as const })),
    (key) => {
      if ((q.by as readonly string[]).includes(key) || isSum(key)) return key;
      const formula = formulaOf(key);
      return formula ? formulaSql(CLICKHOUSE, formula, (k) => k) : undefined;
    },
  );
}

export async function getGroups(db: ClickHouseDb, q: GroupQuery): Promise<{ rows: GroupRow[]; total: number }> {
  const b = new Binder(CLICKHOUSE);
  const grouped = groupedSql(db, b, q);
  const rows = await db.all<GroupRow & { __total: number }>(
    `SELECT *, count() OVER () AS __total FROM (${grouped}) ${groupOrder(q)} ${pageSql(b, q.limit, q.offset)}`,
    b.params,
  );
  let total = rows[0]?.__total ?? 0;
  if (rows.length === 0 && q.offset) {
    const c = new Binder(CLICKHOUSE);
    total = Number((await db.one<{ n: number }>(`SELECT count() AS n FROM (${groupedSql(db, c, q)})`, c.params))?.n ?? 0);
  }
  for (const r of rows) delete (r as { __total?: number }).__total;
  return { rows, total };
}

export async function* streamGroups(db: ClickHouseDb, q: Omit<GroupQuery, 'limit' | 'offset'>): AsyncGenerator<GroupRow[]> {
  const b = new Binder(CLICKHOUSE);
  const grouped = groupedSql(db, b, q);
  yield* db.stream<GroupRow>(`SELECT * FROM (${grouped}) ${groupOrder(q)}`, b.params);
}
