// Zone-level rows of a range (Ad Report, Api Explorer) as JSON text, one object per row with
// its derived metrics: newest day first, best earners first within a day, then a total order
// so equal revenues never swap between calls. DuckDB writes the JSON array itself, as one
// value — converting tens of thousands of rows value by value in JS costs several times more.
// The ratios are core's formulas (formulas.ts) written in SQL: the same divisions, null when
// the base is 0.
import type { ReportFilters } from '@adops/core';
import type { Db } from '../db.js';
import { whereFilters } from './filters.js';
import type { JsonRows } from './types.js';

export async function getZoneRowsJson(db: Db, filters: ReportFilters, limit: number, fromDate?: string): Promise<JsonRows> {
  const start = fromDate && fromDate > filters.start_date ? fromDate : filters.start_date;
  const where = whereFilters(filters, { range: { start, end: filters.end_date } });
  // The top rows are picked on the stored columns first; only they are turned into JSON.
  const order = 'date DESC, revenue DESC, zone_id, advertiser, publisher, geo, source';
  const row = await db.one<{ count: number; json: string }>(
    `SELECT count(*) AS count, coalesce(string_agg(to_json({
              date: date, advertiser: advertiser, publisher: publisher, zone_id: zone_id, geo: geo,
              source: source, domain: domain, impressions: impressions,
              monetized_impressions: monetized_impressions, clicks: clicks, revenue: revenue,
              rate_applied: rate_applied, p_revenue: p_revenue, margin: margin, tq: tq,
              ctr: clicks::DOUBLE / NULLIF(CASE WHEN monetized_impressions > 0 THEN monetized_impressions ELSE impressions END, 0) * 100,
              cpm: revenue / NULLIF(impressions, 0) * 1000,
              cpc: revenue / NULLIF(clicks, 0),
              cost: revenue - margin,
              rs_percent: CASE WHEN revenue > 0 THEN margin / revenue * 100 END,
              margin_percent: CASE WHEN revenue > 0 THEN margin / revenue * 100 END,
              p_cpm: p_revenue / NULLIF(impressions, 0) * 1000,
              p_cpc: p_revenue / NULLIF(clicks, 0)
            })::VARCHAR, ',' ORDER BY ${order}), '') AS json
       FROM (SELECT * FROM zone_report ${where.sql} ORDER BY ${order} LIMIT $${where.params.length + 1})`,
    [...where.params, limit],
  );
  return { json: `[${row?.json ?? ''}]`, count: row?.count ?? 0 };
}
