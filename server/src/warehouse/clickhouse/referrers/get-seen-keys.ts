// Which idempotency keys are stored within the window: referrer_event_key is ordered by key, so
// each looked-up key reads one granule. Keys go as a bound array, a slice at a time (query
// parameters travel in the URL of an HTTP request).
import type { ClickHouseDb } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';

const KEYS_PER_QUERY = 1000;

export async function getSeenKeys(db: ClickHouseDb, keys: readonly string[], since: number): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let i = 0; i < keys.length; i += KEYS_PER_QUERY) {
    const b = new Binder(CLICKHOUSE);
    const rows = await db.all<{ key: string }>(
      `SELECT DISTINCT key FROM ${db.t('referrer_event_key')}
       WHERE key IN (SELECT arrayJoin(${b.bind(keys.slice(i, i + KEYS_PER_QUERY), 'Array(String)')})) AND added_at >= ${b.instant(since)}`,
      b.params,
    );
    for (const r of rows) seen.add(r.key);
  }
  return seen;
}
