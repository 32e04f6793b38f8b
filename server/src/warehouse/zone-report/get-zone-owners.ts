// Each zone's publisher and advertiser from its latest zone_report rows (the busiest row of
// the latest day; among equals the last advertiser, then publisher, in byte order), to stamp
// referrer events at ingest. Two hashed passes, never a sort: each zone's latest day (a date per
// zone), then the arg max of a struct or tuple over only the rows of those days. One pass taking
// the arg max of (day, impressions, advertiser, publisher) over every row needed more than the
// engine's memory at scale — DuckDB's default 128 MB with 10 M rows, ClickHouse's 256 MB with
// 100 M — so the zones were never known and hits went without an owner, the reload failing again
// and again; the latest day per zone fits in a few megabytes.
// With `since`, only the rows dated on or after it are read (DuckDB's zone maps and ClickHouse's
// date-first key skip the rest): a zone with a row then has its latest day among them, so its
// owner is the same as from every row — after an import, the zones it touched, without reading
// the years before its first day. ClickHouse takes each zone's latest day from every stored
// version (a replaced row keeps its key, day included) and reads the current rows (FINAL) of those days only.
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import type { Engine } from '../sql/dialect.js';
import type { ZoneOwner } from '../types.js';

const SQL: Record<Engine, (db: SqlDb, since: string | undefined) => string> = {
  duckdb: (_db, since) => `
SELECT zone_id, o.publisher AS publisher, o.advertiser AS advertiser FROM (
  SELECT zone_id,
         arg_max(struct_pack(publisher := publisher, advertiser := advertiser),
                 struct_pack(i := impressions, a := advertiser, p := publisher)) AS o
  FROM zone_report
  WHERE (zone_id, date) IN (SELECT zone_id, max(date) FROM zone_report ${since ? `WHERE date >= ${since}` : ''} GROUP BY zone_id)
    ${since ? `AND date >= ${since}` : ''}
  GROUP BY zone_id
)`,
  clickhouse: (db, since) => `SELECT zone_id, tupleElement(o, 1) AS publisher, tupleElement(o, 2) AS advertiser FROM (
       SELECT zone_id, argMax((publisher, advertiser), (impressions, advertiser, publisher)) AS o
       FROM ${db.current('zone_report')}
       PREWHERE (zone_id, date) IN (SELECT zone_id, max(date) FROM ${db.t('zone_report')} ${since ? `WHERE date >= ${since}` : ''} GROUP BY zone_id)
         ${since ? `AND date >= ${since}` : ''}
       GROUP BY zone_id)`,
};

/** Every zone's owner, or (with `since`, YYYY-MM-DD) the owner of each zone with a row dated on or after it. */
export async function getZoneOwners(db: SqlDb, since?: string): Promise<Map<string, ZoneOwner>> {
  const b = new Binder(db.dialect);
  const from = since === undefined ? undefined : b.bind(since, 'Date32');
  const owners = new Map<string, ZoneOwner>();
  for (const r of await db.all<{ zone_id: string; publisher: string; advertiser: string }>(SQL[db.dialect.engine](db, from), b.params))
    owners.set(r.zone_id, { publisher: r.publisher || null, advertiser: r.advertiser || null });
  return owners;
}
