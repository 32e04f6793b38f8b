// The distinct-referrer report: one row per (zone_id, parent_domain, referrer) seen in the
// range, from raw events plus the daily rollup of days retention already deleted.
import type { ReferrerRow } from '@adops/core';
import type { Db } from '../db.js';
import { rawEventWhere, rollupWhere } from './filter.js';
import type { RangeFilter } from './types.js';

export async function getReferrers(db: Db, f: RangeFilter, limit: number): Promise<ReferrerRow[]> {
  const raw = rawEventWhere(f);
  const rolled = rollupWhere(f);
  const sql = `
WITH seen AS (
  SELECT zone_id, parent_domain, referrer, min(seen_at) AS first_seen, max(seen_at) AS last_seen, count(*) AS hits
  FROM referrer_event WHERE ${raw.sql}
  GROUP BY zone_id, parent_domain, referrer
  UNION ALL
  SELECT zone_id, parent_domain, referrer, first_seen, last_seen, hits
  FROM referrer_daily WHERE ${rolled.sql}
)
SELECT zone_id, parent_domain, referrer, max(last_seen) AS seen_at, min(first_seen) AS first_seen, sum(hits) AS hits
FROM seen
GROUP BY zone_id, parent_domain, referrer
ORDER BY seen_at DESC, zone_id, parent_domain NULLS LAST, referrer NULLS LAST
LIMIT ?`;
  const rows = await db.all<ReferrerRow>(sql, [...raw.params, ...rolled.params, limit]);
  return rows.map((r) => ({ ...r, hits: Number(r.hits) }));
}
