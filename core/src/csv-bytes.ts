// CSV cells written as UTF-8 bytes into one growing buffer (issue 29: the zone export writes
// millions of figures). A number's text is its digits written from a whole number, no string
// made on the way; every text is the string writers' exactly — plainDecimal (a figure at its
// stored precision) and shownFigureText (a ratio at its shown decimals) — which stay the
// reference: a number outside the fast ways (exponents, 16+ digits, within noise of a half) is
// written through them. csv-bytes.test.ts compares the two on millions of doubles.
import { jsonNumber, plainDecimal, shownFigureText } from './rounding.js';

/** Exact powers of ten (10^22 is the last a double holds exactly). */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);
/** 10^-k as doubles (not exact: only a first guess of an exponent is taken from them). */
const TENTHS = Array.from({ length: 8 }, (_, k) => 10 ** -k);
const MINUS = 45;
const ZERO = 48;
const encoder = new TextEncoder();

/** A buffer of CSV bytes being written; `take()` hands over what was written and starts afresh. */
export class CsvBytes {
  bytes: Uint8Array;
  at = 0;
  constructor(capacity = 1 << 16) {
    this.bytes = new Uint8Array(capacity);
  }

  /** Room for `n` more bytes. */
  room(n: number): void {
    if (this.at + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.at + n));
    grown.set(this.bytes.subarray(0, this.at));
    this.bytes = grown;
  }

  /** The bytes written so far (a copy of their own); the buffer is reused. */
  take(): Uint8Array {
    const out = this.bytes.slice(0, this.at);
    this.at = 0;
    return out;
  }

  byte(b: number): void {
    this.room(1);
    this.bytes[this.at++] = b;
  }

  /** Bytes already encoded (a text cell, a separator). */
  raw(b: Uint8Array): void {
    const n = b.length;
    this.room(n);
    const bytes = this.bytes;
    let at = this.at;
    for (let i = 0; i < n; i++) bytes[at++] = b[i];
    this.at = at;
  }

  /**
   * A text cell that is written as it stands — printable ASCII without quotes, separators or a
   * first character a spreadsheet reads as a formula (csv.ts's guard and quoting leave it so) —
   * and true; false, with nothing written, for any other text.
   */
  plainText(text: string): boolean {
    const n = text.length;
    this.room(n);
    const bytes = this.bytes;
    const start = this.at;
    if (n > 0) {
      const first = text.charCodeAt(0);
      if (first === 61 || first === 43 || first === 45 || first === 64) return false;
    }
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 32 || c > 126 || c === 34 || c === 44 || c === 59) return false;
      bytes[start + i] = c;
    }
    this.at = start + n;
    return true;
  }

  /** A figure's text written the slow way (ASCII digits, '-', '.'), with `mark` as its decimal mark. */
  private figureText(text: string, mark: number): void {
    const n = text.length;
    this.room(n);
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      this.bytes[this.at++] = c === 46 ? mark : c;
    }
  }

  /** The number `shape` measured, without its fraction's trailing zeros: its high and low nine digits, its decimals left, its digit count. */
  private high = 0;
  private low = 0;
  private d = 0;
  private n = 0;

  /**
   * Measures the whole number `units` (0 ≤ units < 10^15) with `decimals` of its digits after the
   * decimal mark for `put`, the fraction's trailing zeros dropped (and the mark with them when
   * nothing is left: 12340 at 3 decimals is 12.34, 5 at 2 is 0.05, 500 at 2 is 5), in int32
   * halves (no division of a double a digit); returns the length of its text.
   */
  private shape(units: number, decimals: number): number {
    let high = 0;
    let low = units;
    if (units >= 2147483648) {
      // Exact: the quotient is at least 1e-9 from the next whole number, far more than its rounding.
      high = Math.floor(units / 1e9);
      low = units - high * 1e9;
    }
    let d = units === 0 ? 0 : decimals;
    while (d > 0 && low % 10 === 0) {
      low = ((low / 10) | 0) + (high % 10) * 1e8;
      high = (high / 10) | 0;
      d--;
    }
    let n = 1;
    if (high > 0) {
      n = 10;
      while (high >= POW10[n - 9]) n++;
    } else while (n < 10 && low >= POW10[n]) n++;
    this.high = high;
    this.low = low;
    this.d = d;
    this.n = n;
    return (n > d ? n - d : 1) + (d > 0 ? d + 1 : 0);
  }

  /** Writes the number `shape` measured, '-' first when `negative`. */
  private put(negative: boolean, mark: number): void {
    const { d, n } = this;
    const length = (n > d ? n - d : 1) + (d > 0 ? d + 1 : 0) + (negative ? 1 : 0);
    this.room(length);
    const bytes = this.bytes;
    const start = this.at;
    if (negative) bytes[start] = MINUS;
    let p = start + length - 1;
    // The mark's place; 0. and the fraction's leading zeros when the number is under 1.
    const markAt = d > 0 ? p - d : -1;
    if (n <= d) {
      bytes[markAt - 1] = ZERO;
      for (let z = markAt + 1; z < start + length - n; z++) bytes[z] = ZERO;
    }
    if (d > 0) bytes[markAt] = mark;
    let u = this.low;
    const lowDigits = this.high > 0 ? 9 : n;
    for (let j = 0; j < lowDigits; j++) {
      if (p === markAt) p--;
      const q = (u / 10) | 0;
      bytes[p--] = ZERO + u - q * 10;
      u = q;
    }
    u = this.high;
    for (let j = lowDigits; j < n; j++) {
      if (p === markAt) p--;
      const q = (u / 10) | 0;
      bytes[p--] = ZERO + u - q * 10;
      u = q;
    }
    this.at = start + length;
  }

  /** plainDecimal(value) with `mark` as its decimal mark ('' when not a finite number). */
  stored(value: number, mark: number): void {
    if (!Number.isFinite(value)) return;
    const a = Math.abs(value);
    if (Number.isInteger(value)) {
      if (a < 1e15) {
        this.shape(a, 0);
        this.put(value < 0, mark);
        return;
      }
    } else if (a >= 1e-6 && a < 1e15) {
      // Its 15 significant digits (plainDecimal's text for any such double): a × 10^(14−e) rounded,
      // e its decimal exponent. The product is within 1/16 of the exact one (below 2^50), so its
      // rounding is the exact one's unless it lies within that of a half: those take the slow way.
      // e from the powers (most figures lie a step or two from 1); off by one at a power's edge, mended below.
      let e = 0;
      if (a >= 1) while (e < 14 && a >= POW10[e + 1]) e++;
      else {
        e = -1;
        while (e > -6 && a < TENTHS[-e]) e--;
      }
      let scaled = a * POW10[14 - e];
      if (scaled >= 1e15) scaled = a * POW10[14 - ++e];
      else if (scaled < 1e14) scaled = a * POW10[14 - --e];
      const half = scaled - Math.floor(scaled) - 0.5;
      // Rounding up to 10^15 (…9.96 → 10) is left to the slow way too.
      if (scaled >= 1e14 && scaled < 1e15 - 0.5 && (half > 0.0626 || half < -0.0626)) {
        this.shape(Math.round(scaled), 14 - e);
        this.put(value < 0, mark);
        return;
      }
    }
    this.figureText(plainDecimal(value), mark);
  }

  /** shownFigureText(value, decimals) with `mark` as its decimal mark ('' when not a finite number). */
  shown(value: number, decimals: number, mark: number): void {
    if (!Number.isFinite(value)) return;
    // roundedText's steps, the digits written from the whole number.
    const v = decimals === 2 ? value : jsonNumber(value);
    let scaled = Math.abs(v) * POW10[decimals];
    if (Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-6) scaled = Number(scaled.toPrecision(15));
    const units = Math.round(scaled);
    if (units === 0) {
      this.byte(ZERO);
      return;
    }
    if (decimals <= 6 && units < 1e15 && this.shape(units, decimals) + (v < 0 ? 1 : 0) <= 15) {
      this.put(v < 0, mark);
      return;
    }
    this.figureText(shownFigureText(value, decimals), mark);
  }
}

/** A text's UTF-8 bytes. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}
