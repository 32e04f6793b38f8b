// Date presets and calendar-day arithmetic in a reporting time zone: pure functions of
// (preset, now, tz), computed on plain YYYY-MM-DD values, never on millisecond offsets.

/** A calendar day, 'YYYY-MM-DD'. */
export type Ymd = string;
export interface DayRange {
  from: Ymd;
  to: Ymd;
}

/**
 * One reading per label, on every screen and face: 'ultimos7' ('Últimos 7 días') is the 7
 * complete days ending yesterday; 'ultimos7_hoy' ('Últimos 7 días (con hoy)') is the last 7
 * days including today, still running (the Dashboard's default, SPEC §2).
 */
export type PresetKey = 'hoy' | 'ayer' | 'ultimos7' | 'ultimos7_hoy' | 'mes_actual' | 'mes_anterior';

export const PRESET_LABELS: Record<PresetKey, string> = {
  hoy: 'Hoy',
  ayer: 'Ayer',
  ultimos7: 'Últimos 7 días',
  ultimos7_hoy: 'Últimos 7 días (con hoy)',
  mes_actual: 'Mes actual',
  mes_anterior: 'Mes anterior',
};

/**
 * The presets each screen offers, in dropdown order, and the one it opens with. The reading
 * with today goes where 'Hoy' is offered too; Demand (no 'Hoy' in SPEC) keeps to whole days.
 */
export const SCREEN_PRESETS = {
  dashboard: ['hoy', 'ayer', 'ultimos7', 'ultimos7_hoy', 'mes_actual', 'mes_anterior'],
  adReport: ['hoy', 'ayer', 'ultimos7', 'ultimos7_hoy', 'mes_actual', 'mes_anterior'],
  demand: ['ayer', 'ultimos7', 'mes_actual', 'mes_anterior'],
  referrers: ['hoy', 'ayer', 'ultimos7', 'ultimos7_hoy', 'mes_actual', 'mes_anterior'],
  profit: ['hoy', 'ayer', 'ultimos7', 'ultimos7_hoy', 'mes_actual', 'mes_anterior'],
} as const satisfies Record<string, readonly PresetKey[]>;

export const SCREEN_DEFAULT_PRESET = {
  dashboard: 'ultimos7_hoy',
  adReport: 'ultimos7',
  demand: 'mes_actual',
  referrers: 'hoy',
  profit: 'ultimos7',
} as const satisfies Record<keyof typeof SCREEN_PRESETS, PresetKey>;

export function isPresetKey(value: unknown): value is PresetKey {
  return typeof value === 'string' && Object.hasOwn(PRESET_LABELS, value);
}

