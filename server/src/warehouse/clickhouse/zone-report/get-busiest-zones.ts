// The zones with the most impressions in zone_report's latest week, with their publisher,
// site and geo (the demo traffic simulator sends hits to them).
import type { ClickHouseDb } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';
import type { BusyZone } from '../../types.js';

export function getBusiestZones(db: ClickHouseDb, limit: number): Promise<BusyZone[]> {
  const b = new Binder(CLICKHOUSE);
  return db.all<BusyZone>(
    `SELECT * FROM (
       SELECT zone_id, argMax(publisher, impressions) AS publisher, argMax(domain, impressions) AS domain,
              argMax(geo, impressions) AS geo, sum(impressions) AS impressions
       FROM ${db.t('zone_report')} FINAL
       WHERE date >= subtractDays((SELECT max(date) FROM ${db.t('zone_report')}), 7)
       GROUP BY zone_id
       HAVING sum(impressions) > 0)
     ORDER BY impressions DESC, zone_id
     LIMIT ${b.bind(limit, 'UInt64')}`,
    b.params,
  );
}
