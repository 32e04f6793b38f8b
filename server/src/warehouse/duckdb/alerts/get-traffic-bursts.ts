// The alert rules' burst query: human visits (bots and spam left out) per referrer host or per IP
// in a window, only the groups over the threshold; optionally one host, or only hosts never seen
// before the window (no event since `newSince`, bots included, and none in the daily rollup).
// Never seen: the window's few hosts over the threshold are looked up in the weeks before (a
// semi-join on them), not every host of those weeks collected first — a quarter of the work.
import type { Db, Param } from '../db.js';
import { sqlTimestamp } from '../referrers/filter.js';
import type { TrafficBurst, TrafficBurstQuery } from '../../types.js';

export async function getTrafficBursts(db: Db, q: TrafficBurstQuery): Promise<TrafficBurst[]> {
  const col = q.by === 'ip' ? 'ip' : 'parent_domain';
  const params: Param[] = [sqlTimestamp(q.from), sqlTimestamp(q.to)];
  let where = `seen_at >= ?::TIMESTAMP AND seen_at <= ?::TIMESTAMP AND NOT is_bot AND ${col} IS NOT NULL AND ${col} <> ''`;
  if (q.host !== undefined) {
    where += ' AND parent_domain = ?';
    params.push(q.host);
  }
  params.push(q.over);
  const groups = `SELECT ${col} AS key, count(*) AS visits FROM referrer_event WHERE ${where} GROUP BY ${col} HAVING count(*) > ?`;
  if (q.newSince === undefined) {
    params.push(q.limit);
    return db.all<TrafficBurst>(`${groups} ORDER BY visits DESC, key LIMIT ?`, params);
  }
  params.push(sqlTimestamp(q.newSince), sqlTimestamp(q.from), q.limit);
  return db.all<TrafficBurst>(
    `WITH c AS (${groups}),
     seen AS (SELECT DISTINCT e.parent_domain AS key FROM referrer_event e SEMI JOIN c ON e.parent_domain = c.key
              WHERE e.seen_at >= ?::TIMESTAMP AND e.seen_at < ?::TIMESTAMP)
     SELECT key, visits FROM c
     WHERE key NOT IN (SELECT key FROM seen) AND key NOT IN (SELECT parent_domain FROM referrer_daily WHERE parent_domain IS NOT NULL)
     ORDER BY visits DESC, key LIMIT ?`,
    params,
  );
}
