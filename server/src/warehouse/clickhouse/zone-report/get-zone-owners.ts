// Each zone's publisher and advertiser from its latest zone_report rows (the busiest row of
// the latest day; among equals the last advertiser, then publisher, in byte order), to stamp
// referrer events at ingest. One hashed pass (argMax of a tuple per zone), never a sort.
import type { ClickHouseDb } from '../db.js';
import type { ZoneOwner } from '../../types.js';

export async function getZoneOwners(db: ClickHouseDb): Promise<Map<string, ZoneOwner>> {
  const rows = await db.all<{ zone_id: string; publisher: string; advertiser: string }>(
    `SELECT zone_id, tupleElement(o, 1) AS publisher, tupleElement(o, 2) AS advertiser FROM (
       SELECT zone_id, argMax((publisher, advertiser), (date, impressions, advertiser, publisher)) AS o
       FROM ${db.t('zone_report')} FINAL
       GROUP BY zone_id)`,
  );
  const owners = new Map<string, ZoneOwner>();
  for (const r of rows) owners.set(r.zone_id, { publisher: r.publisher || null, advertiser: r.advertiser || null });
  return owners;
}
