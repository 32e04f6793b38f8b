// Column vectors of a DuckDB data chunk written from JS rows with few native calls: numbers and
// validity copied as whole buffers, short ASCII text inlined in its 16-byte slot, a column's
// longer ASCII text assigned in one call with its slots pointing into it; only text that is not
// ASCII costs a call per value. Native calls cost more than DuckDB's own work when values are
// appended one by one (referrer events and zone-report imports both write through here).
import { endianness } from 'node:os';
import duckdb from '@duckdb/node-bindings';

export const LITTLE_ENDIAN = endianness() === 'LE';
const TWO_32 = 4_294_967_296;

/** Reusable column buffers of one chunk: each chunk is written synchronously, so writers share them. */
export const ROWS = duckdb.vector_size();
export const int64 = new Uint32Array(ROWS * 2);
/** 16-byte string slots: length (uint32) then up to 12 bytes inlined. */
export const slots = new Uint8Array(ROWS * 16);
const slotWords = new Uint32Array(slots.buffer);
/** Validity bits, one per row (a whole number of uint64 words). */
export const validity = new Uint8Array(Math.ceil(ROWS / 64) * 8);
export const validityBytes = (rows: number) => Math.ceil(rows / 64) * 8;

export function putInt64(at: number, v: number): void {
  int64[at * 2] = v >>> 0;
  int64[at * 2 + 1] = Math.floor(v / TWO_32);
}

/**
 * Long text of one column (over 12 characters): each row's value, the distinct values in order,
 * and each row's place among them (a value equal to the previous row's shares its place).
 */
const longRows: number[] = [];
const longValues: string[] = [];
const longPlace: number[] = [];
/** Where each distinct long value starts in their concatenation (characters = bytes: ASCII). */
const longAt: number[] = [];
/** Text of one chunk not ASCII (or long text not all ASCII): row, value, row, value… assigned one call each. */
const oneByOne: Array<number | string> = [];
const utf8 = new TextEncoder();
/** The concatenation's bytes (a buffer kept while chunks need at most JOINED_KEPT). */
const JOINED_KEPT = 1 << 20;
let joinedBytes = new Uint8Array(ROWS * 64);

/**
 * Writes one text column of rows [from, from + n): inline slots and validity as buffers. Long
 * ASCII text goes in one call: the column's distinct long values, concatenated, are assigned to
 * the first long row, whose slot then tells where DuckDB put those bytes; every long row's slot
 * (length, 4-byte prefix, pointer) is then written to point at its value inside them — one
 * allocation the vector holds until the chunk is reset, as its own strings. Text that is not
 * ASCII is assigned value by value.
 */
export function writeText<T>(vector: duckdb.Vector, rows: readonly T[], from: number, n: number, get: (row: T) => string | null): void {
  slots.fill(0, 0, n * 16);
  let nulls = 0;
  longRows.length = 0;
  longValues.length = 0;
  longPlace.length = 0;
  oneByOne.length = 0;
  let prev: string | null = null;
  let prevRow = -1;
  for (let i = 0; i < n; i++) {
    const v = get(rows[from + i]);
    if (v === null) {
      if (nulls++ === 0) validity.fill(255, 0, validityBytes(n));
      validity[i >> 3] &= ~(1 << (i & 7));
      continue;
    }
    const len = v.length;
    if (len <= 12) {
      if (v === prev && prevRow >= 0) {
        // the previous row's inlined slot, word by word
        const a = i * 4;
        const b = prevRow * 4;
        slotWords[a] = slotWords[b];
        slotWords[a + 1] = slotWords[b + 1];
        slotWords[a + 2] = slotWords[b + 2];
        slotWords[a + 3] = slotWords[b + 3];
        continue;
      }
      const base = i * 16 + 4;
      let k = 0;
      for (; k < len; k++) {
        const ch = v.charCodeAt(k);
        if (ch > 0x7f) break;
        slots[base + k] = ch;
      }
      if (k === len) {
        slotWords[i * 4] = len;
        prev = v;
        prevRow = i;
        continue;
      }
      slots.fill(0, base, base + 12);
      oneByOne.push(i, v);
      continue;
    }
    if (v !== prev || prevRow >= 0) {
      longValues.push(v);
      prev = v;
      prevRow = -1;
    }
    longRows.push(i);
    longPlace.push(longValues.length - 1);
  }
  if (longRows.length > 0 && !writeLongAscii(vector)) for (let j = 0; j < longRows.length; j++) oneByOne.push(longRows[j], longValues[longPlace[j]]);
  duckdb.copy_data_to_vector(vector, 0, slots.buffer, 0, n * 16);
  for (let j = 0; j < oneByOne.length; j += 2) duckdb.vector_assign_string_element(vector, oneByOne[j] as number, oneByOne[j + 1] as string);
  if (nulls > 0) setValidity(vector, n);
}

/** The long rows' slots, pointing into their values assigned at once; false (nothing written) when they are not all ASCII. */
function writeLongAscii(vector: duckdb.Vector): boolean {
  let length = 0;
  longAt.length = 0;
  for (const v of longValues) {
    longAt.push(length);
    length += v.length;
  }
  // ASCII needs a byte per character: encoding stops short of the end otherwise.
  const bytes = length <= joinedBytes.length ? joinedBytes : new Uint8Array(length);
  if (bytes.length > joinedBytes.length && length <= JOINED_KEPT) joinedBytes = bytes;
  const { read, written } = utf8.encodeInto(longValues.join(''), bytes);
  if (read !== length || written !== length) return false; // not ASCII: bytes and characters differ
  const first = longRows[0];
  duckdb.vector_assign_string_element_len(vector, first, bytes.subarray(0, length));
  const head = duckdb.vector_get_data(vector, (first + 1) * 16); // a copy, the pointer included
  const at = new DataView(head.buffer, head.byteOffset + first * 16, 16);
  if (at.getUint32(0, true) !== length) return false; // not where it was put: assign them one by one
  const lo = at.getUint32(8, true);
  const hi = at.getUint32(12, true);
  for (let j = 0; j < longRows.length; j++) {
    const place = longPlace[j];
    const v = longValues[place];
    const i = longRows[j];
    const base = i * 16;
    slotWords[i * 4] = v.length;
    slots[base + 4] = v.charCodeAt(0);
    slots[base + 5] = v.charCodeAt(1);
    slots[base + 6] = v.charCodeAt(2);
    slots[base + 7] = v.charCodeAt(3);
    const p = lo + longAt[place];
    slotWords[i * 4 + 2] = p >>> 0;
    slotWords[i * 4 + 3] = hi + (p >= TWO_32 ? 1 : 0);
  }
  return true;
}

export function setValidity(vector: duckdb.Vector, n: number): void {
  duckdb.vector_ensure_validity_writable(vector);
  duckdb.copy_data_to_vector_validity(vector, 0, validity.buffer, 0, validityBytes(n));
}
