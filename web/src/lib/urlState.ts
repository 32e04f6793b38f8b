// A screen's view in the query string (filters, range, sort, page): read from and written to
// URLSearchParams as pure functions, so reload, Back and a pasted link give the same view.
// Defaults are never written, so a plain link stays clean; what cannot be read is the default.
import { PAGE_SIZES, isValidYmd, parseSortText, sortText, type PresetKey, type SortState, type Ymd } from '@adops/core';

/** A table's view as the URL keeps it (the order, the page and its size). */
export interface UrlTableView {
  sort: SortState | null;
  page: number;
  pageSize: number;
}

export interface TableDefaults {
  pageSize: number;
  sort?: SortState | null;
  /** The page sizes offered (default 10/25/50/100). */
  pageSizes?: readonly number[];
  /** The keys the table sorts by (other sort texts are ignored). */
  sortKeys?: readonly string[];
}

/** The query string of params with ':' and ',' left readable ('sort=revenue:desc'). */
export function searchText(params: URLSearchParams): string {
  const text = [...params].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v).replace(/%3A/gi, ':').replace(/%2C/gi, ',')}`).join('&');
  return text ? `?${text}` : '';
}

/** The same keys and values, whatever their order. */
export function sameParams(a: URLSearchParams, b: URLSearchParams): boolean {
  const norm = (p: URLSearchParams) =>
    [...p]
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join('&');
  return norm(a) === norm(b);
}

/** Sets key to value, or removes it when value is the default (or empty). */
export function setParam(params: URLSearchParams, key: string, value: string | null | undefined, fallback?: string): void {
  if (value === null || value === undefined || value === '' || value === fallback) params.delete(key);
  else params.set(key, value);
}

/** A day ('YYYY-MM-DD') from the URL, or undefined. */
export function readDay(params: URLSearchParams, key: string): Ymd | undefined {
  const v = params.get(key);
  return v !== null && isValidYmd(v) ? v : undefined;
}

/** A positive whole number from the URL, or undefined. */
export function readPositiveInt(params: URLSearchParams, key: string): number | undefined {
  const v = params.get(key);
  if (v === null || !/^\d{1,9}$/.test(v)) return undefined;
  const n = Number(v);
  return n >= 1 ? n : undefined;
}

const sameSort = (a: SortState | null | undefined, b: SortState | null | undefined) =>
  (a ?? null) === (b ?? null) || (!!a && !!b && a.key === b.key && a.dir === b.dir);

/** A table's view under a key prefix ('' → sort, page, size; 'pub_' → pub_sort, pub_page, pub_size). */
export function readTableView(params: URLSearchParams, prefix: string, defaults: TableDefaults): UrlTableView {
  const sizes = defaults.pageSizes ?? PAGE_SIZES;
  const size = readPositiveInt(params, `${prefix}size`);
  const sortRaw = params.get(`${prefix}sort`);
  const parsed = sortRaw === null ? null : parseSortText(sortRaw);
  const sort = parsed && (!defaults.sortKeys || defaults.sortKeys.includes(parsed.key)) ? parsed : (defaults.sort ?? null);
  return {
    sort,
    page: readPositiveInt(params, `${prefix}page`) ?? 1,
    pageSize: size !== undefined && sizes.includes(size) ? size : defaults.pageSize,
  };
}

export function writeTableView(params: URLSearchParams, prefix: string, view: UrlTableView, defaults: TableDefaults): void {
  setParam(params, `${prefix}sort`, view.sort && !sameSort(view.sort, defaults.sort) ? sortText(view.sort) : null);
  setParam(params, `${prefix}page`, String(view.page), '1');
  setParam(params, `${prefix}size`, String(view.pageSize), String(defaults.pageSize));
}

/** Every table back to page 1 (new filters): removes 'page' and every '<prefix>_page'. */
export function clearPages(params: URLSearchParams): void {
  for (const key of [...params.keys()]) if (key === 'page' || key.endsWith('_page')) params.delete(key);
}

/** A range chosen by preset ('Últimos 7 días') or by hand ('custom' with its days). */
export interface UrlRange<P extends string = PresetKey> {
  preset: P | 'custom';
  from: Ymd;
  to: Ymd;
}

export interface RangeDefaults<P extends string = PresetKey> {
  /** The screen's opening preset (left out of the URL). */
  preset: P;
  /** The presets the screen offers. */
  presets: readonly P[];
  /** The days of a preset now (in the reporting zone). */
  rangeOf: (preset: P) => { from: Ymd; to: Ymd };
}

/**
 * The range of the URL: 'preset=ayer' (days computed now, so a link keeps meaning "yesterday"),
 * else 'from' and 'to' as chosen by hand (one missing: the default's), else the default preset.
 */
export function readRange<P extends string>(params: URLSearchParams, defaults: RangeDefaults<P>): UrlRange<P> {
  const preset = params.get('preset');
  if (preset !== null && preset !== 'custom' && (defaults.presets as readonly string[]).includes(preset))
    return { preset: preset as P, ...defaults.rangeOf(preset as P) };
  const from = readDay(params, 'from');
  const to = readDay(params, 'to');
  if (from === undefined && to === undefined) return { preset: defaults.preset, ...defaults.rangeOf(defaults.preset) };
  const fallback = defaults.rangeOf(defaults.preset);
  return { preset: 'custom', from: from ?? fallback.from, to: to ?? fallback.to };
}

export function writeRange<P extends string>(params: URLSearchParams, range: UrlRange<P>, defaults: Pick<RangeDefaults<P>, 'preset'>): void {
  const custom = range.preset === 'custom';
  setParam(params, 'preset', custom ? null : range.preset, defaults.preset);
  setParam(params, 'from', custom ? range.from : null);
  setParam(params, 'to', custom ? range.to : null);
}

/** A select's choice ('Todos' = none, left out). */
export function readChoice(params: URLSearchParams, key: string, all: string): string {
  const v = params.get(key);
  return v === null || v.trim() === '' ? all : v;
}

/** A free text ('' = none, left out). */
export function readText(params: URLSearchParams, key: string): string {
  return params.get(key) ?? '';
}
