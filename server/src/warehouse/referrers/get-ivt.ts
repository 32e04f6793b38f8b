// The IVT table: every hit and the hits flagged as bots or spam, per zone (with the publisher
// stamped on its events) or per publisher, in the range, from raw events plus the daily rollup;
// ordered by any of its columns (default: most flagged hits first), one page or all streamed.
import { ivtRateSql } from '@adops/core';
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import type { Dialect, Engine } from '../sql/dialect.js';
import { orderBy, pageSql } from '../sql/order.js';
import { IVT_DEFAULT_ORDER, ivtTies, type IvtQuery, type IvtSums } from '../types.js';
import { overSeen, rawEventWhere, rollupWhere } from './filter.js';

const expr = (d: Dialect): Record<string, string> => ({
  zone_id: 'zone_id',
  publisher: 'publisher',
  hits: 'hits',
  bot_hits: 'bot_hits',
  ivt_rate: ivtRateSql(d.engine),
});

/**
 * Hits and flagged hits per key, from raw events and rollup rows, side by side: ClickHouse names
 * the inner sums apart (h, bh) from the rollup's `hits` column they read, which its
 * prefer_column_name_to_alias would otherwise confuse.
 */
const SEEN: Record<Engine, (keys: string, zone: string, raw: string, rolled: string, db: SqlDb) => string> = {
  duckdb: (keys, zone, raw, rolled, db) =>
    overSeen(
      db,
      `
  SELECT ${keys}, count(*) AS hits, count(*) FILTER (WHERE is_bot) AS bot_hits
  FROM referrer_event WHERE ${raw}
  GROUP BY ${keys}
  UNION ALL
  SELECT ${keys}, sum(hits), coalesce(sum(hits) FILTER (WHERE is_bot), 0)
  FROM referrer_daily WHERE ${rolled}
  GROUP BY ${keys}`,
      `SELECT ${zone}, publisher, sum(hits)::BIGINT AS hits, sum(bot_hits)::BIGINT AS bot_hits`,
      `GROUP BY ${keys}`,
    ),
  clickhouse: (keys, zone, raw, rolled, db) =>
    overSeen(
      db,
      `
  SELECT ${keys}, count() AS h, countIf(is_bot) AS bh
  FROM ${db.t('referrer_event')} WHERE ${raw}
  GROUP BY ${keys}
  UNION ALL
  SELECT ${keys}, sum(hits) AS h, sumIf(hits, is_bot) AS bh
  FROM ${db.t('referrer_daily')} WHERE ${rolled}
  GROUP BY ${keys}`,
      `SELECT ${zone}, publisher, toUInt64(sum(h)) AS hits, toUInt64(sum(bh)) AS bot_hits`,
      `GROUP BY ${keys}`,
    ),
};

/** A text column of NULLs. */
const NULL_TEXT: Record<Engine, string> = { duckdb: 'NULL::VARCHAR', clickhouse: "CAST(NULL, 'Nullable(String)')" };

function groupedSql(db: SqlDb, b: Binder, q: Omit<IvtQuery, 'limit' | 'offset'>): { sql: string; order: string } {
  const engine = db.dialect.engine;
  // Flagged events are what this table counts: the filter never leaves them out.
  const filter = { ...q.filter, includeBots: true };
  const keys = q.by === 'zone' ? 'zone_id, publisher' : 'publisher';
  const zone = q.by === 'zone' ? 'zone_id' : `${NULL_TEXT[engine]} AS zone_id`;
  const sql = SEEN[engine](keys, zone, rawEventWhere(db, b, filter), rollupWhere(db, b, filter), db);
  const exprs = expr(db.dialect);
  return { sql, order: orderBy(db.dialect, q.order.length ? q.order : IVT_DEFAULT_ORDER, ivtTies(q.by), (k) => exprs[k]) };
}

const sums = (r: IvtSums): IvtSums => ({ zone_id: r.zone_id, publisher: r.publisher, hits: Number(r.hits), bot_hits: Number(r.bot_hits) });

export async function getIvt(db: SqlDb, q: IvtQuery): Promise<{ rows: IvtSums[]; total: number; hits: number; bot_hits: number }> {
  const d = db.dialect;
  const b = new Binder(d);
  const g = groupedSql(db, b, q);
  const [rows, totals] = await Promise.all([
    db.all<IvtSums>(`SELECT * FROM (${g.sql}) ${g.order} ${pageSql(b, q.limit, q.offset)}`, b.params),
    db.one<{ n: number; hits: number; bot_hits: number }>(
      `SELECT ${d.count()} AS n, ${d.cast(d.rollupSum('hits'), 'uint')} AS hits, ${d.cast(d.rollupSum('bot_hits'), 'uint')} AS bot_hits FROM (${g.sql})`,
      b.params,
    ),
  ]);
  return { rows: rows.map(sums), total: Number(totals?.n ?? 0), hits: Number(totals?.hits ?? 0), bot_hits: Number(totals?.bot_hits ?? 0) };
}

export async function* streamIvt(db: SqlDb, q: Omit<IvtQuery, 'limit' | 'offset'>): AsyncGenerator<IvtSums[]> {
  const b = new Binder(db.dialect);
  const g = groupedSql(db, b, q);
  for await (const chunk of db.stream<IvtSums>(`SELECT * FROM (${g.sql}) ${g.order}`, b.params)) yield chunk.map(sums);
}
