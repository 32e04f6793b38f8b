// The terminal side of a table command: the first page from the server, then the Ink report
// screen asking the server for every page, order, page size and preset the keys choose.
import { presetRange, sortText, type PresetKey, type SortState } from '@adops/core';
import type { Cli } from '../context.js';
import type { ReportView, TableQuery } from '../ui/ReportScreen.js';
import { keyboardAttached } from '../ui/screen.js';
import { reportingTz, type ResolvedRange } from './report-filters.js';

/** The table fields of a page request from a screen query. */
export function pageFields(q: Pick<TableQuery, 'sort' | 'page' | 'pageSize'>): { sort?: string; page: number; page_size: number } {
  return { sort: q.sort ? sortText(q.sort) : undefined, page: q.page, page_size: q.pageSize };
}

/** The range a screen query covers: the command's range, or the chosen preset's (computed now). */
export function rangeOf(cli: Cli, initial: ResolvedRange, preset: PresetKey | null): ResolvedRange {
  if (preset === null || preset === initial.preset) return initial;
  return { ...presetRange(preset, new Date(), reportingTz(cli.io)), preset };
}

/** 'revenue:desc' → { key, dir } for the screen's first query (the flag is already checked). */
export function sortOf(text: string | undefined): SortState | null {
  if (!text) return null;
  const [key, dir] = text.split(':');
  return { key, dir: dir === 'desc' ? 'desc' : 'asc' };
}

/** Screen page size: --limit up to 500 shows that many rows a page, else the screen's default. */
export function screenPageSize(limit: number | undefined, fallback: number): number {
  return limit !== undefined && limit <= 500 ? limit : fallback;
}

export async function showTable<Row>(
  cli: Cli,
  options: {
    query: TableQuery;
    load: (query: TableQuery, shown: TableQuery) => Promise<ReportView<Row>>;
    sortKeys: readonly string[];
    presets?: readonly PresetKey[];
    rowKey?: (row: Row, index: number) => string;
  },
): Promise<void> {
  // React, Ink and the screen load only when a screen is drawn (machine output never needs them).
  const [initial, { createElement }, { ReportScreen }, { showScreen }] = await Promise.all([
    options.load(options.query, options.query),
    import('react'),
    import('../ui/ReportScreen.js'),
    import('../ui/screen.js'),
  ]);
  const interactive = keyboardAttached(cli.io);
  await showScreen(
    cli,
    createElement(ReportScreen<Row>, {
      initial,
      preset: options.query.preset,
      sortKeys: options.sortKeys,
      interactive,
      presets: options.presets,
      load: options.load,
      rowKey: options.rowKey,
      fit: true,
    }),
    interactive,
  );
}
