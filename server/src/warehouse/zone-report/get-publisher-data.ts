// One publisher's traffic and earnings by date × zone × geo (the publisher-data URL):
// only the publisher's own revenue (p_revenue) leaves the store, never revenue or margin.
import type { Db } from '../db.js';
import type { PublisherDataSums } from './types.js';

export function getPublisherData(db: Db, publisher: string, start: string, end: string, limit: number): Promise<PublisherDataSums[]> {
  return db.all<PublisherDataSums>(
    `SELECT date, zone_id, geo,
            sum(impressions) AS impressions,
            coalesce(sum(monetized_impressions), 0) AS monetized_impressions,
            sum(CASE WHEN monetized_impressions > 0 THEN monetized_impressions ELSE impressions END) AS ctr_base,
            sum(clicks) AS clicks,
            sum(p_revenue) AS p_revenue
       FROM zone_report
      WHERE date BETWEEN $1::DATE AND $2::DATE AND lower(publisher) = lower($3)
      GROUP BY date, zone_id, geo
      ORDER BY date DESC, zone_id, geo
      LIMIT $4`,
    [start, end, publisher, limit],
  );
}
