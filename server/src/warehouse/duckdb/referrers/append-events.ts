// Commits one batch of referrer events on the writer connection through the DuckDB appender.
// Small batches are appended to referrer_event directly (cheapest; the appender's flush commits
// them). Large ones go into a per-connection temp staging table (in memory) and one INSERT …
// SELECT moves them as a single transaction, so their commit (WAL write and sync) runs off the
// event loop instead of blocking it for tens of milliseconds.
// A batch with idempotency keys: its keys are checked (none stored within the window, else
// EventKeyConflict and nothing is written), then stored on its first event (event_key, one per
// line, and key_added_at) — so keys and events commit together in that same single flush or
// INSERT; then the in-memory index learns them. The writer connection runs one job at a time, so
// no other batch slips in between.
import { DuckDBTimestampValue, type DuckDBAppender, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import type { Db } from '../db.js';
import { EventKeyConflict, type EventKeys, type ReferrerEvent } from '../../types.js';
import { seenKeysQuery } from './get-seen-keys.js';
import { KEY_SEPARATOR, fingerprint, type KeyIndex } from './key-index.js';

const STAGE = 'referrer_event_stage';
/** Batches from this size on are staged (measured: ~2× the CPU per row of a direct append at
 *  100 rows, ~1.3× at 5,000, but a third of the event-loop blocking). */
const STAGE_FROM = 1000;
const staged = new WeakSet<DuckDBConnection>();

const text = (a: DuckDBAppender, v: string | null) => (v === null ? a.appendNull() : a.appendVarchar(v));
const timestamp = (ms: number) => new DuckDBTimestampValue(BigInt(ms) * 1000n);

/** The keys a batch stores on its first event, and when. */
interface KeyCell {
  keys: string;
  addedMs: number;
}

/** Appends every event (the first with the batch's keys) and flushes (all or nothing), then closes the appender. */
function fill(a: DuckDBAppender, events: readonly ReferrerEvent[], keyed: KeyCell | undefined): void {
  try {
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      a.appendBigInt(BigInt(e.id));
      a.appendTimestamp(timestamp(e.seen_ms));
      a.appendVarchar(e.zone_id);
      text(a, e.parent_domain);
      text(a, e.referrer);
      text(a, e.keyword);
      text(a, e.ip);
      text(a, e.country);
      text(a, e.publisher);
      text(a, e.advertiser);
      a.appendBoolean(e.is_bot === true);
      text(a, e.reason ?? null);
      if (i === 0 && keyed) {
        a.appendVarchar(keyed.keys);
        a.appendTimestamp(timestamp(keyed.addedMs));
      } else {
        a.appendNull();
        a.appendNull();
      }
      text(a, e.campaign_id ?? null);
      text(a, e.adset_id ?? null);
      text(a, e.ad_id ?? null);
      text(a, e.placement ?? null);
      a.endRow();
    }
    a.flushSync();
  } catch (e) {
    a.clear();
    throw e;
  } finally {
    a.closeSync();
  }
}

async function write(conn: DuckDBConnection, events: readonly ReferrerEvent[], keyed?: KeyCell): Promise<void> {
  if (events.length < STAGE_FROM) {
    const a = await conn.createAppender('referrer_event');
    fill(a, events, keyed);
    return;
  }
  if (!staged.has(conn)) {
    await conn.run(`CREATE TEMP TABLE IF NOT EXISTS ${STAGE} AS SELECT * FROM referrer_event LIMIT 0`);
    staged.add(conn);
  }
  try {
    fill(await conn.createAppender(STAGE, null, 'temp'), events, keyed);
    await conn.run(`INSERT INTO referrer_event SELECT * FROM temp.${STAGE}`);
  } finally {
    await conn.run(`DELETE FROM temp.${STAGE}`);
  }
}

export function appendEvents(db: Db, index: KeyIndex, events: readonly ReferrerEvent[], keyed?: EventKeys): Promise<void> {
  if (events.length === 0) return Promise.resolve();
  const keys = keyed?.keys ?? [];
  if (keys.length === 0) return db.serialWrite((conn) => write(conn, events));
  return db.serialWrite(async (conn) => {
    const prints = keys.map(fingerprint);
    const seen = seenKeysQuery(index, keys, keyed!.since, prints);
    if (seen) {
      const taken = (await conn.runAndReadAll(seen.sql, seen.params as DuckDBValue[])).getRows();
      if (taken.length > 0) throw new EventKeyConflict(new Set(taken.map((r) => String(r[0]))));
    }
    const now = Date.now();
    await write(conn, events, { keys: keys.join(KEY_SEPARATOR), addedMs: now });
    for (const f of prints) index.add(f, now);
  });
}
