// The live referrers log (SPEC §4 live mode) over the server's pages: the page shown comes
// from the server (POST /api/referrers_logs/ with page, page_size and, from page 2 on, the
// before_id that pins it); while live, new events arrive through core's live follower (the
// one `adops tail` uses): the SSE stream, or polling every 5 s once the stream has failed (for
// good). Arrivals are merged by key, newest first, capped at 5,000; page 1 shows them on top
// and every page counts them.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  LIVE_CAP,
  LiveFollower,
  POLL_INTERVAL_MS,
  buildRequest,
  contract,
  prependNew,
  type LiveRecord,
  type LiveSource,
  type ReferrerFilter,
} from '@adops/core';
import { useApi } from './useApi';
import { readToken } from '../lib/session';
import { baselineOf, moveTo, newestKnownId, pendingArrivals, shownLogPage, type LogSnapshot, type LogView } from './logPage';

export type LiveMode = 'sse' | 'polling';

export interface LiveLogState {
  /** The rows of the page shown. */
  rows: LiveRecord[];
  page: number;
  pageCount: number;
  /** Every matching event (the server's count plus live arrivals since). */
  total: number;
  setPage: (page: number) => void;
  /** 'sse' while the stream works (or has not been tried), 'polling' after it failed or without EventSource. */
  mode: LiveMode;
  /** The first page of the filter is loading. */
  loading: boolean;
  /** Another page (or a reload) is loading; the rows shown are the previous page's. */
  busy: boolean;
  /** Loading a page failed. */
  error: unknown;
  /** The last poll failed (cleared by the next good one). */
  pollError: unknown;
  /** Grows by one each time live updates add events (drives autoscroll). */
  arrivals: number;
}

/** How long stream messages gather before they are merged into the list (ms). */
const STREAM_BATCH_MS = 150;
/** Newest events a poll asks for (more than arrive in 5 s on any normal day). */
const POLL_PAGE_SIZE = 200;

const supportsEventSource = () => typeof window !== 'undefined' && typeof window.EventSource === 'function';

interface Snapshot {
  filterKey: string;
  /** The run (filter, page, pin, reload count) it answers. */
  run: string;
  /** The view the data answers (shown until the next page arrives). */
  view: LogView;
  data: LogSnapshot | null;
  error: unknown;
}

interface Arrivals {
  filterKey: string;
  list: LiveRecord[];
  /** Times the list grew. */
  count: number;
}

