// The alert rules' burst query: human visits (bots and spam left out) per referrer host or per IP
// in a window, only the groups over the threshold; optionally one host, or only hosts never seen
// before the window (no event since `newSince`, bots included, and none in the daily rollup).
import { Binder, type ClickHouseDb } from '../db.js';
import { instant } from '../referrers/filter.js';
import { liveEvent, watermarkSql } from '../referrers/schema.js';
import type { TrafficBurst, TrafficBurstQuery } from '../../types.js';

export async function getTrafficBursts(db: ClickHouseDb, q: TrafficBurstQuery): Promise<TrafficBurst[]> {
  const b = new Binder();
  const col = q.by === 'ip' ? 'ip' : 'parent_domain';
  let where = `seen_at >= ${instant(b, q.from)} AND seen_at <= ${instant(b, q.to)} AND ${liveEvent()} AND NOT is_bot AND isNotNull(${col}) AND ${col} != ''`;
  if (q.host !== undefined) where += ` AND parent_domain = ${b.bind(q.host, 'String')}`;
  if (q.newSince !== undefined)
    where += ` AND parent_domain NOT IN (
      SELECT assumeNotNull(parent_domain) FROM ${db.t('referrer_event')}
      WHERE seen_at >= ${instant(b, q.newSince)} AND seen_at < ${instant(b, q.from)} AND isNotNull(parent_domain))
      AND parent_domain NOT IN (SELECT assumeNotNull(parent_domain) FROM ${db.t('referrer_daily')} WHERE isNotNull(parent_domain))`;
  const rows = await db.all<{ key: string; visits: number | string }>(
    `WITH ${watermarkSql(db)} AS wm
     SELECT assumeNotNull(${col}) AS key, count() AS visits FROM ${db.t('referrer_event')} WHERE ${where}
     GROUP BY key HAVING count() > ${b.bind(q.over, 'UInt64')} ORDER BY visits DESC, key LIMIT ${b.bind(q.limit, 'UInt32')}`,
    b.params,
  );
  return rows.map((r) => ({ key: r.key, visits: Number(r.visits) }));
}
