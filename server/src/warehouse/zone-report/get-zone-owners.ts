// Each zone's publisher and advertiser from its latest zone_report rows (the busiest row of
// the latest day; among equals the last advertiser, then publisher, in byte order), to stamp
// referrer events at ingest. One hashed pass (the arg max of a struct or tuple per zone), never a sort.
// With `since`, only the rows dated on or after it are read (DuckDB's zone maps and ClickHouse's
// date-first key skip the rest): a zone with a row then has its latest day among them, so its
// owner is the same as from every row — after an import, the zones it touched, without reading
// the years before its first day.
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import type { Engine } from '../sql/dialect.js';
import type { ZoneOwner } from '../types.js';

const SQL: Record<Engine, (db: SqlDb, where: string) => string> = {
  duckdb: (_db, where) => `
SELECT zone_id, o.publisher AS publisher, o.advertiser AS advertiser FROM (
  SELECT zone_id,
         arg_max(struct_pack(publisher := publisher, advertiser := advertiser),
                 struct_pack(d := date, i := impressions, a := advertiser, p := publisher)) AS o
  FROM zone_report ${where}
  GROUP BY zone_id
)`,
  clickhouse: (db, where) => `SELECT zone_id, tupleElement(o, 1) AS publisher, tupleElement(o, 2) AS advertiser FROM (
       SELECT zone_id, argMax((publisher, advertiser), (date, impressions, advertiser, publisher)) AS o
       FROM ${db.current('zone_report')} ${where}
       GROUP BY zone_id)`,
};

/** Every zone's owner, or (with `since`, YYYY-MM-DD) the owner of each zone with a row dated on or after it. */
export async function getZoneOwners(db: SqlDb, since?: string): Promise<Map<string, ZoneOwner>> {
  const b = new Binder(db.dialect);
  const where = since === undefined ? '' : `WHERE date >= ${b.bind(since, 'Date32')}`;
  const owners = new Map<string, ZoneOwner>();
  for (const r of await db.all<{ zone_id: string; publisher: string; advertiser: string }>(SQL[db.dialect.engine](db, where), b.params))
    owners.set(r.zone_id, { publisher: r.publisher || null, advertiser: r.advertiser || null });
  return owners;
}
