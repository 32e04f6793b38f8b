// One publisher's traffic and earnings by date × zone × geo (the publisher-data URL) as JSON
// text: only the publisher's own revenue (p_revenue) leaves the store, never revenue or margin.
// CTR and P.CPM are core's formulas in SQL, from the group's sums.
import type { Db } from '../db.js';
import type { JsonRows } from './types.js';

export async function getPublisherDataJson(db: Db, publisher: string, start: string, end: string, limit: number): Promise<JsonRows> {
  const row = await db.one<{ count: number; json: string }>(
    `SELECT count(*) AS count, coalesce(string_agg(to_json({
              date: date, zone_id: zone_id, geo: geo, impressions: impressions, clicks: clicks,
              ctr: clicks::DOUBLE / NULLIF(ctr_base, 0) * 100,
              p_revenue: p_revenue,
              p_cpm: p_revenue / NULLIF(impressions, 0) * 1000
            })::VARCHAR, ',' ORDER BY date DESC, zone_id, geo), '') AS json
       FROM (
         SELECT date, zone_id, geo,
                sum(impressions) AS impressions,
                sum(CASE WHEN monetized_impressions > 0 THEN monetized_impressions ELSE impressions END) AS ctr_base,
                sum(clicks) AS clicks,
                sum(p_revenue) AS p_revenue
           FROM zone_report
          WHERE date BETWEEN $1::DATE AND $2::DATE AND lower(publisher) = lower($3)
          GROUP BY date, zone_id, geo
          ORDER BY date DESC, zone_id, geo
          LIMIT $4)`,
    [start, end, publisher, limit],
  );
  return { json: `[${row?.json ?? ''}]`, count: row?.count ?? 0 };
}
