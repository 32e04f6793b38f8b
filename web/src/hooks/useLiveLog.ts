// The live referrers log (SPEC §4 live mode) over the server's pages: the page shown comes
// from the server (POST /api/referrers_logs/ with page, page_size and, from page 2 on, the
// before_id that pins it); while live, new events arrive by the SSE stream, or by polling
// every 5 s once the stream has failed (for good). Arrivals are merged by key (core's live.ts),
// newest first, capped at 5,000; page 1 shows them on top and every page counts them.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  LIVE_CAP,
  POLL_INTERVAL_MS,
  buildRequest,
  contract,
  mergePolled,
  parseLiveMessage,
  prependNew,
  recordKey,
  type LiveRecord,
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

  /** Adds live events newer than the page's baseline; counts an arrival only when the list grew. */
  const addArrivals = useCallback(
    (incoming: readonly LiveRecord[], how: 'stream' | 'poll') => {
      const floor = liveRef.current.baseline;
      const fresh = pendingArrivals(incoming, floor);
      if (fresh.length === 0) return;
      setArrivalState((s) => {
        if (s.filterKey !== filterKey) return s;
        let next: LiveRecord[];
        if (how === 'stream') next = prependNew(s.list, fresh, LIVE_CAP);
        else {
          const listed = new Set(s.list.map(recordKey));
          if (fresh.every((r) => listed.has(recordKey(r)))) return s;
          next = mergePolled(s.list, fresh, LIVE_CAP);
        }
        return next === s.list ? s : { ...s, list: next, count: s.count + 1 };
      });
    },
    [filterKey],
  );

  const ready = current !== null;

  // Live over SSE: one EventSource per filter, resuming after the newest event known.
  // biome-ignore lint/correctness/useExhaustiveDependencies: one EventSource per filter: a new filter must reconnect
  useEffect(() => {
    if (!live || mode !== 'sse' || !ready) return;
    const { url } = buildRequest(contract.referrers.stream, {
      ...filterRef.current,
      lastEventId: liveRef.current.newest,
      access_token: readToken() ?? undefined,
    });
    const source = new EventSource(url);
    // Messages are merged in small batches: one dedupe pass over the list per batch, not per event.
    let pending: LiveRecord[] = [];
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      flushTimer = undefined;
      const batch = pending;
      pending = [];
      if (batch.length) addArrivals(batch, 'stream');
    };
    source.onmessage = (message: MessageEvent<string>) => {
      const record = parseLiveMessage(message.data);
      if (!record) {
        console.warn('Mensaje del stream de referrers_logs mal formado; se ignora', message.data);
        return;
      }
      pending.push(record);
      flushTimer ??= setTimeout(flush, STREAM_BATCH_MS);
    };
    source.onerror = () => {
      console.warn('Error en el stream de referrers_logs; se pasa a polling cada 5 s');
      source.close();
      clearTimeout(flushTimer);
      flush();
      setMode('polling');
    };
    return () => {
      source.close();
      clearTimeout(flushTimer);
      flush();
    };
  }, [live, mode, ready, filterKey, addArrivals]);

  // Live by polling: now, then every pollMs after each answer; the newest events are merged.
  useEffect(() => {
    if (!live || mode !== 'polling' || !ready) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const answer = await api.referrers.logs({ ...filterRef.current, page: 1, page_size: POLL_PAGE_SIZE }, { signal: controller.signal });
        if (controller.signal.aborted) return;
        addArrivals(answer.rows, 'poll');
        setPolled({ filterKey, total: answer.total_rows });
        setPollError(null);
      } catch (e) {
        if (controller.signal.aborted) return;
        console.error('Error al cargar datos de referrers_logs', e);
        setPollError(e);
      }
      if (!controller.signal.aborted) timer = setTimeout(poll, pollMs);
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [api, live, mode, ready, filterKey, pollMs, addArrivals]);

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
