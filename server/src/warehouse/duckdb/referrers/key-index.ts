// The idempotency keys of the window, in memory: a 64-bit fingerprint of each stored key, one
// compact open-addressing set per UTC day of arrival (a day is dropped whole once past the
// window). It answers "certainly new" for almost every key without touching DuckDB, whose
// primary-key index and joins cost more per key than storing the event itself; a key it may
// hold is confirmed against referrer_event_key (get-seen-keys.ts). DuckDB has one process per
// file, so the process's index sees every key; it is loaded from the table at open.
import type { Db } from '../db.js';
import { hash64 } from '../../event-key.js';

const DAY_MS = 86_400_000;

/** Every stored batch of keys (one per line) with when it was stored: on events and in referrer_event_key. */
export const STORED_KEYS = `(
  SELECT keys, added_at FROM referrer_event_key
  UNION ALL
  SELECT event_key AS keys, key_added_at AS added_at FROM referrer_event WHERE event_key IS NOT NULL
)`;

/** Between the keys of one batch in referrer_event_key.keys (keys are printable ASCII). */
export const KEY_SEPARATOR = '\n';

/** A key's fingerprint: two 32-bit halves (`lo` never 0, the empty slot). */
export interface Fingerprint {
  hi: number;
  lo: number;
}

export function fingerprint(key: string): Fingerprint {
  const h = hash64(key);
  return { hi: h.hi, lo: h.lo | 1 };
}

/** A set of fingerprints: linear probing over two Int32Arrays, at most half full. */
class FingerprintSet {
  private hi: Int32Array;
  private lo: Int32Array;
  private size = 0;

  constructor(capacity = 1024) {
    this.hi = new Int32Array(capacity);
    this.lo = new Int32Array(capacity);
  }

  has(f: Fingerprint): boolean {
    const mask = this.lo.length - 1;
    for (let i = f.lo & mask; this.lo[i] !== 0; i = (i + 1) & mask) if (this.lo[i] === f.lo && this.hi[i] === f.hi) return true;
    return false;
  }

  add(f: Fingerprint): void {
    if ((this.size + 1) * 2 > this.lo.length) this.grow();
    const mask = this.lo.length - 1;
    let i = f.lo & mask;
    for (; this.lo[i] !== 0; i = (i + 1) & mask) if (this.lo[i] === f.lo && this.hi[i] === f.hi) return;
    this.hi[i] = f.hi;
    this.lo[i] = f.lo;
    this.size++;
  }

  private grow(): void {
    const { hi, lo } = this;
    this.hi = new Int32Array(lo.length * 2);
    this.lo = new Int32Array(lo.length * 2);
    this.size = 0;
    for (let i = 0; i < lo.length; i++) if (lo[i] !== 0) this.add({ hi: hi[i], lo: lo[i] });
  }
}

export class KeyIndex {
  private readonly days = new Map<number, FingerprintSet>();

  /** Whether a key with this fingerprint may be stored (false: certainly not). */
  mayHold(f: Fingerprint): boolean {
    for (const set of this.days.values()) if (set.has(f)) return true;
    return false;
  }

  add(f: Fingerprint, addedMs: number): void {
    const day = Math.floor(addedMs / DAY_MS);
    let set = this.days.get(day);
    if (!set) {
      set = new FingerprintSet();
      this.days.set(day, set);
    }
    set.add(f);
  }

  /** Forgets the days wholly before `ms` (a day partly before it stays: confirmation checks the instant). */
  dropBefore(ms: number): void {
    for (const day of this.days.keys()) if ((day + 1) * DAY_MS <= ms) this.days.delete(day);
  }

  /** The index of every key stored (on events and in referrer_event_key). */
  static async load(db: Db): Promise<KeyIndex> {
    const index = new KeyIndex();
    for await (const rows of db.stream<{ keys: string; at: number }>(`SELECT keys, epoch_ms(added_at) AS at FROM ${STORED_KEYS}`))
      for (const r of rows) for (const key of r.keys.split(KEY_SEPARATOR)) index.add(fingerprint(key), r.at);
    return index;
  }
}
