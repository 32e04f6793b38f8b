// The zones with the most impressions in zone_report's latest week, with their publisher,
// site and geo (the demo traffic simulator sends hits to them).
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import type { Engine } from '../sql/dialect.js';
import type { BusyZone } from '../types.js';

const SQL: Record<Engine, (db: SqlDb, limit: string) => string> = {
  duckdb: (_, limit) => `
SELECT CAST(zone_id AS VARCHAR) AS zone_id, arg_max(publisher, impressions) AS publisher,
       arg_max(domain, impressions) AS domain, arg_max(geo, impressions) AS geo, sum(impressions) AS impressions
FROM zone_report
WHERE date >= (SELECT max(date) FROM zone_report) - INTERVAL 7 DAY
GROUP BY zone_id
HAVING sum(impressions) > 0
ORDER BY impressions DESC, zone_id
LIMIT ${limit}`,
  clickhouse: (db, limit) => `SELECT * FROM (
       SELECT zone_id, argMax(publisher, impressions) AS publisher, argMax(domain, impressions) AS domain,
              argMax(geo, impressions) AS geo, sum(impressions) AS impressions
       FROM ${db.current('zone_report')}
       WHERE date >= subtractDays((SELECT max(date) FROM ${db.t('zone_report')}), 7)
       GROUP BY zone_id
       HAVING sum(impressions) > 0)
     ORDER BY impressions DESC, zone_id
     LIMIT ${limit}`,
};

export function getBusiestZones(db: SqlDb, limit: number): Promise<BusyZone[]> {
  const b = new Binder(db.dialect);
  return db.all<BusyZone>(SQL[db.dialect.engine](db, b.bind(limit, 'UInt64')), b.params);
}
