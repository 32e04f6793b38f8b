// The filter bar's lists: parent domains, publishers and advertisers that have referrer
// traffic (raw events or rollup), each sorted (byte order), at most `limit` values. DuckDB ranks
// each list's distinct values in one pass; ClickHouse cuts each list with its own LIMIT.
import type { ReferrerFilters } from '@adops/core';
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import type { Engine } from '../sql/dialect.js';
import { committedDaily, liveEvent, watermarkSql } from '../clickhouse/referrers/schema.js';

const SQL: Record<Engine, (db: SqlDb, n: string) => string> = {
  duckdb: (_, n) => `
WITH src AS (
  SELECT DISTINCT parent_domain, publisher, advertiser FROM referrer_event
  UNION
  SELECT DISTINCT parent_domain, publisher, advertiser FROM referrer_daily
),
options AS (
  SELECT DISTINCT 'parentDomains' AS kind, parent_domain AS value FROM src WHERE parent_domain IS NOT NULL AND parent_domain <> ''
  UNION ALL
  SELECT DISTINCT 'publishers', publisher FROM src WHERE publisher IS NOT NULL AND publisher <> ''
  UNION ALL
  SELECT DISTINCT 'advertisers', advertiser FROM src WHERE advertiser IS NOT NULL AND advertiser <> ''
)
SELECT kind, value FROM (
  SELECT kind, value, row_number() OVER (PARTITION BY kind ORDER BY value) AS n FROM options
) WHERE n <= ${n} ORDER BY kind, value`,
  clickhouse: (db, n) => {
    const src = `(SELECT parent_domain, publisher, advertiser FROM ${db.t('referrer_event')} WHERE ${liveEvent()}
                UNION ALL
                SELECT parent_domain, publisher, advertiser FROM ${db.t('referrer_daily')} WHERE ${committedDaily(db)})`;
    const list = (kind: string, column: string) =>
      `SELECT * FROM (SELECT DISTINCT '${kind}' AS kind, assumeNotNull(${column}) AS value FROM ${src}
       WHERE ${column} IS NOT NULL AND ${column} != '' ORDER BY value LIMIT ${n})`;
    return `WITH ${watermarkSql(db)} AS wm
     SELECT kind, value FROM (${list('parentDomains', 'parent_domain')} UNION ALL ${list('publishers', 'publisher')} UNION ALL ${list('advertisers', 'advertiser')})
     ORDER BY kind, value`;
  },
};

export async function getReferrerFilters(db: SqlDb, limit: number): Promise<ReferrerFilters> {
  const b = new Binder(db.dialect);
  const out: ReferrerFilters = { parentDomains: [], publishers: [], advertisers: [] };
  const rows = await db.all<{ kind: keyof ReferrerFilters; value: string }>(SQL[db.dialect.engine](db, b.bind(limit, 'UInt64')), b.params);
  for (const row of rows) out[row.kind].push(row.value);
  return out;
}
