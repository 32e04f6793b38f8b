// A streamed chunk's columns read straight from DuckDB's vectors (issue 29: the export's engine
// side): a number column is read from the vector's own memory as a typed array, a BIGINT from its
// two 32-bit halves (no BigInt a value), validity as bits; a short text (DuckDB keeps up to 12
// bytes inline) is decoded once and looked up by its 16 bytes after that, since an export's
// advertisers, publishers, countries and zone ids repeat row after row. Other types take the
// library's values. The answers are the library's exactly (duckdb-columns.test.ts).
import duckdb from '@duckdb/node-bindings';
import { type DuckDBDataChunk, DuckDBDateValue, type DuckDBType, DuckDBTypeId, type DuckDBValue } from '@duckdb/node-api';
import { LITTLE_ENDIAN } from './vectors.js';

export type Plain = string | number | boolean | null | Plain[];

/** Reads one column of a chunk as plain values (`rows` of them); null when the vector's memory is not aligned for its typed array. */
type ColumnReader = (vector: duckdb.Vector, rows: number) => Plain[] | null;

/** The vector's memory for `rows` values of `bytesPer` bytes, or null when a typed array cannot start at it. */
function dataOf(vector: duckdb.Vector, rows: number, bytesPer: number): Uint8Array | null {
  const data = duckdb.vector_get_data(vector, rows * bytesPer);
  return data.byteOffset % Math.min(bytesPer, 8) === 0 ? data : null;
}

/** The validity bits of a vector (null: every value is valid). Bit i of the little-endian words is byte i>>3, bit i&7. */
function validityOf(vector: duckdb.Vector, rows: number): Uint8Array | null {
  return duckdb.vector_get_validity(vector, Math.ceil(rows / 64) * 8) ?? null;
}

const isValid = (bits: Uint8Array | null, i: number) => bits === null || ((bits[i >> 3] >> (i & 7)) & 1) === 1;

/** A fixed-width number column: `view` gives the vector's memory as the type's typed array. */
function numbers(bytesPer: number, view: (data: Uint8Array, rows: number) => ArrayLike<number>): ColumnReader {
  return (vector, rows) => {
    const data = dataOf(vector, rows, bytesPer);
    if (data === null) return null;
    const items = view(data, rows);
    const bits = validityOf(vector, rows);
    const out: Plain[] = new Array(rows);
    for (let i = 0; i < rows; i++) out[i] = isValid(bits, i) ? items[i] : null;
    return out;
  };
}

/** Highest 32-bit half of a BIGINT whose value is exact as a double from the two halves (|value| < 2^53). */
const EXACT_HIGH = 2 ** 21;

function bigints(vector: duckdb.Vector, rows: number): Plain[] | null {
  const data = dataOf(vector, rows, 8);
  if (data === null) return null;
  const halves = new Int32Array(data.buffer, data.byteOffset, rows * 2);
  const bits = validityOf(vector, rows);
  const out: Plain[] = new Array(rows);
  let whole: BigInt64Array | undefined;
  for (let i = 0; i < rows; i++) {
    if (!isValid(bits, i)) out[i] = null;
    else {
      const high = halves[2 * i + 1];
      if (high < EXACT_HIGH && high >= -EXACT_HIGH) out[i] = high * 4294967296 + (halves[2 * i] >>> 0);
      else {
        whole ??= new BigInt64Array(data.buffer, data.byteOffset, rows);
        out[i] = Number(whole[i]);
      }
    }
  }
  return out;
}

/** A day (days since 1970-01-01) as 'YYYY-MM-DD', each day's text made once by this function: an export's rows share a few days. */
export function dayTexts(): (days: number) => string {
  const texts = new Map<number, string>();
  return (days) => {
    let text = texts.get(days);
    if (text === undefined) {
      text = new DuckDBDateValue(days).toString();
      texts.set(days, text);
    }
    return text;
  };
}

/** Dates as 'YYYY-MM-DD' (dayTexts). */
function dates(): ColumnReader {
  const text = dayTexts();
  return (vector, rows) => {
    const data = dataOf(vector, rows, 4);
    if (data === null) return null;
    const days = new Int32Array(data.buffer, data.byteOffset, rows);
    const bits = validityOf(vector, rows);
    const out: Plain[] = new Array(rows);
    for (let i = 0; i < rows; i++) out[i] = isValid(bits, i) ? text(days[i]) : null;
    return out;
  };
}

/** Slots of the inline-text table (a power of two): a column's distinct short texts in one chunk fit many times over. */
const SLOTS = 4096;
const decoder = new TextDecoder();

/**
 * Texts: DuckDB's string_t is 16 bytes, its length then up to 12 bytes inline, or a 4-byte prefix
 * and a pointer. An inline text is found by its four words in a table of the texts decoded so far
 * (two texts with the same four words are the same text); a longer one is decoded from its pointer.
 */
function texts(): ColumnReader {
  const keys = new Uint32Array(SLOTS * 4);
  const known: Array<string | undefined> = new Array(SLOTS);
  return (vector, rows) => {
    const data = dataOf(vector, rows, 16);
    if (data === null) return null;
    const words = new Uint32Array(data.buffer, data.byteOffset, rows * 4);
    const bits = validityOf(vector, rows);
    const out: Plain[] = new Array(rows);
    for (let i = 0; i < rows; i++) {
      if (!isValid(bits, i)) {
        out[i] = null;
        continue;
      }
      const w = 4 * i;
      const length = words[w];
      if (length > 12) {
        const at = data.byteOffset + w * 4 + 8;
        out[i] = decoder.decode(duckdb.get_data_from_pointer(data.buffer as ArrayBuffer, at, length));
        continue;
      }
      const a = words[w + 1];
      const b = words[w + 2];
      const c = words[w + 3];
      const slot = (Math.imul(length ^ a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b) ^ Math.imul(c, 0xc2b2ae35)) >>> 20;
      const k = 4 * slot;
      let text = known[slot];
      if (text === undefined || keys[k] !== length || keys[k + 1] !== a || keys[k + 2] !== b || keys[k + 3] !== c) {
        text = decoder.decode(data.subarray(w * 4 + 4, w * 4 + 4 + length));
        keys[k] = length;
        keys[k + 1] = a;
        keys[k + 2] = b;
        keys[k + 3] = c;
        known[slot] = text;
      }
      out[i] = text;
    }
    return out;
  };
}

/**
 * The fast reader of a column type, or null (the library's values then; always on a big-endian
 * host, where the validity words' bytes lie the other way round). A reader keeps its own
 * table of texts or days: one per query.
 */
export function columnReader(type: DuckDBType): ColumnReader | null {
  if (!LITTLE_ENDIAN) return null;
  switch (type.typeId) {
    case DuckDBTypeId.DOUBLE:
      return numbers(8, (data, rows) => new Float64Array(data.buffer, data.byteOffset, rows));
    case DuckDBTypeId.INTEGER:
      return numbers(4, (data, rows) => new Int32Array(data.buffer, data.byteOffset, rows));
    case DuckDBTypeId.BIGINT:
      return bigints;
    case DuckDBTypeId.DATE:
      return dates();
    case DuckDBTypeId.VARCHAR:
      return texts();
    default:
      return null;
  }
}

/** A chunk's column `c` through `reader`, or the library's values made plain by `plain`. */
export function readColumn(chunk: DuckDBDataChunk, c: number, reader: ColumnReader | null, plain: (values: DuckDBValue[]) => Plain[]): Plain[] {
  return reader?.(duckdb.data_chunk_get_vector(chunk.chunk, c), chunk.rowCount) ?? plain(chunk.getColumnValues(c));
}
