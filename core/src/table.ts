// Report-table rules: the header toggle, the order of values (missing last, text without
// case), paging arithmetic, rank colouring levels and proportional bars. The server sorts and
// pages every table with them (in SQL the same order: see the warehouse's ORDER BY); faces
// only send the sort and page they want.

export type SortDir = 'asc' | 'desc';

export interface SortState<K extends string = string> {
  key: K;
  dir: SortDir;
}

export const PAGE_SIZES = [10, 25, 50, 100] as const;

/** Default page sizes per screen (SPEC §9). */
export const DEFAULT_PAGE_SIZE = {
  dashboard: 10,
  adReport: 25,
  campaigns: 20,
  referrers: 20,
  logs: 20,
} as const;

/** Clicking a header: the same key toggles asc/desc, a new key starts ascending. */
export function nextSort<K extends string>(current: SortState<K> | null | undefined, key: K): SortState<K> {
  if (current && current.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: 'asc' };
}

/** null, undefined, '', NaN and ±Infinity: sorted last whatever the direction. */
export function isMissing(value: unknown): boolean {
  return value == null || value === '' || (typeof value === 'number' && !Number.isFinite(value));
}

const spanish = new Intl.Collator('es');

/**
 * Ascending order of two texts: Spanish collation (ICU 'es': accents and case only break ties,
 * ñ after n), then the exact text, so the order is total. Every engine sorts text with the
 * same ICU collation (DuckDB `COLLATE es`, ClickHouse `COLLATE 'es'`).
 */
export function compareText(a: string, b: string): number {
  return spanish.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Ascending order of two present values: numbers numerically, anything else as text. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return compareText(String(a), String(b));
}

/** 'revenue:desc' → { key, dir } (a missing direction is ascending); null when not of that form. */
export function parseSortText(text: string): SortState | null {
  const m = /^\s*([a-z0-9_-]{1,40})\s*(?::\s*(asc|desc)\s*)?$/i.exec(text);
  return m ? { key: m[1].toLowerCase(), dir: (m[2]?.toLowerCase() ?? 'asc') as SortDir } : null;
}

/** { key, dir } → 'key:dir' (the `sort` parameter of every table). */
export function sortText(sort: SortState): string {
  return `${sort.key}:${sort.dir}`;
}

/** Compares two rows by one key: missing values last whatever the direction. */
function compareBy<T>(x: T, y: T, sort: SortState<Extract<keyof T, string>>): number {
  const a = x[sort.key];
  const b = y[sort.key];
  const aMissing = isMissing(a);
  const bMissing = isMissing(b);
  if (aMissing || bMissing) return Number(aMissing) - Number(bMissing);
  return (sort.dir === 'asc' ? 1 : -1) * compareValues(a, b);
}

/**
 * A sorted copy: by `sort`, then by each of `then` (ties broken by the table's natural key, so
 * pages never overlap); rows whose value is missing come last in both directions. Stable.
 */
export function sortRows<T>(
  rows: readonly T[],
  sort: SortState<Extract<keyof T, string>> | null | undefined,
  then: ReadonlyArray<SortState<Extract<keyof T, string>>> = [],
): T[] {
  const order = sort ? [sort, ...then.filter((t) => t.key !== sort.key)] : [...then];
  const copy = [...rows];
  if (order.length === 0) return copy;
  return copy.sort((x, y) => {
    for (const s of order) {
      const c = compareBy(x, y, s);
      if (c !== 0) return c;
    }
    return 0;
  });
}

/** The page a request gets: clamped to [1, page_count] (at least one page, even empty), and its first row. */
export function pageWindow(totalRows: number, page: number, pageSize: number): { page: number; page_count: number; offset: number } {
  const page_count = Math.max(1, Math.ceil(totalRows / pageSize));
  const current = Math.min(page_count, Math.max(1, Math.floor(page)));
  return { page: current, page_count, offset: (current - 1) * pageSize };
}

/** 'Página X de Y'. */
export function pageLabel(page: number, pageCount: number): string {
  return `Página ${page} de ${pageCount}`;
}

/** 0 (lowest) … 5 (highest). */
export type RankLevel = 0 | 1 | 2 | 3 | 4 | 5;

const RANK_THRESHOLDS = [0.9, 0.7, 0.5, 0.3, 0.1] as const;

/**
 * Where value sits between the list's min and max: 5 from 0.9 of the way up, then 4 (0.7),
 * 3 (0.5), 2 (0.3), 1 (0.1), else 0. null when value is missing or max ≤ min (nothing to rank).
 */
export function rankColor(value: unknown, min: number, max: number): RankLevel | null {
  if (typeof value !== 'number' || isMissing(value) || !Number.isFinite(min) || !Number.isFinite(max) || max <= min) {
    return null;
  }
  const position = (value - min) / (max - min);
  const index = RANK_THRESHOLDS.findIndex((t) => position >= t);
  return (index === -1 ? 0 : 5 - index) as RankLevel;
}

/** Min and max of a numeric column over rows with a finite value; null when none has one. */
export function minMax<T>(rows: readonly T[], key: keyof T): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (const row of rows) {
    const v = row[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  return min <= max ? { min, max } : null;
}

/** A proportional bar's width in percent (0–100) of value against the list's largest. */
export function barPercent(value: unknown, largest: unknown): number {
  if (typeof value !== 'number' || typeof largest !== 'number' || !(largest > 0) || !Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, (value / largest) * 100));
}
