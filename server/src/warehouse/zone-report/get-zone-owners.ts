// Each zone's publisher and advertiser from its latest zone_report rows (the busiest row of
// the latest day; among equals the last advertiser, then publisher, in byte order), to stamp
// referrer events at ingest. One hashed pass (the arg max of a struct or tuple per zone), never a sort.
import type { SqlDb } from '../sql/db.js';
import type { Engine } from '../sql/dialect.js';
import type { ZoneOwner } from '../types.js';

const SQL: Record<Engine, (db: SqlDb) => string> = {
  duckdb: () => `
SELECT zone_id, o.publisher AS publisher, o.advertiser AS advertiser FROM (
  SELECT zone_id,
         arg_max(struct_pack(publisher := publisher, advertiser := advertiser),
                 struct_pack(d := date, i := impressions, a := advertiser, p := publisher)) AS o
  FROM zone_report
  GROUP BY zone_id
)`,
  clickhouse: (db) => `SELECT zone_id, tupleElement(o, 1) AS publisher, tupleElement(o, 2) AS advertiser FROM (
       SELECT zone_id, argMax((publisher, advertiser), (date, impressions, advertiser, publisher)) AS o
       FROM ${db.current('zone_report')}
       GROUP BY zone_id)`,
};

export async function getZoneOwners(db: SqlDb): Promise<Map<string, ZoneOwner>> {
  const owners = new Map<string, ZoneOwner>();
  for (const r of await db.all<{ zone_id: string; publisher: string; advertiser: string }>(SQL[db.dialect.engine](db)))
    owners.set(r.zone_id, { publisher: r.publisher || null, advertiser: r.advertiser || null });
  return owners;
}
