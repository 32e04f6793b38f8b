// The geos and sources present in a range under the other filters (Ad Report dropdowns):
// the geo and source filters themselves are ignored so the user can switch between them.
import type { ReportFilters } from '@adops/core';
import type { Db } from '../db.js';
import { whereFilters } from './filters.js';

export async function getGeoAndSourceOptions(db: Db, filters: ReportFilters): Promise<{ geos: string[]; sources: string[] }> {
  const where = whereFilters(filters, {
    range: { start: filters.start_date, end: filters.end_date },
    skip: ['geo', 'source'],
  });
  // Lists travel as JSON text (the Db handle converts scalars only).
  const row = await db.one<{ geos: string; sources: string }>(
    `SELECT to_json(coalesce(list_sort(list(DISTINCT geo) FILTER (WHERE geo <> '')), []))::VARCHAR AS geos,
            to_json(coalesce(list_sort(list(DISTINCT source) FILTER (WHERE source <> '')), []))::VARCHAR AS sources
       FROM zone_report ${where.sql}`,
    where.params,
  );
  return { geos: JSON.parse(row?.geos ?? '[]') as string[], sources: JSON.parse(row?.sources ?? '[]') as string[] };
}
