// Each zone's publisher and advertiser from its latest zone_report rows (the busiest row of
// the latest day), to stamp referrer events at ingest.
import type { Db } from '../db.js';
import type { ZoneOwner } from '../../types.js';

const SQL = `
SELECT zone_id, publisher, advertiser FROM (
  SELECT zone_id, publisher, advertiser,
         row_number() OVER (PARTITION BY zone_id ORDER BY date DESC, impressions DESC NULLS LAST, advertiser, publisher) AS n
  FROM zone_report
) WHERE n = 1`;

export async function getZoneOwners(db: Db): Promise<Map<string, ZoneOwner>> {
  const owners = new Map<string, ZoneOwner>();
  for (const r of await db.all<{ zone_id: string; publisher: string; advertiser: string }>(SQL))
    owners.set(r.zone_id, { publisher: r.publisher || null, advertiser: r.advertiser || null });
  return owners;
}
