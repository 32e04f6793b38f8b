// Reads a result in ClickHouse's Native format (its own columnar blocks, as the server holds
// them) into JS columns: what the zone CSV's export windows are read as. JSON cost the engine
// more to write than the query itself, and JS as much again to parse: 1.5 M zone rows in 20
// windows took 6.9–12.2 s of CPU as JSONColumnsWithMetadata, 2.6–2.8 s as Native (chdb, a loaded
// 2-CPU box); the whole export 1.7× less. Values are made a chunk at a time (a block's columns
// located first), so a chunk's arrays die young, and a short text that repeats is made once;
// the values come out as JSON would give them: a Date32 as 'YYYY-MM-DD', 64-bit integers as
// numbers (exact below 2^53, as output_format_json_quote_64bit_integers = 0 gives them), NaN
// and infinities as null (JSON's null), NULL as null.
// A block: the number of columns and of rows (LEB128), then each column's name and type (each a
// LEB128 length and its bytes) and its rows' values: fixed-width numbers little-endian, a
// String as a LEB128 length and its bytes, a Nullable as a byte per row (1: NULL) then its values.
// Only the types the warehouse's results hold are read; any other is refused by name.

/** A chunk of a block: `rows` values of each column, by name in the result's order. */
export interface NativeChunk {
  rows: number;
  names: string[];
  columns: Record<string, unknown[]>;
}

/** A Date32's text, 'YYYY-MM-DD', by its days since 1970-01-01 (few distinct days: each written once). */
const dayTexts = new Map<number, string>();
function dayText(days: number): string {
  let text = dayTexts.get(days);
  if (text === undefined) {
    text = new Date(days * 86_400_000).toISOString().slice(0, 10);
    if (dayTexts.size >= 100_000) dayTexts.clear();
    dayTexts.set(days, text);
  }
  return text;
}

const finite = (v: number) => (Number.isFinite(v) ? v : null);

/** Slots of the short-text table (a power of two): a column's distinct short texts in a chunk fit many times over. */
const SLOTS = 4096;

/**
 * Short texts (up to 12 bytes) found by their bytes in a table of the texts read so far, so a
 * text that repeats row after row (a day's advertiser, publisher, geo, domain) is made once;
 * a longer or new one is decoded from the bytes. One table per result.
 */
class Texts {
  private readonly keys = new Int32Array(SLOTS * 4);
  private readonly known: Array<string | undefined> = new Array(SLOTS);

  constructor(private readonly buf: Buffer) {}

  text(a: number, b: number): string {
    const buf = this.buf;
    const length = b - a;
    if (length > 12) return buf.toString('utf8', a, b);
    let w0 = 0;
    let w1 = 0;
    let w2 = 0;
    for (let k = 0; k < length; k++) {
      const byte = buf[a + k] << ((k & 3) * 8);
      if (k < 4) w0 |= byte;
      else if (k < 8) w1 |= byte;
      else w2 |= byte;
    }
    const slot = (Math.imul(length ^ w0, 0x9e3779b1) ^ Math.imul(w1, 0x85ebca6b) ^ Math.imul(w2, 0xc2b2ae35)) >>> 20;
    const k = 4 * slot;
    const keys = this.keys;
    let text = this.known[slot];
    if (text === undefined || keys[k] !== length || keys[k + 1] !== w0 || keys[k + 2] !== w1 || keys[k + 3] !== w2) {
      text = buf.toString('utf8', a, b);
      keys[k] = length;
      keys[k + 1] = w0;
      keys[k + 2] = w1;
      keys[k + 3] = w2;
      this.known[slot] = text;
    }
    return text;
  }
}

