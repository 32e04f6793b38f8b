// The distinct-referrer report: one row per (zone_id, parent_domain, referrer) seen in the
// range, from raw events plus the daily rollup of what retention rolled up; ordered by any of
// its columns (ties: zone, source, referrer), one page of them or all streamed.
import type { ReferrerRow } from '@adops/core';
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import { orderBy, pageSql } from '../sql/order.js';
import type { Order, ReferrerQuery } from '../types.js';
import { overSeen, rawEventWhere, rollupWhere } from './filter.js';

const COLUMNS = new Set(['seen_at', 'first_seen', 'zone_id', 'parent_domain', 'referrer', 'hits']);
const TIES: Order = [
  { key: 'zone_id', dir: 'asc' },
  { key: 'parent_domain', dir: 'asc' },
  { key: 'referrer', dir: 'asc' },
];
/** The report's default order: last seen, newest first. */
export const REFERRERS_DEFAULT_ORDER: Order = [{ key: 'seen_at', dir: 'desc' }];

/** The grouped query without its order, and the ORDER BY. */
function groupedSql(db: SqlDb, b: Binder, q: Omit<ReferrerQuery, 'limit' | 'offset'>): { sql: string; order: string } {
  const d = db.dialect;
  const rows = `
  SELECT zone_id, parent_domain, referrer, min(seen_at) AS first_seen, max(seen_at) AS last_seen, ${d.count()} AS hits
  FROM ${db.t('referrer_event')} WHERE ${rawEventWhere(db, b, q.filter)}
  GROUP BY zone_id, parent_domain, referrer
  UNION ALL
  SELECT zone_id, parent_domain, referrer, first_seen, last_seen, hits
  FROM ${db.t('referrer_daily')} WHERE ${rollupWhere(db, b, q.filter)}`;
  const sql = overSeen(
    db,
    rows,
    `SELECT zone_id, parent_domain, referrer, max(last_seen) AS seen_at, min(first_seen) AS first_seen, ${d.cast('sum(hits)', 'uint')} AS hits`,
    'GROUP BY zone_id, parent_domain, referrer',
  );
  const order = orderBy(d, q.order.length ? q.order : REFERRERS_DEFAULT_ORDER, TIES, (k) => (COLUMNS.has(k) ? k : undefined));
  return { sql, order };
}

export async function getReferrers(db: SqlDb, q: ReferrerQuery): Promise<{ rows: ReferrerRow[]; total: number; hits: number }> {
  const d = db.dialect;
  const b = new Binder(d);
  const g = groupedSql(db, b, q);
  const rows = await db.all<ReferrerRow & { __total: number; __hits: number }>(
    `SELECT *, ${d.count()} OVER () AS __total, ${d.cast('sum(hits) OVER ()', 'uint')} AS __hits FROM (${g.sql}) ${g.order} ${pageSql(b, q.limit, q.offset)}`,
    b.params,
  );
  let total = rows[0]?.__total ?? 0;
  let hits = rows[0]?.__hits ?? 0;
  if (rows.length === 0 && q.offset) {
    const all = await db.one<{ n: number; hits: number }>(
      `SELECT ${d.count()} AS n, ${d.cast(d.rollupSum('hits'), 'uint')} AS hits FROM (${g.sql})`,
      b.params,
    );
    total = all?.n ?? 0;
    hits = all?.hits ?? 0;
  }
  return {
    rows: rows.map((r) => ({
      zone_id: r.zone_id,
      parent_domain: r.parent_domain,
      referrer: r.referrer,
      seen_at: r.seen_at,
      first_seen: r.first_seen,
      hits: r.hits,
    })),
    total,
    hits,
  };
}

export async function* streamReferrers(db: SqlDb, q: Omit<ReferrerQuery, 'limit' | 'offset'>): AsyncGenerator<ReferrerRow[]> {
  const b = new Binder(db.dialect);
  const g = groupedSql(db, b, q);
  // `hits` is a sum's alias: where ORDER BY reads the stored column of that name (ClickHouse), it orders the outer query.
  yield* db.stream<ReferrerRow>(`${db.dialect.orderByAlias ? g.sql : `SELECT * FROM (${g.sql})`} ${g.order}`, b.params);
}
