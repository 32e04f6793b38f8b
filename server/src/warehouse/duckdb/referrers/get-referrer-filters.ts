// The filter bar's lists: parent domains, publishers and advertisers that have referrer
// traffic (raw events or rollup), each sorted, at most `limit` values.
import type { ReferrerFilters } from '@adops/core';
import type { Db } from '../db.js';

const SQL = `
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
) WHERE n <= $limit ORDER BY kind, value`;

export async function getReferrerFilters(db: Db, limit: number): Promise<ReferrerFilters> {
  const out: ReferrerFilters = { parentDomains: [], publishers: [], advertisers: [] };
  for (const row of await db.all<{ kind: keyof ReferrerFilters; value: string }>(SQL, { limit })) out[row.kind].push(row.value);
  return out;
}
