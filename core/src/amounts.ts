// Money amounts typed by people (campaign budgets and bids): read the Spanish way in every
// browser and terminal, ambiguous ones refused rather than guessed, and amounts written back in
// words for messages ("1.000,00 EUR").
import { formatNumber } from './format.js';

/** What reading a typed amount gives: whole cents (hundredths of the unit), or why it cannot be read. */
export type AmountReading = { ok: true; cents: number } | { ok: false; problem: string };

/** Integer part digits an amount may have (keeps cents exact, far below 2^53). */
const MAX_INTEGER_DIGITS = 9;
/** Thousands separators besides the dot: a space, a no-break space, a narrow no-break space. */
const SPACES = /[ \u00a0\u202f]/;
const EXAMPLE = 'p. ej. 1,50 o 1.500,25';

const refuse = (problem: string): AmountReading => ({ ok: false, problem });

/** "1.500.000" / "1 500" → "1500000" / "1500" when every group after the first has 3 digits; null otherwise. */
function ungroup(text: string, separator: '.' | ' '): string | null {
  const groups = separator === '.' ? text.split('.') : text.split(SPACES);
  if (!/^\d{1,3}$/.test(groups[0]) || groups.slice(1).some((g) => !/^\d{3}$/.test(g))) return null;
  return groups.join('');
}

function cents(integer: string, fraction: string): AmountReading {
  const digits = integer.replace(/^0+(?=\d)/, '');
  if (digits.length > MAX_INTEGER_DIGITS) return refuse('es demasiado grande');
  if (fraction.length > 2) return refuse('admite como máximo 2 decimales');
  return { ok: true, cents: Number(digits || '0') * 100 + Number(fraction.padEnd(2, '0')) };
}

/**
 * Reads an amount as people type it in Spanish. The comma is the decimal separator; dots (or
 * spaces) separate thousands in groups of three. So:
 * - "1,50" → 1,50; "1500" → 1500; "1.500,25" and "1 500,25" → 1500,25; "1.500.000" → 1500000.
 * - A single dot followed by one or two digits can only be a decimal point: "1.50" → 1,50
 *   (how English keyboards and machines write it; "1.50" is also what the faces send).
 * - A single dot followed by exactly three digits ("1.500", "100.000") is ambiguous — a
 *   thousands separator in Spanish, a decimal point in English — and is refused, as is a comma
 *   followed by exactly three digits ("1,500"); so is the English "1,500.25".
 * - More than 2 decimals, signs, letters, currency symbols, exponents and anything else are
 *   refused. Blank is refused too (callers that have a default apply it before).
 * The problem is a phrase to follow the field's name ("Presupuesto diario: es ambiguo…").
 */
export function readAmount(typed: string): AmountReading {
  const text = typed.trim();
  if (text === '') return refuse('escribe un importe');
  if (/^[-\u2212]/.test(text)) return refuse('no puede ser negativo');
  if (!/^[\d.,\u0020\u00a0\u202f]+$/.test(text) || !/\d/.test(text)) return refuse(`escribe solo cifras con la coma para los decimales (${EXAMPLE})`);

  const commas = text.split(',').length - 1;
  const hasSpaces = SPACES.test(text);
  if (commas > 1) return refuse(`tiene más de una coma: la coma separa los decimales (${EXAMPLE})`);
  if (hasSpaces && text.includes('.')) return refuse(`mezcla puntos y espacios: separa los miles con puntos (${EXAMPLE})`);

  if (commas === 1) {
    const [whole, fraction] = text.split(',');
    if (/[.\u0020\u00a0\u202f]/.test(fraction)) return refuse(`usa la coma para los decimales y el punto para los miles (${EXAMPLE})`);
    if (fraction === '') return refuse(`faltan los decimales después de la coma (${EXAMPLE})`);
    if (fraction.length === 3 && couldBeThousands(whole)) return ambiguous(text, whole, fraction);
    if (!/[.\u0020\u00a0\u202f]/.test(whole)) return cents(whole, fraction);
    const joined = ungroup(whole, hasSpaces ? ' ' : '.');
    return joined === null ? refuse(`los miles se separan en grupos de tres cifras (${EXAMPLE})`) : cents(joined, fraction);
  }

  const dots = text.split('.').length - 1;
  if (dots === 1) {
    const [whole, after] = text.split('.');
    if (after === '') return refuse(`faltan los decimales después del punto (${EXAMPLE})`);
    if (after.length <= 2) return cents(whole, after);
    if (after.length === 3 && couldBeThousands(whole)) return ambiguous(text, whole, after);
    return refuse('admite como máximo 2 decimales');
  }
  if (dots === 0 && !hasSpaces) return cents(text, '');
  const joined = ungroup(text, hasSpaces ? ' ' : '.');
  return joined === null ? refuse(`los miles se separan en grupos de tres cifras (${EXAMPLE})`) : cents(joined, '');
}

/** "1" to "999" (no leading zero): what could be the first group of a number written with thousands. */
const couldBeThousands = (whole: string) => /^[1-9]\d{0,2}$/.test(whole);

/** "1.500" or "1,500": thousands in one language, decimals in the other. */
const ambiguous = (text: string, whole: string, three: string): AmountReading =>
  refuse(`«${text}» es ambiguo: escribe ${whole}${three} si son miles, o usa la coma con 2 decimales como mucho (p. ej. 1,50)`);

/** 1.5 → 150: units with at most 2 decimals to whole cents (rounded, so float noise never shows). */
export const toCents = (units: number): number => Math.round(units * 100);

/** The form an amount travels in between the faces and the server: "1500.00" (unambiguous to `readAmount`). */
export const amountForWire = (cents: number): string => (cents / 100).toFixed(2);

/** An amount in words for messages and labels: (1000, 'EUR') → "1.000,00 EUR"; `decimals` 0 for whole-unit currencies. */
export function formatAmount(units: number, currency: string, decimals = 2): string {
  return `${formatNumber(units, decimals)} ${currency}`;
}
