// Like-with-like comparisons of a period with the one just before it: which days or instants
// each side covers when the period is still running (pure functions of range, now and zone),
// and the words every face shows for it. The server sums and divides; screens only print.
import { formatDateDMY, formatTimeHM } from './format.js';
import { addDays, daysBetween, previousRange, todayIn, zonedParts, zonedWallTime, type DayRange, type Ymd } from './presets.js';

/**
 * How the two sides were cut:
 * - whole_days: the period is over; all of it against as many days just before;
 * - complete_days: the period runs into today and its data is daily (zone reports): only its
 *   days already over, against the same number of days from the previous period's start;
 * - same_hours: the period runs into now and its data has instants (visits): up to the minute
 *   against the previous period up to the same time of day;
 * - none: nothing comparable yet (the period is today only on daily data, or has not begun).
 */
export type ComparisonBasis = 'whole_days' | 'complete_days' | 'same_hours' | 'none';

export interface DayComparisonWindows {
  basis: 'whole_days' | 'complete_days' | 'none';
  today: Ymd;
  period: DayRange;
  /** As many days just before the period. */
  previous_period: DayRange;
  /** The days compared on each side; null when there are none. */
  current: DayRange | null;
  previous: DayRange | null;
}

/** The days to compare for a period of daily data (zone reports: a day is final only once over). */
export function dayComparison(period: DayRange, now: Date, tz: string): DayComparisonWindows {
  const today = todayIn(tz, now);
  const previous_period = previousRange(period);
  const base = { today, period, previous_period };
  if (period.to < today) return { ...base, basis: 'whole_days', current: period, previous: previous_period };
  const lastComplete = addDays(today, -1);
  if (lastComplete < period.from) return { ...base, basis: 'none', current: null, previous: null };
  const days = daysBetween(period.from, lastComplete);
  return {
    ...base,
    basis: 'complete_days',
    current: { from: period.from, to: lastComplete },
    previous: { from: previous_period.from, to: addDays(previous_period.from, days - 1) },
  };
}

/** Two instants, epoch milliseconds, both inclusive (the warehouse's event filters). */
export interface InstantSpan {
  from: number;
  to: number;
}

export interface InstantComparisonWindows {
  basis: 'whole_days' | 'same_hours' | 'none';
  today: Ymd;
  /** The calendar days the period touches and as many just before. */
  period: DayRange;
  previous_period: DayRange;
  current: InstantSpan | null;
  previous: InstantSpan | null;
  /** same_hours: the minute both sides stop at (epoch ms, exclusive), on the current side. */
  cutoff: number | null;
}

/** The same time on tz's wall clock `days` days away ('the same hour yesterday', whatever a clock change did). */
export function shiftDays(instant: number, days: number, tz: string): number {
  const p = zonedParts(instant, tz);
  const wallMs = ((p.hour * 60 + p.minute) * 60 + p.second) * 1000 + (((instant % 1000) + 1000) % 1000);
  return zonedWallTime(addDays(todayIn(tz, new Date(instant)), days), wallMs, tz).getTime();
}

/**
 * The instants to compare for a period of timestamped data (visits): the previous side is the
 * same span moved back by the period's length in days. While the period runs, both sides stop
 * at the same time of day (the current minute), so 03:00 today meets 03:00 yesterday.
 */
export function instantComparison(span: InstantSpan, now: Date, tz: string): InstantComparisonWindows {
  const today = todayIn(tz, now);
  const period = { from: todayIn(tz, new Date(span.from)), to: todayIn(tz, new Date(span.to)) };
  const length = daysBetween(period.from, period.to);
  const previous_period = previousRange(period);
  const base = { today, period, previous_period };
  const back = (ms: number) => shiftDays(ms, -length, tz);
  const at = now.getTime();
  if (at > span.to)
    return { ...base, basis: 'whole_days', current: span, previous: { from: back(span.from), to: back(span.to + 1) - 1 }, cutoff: null };
  const cutoff = Math.floor(at / 60_000) * 60_000;
  if (cutoff <= span.from) return { ...base, basis: 'none', current: null, previous: null, cutoff: null };
  return {
    ...base,
    basis: 'same_hours',
    current: { from: span.from, to: cutoff - 1 },
    previous: { from: back(span.from), to: back(cutoff) - 1 },
    cutoff,
  };
}

/** '22/11/2026' for one day, '22/11/2026 – 27/11/2026' for several (titles). */
export function daySpanText(range: DayRange): string {
  return range.from === range.to ? formatDateDMY(range.from) : `${formatDateDMY(range.from)} – ${formatDateDMY(range.to)}`;
}

/** 'el 27/11/2026' or 'del 21/11/2026 al 27/11/2026': the days a sentence speaks of (alert messages). */
export function dayRangeWords(range: DayRange): string {
  return range.from === range.to ? `el ${formatDateDMY(range.from)}` : `del ${formatDateDMY(range.from)} al ${formatDateDMY(range.to)}`;
}

/** What a comparison says about itself: a short tag for a card or line, and the whole sentence. */
export interface ComparisonWords {
  /** 'días completos', 'hasta las 03:00 frente a ayer a la misma hora', 'sin comparación'. */
  label: string;
  /** The days (and hours) each side covers. */
  note: string;
}

/** The words of a comparison of daily data. `what`: how the data is named when nothing compares ('el informe de zonas es diario'). */
export function dayComparisonWords(c: DayComparisonWindows, what = 'estos datos son diarios'): ComparisonWords {
  if (c.basis === 'none' || !c.current || !c.previous) {
    const why = c.period.from > c.today ? 'el período aún no ha empezado' : `hoy aún no ha terminado y ${what}`;
    return { label: 'sin comparación', note: `Sin comparación: ${why}.` };
  }
  const sides = `${daySpanText(c.current)} frente a ${daySpanText(c.previous)}`;
  if (c.basis === 'whole_days') return { label: 'días completos', note: `Días completos: ${sides}.` };
  return { label: 'días completos, sin hoy', note: `Días completos: ${sides} (hoy aún no ha terminado y no cuenta).` };
}

/** The words of a comparison of timestamped data; times on tz's clock. */
export function instantComparisonWords(c: InstantComparisonWindows, tz: string): ComparisonWords {
  if (c.basis === 'none' || !c.current || !c.previous) return { label: 'sin comparación', note: 'Sin comparación: el período aún no ha empezado.' };
  if (c.basis === 'whole_days') {
    const sides = `${daySpanText(c.period)} frente a ${daySpanText(c.previous_period)}`;
    return { label: 'días completos', note: `Días completos: ${sides}.` };
  }
  const time = formatTimeHM(c.cutoff!, tz);
  const oneDay = c.period.from === c.period.to;
  const label =
    oneDay && c.period.from === c.today
      ? `hasta las ${time} frente a ayer a la misma hora`
      : `hasta las ${time} frente al período anterior a la misma hora`;
  const note = `Hasta las ${time} (${tz}): ${daySpanText(c.period)} frente a ${daySpanText(c.previous_period)} hasta la misma hora.`;
  return { label, note };
}
