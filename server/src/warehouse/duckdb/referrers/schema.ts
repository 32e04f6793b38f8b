// Tables of referrer traffic: raw events (kept ADOPS_EVENT_RETENTION_DAYS), a compact daily
// rollup of the distinct-referrer report for days whose raw events were deleted, and the
// highest id deleted (so event ids never repeat after retention), and the idempotency keys of
// the last days' events (client event ids and keys of batches sent with an Idempotency-Key): one
// row per committed batch, its keys one per line — one value to append, however many keys; no
// index in DuckDB, the in-memory one of key-index.ts answers; expired by the retention job).
// Events and rollup rows carry is_bot (and events their reason): bot and spam traffic, kept
// apart from reports unless asked for; rows stored before it are human (DEFAULT false).
// A keyed commit's idempotency keys ride on its first event (event_key, one per line, and
// key_added_at), so events and keys are one appender flush — one commit, no transaction around
// two writes (a third of a keyed beacon commit's cost). referrer_event_key keeps the keys written
// before that and those of events retention deletes within the window.
// Events carry their Meta attribution (campaign_id, adset_id, ad_id, placement: the beacon's cid,
// asid, adid, plc); events stored before have none (NULL).
// Every table and column is created when missing, so an older data directory gains the newer
// ones at its next start.
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
CREATE TABLE IF NOT EXISTS referrer_event_key (
  added_at TIMESTAMP NOT NULL,
  keys VARCHAR NOT NULL
);
ALTER TABLE referrer_event ADD COLUMN IF NOT EXISTS is_bot BOOLEAN DEFAULT false;
ALTER TABLE referrer_event ADD COLUMN IF NOT EXISTS reason VARCHAR;
ALTER TABLE referrer_daily ADD COLUMN IF NOT EXISTS is_bot BOOLEAN DEFAULT false;
ALTER TABLE referrer_event ADD COLUMN IF NOT EXISTS event_key VARCHAR;
ALTER TABLE referrer_event ADD COLUMN IF NOT EXISTS key_added_at TIMESTAMP;
ALTER TABLE referrer_event ADD COLUMN IF NOT EXISTS campaign_id VARCHAR;
ALTER TABLE referrer_event ADD COLUMN IF NOT EXISTS adset_id VARCHAR;
ALTER TABLE referrer_event ADD COLUMN IF NOT EXISTS ad_id VARCHAR;
ALTER TABLE referrer_event ADD COLUMN IF NOT EXISTS placement VARCHAR;
`;

export async function createReferrerSchema(db: Db): Promise<void> {
  await db.serialWrite((c) => c.run(REFERRER_SCHEMA));
}
