// Report-table behaviour shared by web and terminal: sorting (missing values last), the
// header toggle rule, paging, rank colouring levels and proportional bars.

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

const collator = new Intl.Collator('es', { numeric: true, sensitivity: 'base' });

/** Ascending order of two present values: numbers numerically, anything else as Spanish text. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/** A sorted copy (stable); rows whose value is missing come last in both directions. */
export function sortRows<T>(rows: readonly T[], sort: SortState<Extract<keyof T, string>> | null | undefined): T[] {
  const copy = [...rows];
  if (!sort) return copy;
  const sign = sort.dir === 'asc' ? 1 : -1;
  return copy.sort((x, y) => {
    const a = x[sort.key];
    const b = y[sort.key];
    const aMissing = isMissing(a);
    const bMissing = isMissing(b);
    if (aMissing || bMissing) return Number(aMissing) - Number(bMissing);
    return sign * compareValues(a, b);
  });
}

export interface TablePage<T> {
  rows: T[];
  /** 1-based, clamped to [1, pageCount]. */
  page: number;
  /** At least 1, even with no rows. */
  pageCount: number;
  total: number;
  pageSize: number;
}

export function paginate<T>(rows: readonly T[], page: number, pageSize: number): TablePage<T> {
  const size = Number.isFinite(pageSize) && pageSize >= 1 ? Math.floor(pageSize) : 1;
  const pageCount = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(pageCount, Math.max(1, Number.isFinite(page) ? Math.floor(page) : 1));
  const start = (current - 1) * size;
  return { rows: rows.slice(start, start + size), page: current, pageCount, total: rows.length, pageSize: size };
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
