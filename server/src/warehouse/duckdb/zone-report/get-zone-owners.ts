// Each zone's publisher and advertiser from its latest zone_report rows (the busiest row of
// the latest day; among equals the last advertiser, then publisher, in byte order), to stamp
// referrer events at ingest. One hashed pass (arg_max per zone), never a sort of every row.
import type { Db } from '../db.js';
import type { ZoneOwner } from '../../types.js';

const SQL = `
SELECT zone_id, o.publisher AS publisher, o.advertiser AS advertiser FROM (
  SELECT zone_id,
         arg_max(struct_pack(publisher := publisher, advertiser := advertiser),
                 struct_pack(d := date, i := impressions, a := advertiser, p := publisher)) AS o
  FROM zone_report
  GROUP BY zone_id
)`;

export async function getZoneOwners(db: Db): Promise<Map<string, ZoneOwner>> {
  const owners = new Map<string, ZoneOwner>();
  for (const r of await db.all<{ zone_id: string; publisher: string; advertiser: string }>(SQL))
    owners.set(r.zone_id, { publisher: r.publisher || null, advertiser: r.advertiser || null });
  return owners;
}
