// Forgets idempotency keys stored before the window (run with retention): a resend after it is
// stored again, and the stored keys (on events and in the key table) and their in-memory index
// hold only the window's keys.
import { type Db, run } from '../db.js';
import type { KeyIndex } from './key-index.js';

export async function expireKeys(db: Db, index: KeyIndex, before: number): Promise<number> {
  return db.serialWrite(async (conn) => {
    const at = { before: BigInt(Math.floor(before)) * 1000n };
    const r = await run(conn, 'DELETE FROM referrer_event_key WHERE added_at < make_timestamp($before::BIGINT)', at);
    const onEvents = await run(
      conn,
      'UPDATE referrer_event SET event_key = NULL, key_added_at = NULL WHERE key_added_at < make_timestamp($before::BIGINT)',
      at,
    );
    index.dropBefore(before);
    return Number(r.rowsChanged) + Number(onEvents.rowsChanged);
  });
}
