// The alert rules' burst query: human visits (bots and spam left out) per referrer host or per IP
// in a window, only the groups over the threshold; optionally one host, or only hosts never seen
// before the window (no event since `newSince`, bots included, and none in the daily rollup).
// Never seen: the window's few hosts over the threshold are looked up in the weeks before (a
// semi-join on them), not every host of those weeks collected first — a quarter of the work.
import type { Db } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { DUCKDB } from '../../sql/dialect.js';
import type { TrafficBurst, TrafficBurstQuery } from '../../types.js';

export async function getTrafficBursts(db: Db, q: TrafficBurstQuery): Promise<TrafficBurst[]> {
  const b = new Binder(DUCKDB);
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
