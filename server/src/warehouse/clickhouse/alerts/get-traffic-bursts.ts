// The alert rules' burst query: human visits (bots and spam left out) per referrer host or per IP
// in a window, only the groups over the threshold; optionally one host, or only hosts never seen
// before the window (no event since `newSince`, bots included, and none in the daily rollup).
// Never seen: only the window's few hosts over the threshold are looked up in the weeks before,
// not every host of those weeks collected first.
import type { ClickHouseDb } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';
import { liveEvent, watermarkSql } from '../referrers/schema.js';
import type { TrafficBurst, TrafficBurstQuery } from '../../types.js';

export async function getTrafficBursts(db: ClickHouseDb, q: TrafficBurstQuery): Promise<TrafficBurst[]> {
  const b = new Binder(CLICKHOUSE);
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
