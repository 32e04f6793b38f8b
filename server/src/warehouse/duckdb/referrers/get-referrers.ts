// The distinct-referrer report: one row per (zone_id, parent_domain, referrer) seen in the
// range, from raw events plus the daily rollup of days retention already deleted; ordered by
// any of its columns (ties: zone, source, referrer), one page of them or all streamed.
import type { ReferrerRow } from '@adops/core';
import type { Db } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { orderBy, pageSql } from '../../sql/order.js';
import { DUCKDB } from '../../sql/dialect.js';
import { rawEventWhere, rollupWhere } from '../../referrers/filter.js';
import type { Order, ReferrerQuery } from '../../types.js';

const COLUMNS = new Set(['seen_at', 'first_seen', 'zone_id', 'parent_domain', 'referrer', 'hits']);
const TIES: Order = [
  { key: 'zone_id', dir: 'asc' },
  { key: 'parent_domain', dir: 'asc' },
  { key: 'referrer', dir: 'asc' },
];
/** The report's default order: last seen, newest first. */
export const REFERRERS_DEFAULT_ORDER: Order = [{ key: 'seen_at', dir: 'desc' }];

function groupedSql(b: Binder, q: Omit<ReferrerQuery, 'limit' | 'offset'>): { sql: string; order: string } {
  const sql = `
WITH seen AS (
  SELECT zone_id, parent_domain, referrer, min(seen_at) AS first_seen, max(seen_at) AS last_seen, count(*) AS hits
  FROM referrer_event WHERE ${rawEventWhere(b, q.filter)}
  GROUP BY zone_id, parent_domain, referrer
  UNION ALL
  SELECT zone_id, parent_domain, referrer, first_seen, last_seen, hits
  FROM referrer_daily WHERE ${rollupWhere(b, q.filter)}
)
SELECT zone_id, parent_domain, referrer, max(last_seen) AS seen_at, min(first_seen) AS first_seen, sum(hits)::BIGINT AS hits
FROM seen
GROUP BY zone_id, parent_domain, referrer`;
  const order = orderBy(DUCKDB, q.order.length ? q.order : REFERRERS_DEFAULT_ORDER, TIES, (k) => (COLUMNS.has(k) ? k : undefined));
  return { sql, order };
}

export async function getReferrers(db: Db, q: ReferrerQuery): Promise<{ rows: ReferrerRow[]; total: number; hits: number }> {
  const b = new Binder(DUCKDB);
  const g = groupedSql(b, q);
  const rows = await db.all<ReferrerRow & { __total: number; __hits: number }>(
    `SELECT *, count(*) OVER () AS __total, sum(hits) OVER ()::BIGINT AS __hits FROM (${g.sql}) ${g.order} ${pageSql(b, q.limit, q.offset)}`,
    b.params,
  );
  let total = rows[0]?.__total ?? 0;
  let hits = rows[0]?.__hits ?? 0;
  if (rows.length === 0 && q.offset) {
    const all = await db.one<{ n: number; hits: number }>(`SELECT count(*) AS n, coalesce(sum(hits), 0)::BIGINT AS hits FROM (${g.sql})`, b.params);
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

export async function* streamReferrers(db: Db, q: Omit<ReferrerQuery, 'limit' | 'offset'>): AsyncGenerator<ReferrerRow[]> {
  const b = new Binder(DUCKDB);
  const g = groupedSql(b, q);
  yield* db.stream<ReferrerRow>(`${g.sql} ${g.order}`, b.params);
}
