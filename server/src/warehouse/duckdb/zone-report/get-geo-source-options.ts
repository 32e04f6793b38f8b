// The geos and sources present in a range under the other filters (Ad Report dropdowns):
// the geo and source filters themselves are ignored so the user can switch between them.
import type { Db } from '../db.js';
import type { Filters } from '../../types.js';
import { usesRollup, whereFilters } from '../sql.js';

export async function getGeoAndSourceOptions(db: Db, filters: Filters): Promise<{ geos: string[]; sources: string[] }> {
  const where = whereFilters(filters, {
    range: { start: filters.start_date, end: filters.end_date },
    skip: ['geo', 'source'],
  });
  const table = usesRollup(db, filters) ? 'zone_report_rollup' : 'zone_report';
  const rows = await db.all<{ kind: 'geo' | 'source'; value: string }>(
    `WITH matching AS (SELECT DISTINCT geo, source FROM ${table} ${where.sql})
     SELECT * FROM (
       SELECT DISTINCT 'geo' AS kind, geo AS value FROM matching WHERE geo <> ''
       UNION ALL
       SELECT DISTINCT 'source', source FROM matching WHERE source <> ''
     ) ORDER BY kind, value COLLATE es, value`,
    where.params,
  );
  return {
    geos: rows.filter((r) => r.kind === 'geo').map((r) => r.value),
    sources: rows.filter((r) => r.kind === 'source').map((r) => r.value),
  };
}
