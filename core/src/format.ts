// Display formats shared by web, cli and CSV: es-ES numbers ("1.234,56"), money, percentages
// and dates. Every formatter shows '-' for a missing or non-finite value, and rounds by core's
// one rule (roundTo: half away from zero, once, when shown).
import { isValidYmd, zonedParts } from './presets.js';
import { roundTo } from './rounding.js';

/**
 * How an amount names its currency: a symbol that leads ('$', '€') or an ISO 4217 code — the
 * network's (ADOPS_CURRENCY), an ad account's — shown as its symbol where the screens have always
 * used one ('USD' → '$', 'EUR' → '€'), else after the number ('1.234,50 GBP').
 */
export type CurrencySymbol = string;

const SYMBOLS: Readonly<Record<string, string>> = { USD: '$', EUR: '€' };

/** The symbol an ISO code is shown with, or the code itself when it has none here. */
export function currencySymbol(code: string): string {
  return SYMBOLS[code.toUpperCase()] ?? code;
}

/** What every formatter shows for null, undefined, NaN or ±Infinity. */
export const EMPTY_CELL = '-';

export function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

const numberFormats = new Map<number, Intl.NumberFormat>();

function esNumber(decimals: number): Intl.NumberFormat {
  let f = numberFormats.get(decimals);
  if (!f) {
    // es-ES leaves 4-digit numbers ungrouped by default; the back-office always groups.
    // signDisplay 'negative' keeps a value that rounds to zero from showing as "-0".
    f = new Intl.NumberFormat('es-ES', {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      useGrouping: 'always',
      signDisplay: 'negative',
    });
    numberFormats.set(decimals, f);
  }
  return f;
}

/**
 * 1234.5 → "1.234,50" (decimals = 2). Rounded by roundTo first: Intl would round the double
 * (1.005 is 1.00499999… → "1,00"); every face shows the decimal the figure stands for ("1,01").
 */
export function formatNumber(n: number | null | undefined, decimals = 2): string {
  return isFiniteNumber(n) ? esNumber(decimals).format(roundTo(n, decimals)!) : EMPTY_CELL;
}

/** 1234567 → "1.234.567". */
export function formatInt(n: number | null | undefined): string {
  return formatNumber(n, 0);
}

/** A value already in percent units: 12.345 → "12,35%". */
export function formatPercent(n: number | null | undefined, decimals = 2): string {
  return isFiniteNumber(n) ? `${formatNumber(n, decimals)}%` : EMPTY_CELL;
}

/**
 * 1234.5 → "$1.234,50"; negatives "-$1.234,50": a symbol leads ('USD' and 'EUR' are shown as
 * theirs); another ISO code follows the number ("1.234,50 GBP").
 */
export function formatMoney(n: number | null | undefined, currency: CurrencySymbol = '$', decimals = 2): string {
  if (!isFiniteNumber(n)) return EMPTY_CELL;
  const text = formatNumber(n, decimals);
  const symbol = /^[A-Za-z]{3}$/.test(currency) ? currencySymbol(currency) : currency;
  if (/^[A-Za-z]{3}$/.test(symbol)) return `${text} ${symbol.toUpperCase()}`;
  return text.startsWith('-') ? `-${symbol}${text.slice(1)}` : `${symbol}${text}`;
}

/** '2026-03-05' → '05/03/2026' (the filter bars' dd/MM/yyyy); '-' when not a valid date. */
export function formatDateDMY(ymd: string | null | undefined): string {
  if (!isValidYmd(ymd)) return EMPTY_CELL;
  const [y, m, d] = ymd.split('-');
  return `${d}/${m}/${y}`;
}

/** '05/03/2026' (or '5/3/2026') → '2026-03-05'; null when it is not a real date. */
export function parseDateDMY(text: string): string | null {
  const m = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(text);
  if (!m) return null;
  const ymd = `${m[3]}-${m[2].padStart(2, '0')}-${m[1].padStart(2, '0')}`;
  return isValidYmd(ymd) ? ymd : null;
}

/** A valid instant from an ISO text, epoch ms or a Date; null for missing or invalid ones. */
function instantOf(instant: string | number | Date | null | undefined): Date | null {
  if (instant == null || instant === '') return null;
  const date = instant instanceof Date ? instant : new Date(instant);
  return Number.isNaN(date.getTime()) ? null : date;
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * An instant as 'YYYY-MM-DD HH:mm' on the wall clock of tz: the machine form written in CSV
 * files (the referrers' date column, SPEC §3). People read formatDateTimeDMY.
 */
export function formatDateTime(instant: string | number | Date | null | undefined, tz: string, options: { seconds?: boolean } = {}): string {
  const date = instantOf(instant);
  if (!date) return EMPTY_CELL;
  const p = zonedParts(date, tz);
  const time = `${two(p.hour)}:${two(p.minute)}${options.seconds ? `:${two(p.second)}` : ''}`;
  return `${String(p.year).padStart(4, '0')}-${two(p.month)}-${two(p.day)} ${time}`;
}

/**
 * An instant as people read it on every screen and in the terminal: 'dd/MM/yyyy HH:mm' (with
 * ':ss' when asked) on the wall clock of tz, the reporting time zone (ADOPS_TZ).
 */
export function formatDateTimeDMY(instant: string | number | Date | null | undefined, tz: string, options: { seconds?: boolean } = {}): string {
  const date = instantOf(instant);
  if (!date) return EMPTY_CELL;
  const p = zonedParts(date, tz);
  const time = `${two(p.hour)}:${two(p.minute)}${options.seconds ? `:${two(p.second)}` : ''}`;
  return `${two(p.day)}/${two(p.month)}/${String(p.year).padStart(4, '0')} ${time}`;
}

/** 'HH:mm' of an instant on tz's clock. */
export function formatTimeHM(instant: string | number | Date | null | undefined, tz: string): string {
  const date = instantOf(instant);
  if (!date) return EMPTY_CELL;
  const p = zonedParts(date, tz);
  return `${two(p.hour)}:${two(p.minute)}`;
}

const MONTH_NAMES = ['Ene', 'Feb', 'Mar', 'Abr', 'May', 'Jun', 'Jul', 'Ago', 'Sep', 'Oct', 'Nov', 'Dic'];

/** A 'YYYY-MM' month as the Finance headers show it: 'Nov 2026' (anything else as it is). */
export function formatMonthName(month: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  const name = m ? MONTH_NAMES[Number(m[2]) - 1] : undefined;
  return m && name ? `${name} ${m[1]}` : month;
}

/**
 * The zone times are shown in, named for people: 'Europe/Madrid (UTC+01:00)' at that instant
 * ('UTC' alone for UTC).
 */
export function timeZoneLabel(tz: string, at: Date = new Date()): string {
  if (tz === 'UTC' || tz === 'Etc/UTC') return 'UTC';
  const p = zonedParts(at, tz);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  const minutes = Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  return `${tz} (UTC${sign}${two(Math.floor(Math.abs(minutes) / 60))}:${two(Math.abs(minutes) % 60)})`;
}
