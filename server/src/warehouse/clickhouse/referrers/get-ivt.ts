// The IVT table: every hit and the hits flagged as bots or spam, per zone (with the publisher
// stamped on its events) or per publisher, in the range, from raw events plus the committed daily
// rollup; ordered by any of its columns (default: most flagged hits first), one page or all streamed.
import { IVT_RATE } from '@adops/core';
import type { ClickHouseDb } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';
import { orderBy, pageSql } from '../../sql/order.js';
import { rawEventWhere, rollupWhere } from '../../referrers/filter.js';
import { committedDaily, watermarkSql } from './schema.js';
import { IVT_DEFAULT_ORDER, ivtTies, type IvtQuery, type IvtSums } from '../../types.js';

const { num, den, scale } = IVT_RATE.formula;
const EXPR: Record<string, string> = {
  zone_id: 'zone_id',
  publisher: 'publisher',
  hits: 'hits',
  bot_hits: 'bot_hits',
  ivt_rate: `(toFloat64(${num}) / nullIf(${den}, 0) * ${scale})`,
};

function groupedSql(db: ClickHouseDb, b: Binder, q: Omit<IvtQuery, 'limit' | 'offset'>): { sql: string; order: string } {
  // Flagged events are what this table counts: the filter never leaves them out.
  const filter = { ...q.filter, includeBots: true };
  const keys = q.by === 'zone' ? 'zone_id, publisher' : 'publisher';
  const zone = q.by === 'zone' ? 'zone_id' : "CAST(NULL, 'Nullable(String)') AS zone_id";
  const sql = `
WITH ${watermarkSql(db)} AS wm
SELECT ${zone}, publisher, toUInt64(sum(h)) AS hits, toUInt64(sum(bh)) AS bot_hits
FROM (
  SELECT ${keys}, count() AS h, countIf(is_bot) AS bh
  FROM ${db.t('referrer_event')} WHERE ${rawEventWhere(b, filter)}
  GROUP BY ${keys}
  UNION ALL
  SELECT ${keys}, sum(hits) AS h, sumIf(hits, is_bot) AS bh
  FROM ${db.t('referrer_daily')} WHERE ${rollupWhere(b, filter)} AND ${committedDaily(db)}
  GROUP BY ${keys}
)
GROUP BY ${keys}`;
  return { sql, order: orderBy(CLICKHOUSE, q.order.length ? q.order : IVT_DEFAULT_ORDER, ivtTies(q.by), (k) => EXPR[k]) };
}

const sums = (r: IvtSums): IvtSums => ({ zone_id: r.zone_id, publisher: r.publisher, hits: Number(r.hits), bot_hits: Number(r.bot_hits) });

export async function getIvt(db: ClickHouseDb, q: IvtQuery): Promise<{ rows: IvtSums[]; total: number; hits: number; bot_hits: number }> {
  const b = new Binder(CLICKHOUSE);
  const g = groupedSql(db, b, q);
  const c = new Binder(CLICKHOUSE);
  const all = groupedSql(db, c, q);
  const [rows, totals] = await Promise.all([
    db.all<IvtSums>(`SELECT * FROM (${g.sql}) ${g.order} ${pageSql(b, q.limit, q.offset)}`, b.params),
    db.one<{ n: number; hits: number; bot_hits: number }>(
      `SELECT count() AS n, toUInt64(sum(hits)) AS hits, toUInt64(sum(bot_hits)) AS bot_hits FROM (${all.sql})`,
      c.params,
    ),
  ]);
  return { rows: rows.map(sums), total: Number(totals?.n ?? 0), hits: Number(totals?.hits ?? 0), bot_hits: Number(totals?.bot_hits ?? 0) };
}

export async function* streamIvt(db: ClickHouseDb, q: Omit<IvtQuery, 'limit' | 'offset'>): AsyncGenerator<IvtSums[]> {
  const b = new Binder(CLICKHOUSE);
  const g = groupedSql(db, b, q);
  for await (const chunk of db.stream<IvtSums>(`SELECT * FROM (${g.sql}) ${g.order}`, b.params)) yield chunk.map(sums);
}
