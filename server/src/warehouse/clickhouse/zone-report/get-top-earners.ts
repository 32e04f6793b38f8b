// The Dashboard's 'Top Zones' and 'Top Advertisers': each list summed, ranked and cut in
// ClickHouse, so only `limit` rows per list leave the store whatever the range's size. A zone's
// margin counts its rows with revenue (a row of 0 revenue adds to neither figure). Advertisers
// are summed from the rollup unless a zone filter needs the stored rows. Ties in the text order.
import type { ClickHouseDb } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';
import { fromWhere } from '../sql.js';
import { usesRollup } from '../../sql/filters.js';
import type { Filters, TopAdvertiserSums, TopEarners, TopZoneSums } from '../../types.js';

export async function getTopEarners(db: ClickHouseDb, filters: Filters, limit: number): Promise<TopEarners> {
  const range = { start: filters.start_date, end: filters.end_date };
  const z = new Binder(CLICKHOUSE);
  const zones = db.all<TopZoneSums>(
    `SELECT * FROM (
       SELECT publisher, zone_id, sum(revenue) AS revenue, sumIf(margin, revenue != 0) AS margin
       ${fromWhere(db, z, false, filters, { range })}
       GROUP BY publisher, zone_id
       HAVING sum(revenue) != 0 AND trimBoth(zone_id) != '')
     ORDER BY revenue DESC, publisher ASC COLLATE 'es', publisher, zone_id ASC COLLATE 'es', zone_id
     LIMIT ${z.bind(limit, 'UInt64')}`,
    z.params,
  );
  const a = new Binder(CLICKHOUSE);
  const advertisers = db.all<TopAdvertiserSums>(
    `SELECT * FROM (
       SELECT advertiser, sum(revenue) AS revenue, sum(margin) AS margin
       ${fromWhere(db, a, usesRollup(db, filters), filters, { range, and: ["trimBoth(advertiser) != ''"] })}
       GROUP BY advertiser
       HAVING sum(revenue) != 0)
     ORDER BY revenue DESC, advertiser ASC COLLATE 'es', advertiser
     LIMIT ${a.bind(limit, 'UInt64')}`,
    a.params,
  );
  return { zones: await zones, advertisers: await advertisers };
}