export function useLiveLog(filter: ReferrerFilter, live: boolean, options: { pageSize: number; pollMs?: number }): LiveLogState {
  const api = useApi();
  const { pageSize } = options;
  const pollMs = options.pollMs ?? POLL_INTERVAL_MS;
  const filterKey = JSON.stringify(filter);
  const filterRef = useRef(filter);
  filterRef.current = filter;

  // The page asked for, back to page 1 (unpinned) when the filter changes.
  const [viewState, setViewState] = useState<{ filterKey: string; view: LogView }>({ filterKey, view: { page: 1 } });
  // Live arrivals of this filter, newest first.
  const [arrivalState, setArrivalState] = useState<Arrivals>({ filterKey, list: [], count: 0 });
  let view = viewState.view;
  let arrivals = arrivalState;
  if (viewState.filterKey !== filterKey) {
    view = { page: 1 };
    setViewState({ filterKey, view });
  }
  if (arrivalState.filterKey !== filterKey) {
    arrivals = { filterKey, list: [], count: 0 };
    setArrivalState(arrivals);
  }

  // Live switched back on: reload the page shown (what was missed while off), then follow again.
  const [reloads, setReloads] = useState(0);
  const [wasLive, setWasLive] = useState(live);
  if (live !== wasLive) {
    setWasLive(live);
    if (live) setReloads((n) => n + 1);
  }

  const [mode, setMode] = useState<LiveMode>(() => (supportsEventSource() ? 'sse' : 'polling'));
  const [snapshot, setSnapshot] = useState<Snapshot>({ filterKey: '', run: '', view: { page: 1 }, data: null, error: null });
  const [pollError, setPollError] = useState<unknown>(null);
  /** The count of every matching event the last poll answered (for this filter). */
  const [polled, setPolled] = useState<{ filterKey: string; total: number } | null>(null);

  const run = `${filterKey}|${view.page}|${view.beforeId ?? ''}|${reloads}`;
  const current = snapshot.filterKey === filterKey ? snapshot.data : null;
  const baseline = baselineOf(snapshot.view, current);

  // What live callbacks read without restarting: the baseline and the newest id known.
  const liveRef = useRef({ baseline, newest: newestKnownId(current, arrivals.list) });
  liveRef.current = { baseline, newest: newestKnownId(current, arrivals.list) };

  // The page asked for, from the server.
  // biome-ignore lint/correctness/useExhaustiveDependencies: one load per run (its key holds the filters and the view); the rest is read from refs
  useEffect(() => {
    const controller = new AbortController();
    const asked = { ...filterRef.current, page: view.page, page_size: pageSize, before_id: view.beforeId };
    api.referrers.logs(asked, { signal: controller.signal }).then(
      (answer) => {
        if (controller.signal.aborted) return;
        const data: LogSnapshot = { ...answer, latest_id: answer.totals.latest_id };
        setSnapshot({ filterKey, run, view, data, error: null });
        // Arrivals the new page already holds are dropped (they are counted by the server now).
        const kept = baselineOf(view, data);
        setArrivalState((s) => (s.filterKey === filterKey ? { ...s, list: pendingArrivals(s.list, kept) } : s));
      },
      (e: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Error al cargar datos de referrers_logs', e);
        setSnapshot((s) => ({ ...s, filterKey, run, error: e, data: s.filterKey === filterKey ? s.data : null }));
      },
    );
    return () => controller.abort();
  }, [api, run]);

  /** Adds live events (oldest first, each once) newer than the page's baseline; counts an arrival only when the list grew. */
  const addArrivals = useCallback(
    (incoming: readonly LiveRecord[]) => {
      const fresh = pendingArrivals(incoming, liveRef.current.baseline);
      if (fresh.length === 0) return;
      setArrivalState((s) => {
        if (s.filterKey !== filterKey) return s;
        const next = prependNew(s.list, fresh, LIVE_CAP);
        return next === s.list ? s : { ...s, list: next, count: s.count + 1 };
      });
    },
    [filterKey],
  );

  const ready = current !== null;

  // Live: core's follower (the one `adops tail` uses) over an EventSource, or polling every
  // pollMs once the stream failed — for good, also for later filters (SPEC §4).
  const streamFailed = useRef(!supportsEventSource());
  useEffect(() => {
    if (!live || !ready) return;
    const source: LiveSource = {
      poll: async (_afterId, signal) => {
        try {
          const answer = await api.referrers.logs({ ...filterRef.current, page: 1, page_size: POLL_PAGE_SIZE }, { signal });
          setPollError(null);
          return { rows: answer.rows, total: answer.total_rows };
        } catch (e) {
          if (!signal.aborted) {
            console.error('Error al cargar datos de referrers_logs', e);
            setPollError(e);
          }
          throw e;
        }
      },
    };
    if (!streamFailed.current)
      source.stream = (lastEventId, on) => {
        const { url } = buildRequest(contract.referrers.stream, { ...filterRef.current, lastEventId, access_token: readToken() ?? undefined });
        const es = new EventSource(url);
        es.onopen = () => on.open();
        es.onmessage = (message: MessageEvent<string>) => on.message(message.data);
        es.onerror = () => {
          console.warn('Error en el stream de referrers_logs; se pasa a polling cada 5 s');
          streamFailed.current = true;
          on.error({ closed: es.readyState === EventSource.CLOSED });
        };
        return es;
      };
    const follower = new LiveFollower(source, {
      pollMs,
      maxStreamFailures: 1,
      batchMs: STREAM_BATCH_MS,
      cap: LIVE_CAP,
      onMalformed: (data) => console.warn('Mensaje del stream de referrers_logs mal formado; se ignora', data),
    });
    follower.onEvents((records) => addArrivals(records));
    follower.onStatus((status) => setMode(status.mode === 'polling' ? 'polling' : 'sse'));
    follower.onCount((total) => setPolled({ filterKey, total }));
    setMode(streamFailed.current ? 'polling' : 'sse');
    follower.start([], liveRef.current.newest);
    return () => follower.stop();
  }, [api, live, ready, filterKey, pollMs, addArrivals]);

  const setPage = useCallback((page: number) => setViewState((s) => ({ ...s, view: moveTo(s.view, page, liveRef.current.newest) })), []);

  const counted = polled?.filterKey === filterKey ? polled.total : 0;
  const shown = useMemo(
    () => (current ? shownLogPage(snapshot.view, current, arrivals.list, pageSize, counted) : { rows: [], page: 1, pageCount: 1, total: 0 }),
    [current, snapshot.view, arrivals.list, pageSize, counted],
  );
  const settled = snapshot.run === run;

  return {
    ...shown,
    setPage,
    mode,
    loading: !ready && !(settled && snapshot.error),
    busy: ready && !settled,
    error: settled ? snapshot.error : null,
    pollError,
    arrivals: arrivals.count,
  };
}
