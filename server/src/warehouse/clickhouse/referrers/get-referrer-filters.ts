// The filter bar's lists: parent domains, publishers and advertisers that have referrer
// traffic (raw events or rollup), each sorted (byte order, as DuckDB's), at most `limit` values.
import type { ReferrerFilters } from '@adops/core';
import type { ClickHouseDb } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';
import { committedDaily, liveEvent, watermarkSql } from './schema.js';

export async function getReferrerFilters(db: ClickHouseDb, limit: number): Promise<ReferrerFilters> {
  const b = new Binder(CLICKHOUSE);
  const n = b.bind(limit, 'UInt64');
  const src = `(SELECT parent_domain, publisher, advertiser FROM ${db.t('referrer_event')} WHERE ${liveEvent()}
                UNION ALL
                SELECT parent_domain, publisher, advertiser FROM ${db.t('referrer_daily')} WHERE ${committedDaily(db)})`;
  const list = (kind: string, column: string) =>
    `SELECT * FROM (SELECT DISTINCT '${kind}' AS kind, assumeNotNull(${column}) AS value FROM ${src}
       WHERE ${column} IS NOT NULL AND ${column} != '' ORDER BY value LIMIT ${n})`;
  const rows = await db.all<{ kind: keyof ReferrerFilters; value: string }>(
    `WITH ${watermarkSql(db)} AS wm
     SELECT kind, value FROM (${list('parentDomains', 'parent_domain')} UNION ALL ${list('publishers', 'publisher')} UNION ALL ${list('advertisers', 'advertiser')})
     ORDER BY kind, value`,
    b.params,
  );
  const out: ReferrerFilters = { parentDomains: [], publishers: [], advertisers: [] };
  for (const row of rows) out[row.kind].push(row.value);
  return out;
}
