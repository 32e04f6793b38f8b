// A table the server sorts, pages and totals: the view the user chose (sort, page, page size),
// back to page 1 when the filters, the sort or the page size change, and the page loaded for
// it through the typed client ({data, error, loading}); a superseded load is aborted.
import { useCallback, useEffect, useRef, useState } from 'react';
import { nextSort, sortText, type SortState, type TablePage } from '@adops/core';

/** One page of a table as every table route answers it. */
export type PageAnswer<Row, Totals = unknown> = TablePage<Row, Totals>;

/** What the user chose: the order (null = the table's default), the page and its size. */
export interface TableView {
  sort: SortState | null;
  page: number;
  pageSize: number;
}

export type TableAction =
  | { type: 'sort'; key: string }
  | { type: 'page'; page: number }
  | { type: 'pageSize'; pageSize: number }
  | { type: 'filters' };

/**
 * The next view (SPEC §4): a header click toggles the same key or starts a new one ascending
 * (core's nextSort) and goes back to page 1; so do a new page size and new filters.
 */
export function nextView(view: TableView, action: TableAction): TableView {
  switch (action.type) {
    case 'sort':
      return { ...view, sort: nextSort(view.sort, action.key), page: 1 };
    case 'page': {
      const page = Math.max(1, Math.floor(action.page) || 1);
      return page === view.page ? view : { ...view, page };
    }
    case 'pageSize':
      return { ...view, pageSize: action.pageSize, page: 1 };
    case 'filters':
      return view.page === 1 ? view : { ...view, page: 1 };
  }
}

/** The table fields a route takes for a view (no `sort` = the table's default order). */
export interface ViewFields {
  sort?: string;
  page: number;
  page_size: number;
}

export function viewFields(view: TableView): ViewFields {
  return view.sort ? { sort: sortText(view.sort), page: view.page, page_size: view.pageSize } : { page: view.page, page_size: view.pageSize };
}

export interface ServerTableOptions {
  pageSize: number;
  /** The order asked for before any header click (default: none, the table's own). */
  sort?: SortState | null;
  /** Changing it counts as new filters: page 1 and a fresh load (a repeated search). */
  version?: string | number;
  /**
   * Where the view lives when not in the hook (the URL: useUrlTableView). Its owner goes back
   * to page 1 when the filters change (in the same write), so Back restores filters and page together.
   */
  store?: { view: TableView; setView: (next: TableView) => void };
}

export interface ServerTable<Q, T> {
  /** The last page answered (kept while the next one loads). */
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** The data answers the current filters (not a previous filter set still shown while loading). */
  fresh: boolean;
  view: TableView;
  /** The filters plus the view's fields, as last asked; null while the filters cannot be asked for. */
  request: (Q & ViewFields) | null;
  sortBy: (key: string) => void;
  setPage: (page: number) => void;
  setPageSize: (size: number) => void;
  reload: () => void;
}

interface Loaded<T> {
  data: T | undefined;
  /** The filters the data answered. */
  filtersKey: string | null;
  error: unknown;
  /** The run (request and reload count) that settled last. */
  settled: string | null;
}

/**
 * Loads `load(filters + view)` whenever either changes; nothing while filters is null (a range
 * that cannot be asked for). New filters (by content) go back to page 1 before anything loads.
 */
export function useServerTable<Q extends object, T>(
  filters: Q | null,
  load: (request: Q & ViewFields, signal: AbortSignal) => Promise<T>,
  options: ServerTableOptions,
): ServerTable<Q, T> {
  const filtersKey = filters === null ? null : `${JSON.stringify(filters)}|${options.version ?? ''}`;
  const [state, setState] = useState(() => ({
    view: { sort: options.sort ?? null, page: 1, pageSize: options.pageSize } as TableView,
    filtersKey,
  }));
  const store = options.store;
  let view = store ? store.view : state.view;
  if (!store && state.filtersKey !== filtersKey) {
    // Adjusted while rendering, so no load is ever sent for the old page with the new filters.
    view = nextView(view, { type: 'filters' });
    setState({ view, filtersKey });
  }

  const fields = viewFields(view);
  const request = filters === null ? null : { ...filters, ...fields };
  const requestKey = filtersKey === null ? null : `${filtersKey}#${JSON.stringify(fields)}`;

  const [nonce, setNonce] = useState(0);
  const run = requestKey === null ? null : `${requestKey}@${nonce}`;
  const [loaded, setLoaded] = useState<Loaded<T>>({ data: undefined, filtersKey: null, error: null, settled: null });
  const latest = useRef({ load, request });
  latest.current = { load, request };

  // biome-ignore lint/correctness/useExhaustiveDependencies: one load per run (its key holds the filters, the view and the reload count)
  useEffect(() => {
    if (run === null) return;
    const controller = new AbortController();
    const answered = filtersKey;
    latest.current.load(latest.current.request!, controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setLoaded({ data, filtersKey: answered, error: null, settled: run });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded((s) => ({ ...s, error, settled: run }));
      },
    );
    return () => controller.abort();
  }, [run]);

  const storeRef = useRef(store);
  storeRef.current = store;
  const act = useCallback((action: TableAction) => {
    const outside = storeRef.current;
    if (outside) {
      const next = nextView(outside.view, action);
      if (next !== outside.view) outside.setView(next);
    } else setState((s) => ({ ...s, view: nextView(s.view, action) }));
  }, []);
  const sortBy = useCallback((key: string) => act({ type: 'sort', key }), [act]);
  const setPage = useCallback((page: number) => act({ type: 'page', page }), [act]);
  const setPageSize = useCallback((pageSize: number) => act({ type: 'pageSize', pageSize }), [act]);
  const reload = useCallback(() => setNonce((n) => n + 1), []);

  return {
    data: loaded.data,
    // A run not settled yet is loading (also in the render before its effect starts it).
    error: run !== null && loaded.settled === run ? loaded.error : null,
    loading: run !== null && loaded.settled !== run,
    fresh: loaded.data !== undefined && loaded.filtersKey === filtersKey,
    view,
    request,
    sortBy,
    setPage,
    setPageSize,
    reload,
  };
}

/** The page to show: the last answer, unless loading new filters failed (then nothing). */
export function shownPage<T>(table: Pick<ServerTable<unknown, T>, 'data' | 'error' | 'fresh'>): T | undefined {
  return table.error && !table.fresh ? undefined : table.data;
}
