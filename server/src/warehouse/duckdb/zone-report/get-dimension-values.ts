// Every distinct advertiser, publisher, geo, source and non-empty domain stored (filter
// dropdowns), from the rollup, each list in the tables' text order.
import type { Db } from '../db.js';
import type { DimensionValues } from '../../types.js';

const KINDS = { advertiser: 'advertisers', publisher: 'publishers', geo: 'geos', source: 'sources', domain: 'domains' } as const;

const sql = (table: string) =>
  Object.entries(KINDS)
    .map(([column, kind]) => {
      // Every advertiser and publisher is listed (even blank); geo, source and domain only when known.
      const known = column === 'advertiser' || column === 'publisher' ? '' : ` WHERE ${column} <> ''`;
      return `SELECT DISTINCT '${kind}' AS kind, ${column} AS value FROM ${table}${known}`;
    })
    .join('\nUNION ALL\n');

export async function getDimensionValues(db: Db): Promise<DimensionValues> {
  const out: DimensionValues = { advertisers: [], publishers: [], geos: [], sources: [], domains: [] };
  const rows = await db.all<{ kind: keyof DimensionValues; value: string }>(
    `SELECT * FROM (${sql(db.rollup ? 'zone_report_rollup' : 'zone_report')}) ORDER BY kind, value COLLATE es, value`,
  );
  for (const r of rows) out[r.kind].push(r.value);
  return out;
}
