// Which idempotency keys are stored within the window: the in-memory index rules out (almost)
// every new key; the few it may hold are confirmed against the stored keys — those on events
// (event_key) and those in referrer_event_key — one scan of the window's keys, only when a batch
// repeats keys.
import { listValue } from '@duckdb/node-api';
import type { Db, Params } from '../db.js';
import { STORED_KEYS, fingerprint, type Fingerprint, type KeyIndex } from './key-index.js';

/** The keys the index may hold, and the query confirming which of them are stored since `since`. */
export function seenKeysQuery(
  index: KeyIndex,
  keys: readonly string[],
  since: number,
  prints: readonly Fingerprint[] = keys.map(fingerprint),
): { sql: string; params: Params } | undefined {
  const maybe = keys.filter((_, i) => index.mayHold(prints[i]));
  if (maybe.length === 0) return undefined;
  return {
    sql: `SELECT DISTINCT key FROM (
            SELECT unnest(string_split(keys, chr(10))) AS key FROM ${STORED_KEYS} WHERE added_at >= make_timestamp($since::BIGINT)
          ) WHERE key IN (SELECT unnest($keys::VARCHAR[]))`,
    params: { since: BigInt(Math.floor(since)) * 1000n, keys: listValue(maybe) },
  };
}

export async function getSeenKeys(db: Db, index: KeyIndex, keys: readonly string[], since: number): Promise<Set<string>> {
  const query = seenKeysQuery(index, keys, since);
  if (!query) return new Set();
  const rows = await db.all<{ key: string }>(query.sql, query.params);
  return new Set(rows.map((r) => r.key));
}
