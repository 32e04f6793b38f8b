// One rounding rule: facts keep their stored precision and a figure is rounded once, when it is
// shown, half away from zero on the decimal it stands for. Machine output follows from it: JSON
// answers carry figures to 4 decimals, CSV exports the stored precision without binary noise.

/** Significant digits a double holds for sure: beyond them is binary noise (0.1 + 0.2 → 0.3). */
const SIGNIFICANT = 15;

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * A number rounded half away from zero to `decimals`, on the decimal it stands for: 1.005 → 1.01
 * (its double is 1.00499999…), a sum carrying noise (52721.404999999999) → 52721.41; no -0.
 * Null when the value is not a finite number.
 */
export function roundTo(value: unknown, decimals: number): number | null {
  if (!finite(value)) return null;
  const factor = 10 ** decimals;
  let scaled = Math.abs(value) * factor;
  // Only a value within noise of a half needs its decimal read back (the slow part).
  if (Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-6) scaled = Number(scaled.toPrecision(SIGNIFICANT));
  const rounded = Math.round(scaled) / factor;
  return rounded === 0 ? 0 : Math.sign(value) * rounded;
}

/** Text of `units` × 10^-decimals (units a whole number ≥ 0): its digits with the point put in, trailing zeros dropped. */
function unitsText(units: number, decimals: number): string {
  let digits = String(units);
  if (decimals === 0) return digits;
  if (digits.length <= decimals) digits = '0'.repeat(decimals - digits.length + 1) + digits;
  const point = digits.length - decimals;
  let end = digits.length;
  while (end > point && digits.charCodeAt(end - 1) === 48) end--;
  return end === point ? digits.slice(0, point) : `${digits.slice(0, point)}.${digits.slice(point, end)}`;
}

/**
 * `plainDecimal(roundTo(value, decimals))` without writing a double out: the rounded figure is the
 * whole number Math.round(|value| × 10^decimals) divided by 10^decimals, and a division is
 * correctly rounded, so that double's shortest text is that whole number's digits with the point
 * put in — as long as it has at most 15 significant digits (every figure an export shows). Writing
 * a whole number is a few times cheaper than writing a double, and a million-row export writes
 * seven such figures a row. Anything longer is written the plain way. '' when not a finite number.
 */
export function roundedText(value: unknown, decimals: number): string {
  if (!finite(value)) return '';
  const factor = 10 ** decimals;
  let scaled = Math.abs(value) * factor;
  if (Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-6) scaled = Number(scaled.toPrecision(SIGNIFICANT));
  const units = Math.round(scaled);
  if (units === 0) return '0';
  if (units >= 1e15 || decimals > 6) return plainDecimal(roundTo(value, decimals) as number);
  const text = unitsText(units, decimals);
  if (text.length + (value < 0 ? 1 : 0) > SIGNIFICANT) return plainDecimal(roundTo(value, decimals) as number);
  return value < 0 ? `-${text}` : text;
}

/** A number without binary noise: its shortest decimal within 15 significant digits (895.3009999999999 → 895.301). */
export function withoutNoise(value: number): number {
  if (Number.isInteger(value) || String(value).length <= SIGNIFICANT) return value;
  const clean = Number(value.toPrecision(SIGNIFICANT));
  return clean === 0 ? 0 : clean;
}

/** '1.2300' → '1.23', '5.000' → '5' (a decimal text with a point). */
function trimZeros(text: string): string {
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48) end--;
  if (text.charCodeAt(end - 1) === 46) end--;
  return text.slice(0, end);
}

/**
 * A number as an export writes it: the stored precision without binary noise, in plain decimal
 * notation (never '1e-7'), '.' as the decimal separator.
 */
export function plainDecimal(value: number): string {
  const stored = String(value);
  // Short and without an exponent (most stored figures): nothing to clean.
  if (stored.length <= SIGNIFICANT && !stored.includes('e')) return stored;
  // withoutNoise(value) written out, reusing `stored` (an export formats millions of figures).
  if (!Number.isInteger(value)) {
    // 15 significant digits without their trailing zeros are the shortest text of the double they
    // read as (no two such decimals share one), so this is String(withoutNoise(value)) without
    // parsing it back and writing it out again (a noisy figure costs two conversions, not three).
    const precise = value.toPrecision(SIGNIFICANT);
    if (!precise.includes('e')) return precise.includes('.') ? trimZeros(precise) : precise;
  }
  const clean = Number.isInteger(value) || stored.length <= SIGNIFICANT ? value : Number(value.toPrecision(SIGNIFICANT));
  const text = clean === value ? stored : String(clean === 0 ? 0 : clean);
  if (!text.includes('e')) return text;
  // Exponent notation: below 1e-6 or above 1e21; 15 significant digits at most either way.
  const exponent = Math.floor(Math.log10(Math.abs(value)));
  const fixed = value.toFixed(Math.min(100, Math.max(0, SIGNIFICANT - 1 - exponent)));
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/** Decimals a figure keeps in a JSON answer (money, ratios and percentages alike; counts are whole). */
export const JSON_DECIMALS = 4;

/**
 * A figure as a JSON answer carries it: 4 decimals at most, and never across a half cent — a face
 * that rounds it to 2 decimals shows the exact figure's cents (1.00496 → 1.0049, not 1.005).
 */
export function jsonNumber(value: number): number {
  if (Number.isInteger(value)) return value;
  const r4 = roundTo(value, JSON_DECIMALS)!;
  if (roundTo(r4, 2) === roundTo(value, 2)) return r4;
  return roundTo(r4 - Math.sign(value) * 10 ** -JSON_DECIMALS, JSON_DECIMALS)!;
}

/**
 * A figure as every face shows it at `decimals`: rounded once from what JSON carries. For 2
 * decimals (and 0) that is the exact figure rounded once; an export writing a ratio at its shown
 * decimals writes this, so a 4-decimal figure (RPV, CPC) reads the same in the file and on screen.
 */
export function shownFigure(value: unknown, decimals: number): number | null {
  if (!finite(value)) return null;
  // At 2 decimals JSON's figure rounds as the exact one does (jsonNumber's promise): skip it.
  return decimals === 2 ? roundTo(value, 2) : roundTo(jsonNumber(value), decimals);
}

/** `plainDecimal(shownFigure(value, decimals))` ('' when not a finite number), written the cheap way (roundedText). */
export function shownFigureText(value: unknown, decimals: number): string {
  if (!finite(value)) return '';
  return roundedText(decimals === 2 ? value : jsonNumber(value), decimals);
}

/** Numbers in answers that are settings, not figures: kept as stored (an exchange rate, a revenue share). */
const SETTINGS = new Set(['rate', 'revenue_share']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A JSON answer with every figure at any depth (rows, totals, cards, month columns, alert
 * figures) rounded by `jsonNumber`: `"spend": 895.3009999999999` → 895.301, a CTR of
 * 1.0639223706540186 → 1.0639. Whole numbers, text and settings (`rate`, `revenue_share`) stay.
 * The server answers every JSON body through it; the terminal's --json too.
 */
export function jsonFigures<T>(value: T, key?: string): T {
  if (typeof value === 'number') return (key !== undefined && SETTINGS.has(key) ? value : finite(value) ? jsonNumber(value) : value) as T;
  if (Array.isArray(value)) return value.map((v) => jsonFigures(v, key)) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) out[k] = jsonFigures(value[k], k);
  return out as T;
}
