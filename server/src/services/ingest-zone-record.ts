// One zone-report line as the warehouse stores it: each field checked (dates, text lengths,
// amounts, counts) and publisher revenue and margin derived from the revenue share when missing,
// with the refusal in the user's words. The body readers (ingest-zone-report.ts) hand lines
// here; repeated values skip their checks (a file repeats its advertisers, publishers, dates).
import { DEFAULT_REVENUE_SHARE, MAX_REVENUE_SHARE, isValidYmd } from '@adops/core';
import type { ZoneReportRecord } from '../warehouse/index.js';
import { figuresDisagree } from './zone-figures.js';

/** One input line: its field values, or why it could not be read at all. */
export type IngestItem = { line: number; values: Record<string, unknown> } | { line: number; error: string };

export const TEXT_LIMITS = { advertiser: 200, publisher: 200, zone_id: 100, geo: 100, source: 200, domain: 255 } as const;
const MAX_AMOUNT = 1e12;
const NUMBER_TEXT = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: imported text with control characters is refused
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

class Invalid extends Error {}

/** A line whose figures contradict each other (zone-figures.ts): the whole import is refused. */
export class FiguresDisagree {
  constructor(readonly detail: string) {}
}

/** The date last found valid (isValidYmd is a large share of a line's checks otherwise). */
export let lastValidDate = '';

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Each text column's last accepted value as given and as kept: a file repeats its advertisers, publishers, geos… line after line. */
export const lastText: Record<keyof typeof TEXT_LIMITS, { given: unknown; kept: string }> = {
  advertiser: { given: null, kept: '' },
  publisher: { given: null, kept: '' },
  zone_id: { given: null, kept: '' },
  geo: { given: null, kept: '' },
  source: { given: null, kept: '' },
  domain: { given: null, kept: '' },
};

function text(values: Record<string, unknown>, field: keyof typeof TEXT_LIMITS, required: boolean): string {
  const v = values[field];
  const last = lastText[field];
  if (typeof v === 'string' && v === last.given) return last.kept;
  const kept = checkedText(v, field, required);
  if (typeof v === 'string') {
    last.given = v;
    last.kept = kept;
  }
  return kept;
}

function checkedText(v: unknown, field: keyof typeof TEXT_LIMITS, required: boolean): string {
  if (isBlank(v)) {
    if (required) throw new Invalid(`${field}: obligatorio`);
    return '';
  }
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') throw new Invalid(`${field}: debe ser texto`);
  const t = v.trim();
  if (t.length > TEXT_LIMITS[field]) throw new Invalid(`${field}: más de ${TEXT_LIMITS[field]} caracteres`);
  if (CONTROL.test(t)) throw new Invalid(`${field}: contiene caracteres de control`);
  return t;
}

const POWERS_OF_TEN = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * Digits, with or without one decimal point between digits (what counts and amounts are), short
 * enough to be exact: their value without the regular expression and Number(); -1 otherwise.
 * At most 15 digits, so the digits as a whole number m are exact below 2^53, and 10^k (k digits
 * after the point) is exact too: m / 10^k, rounded once by the division, is the double nearest
 * the text — what Number() answers. At most 12 before the point: below MAX_AMOUNT.
 */
export function plainNumber(v: string, from = 0, to = v.length): number {
  const len = to - from;
  if (len <= 0 || len > 16) return -1;
  let n = 0;
  let point = -1;
  for (let k = 0; k < len; k++) {
    const d = v.charCodeAt(from + k) - 48;
    // A digit, or one '.' with digits on both sides.
    if (d >= 0 && d <= 9) n = n * 10 + d;
    else if (d === -2 && point < 0 && k > 0 && k < len - 1) point = k;
    else return -1;
  }
  if (point < 0) return len > 12 ? -1 : n;
  return point > 12 ? -1 : n / POWERS_OF_TEN[len - 1 - point];
}

function num(values: Record<string, unknown>, field: string): number | null {
  const v = values[field];
  if (typeof v === 'string') {
    const n = plainNumber(v);
    if (n >= 0) return n;
  }
  if (isBlank(v)) return null;
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string') {
    const t = v.trim();
    if (!NUMBER_TEXT.test(t)) throw new Invalid(`${field}: debe ser un número (con punto decimal)`);
    n = Number(t);
  } else throw new Invalid(`${field}: debe ser un número (con punto decimal)`);
  if (!Number.isFinite(n) || Math.abs(n) > MAX_AMOUNT) throw new Invalid(`${field}: número fuera de rango`);
  return n;
}

