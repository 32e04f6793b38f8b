// The IVT table: every hit and the hits flagged as bots or spam, per zone (with the publisher
// stamped on its events) or per publisher, in the range, from raw events plus the daily rollup;
// ordered by any of its columns (default: most flagged hits first), one page or all streamed.
import { IVT_RATE } from '@adops/core';
import type { Db } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { orderBy, pageSql } from '../../sql/order.js';
import { DUCKDB } from '../../sql/dialect.js';
import { rawEventWhere, rollupWhere } from '../../referrers/filter.js';
import { IVT_DEFAULT_ORDER, ivtTies, type IvtQuery, type IvtSums } from '../../types.js';

const { num, den, scale } = IVT_RATE.formula;
const EXPR: Record<string, string> = {
  zone_id: 'zone_id',
  publisher: 'publisher',
  hits: 'hits',
  bot_hits: 'bot_hits',
  ivt_rate: `(CAST(${num} AS DOUBLE) / NULLIF(${den}, 0) * ${scale})`,
};

function groupedSql(b: Binder, q: Omit<IvtQuery, 'limit' | 'offset'>): { sql: string; order: string } {
  // Flagged events are what this table counts: the filter never leaves them out.
  const filter = { ...q.filter, includeBots: true };
  const keys = q.by === 'zone' ? 'zone_id, publisher' : 'publisher';
  const zone = q.by === 'zone' ? 'zone_id' : 'NULL::VARCHAR AS zone_id';
  const sql = `
WITH seen AS (
  SELECT ${keys}, count(*) AS hits, count(*) FILTER (WHERE is_bot) AS bot_hits
  FROM referrer_event WHERE ${rawEventWhere(b, filter)}
  GROUP BY ${keys}
  UNION ALL
  SELECT ${keys}, sum(hits), coalesce(sum(hits) FILTER (WHERE is_bot), 0)
  FROM referrer_daily WHERE ${rollupWhere(b, filter)}
  GROUP BY ${keys}
)
SELECT ${zone}, publisher, sum(hits)::BIGINT AS hits, sum(bot_hits)::BIGINT AS bot_hits
FROM seen
GROUP BY ${keys}`;
  const order = orderBy(DUCKDB, q.order.length ? q.order : IVT_DEFAULT_ORDER, ivtTies(q.by), (k) => EXPR[k]);
  return { sql, order };
}

const sums = (r: IvtSums): IvtSums => ({ zone_id: r.zone_id, publisher: r.publisher, hits: r.hits, bot_hits: r.bot_hits });

export async function getIvt(db: Db, q: IvtQuery): Promise<{ rows: IvtSums[]; total: number; hits: number; bot_hits: number }> {
  const b = new Binder(DUCKDB);
  const g = groupedSql(b, q);
  const [rows, all] = await Promise.all([
    db.all<IvtSums>(`SELECT * FROM (${g.sql}) ${g.order} ${pageSql(b, q.limit, q.offset)}`, b.params),
    db.one<{ n: number; hits: number; bot_hits: number }>(
      `SELECT count(*) AS n, coalesce(sum(hits), 0)::BIGINT AS hits, coalesce(sum(bot_hits), 0)::BIGINT AS bot_hits FROM (${g.sql})`,
      b.params,
    ),
  ]);
  return { rows: rows.map(sums), total: all?.n ?? 0, hits: all?.hits ?? 0, bot_hits: all?.bot_hits ?? 0 };
}

export async function* streamIvt(db: Db, q: Omit<IvtQuery, 'limit' | 'offset'>): AsyncGenerator<IvtSums[]> {
  const b = new Binder(DUCKDB);
  const g = groupedSql(b, q);
  for await (const chunk of db.stream<IvtSums>(`SELECT * FROM (${g.sql}) ${g.order}`, b.params)) yield chunk.map(sums);
}
