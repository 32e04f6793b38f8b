// The zone_report fact table: one row per natural key (date, advertiser, publisher, zone_id,
// geo, source). Money is DOUBLE, counts BIGINT; rows are inserted in date order so DuckDB's
// per-row-group min/max (zone maps) let a date range skip the rest of the table.
import type { Db } from '../db.js';

/** Column order of zone_report (and of the import staging table after its `seq`). */
export const ZONE_REPORT_COLUMNS = [
  'date',
  'advertiser',
  'publisher',
  'zone_id',
  'geo',
  'source',
  'domain',
  'impressions',
  'monetized_impressions',
  'clicks',
  'revenue',
  'rate_applied',
  'p_revenue',
  'margin',
  'tq',
] as const;

export const NATURAL_KEY = ['date', 'advertiser', 'publisher', 'zone_id', 'geo', 'source'] as const;

/** Column definitions; key text columns are NOT NULL ('' for an unknown geo or source). */
export const ZONE_REPORT_COLUMNS_SQL = `
  date DATE NOT NULL,
  advertiser VARCHAR NOT NULL,
  publisher VARCHAR NOT NULL,
  zone_id VARCHAR NOT NULL,
  geo VARCHAR NOT NULL,
  source VARCHAR NOT NULL,
  domain VARCHAR NOT NULL,
  impressions BIGINT NOT NULL,
  monetized_impressions BIGINT,
  clicks BIGINT NOT NULL,
  revenue DOUBLE NOT NULL,
  rate_applied DOUBLE,
  p_revenue DOUBLE NOT NULL,
  margin DOUBLE NOT NULL,
  tq DOUBLE`;

/**
 * No primary key or ART index: uniqueness of the natural key is kept by the importer
 * (delete matching keys + insert, in one transaction), which is far cheaper at tens of
 * millions of rows than maintaining a six-column index.
 */
export async function ensureZoneReportSchema(db: Db): Promise<void> {
  await db.exec(`CREATE TABLE IF NOT EXISTS zone_report (${ZONE_REPORT_COLUMNS_SQL})`);
}
