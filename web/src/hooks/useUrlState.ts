// A screen's state in the query string (react-router's location): the params of this URL and
// an update that writes a new history entry (Back returns to the view before), plus the two
// shapes screens use — a value read from / written to the params, and a table's view.
import { useCallback, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { readTableView, sameParams, searchText, writeTableView, type TableDefaults, type UrlTableView } from '../lib/urlState';

export interface UrlParams {
  /** This URL's query string (read-only: change it through update). */
  params: URLSearchParams;
  /** The query string as it is now (to tell a state set on this URL from one set on another). */
  search: string;
  /** Applies mutate to a copy of the params and navigates there (a new history entry unless replace). */
  update: (mutate: (params: URLSearchParams) => void, options?: { replace?: boolean }) => void;
}

export function useUrlParams(): UrlParams {
  const location = useLocation();
  const navigate = useNavigate();
  // The search of the last navigation, so two updates in one event build on each other.
  const latest = useRef(location.search);
  latest.current = location.search;
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);

  const update = useCallback(
    (mutate: (params: URLSearchParams) => void, options: { replace?: boolean } = {}) => {
      const current = new URLSearchParams(latest.current);
      const next = new URLSearchParams(current);
      mutate(next);
      if (sameParams(current, next)) return;
      const search = searchText(next);
      latest.current = search;
      navigate({ search }, { replace: options.replace, preventScrollReset: true });
    },
    [navigate],
  );
  return { params, search: location.search, update };
}

/**
 * A value kept in the URL. A value that is not complete (a date half typed) stays on the
 * screen without being written, until it is complete or the URL changes (Back, a link).
 */
export function useUrlValue<T>(
  url: UrlParams,
  read: (params: URLSearchParams) => T,
  write: (params: URLSearchParams, value: T) => void,
  complete: (value: T) => boolean = () => true,
): [T, (next: T) => void] {
  // Read again only when the URL changes, and the same object while its content is the same
  // (another table's page changing does not make the filters new).
  const kept = useRef<{ text: string; value: T } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the value is read again only when the URL changes
  const stored = useMemo(() => {
    const value = read(url.params);
    const text = JSON.stringify(value);
    if (kept.current?.text !== text) kept.current = { text, value };
    return kept.current.value;
  }, [url.params]);
  const [pending, setPending] = useState<{ search: string; value: T } | null>(null);
  const value = pending && pending.search === url.search ? pending.value : stored;

  const latest = useRef({ url, write, complete });
  latest.current = { url, write, complete };
  const set = useCallback((next: T) => {
    const { url: u, write: w, complete: c } = latest.current;
    if (!c(next)) {
      setPending({ search: u.search, value: next });
      return;
    }
    setPending(null);
    u.update((p) => w(p, next));
  }, []);
  return [value, set];
}

/** A table's view kept in the URL under a prefix; the screen clears the page when its filters change. */
export interface UrlViewStore {
  view: UrlTableView;
  setView: (next: UrlTableView) => void;
}

export function useUrlTableView(url: UrlParams, prefix: string, defaults: TableDefaults): UrlViewStore {
  const key = JSON.stringify(defaults);
  // biome-ignore lint/correctness/useExhaustiveDependencies: defaults compared by content
  const view = useMemo(() => readTableView(url.params, prefix, defaults), [url.params, prefix, key]);
  const latest = useRef({ url, defaults });
  latest.current = { url, defaults };
  const setView = useCallback(
    (next: UrlTableView) => latest.current.url.update((p) => writeTableView(p, prefix, next, latest.current.defaults)),
    [prefix],
  );
  return useMemo(() => ({ view, setView }), [view, setView]);
}
