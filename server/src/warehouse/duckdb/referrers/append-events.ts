// Commits one batch of referrer events on the writer connection through the DuckDB appender.
// Rows go in as data chunks of 2,048 whose columns are written straight into DuckDB's vectors
// (numbers, flags and validity copied as whole buffers; short ASCII text inlined in its 16-byte
// slot; a column's longer ASCII text assigned in one call, its slots pointing into it; only
// text that is not ASCII costs a call per value): a sixth of the native calls of appending value
// by value, which cost more than DuckDB's own work. (Values a chunk cannot hold as planned — a
// table whose columns differ, an id past 2^53 — go value by value, as before.)
// Small batches are appended to referrer_event directly (cheapest; the appender's flush commits
// them). Large ones are appended inside an explicit transaction whose COMMIT (WAL write and
// sync) runs off the event loop instead of blocking it for tens of milliseconds (measured: a
// third of the CPU per row of the temp staging table plus INSERT … SELECT used before).
// A batch with idempotency keys: its keys are checked (none stored within the window, else
// EventKeyConflict and nothing is written), then stored on its first event (event_key, one per
// line, and key_added_at) — so keys and events commit together in that same single flush or
// COMMIT; then the in-memory index learns them. The writer connection runs one job at a time, so
// no other batch slips in between.
import duckdb from '@duckdb/node-bindings';
import { DuckDBDataChunk, DuckDBTimestampValue, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
import { type Db, readAll } from '../db.js';
import { LITTLE_ENDIAN, ROWS, int64, putInt64, setValidity, slots, validity, validityBytes, writeText } from '../vectors.js';
import { EventKeyConflict, type EventKeys, type ReferrerEvent } from '../../types.js';
import { seenKeysQuery } from './get-seen-keys.js';
import { KEY_SEPARATOR, fingerprint, type KeyIndex } from './key-index.js';

/** Batches from this size on are committed by an explicit transaction (COMMIT off the event loop). */
const TRANSACTION_FROM = 1000;

/** The keys a batch stores on its first event, and when. */
interface KeyCell {
  keys: string;
  addedMs: number;
}

// ---- Value by value (the fallback) ----

const text = (a: DuckDBAppender, v: string | null) => (v === null ? a.appendNull() : a.appendVarchar(v));
const timestamp = (ms: number) => new DuckDBTimestampValue(BigInt(ms) * 1000n);

function appendRows(a: DuckDBAppender, events: readonly ReferrerEvent[], keyed: KeyCell | undefined): void {
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
}

// ---- Column by column (data chunks) ----

/** referrer_event's columns in table order, as the chunk path writes them. */
const COLUMNS = [
  'BIGINT', // id
  'TIMESTAMP', // seen_at
  'VARCHAR', // zone_id
  'VARCHAR', // parent_domain
  'VARCHAR', // referrer
  'VARCHAR', // keyword
  'VARCHAR', // ip
  'VARCHAR', // country
  'VARCHAR', // publisher
  'VARCHAR', // advertiser
  'BOOLEAN', // is_bot
  'VARCHAR', // reason
  'VARCHAR', // event_key
  'TIMESTAMP', // key_added_at
  'VARCHAR', // campaign_id
  'VARCHAR', // adset_id
  'VARCHAR', // ad_id
  'VARCHAR', // placement
] as const;
/** The text columns after the first four fixed ones, by what they read of an event. */
const TEXT: ReadonlyArray<readonly [number, (e: ReferrerEvent) => string | null]> = [
  [3, (e) => e.parent_domain],
  [4, (e) => e.referrer],
  [5, (e) => e.keyword],
  [6, (e) => e.ip],
  [7, (e) => e.country],
  [8, (e) => e.publisher],
  [9, (e) => e.advertiser],
  [11, (e) => e.reason ?? null],
  [14, (e) => e.campaign_id ?? null],
  [15, (e) => e.adset_id ?? null],
  [16, (e) => e.ad_id ?? null],
  [17, (e) => e.placement ?? null],
];
const flags = new Uint8Array(ROWS);
/** Per writer connection: a data chunk of referrer_event's columns, or null when the table's columns are not COLUMNS. */
const chunks = new WeakMap<DuckDBConnection, DuckDBDataChunk | null>();

function chunkFor(conn: DuckDBConnection, a: DuckDBAppender): DuckDBDataChunk | null {
  let chunk = chunks.get(conn);
  if (chunk === undefined) {
    const types = COLUMNS.length === a.columnCount ? COLUMNS.map((_, c) => a.columnType(c)) : [];
    chunk = LITTLE_ENDIAN && types.length > 0 && types.every((t, c) => t.toString() === COLUMNS[c]) ? DuckDBDataChunk.create(types) : null;
    chunks.set(conn, chunk);
  }
  return chunk;
}

/** A whole number the chunk path writes as an exact int64 (ids; instants in ms, written as µs). */
const exact = (v: number, scale: number) => Number.isSafeInteger(v * scale) && v >= 0;

/** Whether the chunk path can write these events. */
function chunkable(events: readonly ReferrerEvent[], keyed: KeyCell | undefined): boolean {
  if (keyed && !exact(keyed.addedMs, 1000)) return false;
  for (const e of events) if (!(exact(e.id, 1) && exact(e.seen_ms, 1000))) return false;
  return true;
}

/** event_key and key_added_at: the batch's keys on its first row (`keyed`), none on every other. */
function writeKeys(keys: duckdb.Vector, addedAt: duckdb.Vector, n: number, keyed: KeyCell | undefined): void {
  slots.fill(0, 0, n * 16);
  duckdb.copy_data_to_vector(keys, 0, slots.buffer, 0, n * 16);
  int64.fill(0, 0, n * 2);
  validity.fill(0, 0, validityBytes(n));
  if (keyed !== undefined) {
    validity[0] = 1;
    duckdb.vector_assign_string_element(keys, 0, keyed.keys);
    putInt64(0, keyed.addedMs * 1000);
  }
  duckdb.copy_data_to_vector(addedAt, 0, int64.buffer, 0, n * 8);
  setValidity(keys, n);
  setValidity(addedAt, n);
}

function appendChunks(a: DuckDBAppender, chunk: DuckDBDataChunk, events: readonly ReferrerEvent[], keyed: KeyCell | undefined): void {
  for (let from = 0; from < events.length; from += ROWS) {
    const n = Math.min(ROWS, events.length - from);
    chunk.reset();
    chunk.rowCount = n;
    const vector = (c: number) => duckdb.data_chunk_get_vector(chunk.chunk, c);
    for (let i = 0; i < n; i++) putInt64(i, events[from + i].id);
    duckdb.copy_data_to_vector(vector(0), 0, int64.buffer, 0, n * 8);
    for (let i = 0; i < n; i++) putInt64(i, events[from + i].seen_ms * 1000);
    duckdb.copy_data_to_vector(vector(1), 0, int64.buffer, 0, n * 8);
    writeText(vector(2), events, from, n, (e) => e.zone_id);
    for (let i = 0; i < n; i++) flags[i] = events[from + i].is_bot === true ? 1 : 0;
    duckdb.copy_data_to_vector(vector(10), 0, flags.buffer, 0, n);
    for (const [c, get] of TEXT) writeText(vector(c), events, from, n, get);
    writeKeys(vector(12), vector(13), n, from === 0 ? keyed : undefined);
    a.appendDataChunk(chunk);
  }
}

/** Appends every event (the first with the batch's keys) and flushes (all or nothing), then closes the appender. */
function fill(conn: DuckDBConnection, a: DuckDBAppender, events: readonly ReferrerEvent[], keyed: KeyCell | undefined): void {
  try {
    const chunk = chunkFor(conn, a);
    if (chunk !== null && chunkable(events, keyed)) appendChunks(a, chunk, events, keyed);
    else appendRows(a, events, keyed);
    a.flushSync();
  } catch (e) {
    a.clear();
    throw e;
  } finally {
    a.closeSync();
  }
}

async function write(conn: DuckDBConnection, events: readonly ReferrerEvent[], keyed?: KeyCell): Promise<void> {
  if (events.length < TRANSACTION_FROM) {
    fill(conn, await conn.createAppender('referrer_event'), events, keyed);
    return;
  }
  await conn.run('BEGIN TRANSACTION');
  try {
    fill(conn, await conn.createAppender('referrer_event'), events, keyed);
    await conn.run('COMMIT');
  } catch (e) {
    await conn.run('ROLLBACK').catch(() => {}); // nothing to roll back when COMMIT itself failed
    throw e;
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
      const taken = (await readAll(conn, seen.sql, seen.params)).getRows();
      if (taken.length > 0) throw new EventKeyConflict(new Set(taken.map((r) => String(r[0]))));
    }
    const now = Date.now();
    await write(conn, events, { keys: keys.join(KEY_SEPARATOR), addedMs: now });
    for (const f of prints) index.add(f, now);
  });
}
