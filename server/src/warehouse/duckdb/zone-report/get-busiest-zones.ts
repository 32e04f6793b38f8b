// The zones with the most impressions in zone_report's latest week, with their publisher,
// site and geo (the demo traffic simulator sends hits to them).
import type { Db } from '../db.js';
import type { BusyZone } from '../../types.js';

const SQL = `
SELECT CAST(zone_id AS VARCHAR) AS zone_id, arg_max(publisher, impressions) AS publisher,
       arg_max(domain, impressions) AS domain, arg_max(geo, impressions) AS geo, sum(impressions) AS impressions
FROM zone_report
WHERE date >= (SELECT max(date) FROM zone_report) - INTERVAL 7 DAY
GROUP BY zone_id
HAVING sum(impressions) > 0
ORDER BY impressions DESC, zone_id
LIMIT $limit`;

export function getBusiestZones(db: Db, limit: number): Promise<BusyZone[]> {
  return db.all<BusyZone>(SQL, { limit });
}