/** Impressions, monetized impressions and clicks: whole and never negative (a negative count is refused like a negative revenue). */
function count(values: Record<string, unknown>, field: string, required: boolean): number | null {
  const n = num(values, field);
  if (n === null) {
    if (required) throw new Invalid(`${field}: obligatorio`);
    return null;
  }
  if (n < 0) throw new Invalid(`${field}: no puede ser negativo`);
  if (!Number.isSafeInteger(n)) throw new Invalid(`${field}: debe ser un entero ≥ 0`);
  return n;
}

/**
 * A zone-report row from loose input, or the reason it is refused. Missing money is derived:
 * with neither margin nor p_revenue, rate = the row's rate_applied, else the publisher's
 * configured share, else DEFAULT_REVENUE_SHARE; p_revenue = revenue × rate and
 * margin = revenue − p_revenue. With one of them given the other is revenue minus it.
 */
export function toZoneReportRecord(
  values: Record<string, unknown>,
  shares: ReadonlyMap<string, number>,
): ZoneReportRecord | string | FiguresDisagree {
  try {
    const rawDate = values.date;
    const date = typeof rawDate === 'string' ? rawDate.trim() : '';
    if (isBlank(rawDate)) throw new Invalid('date: obligatorio');
    if (date !== lastValidDate) {
      if (!isValidYmd(date)) throw new Invalid('date: fecha no válida (YYYY-MM-DD)');
      lastValidDate = date; // a file's lines come day by day: each day is checked once
    }
    const advertiser = text(values, 'advertiser', true);
    const publisher = text(values, 'publisher', true);
    const zone_id = text(values, 'zone_id', true);
    const geo = text(values, 'geo', false);
    const source = text(values, 'source', false);
    const domain = text(values, 'domain', false);
    const impressions = count(values, 'impressions', true)!;
    const monetized_impressions = count(values, 'monetized_impressions', false);
    const clicks = count(values, 'clicks', true)!;
    const revenue = num(values, 'revenue');
    if (revenue === null) throw new Invalid('revenue: obligatorio');
    // A negative revenue is a typo or a broken export far more often than a clawback, and one
    // line of −999.999 turns a month negative: refused with its line, like any bad value.
    if (revenue < 0) throw new Invalid('revenue: no puede ser negativo');
    const givenRate = num(values, 'rate_applied');
    if (givenRate !== null && (givenRate < 0 || givenRate > MAX_REVENUE_SHARE))
      throw new Invalid(`rate_applied: debe estar entre 0 y ${MAX_REVENUE_SHARE}`);
    const givenPRevenue = num(values, 'p_revenue');
    if (givenPRevenue !== null && givenPRevenue < 0) throw new Invalid('p_revenue: no puede ser negativo');
    const givenMargin = num(values, 'margin');
    const tq = num(values, 'tq');
    const disagree = figuresDisagree({
      impressions,
      monetized_impressions,
      clicks,
      revenue,
      p_revenue: givenPRevenue,
      margin: givenMargin,
      rate_applied: givenRate,
      tq,
    });
    if (disagree) return new FiguresDisagree(disagree);

    let p_revenue: number;
    let margin: number;
    let rate_applied: number | null = givenRate;
    if (givenPRevenue === null && givenMargin === null) {
      rate_applied = givenRate ?? shares.get(publisher.toLowerCase()) ?? DEFAULT_REVENUE_SHARE;
      p_revenue = revenue * rate_applied;
      margin = revenue - p_revenue;
    } else {
      p_revenue = givenPRevenue ?? revenue - givenMargin!;
      margin = givenMargin ?? revenue - p_revenue;
      if (rate_applied === null && revenue > 0) rate_applied = p_revenue / revenue;
    }
    return {
      date,
      advertiser,
      publisher,
      zone_id,
      geo,
      source,
      domain,
      impressions,
      monetized_impressions,
      clicks,
      revenue,
      rate_applied,
      p_revenue,
      margin,
      tq,
    };
  } catch (e) {
    if (e instanceof Invalid) return e.message;
    throw e;
  }
}
