// Meta spend per ad and day on ClickHouse (migration 6): ReplacingMergeTree ordered by
// (date, ad_id), the key a sync upserts on; a re-synced row carries a higher version and replaces
// the stored one, and reads use FINAL so they are right before any merge.
import type { ClickHouseDb } from '../db.js';

export const adSpendTables = (db: ClickHouseDb): string[] => [
  `CREATE TABLE IF NOT EXISTS ${db.t('ad_spend')} (
  date Date32,
  account_id String,
  campaign_id String,
  campaign_name String,
  adset_id String,
  adset_name String,
  ad_id String,
  ad_name String,
  spend Float64,
  impressions Int64,
  clicks Int64,
  currency LowCardinality(String),
  version UInt64
) ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(date)
ORDER BY (date, ad_id)`,
];