/** Each fixed-width type's bytes a value and its value as JSON would give it, read at a byte offset. */
const FIXED: Record<string, { width: number; read: (buf: Buffer, at: number) => unknown }> = {
  Date32: { width: 4, read: (buf, at) => dayText(buf.readInt32LE(at)) },
  Date: { width: 2, read: (buf, at) => dayText(buf.readUInt16LE(at)) },
  Float64: { width: 8, read: (buf, at) => finite(buf.readDoubleLE(at)) },
  Float32: { width: 4, read: (buf, at) => finite(buf.readFloatLE(at)) },
  Int64: { width: 8, read: (buf, at) => buf.readInt32LE(at + 4) * 4_294_967_296 + buf.readUInt32LE(at) },
  UInt64: { width: 8, read: (buf, at) => buf.readUInt32LE(at + 4) * 4_294_967_296 + buf.readUInt32LE(at) },
  Int32: { width: 4, read: (buf, at) => buf.readInt32LE(at) },
  UInt32: { width: 4, read: (buf, at) => buf.readUInt32LE(at) },
  UInt8: { width: 1, read: (buf, at) => buf[at] },
  Bool: { width: 1, read: (buf, at) => buf[at] !== 0 },
};

/** Where a block's column lies: its NULL map, and its values — a String's as each value's bounds, any other's from `at`, read by its type's reader. */
interface Column {
  name: string;
  nulls: number | undefined;
  at: number;
  fixed?: (typeof FIXED)[string];
  starts?: Int32Array;
  ends?: Int32Array;
}

class Reader {
  at = 0;
  constructor(readonly buf: Buffer) {}

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.at >= this.buf.length) throw new Error('Native: the result ends inside a block');
      const b = this.buf[this.at++];
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
    }
  }

  need(bytes: number): number {
    const at = this.at;
    if (at + bytes > this.buf.length) throw new Error('Native: the result ends inside a block');
    this.at = at + bytes;
    return at;
  }

  text(): string {
    const n = this.varint();
    const at = this.need(n);
    return this.buf.toString('utf8', at, at + n);
  }

  /** A column of `rows` values: where it lies, then past it. */
  column(rows: number): Column {
    const name = this.text();
    const declared = this.text();
    const inner = /^Nullable\((.+)\)$/.exec(declared);
    const type = inner ? inner[1] : declared;
    const nulls = inner ? this.need(rows) : undefined;
    if (type === 'String') {
      const starts = new Int32Array(rows);
      const ends = new Int32Array(rows);
      for (let i = 0; i < rows; i++) {
        const n = this.varint();
        starts[i] = this.need(n);
        ends[i] = starts[i] + n;
      }
      return { name, nulls, at: 0, starts, ends };
    }
    const fixed = Object.hasOwn(FIXED, type) ? FIXED[type] : undefined;
    if (fixed === undefined) throw new Error(`Native: a column of type ${declared} is not read here`);
    return { name, nulls, at: this.need(fixed.width * rows), fixed };
  }
}

/** Rows [from, from + n) of a column, as JSON would give them. */
function values(buf: Buffer, texts: Texts, col: Column, from: number, n: number): unknown[] {
  const out = new Array<unknown>(n);
  const { at, nulls, fixed, starts, ends } = col;
  for (let j = 0; j < n; j++) {
    const i = from + j;
    if (nulls !== undefined && buf[nulls + i] !== 0) out[j] = null;
    else if (fixed !== undefined) out[j] = fixed.read(buf, at + fixed.width * i);
    else out[j] = texts.text(starts![i], ends![i]);
  }
  return out;
}

/**
 * A Native result (`buf`: its bytes, whole) as chunks of at most `chunkRows` rows: each block's
 * columns are located first, then each chunk's values made — a chunk's arrays are short-lived,
 * not a block's 65,000 values a column.
 */
export function* nativeChunks(buf: Buffer, chunkRows: number): Generator<NativeChunk> {
  const r = new Reader(buf);
  const texts = new Texts(buf);
  while (r.at < buf.length) {
    const width = r.varint();
    const rows = r.varint();
    const block: Column[] = [];
    for (let c = 0; c < width; c++) block.push(r.column(rows));
    const names = block.map((c) => c.name);
    for (let from = 0; from < rows; from += chunkRows) {
      const n = Math.min(chunkRows, rows - from);
      const columns: Record<string, unknown[]> = {};
      for (const col of block) columns[col.name] = values(buf, texts, col, from, n);
      yield { rows: n, names, columns };
    }
  }
}
