// The Dashboard's 'Top Zones' and 'Top Advertisers': each list summed, ranked and cut in the
// engine, so only `limit` rows per list leave the store whatever the range's size. A zone's margin
// counts its rows with revenue (a row of 0 revenue adds to neither figure). Advertisers are summed
// from the rollup unless a zone filter needs the stored rows. Ties in the text order.
// DuckDB runs both lists in one statement, sharing the report filters' bound values (a named
// value may be read twice), and sums zones by id first; ClickHouse runs a statement per list.
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import { usesRollup, whereFilters } from '../sql/filters.js';
import type { Filters, TopAdvertiserSums, TopEarners, TopZoneSums } from '../types.js';
import { fromWhere } from './source.js';

export function getTopEarners(db: SqlDb, filters: Filters, limit: number): Promise<TopEarners> {
  return db.dialect.engine === 'duckdb' ? duckdbTopEarners(db, filters, limit) : clickHouseTopEarners(db, filters, limit);
}

interface TopRow {
  list: 'zone' | 'advertiser';
  publisher: string | null;
  zone_id: string | null;
  advertiser: string | null;
  revenue: number;
  margin: number;
}

/** DuckDB: both lists in one statement. */
async function duckdbTopEarners(db: SqlDb, filters: Filters, limit: number): Promise<TopEarners> {
  const b = new Binder(db.dialect);
  const where = whereFilters(b, filters, { range: { start: filters.start_date, end: filters.end_date } });
  const limitParam = b.bind(limit, 'UInt64');
  // The range always adds a WHERE; each list appends its own fixed conditions to it.
  const scoped = (condition: string, table = 'zone_report') => `FROM ${table} ${where} AND ${condition}`;
  const advertisers = usesRollup(db, filters) ? 'zone_report_rollup' : 'zone_report';
  // Zones: summed by zone id first (one string key hashes far faster than two), keeping the
  // publisher when the zone has one; only ids under several publishers are summed again by both.
  const rows = await db.all<TopRow>(
    `WITH by_id AS (
       SELECT zone_id, min(publisher) AS first_publisher, max(publisher) AS last_publisher,
              sum(revenue) AS revenue, coalesce(sum(margin) FILTER (WHERE revenue <> 0), 0) AS margin
         FROM zone_report ${where}
        GROUP BY zone_id),
     shared AS (
       SELECT publisher, zone_id, sum(revenue) AS revenue, coalesce(sum(margin) FILTER (WHERE revenue <> 0), 0) AS margin
         ${scoped('zone_id IN (SELECT zone_id FROM by_id WHERE first_publisher <> last_publisher)')}
        GROUP BY publisher, zone_id),
     zones AS (
       SELECT first_publisher AS publisher, zone_id, revenue, margin FROM by_id WHERE first_publisher = last_publisher
       UNION ALL
       SELECT publisher, zone_id, revenue, margin FROM shared)
     SELECT * FROM (
       SELECT 'zone' AS list, publisher, zone_id, NULL::VARCHAR AS advertiser, revenue, margin
         FROM zones
        WHERE revenue <> 0 AND trim(zone_id) <> ''
        ORDER BY revenue DESC, publisher COLLATE es, publisher, zone_id COLLATE es, zone_id
        LIMIT ${limitParam})
     UNION ALL
     SELECT * FROM (
       SELECT 'advertiser' AS list, NULL::VARCHAR, NULL::VARCHAR, advertiser,
              sum(revenue) AS revenue, sum(margin) AS margin
         ${scoped(`trim(advertiser) <> ''`, advertisers)}
        GROUP BY advertiser
       HAVING sum(revenue) <> 0
        ORDER BY revenue DESC, advertiser COLLATE es, advertiser
        LIMIT ${limitParam})
     ORDER BY list, revenue DESC, publisher COLLATE es, publisher, zone_id COLLATE es, zone_id, advertiser COLLATE es, advertiser`,
    b.params,
  );
  const out: TopEarners = { zones: [], advertisers: [] };
  for (const r of rows) {
    if (r.list === 'zone') out.zones.push({ publisher: r.publisher!, zone_id: r.zone_id!, revenue: r.revenue, margin: r.margin });
    else out.advertisers.push({ advertiser: r.advertiser!, revenue: r.revenue, margin: r.margin });
  }
  return out;
}

/** ClickHouse: each list a statement of its own, run together. */
async function clickHouseTopEarners(db: SqlDb, filters: Filters, limit: number): Promise<TopEarners> {
  const range = { start: filters.start_date, end: filters.end_date };
  const z = new Binder(db.dialect);
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
  const a = new Binder(db.dialect);
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
