// The alert rules' burst query: human visits (bots and spam left out) per referrer host or per IP
// in a window, only the groups over the threshold; optionally one host, or only hosts never seen
// before the window (no event since `newSince`, bots included, and none in the daily rollup).
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
  if (q.newSince !== undefined) {
    where += ` AND parent_domain NOT IN (
      SELECT parent_domain FROM referrer_event WHERE seen_at >= ?::TIMESTAMP AND seen_at < ?::TIMESTAMP AND parent_domain IS NOT NULL)
      AND parent_domain NOT IN (SELECT parent_domain FROM referrer_daily WHERE parent_domain IS NOT NULL)`;
    params.push(sqlTimestamp(q.newSince), sqlTimestamp(q.from));
  }
  params.push(q.over, q.limit);
  return db.all<TrafficBurst>(
    `SELECT ${col} AS key, count(*) AS visits FROM referrer_event WHERE ${where}
     GROUP BY ${col} HAVING count(*) > ? ORDER BY visits DESC, key LIMIT ?`,
    params,
  );
}
