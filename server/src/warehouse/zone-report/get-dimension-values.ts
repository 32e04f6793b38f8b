// Every distinct advertiser, publisher, geo, source and domain stored (filter dropdowns).
import type { Db } from '../db.js';
import type { DimensionValues } from './types.js';

const list = (column: string, nonEmpty = false) =>
  `to_json(coalesce(list_sort(list(DISTINCT ${column})${nonEmpty ? ` FILTER (WHERE ${column} <> '')` : ''}), []))::VARCHAR`;

export async function getDimensionValues(db: Db): Promise<DimensionValues> {
  // Lists travel as JSON text (the Db handle converts scalars only).
  const row = await db.one<Record<keyof DimensionValues, string>>(
    `SELECT ${list('advertiser')} AS advertisers,
            ${list('publisher')} AS publishers,
            ${list('geo', true)} AS geos,
            ${list('source', true)} AS sources,
            ${list('domain', true)} AS domains
       FROM zone_report`,
  );
  const parse = (text: string | undefined) => JSON.parse(text ?? '[]') as string[];
  return {
    advertisers: parse(row?.advertisers),
    publishers: parse(row?.publishers),
    geos: parse(row?.geos),
    sources: parse(row?.sources),
    domains: parse(row?.domains),
  };
}
