// Retention: in one transaction, rolls raw events seen before the cutoff into the daily
// rollup (one row per UTC day, distinct referrer and bot flag), records the highest id removed,
// moves the idempotency keys they carry to the key table, and deletes them.
import { type Db, run } from '../db.js';
import { sqlTimestamp } from '../../sql/dialect.js';
import type { RetentionResult } from '../../types.js';

const ROLL_UP = `
INSERT INTO referrer_daily (day, zone_id, parent_domain, referrer, publisher, advertiser, first_seen, last_seen, hits, is_bot)
SELECT CAST(seen_at AS DATE), zone_id, parent_domain, referrer, publisher, advertiser, min(seen_at), max(seen_at), count(*), is_bot
FROM referrer_event WHERE seen_at < $cutoff::TIMESTAMP
GROUP BY CAST(seen_at AS DATE), zone_id, parent_domain, referrer, publisher, advertiser, is_bot`;
const WATERMARK = `
INSERT INTO referrer_event_watermark
SELECT max(id) FROM referrer_event WHERE seen_at < $cutoff::TIMESTAMP HAVING max(id) IS NOT NULL`;
/** Keys riding on events about to be deleted move to the key table: they still count within the window. */
const KEEP_KEYS = `
INSERT INTO referrer_event_key
SELECT key_added_at, event_key FROM referrer_event WHERE seen_at < $cutoff::TIMESTAMP AND event_key IS NOT NULL`;
const DELETE = `DELETE FROM referrer_event WHERE seen_at < $cutoff::TIMESTAMP`;

export function rollUpOldEvents(db: Db, cutoffMs: number): Promise<RetentionResult> {
  const at = { cutoff: sqlTimestamp(cutoffMs) };
  return db.serialWrite(async (conn) => {
    await conn.run('BEGIN TRANSACTION');
    try {
      const rolled = await run(conn, ROLL_UP, at);
      await run(conn, WATERMARK, at);
      await run(conn, KEEP_KEYS, at);
      const deleted = await run(conn, DELETE, at);
      await conn.run('COMMIT');
      return { deleted: deleted.rowsChanged, rolledUp: rolled.rowsChanged };
    } catch (e) {
      await conn.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
  });
}
