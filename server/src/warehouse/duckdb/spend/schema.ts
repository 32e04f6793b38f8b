// Meta spend per ad and day (ad_spend): one row per (date, ad_id) — the key a sync upserts on —
// with its campaign and ad set (ids and the names Meta last reported), spend in the ad account's
// currency, impressions and clicks. Created when missing, so an older data directory gains it.
import type { Db } from '../db.js';

export const SPEND_SCHEMA = `
CREATE TABLE IF NOT EXISTS ad_spend (
  date DATE NOT NULL,
  account_id VARCHAR NOT NULL,
  campaign_id VARCHAR NOT NULL,
  campaign_name VARCHAR NOT NULL,
  adset_id VARCHAR NOT NULL,
  adset_name VARCHAR NOT NULL,
  ad_id VARCHAR NOT NULL,
  ad_name VARCHAR NOT NULL,
  spend DOUBLE NOT NULL,
  impressions BIGINT NOT NULL,
  clicks BIGINT NOT NULL,
  currency VARCHAR NOT NULL,
  synced_at TIMESTAMP NOT NULL,
  PRIMARY KEY (date, ad_id)
);
`;

export async function createSpendSchema(db: Db): Promise<void> {
  await db.serialWrite((c) => c.run(SPEND_SCHEMA));
}
