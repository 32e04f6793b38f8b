// Forgets idempotency keys stored before the window (run with retention): a resend after it is
// stored again, and the key table and its in-memory index hold only the window's keys.
import type { Db } from '../db.js';
import type { KeyIndex } from './key-index.js';

export async function expireKeys(db: Db, index: KeyIndex, before: number): Promise<number> {
  return db.serialWrite(async (conn) => {
    const r = await conn.run('DELETE FROM referrer_event_key WHERE added_at < make_timestamp(?::BIGINT)', [BigInt(Math.floor(before)) * 1000n]);
    index.dropBefore(before);
    return Number(r.rowsChanged);
  });
}
