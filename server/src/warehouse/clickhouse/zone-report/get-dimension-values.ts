// Every distinct advertiser, publisher, geo, source and non-empty domain stored (filter
// dropdowns), from the rollup's current days, each list in the tables' text order.
import type { ClickHouseDb } from '../db.js';
import type { DimensionValues } from '../../types.js';

const KINDS = { advertiser: 'advertisers', publisher: 'publishers', geo: 'geos', source: 'sources', domain: 'domains' } as const;

export async function getDimensionValues(db: ClickHouseDb): Promise<DimensionValues> {
  const table = db.rollup
    ? `(SELECT ${Object.keys(KINDS).join(', ')} FROM ${db.t('zone_report_rollup')}
        WHERE (date, version) IN (SELECT date, max(version) FROM ${db.t('zone_report_day')} GROUP BY date))`
    : `${db.t('zone_report')} FINAL`;
  const union = Object.entries(KINDS)
    .map(([column, kind]) => {
      // Every advertiser and publisher is listed (even blank); geo, source and domain only when known.
      const known = column === 'advertiser' || column === 'publisher' ? '' : ` WHERE ${column} != ''`;
      return `SELECT DISTINCT '${kind}' AS kind, ${column} AS value FROM ${table}${known}`;
    })
    .join('\nUNION ALL\n');
  const out: DimensionValues = { advertisers: [], publishers: [], geos: [], sources: [], domains: [] };
  const rows = await db.all<{ kind: keyof DimensionValues; value: string }>(
    `SELECT kind, value FROM (${union}) ORDER BY kind, value ASC COLLATE 'es', value`,
  );
  for (const r of rows) out[r.kind].push(r.value);
  return out;
}