const YMD_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function splitYmd(ymd: Ymd): [number, number, number] {
  const m = YMD_RE.exec(ymd);
  if (!m) throw new RangeError(`Not a YYYY-MM-DD date: ${ymd}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Y-M-D of a UTC-calendar timestamp (used only as a day counter, never as a local time). */
function ymdOfUtcDay(ms: number): Ymd {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

export function isValidYmd(value: unknown): value is Ymd {
  if (typeof value !== 'string' || !YMD_RE.test(value)) return false;
  const [y, m, d] = splitYmd(value);
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function addDays(ymd: Ymd, n: number): Ymd {
  const [y, m, d] = splitYmd(ymd);
  return ymdOfUtcDay(Date.UTC(y, m - 1, d + n));
}

/** Inclusive count of days from a to b ('2026-03-01'..'2026-03-07' → 7); 0 when b < a. */
export function daysBetween(a: Ymd, b: Ymd): number {
  const [ay, am, ad] = splitYmd(a);
  const [by, bm, bd] = splitYmd(b);
  const diff = Math.round((Date.UTC(by, bm - 1, bd) - Date.UTC(ay, am - 1, ad)) / 86_400_000);
  return Math.max(0, diff + 1);
}

/** The range of as many days just before a range ('2026-03-08'..'2026-03-14' → '2026-03-01'..'2026-03-07'). */
export function previousRange(range: DayRange): DayRange {
  const length = Math.max(1, daysBetween(range.from, range.to));
  return { from: addDays(range.from, -length), to: addDays(range.from, -1) };
}

/** The day of the week in the calendar's order, Monday 0 … Sunday 6 (ISO weeks start on Monday). */
export function weekdayIndex(ymd: Ymd): number {
  const [y, m, d] = splitYmd(ymd);
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}

export function monthKey(ymd: Ymd): string {
  return ymd.slice(0, 7);
}

export function startOfMonth(ymd: Ymd): Ymd {
  return `${monthKey(ymd)}-01`;
}

export function endOfMonth(ymd: Ymd): Ymd {
  const [y, m] = splitYmd(ymd);
  return `${monthKey(ymd)}-${pad(daysInMonth(y, m))}`;
}

/** Every 'YYYY-MM' from from's month to to's month, inclusive; [] when to < from. */
export function monthsBetween(from: Ymd, to: Ymd): string[] {
  const months: string[] = [];
  let [y, m] = splitYmd(from);
  const [ty, tm] = splitYmd(to);
  while (y < ty || (y === ty && m <= tm)) {
    months.push(`${pad(y, 4)}-${pad(m)}`);
    if (++m > 12) [y, m] = [y + 1, 1];
  }
  return months;
}

/** True when ymd lies in [from, to] (YYYY-MM-DD compares as text). */
export function isInRange(ymd: Ymd, range: DayRange): boolean {
  return ymd >= range.from && ymd <= range.to;
}

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock date and time of an instant in time zone tz. */
export function zonedParts(instant: Date | number, tz: string): ZonedParts {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(tz, f);
  }
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(instant)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const { year, month, day, hour, minute, second } = parts as unknown as ZonedParts;
  return { year, month, day, hour, minute, second };
}

/** Today's calendar date in tz. */
export function todayIn(tz: string, now: Date = new Date()): Ymd {
  const p = zonedParts(now, tz);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

/** tz's offset from UTC (ms) at an instant. */
function offsetAt(instant: number, tz: string): number {
  const p = zonedParts(instant, tz);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant tz's wall clock reads `wallMs` milliseconds after 00:00 on day ymd. A time a
 * clock change skips resolves to the first existing instant after the gap; a time it repeats,
 * to the first of the two.
 */
export function zonedWallTime(ymd: Ymd, wallMs: number, tz: string): Date {
  const [y, m, d] = splitYmd(ymd);
  const millis = ((wallMs % 1000) + 1000) % 1000;
  const wall = Date.UTC(y, m - 1, d) + wallMs - millis;
  const first = wall - offsetAt(wall, tz);
  const second = wall - offsetAt(first, tz);
  const exists = [first, second].filter((t) => offsetAt(t, tz) === wall - t);
  return new Date((exists.length ? Math.min(...exists) : Math.max(first, second)) + millis);
}

/**
 * The instant local midnight begins day ymd in tz. When a DST change skips midnight the
 * day starts at the first existing minute; when midnight happens twice, at the first.
 */
export function zonedDayStart(ymd: Ymd, tz: string): Date {
  return zonedWallTime(ymd, 0, tz);
}

/** The last millisecond of day ymd in tz. */
export function zonedDayEnd(ymd: Ymd, tz: string): Date {
  return new Date(zonedDayStart(addDays(ymd, 1), tz).getTime() - 1);
}

/** The calendar days a preset covers, with "today" taken in tz. */
export function presetRange(preset: PresetKey, now: Date, tz: string): DayRange {
  const today = todayIn(tz, now);
  switch (preset) {
    case 'hoy':
      return { from: today, to: today };
    case 'ayer': {
      const yesterday = addDays(today, -1);
      return { from: yesterday, to: yesterday };
    }
    case 'ultimos7':
      return { from: addDays(today, -7), to: addDays(today, -1) };
    case 'ultimos7_hoy':
      return { from: addDays(today, -6), to: today };
    case 'mes_actual':
      return { from: startOfMonth(today), to: today };
    case 'mes_anterior': {
      const lastOfPrevious = addDays(startOfMonth(today), -1);
      return { from: startOfMonth(lastOfPrevious), to: lastOfPrevious };
    }
  }
}

export interface InstantRange {
  /** ISO 8601 UTC instant of the first local millisecond. */
  startDate: string;
  /** ISO 8601 UTC instant of the last local millisecond (23:59:59.999). */
  endDate: string;
}

/** A range of calendar days in tz as the UTC instants of its local bounds. */
export function rangeToInstants(range: DayRange, tz: string): InstantRange {
  return {
    startDate: zonedDayStart(range.from, tz).toISOString(),
    endDate: zonedDayEnd(range.to, tz).toISOString(),
  };
}

/**
 * The Referrers / Logs filter presets (SPEC §4): Hoy and Ayer whole days, Últimos 7 días
 * from 7 days ago 00:00 to the end of yesterday (con hoy: from 6 days ago to the end of today),
 * Mes actual to the end of today, Mes anterior the whole previous month.
 */
export function referrerPresetRange(preset: PresetKey, now: Date, tz: string): InstantRange {
  return rangeToInstants(presetRange(preset, now, tz), tz);
}
