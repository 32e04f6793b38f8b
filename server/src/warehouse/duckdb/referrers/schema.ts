// Tables of referrer traffic: raw events (kept ADOPS_EVENT_RETENTION_DAYS), a compact daily
// rollup of the distinct-referrer report for days whose raw events were deleted, and the
// highest id deleted (so event ids never repeat after retention).
import type { Db } from '../db.js';

export const REFERRER_SCHEMA = `
CREATE TABLE IF NOT EXISTS referrer_event (
  id BIGINT NOT NULL,
  seen_at TIMESTAMP NOT NULL,
  zone_id VARCHAR NOT NULL,
  parent_domain VARCHAR,
  referrer VARCHAR,
  keyword VARCHAR,
  ip VARCHAR,
  country VARCHAR,
  publisher VARCHAR,
  advertiser VARCHAR
);
CREATE TABLE IF NOT EXISTS referrer_daily (
  day DATE NOT NULL,
  zone_id VARCHAR NOT NULL,
  parent_domain VARCHAR,
  referrer VARCHAR,
  publisher VARCHAR,
  advertiser VARCHAR,
  first_seen TIMESTAMP NOT NULL,
  last_seen TIMESTAMP NOT NULL,
  hits BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS referrer_event_watermark (last_id BIGINT NOT NULL);
`;

export async function createReferrerSchema(db: Db): Promise<void> {
  await db.serialWrite((c) => c.run(REFERRER_SCHEMA));
}
