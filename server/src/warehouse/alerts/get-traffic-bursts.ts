// The alert rules' burst query: human visits (bots and spam left out) per referrer host or per IP
// in a window, only the groups over the threshold; optionally one host, or only hosts never seen
// before the window (no event since `newSince`, bots included, and none in the daily rollup).
// Never seen: only the window's few hosts over the threshold are looked up in the weeks before,
// not every host of those weeks collected first — each engine in the way it runs fastest.
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import { liveEvent, watermarkSql } from '../clickhouse/referrers/schema.js';
import type { TrafficBurst, TrafficBurstQuery } from '../types.js';

export function getTrafficBursts(db: SqlDb, q: TrafficBurstQuery): Promise<TrafficBurst[]> {
  return db.dialect.engine === 'duckdb' ? duckdbBursts(db, q) : clickHouseBursts(db, q);
}

/** DuckDB: the hosts seen before found by a semi-join on the window's few (a quarter of the work of collecting every host of those weeks). */
async function duckdbBursts(db: SqlDb, q: TrafficBurstQuery): Promise<TrafficBurst[]> {
  const b = new Binder(db.dialect);
  const col = q.by === 'ip' ? 'ip' : 'parent_domain';
  let where = `seen_at >= ${b.instant(q.from)} AND seen_at <= ${b.instant(q.to)} AND NOT is_bot AND ${col} IS NOT NULL AND ${col} <> ''`;
  if (q.host !== undefined) where += ` AND parent_domain = ${b.bind(q.host, 'String')}`;
  const groups = `SELECT ${col} AS key, count(*) AS visits FROM referrer_event WHERE ${where} GROUP BY ${col} HAVING count(*) > ${b.bind(q.over, 'UInt64')}`;
  if (q.newSince === undefined) return db.all<TrafficBurst>(`${groups} ORDER BY visits DESC, key LIMIT ${b.bind(q.limit, 'UInt64')}`, b.params);
  return db.all<TrafficBurst>(
    `WITH c AS (${groups}),
     seen AS (SELECT DISTINCT e.parent_domain AS key FROM referrer_event e SEMI JOIN c ON e.parent_domain = c.key
              WHERE e.seen_at >= ${b.instant(q.newSince)} AND e.seen_at < ${b.instant(q.from)})
     SELECT key, visits FROM c
     WHERE key NOT IN (SELECT key FROM seen) AND key NOT IN (SELECT parent_domain FROM referrer_daily WHERE parent_domain IS NOT NULL)
     ORDER BY visits DESC, key LIMIT ${b.bind(q.limit, 'UInt64')}`,
    b.params,
  );
}

/** ClickHouse: raw events still counted (behind the watermark `wm`); the hosts seen before looked up among the window's few. */
async function clickHouseBursts(db: SqlDb, q: TrafficBurstQuery): Promise<TrafficBurst[]> {
  const b = new Binder(db.dialect);
  const col = q.by === 'ip' ? 'ip' : 'parent_domain';
  let where = `seen_at >= ${b.instant(q.from)} AND seen_at <= ${b.instant(q.to)} AND ${liveEvent()} AND NOT is_bot AND isNotNull(${col}) AND ${col} != ''`;
  if (q.host !== undefined) where += ` AND parent_domain = ${b.bind(q.host, 'String')}`;
  const groups = `SELECT assumeNotNull(${col}) AS key, count() AS visits FROM ${db.t('referrer_event')} WHERE ${where}
     GROUP BY key HAVING count() > ${b.bind(q.over, 'UInt64')}`;
  const sql =
    q.newSince === undefined
      ? `WITH ${watermarkSql(db)} AS wm ${groups} ORDER BY visits DESC, key LIMIT ${b.bind(q.limit, 'UInt32')}`
      : `WITH ${watermarkSql(db)} AS wm, c AS (${groups})
     SELECT key, visits FROM c
     WHERE key NOT IN (
       SELECT assumeNotNull(parent_domain) FROM ${db.t('referrer_event')}
       WHERE seen_at >= ${b.instant(q.newSince)} AND seen_at < ${b.instant(q.from)} AND parent_domain IN (SELECT key FROM c))
       AND key NOT IN (SELECT assumeNotNull(parent_domain) FROM ${db.t('referrer_daily')} WHERE isNotNull(parent_domain))
     ORDER BY visits DESC, key LIMIT ${b.bind(q.limit, 'UInt32')}`;
  const rows = await db.all<{ key: string; visits: number | string }>(sql, b.params);
  return rows.map((r) => ({ key: r.key, visits: Number(r.visits) }));
}
