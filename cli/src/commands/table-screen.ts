// The terminal side of a table command: the first page from the server, then the Ink report
// screen asking the server for every page, order, page size and preset the keys choose.
import { presetRange, sortText, type PresetKey, type SortState } from '@adops/core/lite';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../io.js';
import type { ReportView, TableQuery } from '../ui/ReportScreen.js';
import { keyboardAttached } from '../ui/screen.js';
import { reportingTz, type ResolvedRange } from './report-filters.js';
import { loadUi } from '../ui-loader.js';

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

/** Lines a report screen uses besides its rows: title, range, header, rules, totals, footer, keys. */
export const SCREEN_CHROME = 13;

/**
 * Screen page size: --limit up to 500 shows that many rows a page; else, on a terminal with a
 * keyboard, as many rows as the window holds under the screen's other lines (`chrome`); else
 * the screen's default.
 */
export function screenPageSize(cli: Cli, limit: number | undefined, fallback: number, chrome = SCREEN_CHROME): number {
  if (limit !== undefined && limit <= 500) return limit;
  const rows = (cli.io.stdout as { rows?: number }).rows;
  // Below 160 columns the key line wraps (below 100 the status line too), and a line is kept
  // for a note: a first frame as tall as the window would make Ink clear the screen and its
  // scrollback (the screen then fits its page to what it measures).
  const columns = cli.io.stdout.columns ?? 80;
  const wrapped = columns < 100 ? 2 : columns < 160 ? 1 : 0;
  if (limit === undefined && rows && keyboardAttached(cli.io)) return Math.max(5, Math.min(500, rows - chrome - wrapped));
  return fallback;
}

export async function showTable<Row>(
  cli: Cli,
  options: {
    query: TableQuery;
    load: (query: TableQuery, shown: TableQuery) => Promise<ReportView<Row>>;
    sortKeys: readonly string[];
    presets?: readonly PresetKey[];
    rowKey?: (row: Row, index: number) => string;
    /** --columns: only these columns on screen, in this order (keys, comma-separated). */
    columns?: string;
  },
): Promise<void> {
  // React, Ink and the screen load only when a screen is drawn (machine output never needs them).
  const pick = pickColumns<Row>(options.columns);
  const load = pick ? async (q: TableQuery, shown: TableQuery) => pick(await options.load(q, shown)) : options.load;
  const [initial, { createElement }, { ReportScreen }, { showScreen }] = await Promise.all([
    load(options.query, options.query),
    import('react'),
    loadUi(() => import('../ui/ReportScreen.js')),
    loadUi(() => import('../ui/screen.js')),
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
      load,
      rowKey: options.rowKey,
      fit: true,
    }),
    interactive,
  );
}

/**
 * --columns a,b,c: a view keeping only those columns, in that order; a key the table does not
 * have is a usage error naming the ones it has.
 */
export function pickColumns<Row>(flag: string | undefined): ((view: ReportView<Row>) => ReportView<Row>) | null {
  if (flag === undefined) return null;
  const keys = flag
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (keys.length === 0) throw new CliError('--columns vacío (usa claves separadas por comas)', EXIT.usage);
  return (view) => {
    const byKey = new Map(view.columns.map((c) => [c.key, c]));
    const unknown = keys.filter((k) => !byKey.has(k));
    if (unknown.length)
      throw new CliError(
        `--columns: ${unknown.join(', ')} no es una columna de esta tabla (columnas: ${view.columns.map((c) => c.key).join(', ')})`,
        EXIT.usage,
      );
    return { ...view, columns: keys.map((k) => byKey.get(k)!) };
  };
}
