// The live referrers log (SPEC §4 live mode): loads the filter's events, then while live
// follows the SSE stream, or polls every 5 s once the stream has failed (for good). New
// events are merged by key with core's live.ts, newest first, capped at 5,000.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
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

export type LiveMode = 'sse' | 'polling';

export interface LiveLogState {
  records: LiveRecord[];
  /** 'sse' while the stream works (or has not been tried), 'polling' after it failed or without EventSource. */
  mode: LiveMode;
  /** The first load of the filter's events is running. */
  loading: boolean;
  /** The first load failed. */
  error: unknown;
  /** The last poll failed (cleared by the next good one). */
  pollError: unknown;
  /** Grows by one each time live updates add records (drives autoscroll). */
  arrivals: number;
}

/** How long stream messages gather before they are merged into the list (ms). */
const STREAM_BATCH_MS = 150;

const supportsEventSource = () => typeof window !== 'undefined' && typeof window.EventSource === 'function';

/** The highest numeric event id listed (the stream's resume point). */
function lastEventId(records: readonly LiveRecord[]): number | undefined {
  let max: number | undefined;
  for (const r of records) {
    const id = typeof r.id === 'number' ? r.id : Number(r.id);
    if (Number.isSafeInteger(id) && id >= 0 && (max === undefined || id > max)) max = id;
  }
  return max;
}

export function useLiveLog(filter: ReferrerFilter, live: boolean, options: { pollMs?: number } = {}): LiveLogState {
  const api = useApi();
  const pollMs = options.pollMs ?? POLL_INTERVAL_MS;
  const filterKey = JSON.stringify(filter);
  const filterRef = useRef(filter);
  filterRef.current = filter;

  const listRef = useRef<LiveRecord[]>([]);
  const [records, setRecords] = useState<LiveRecord[]>([]);
  const [mode, setMode] = useState<LiveMode>(() => (supportsEventSource() ? 'sse' : 'polling'));
  const [loadedKey, setLoadedKey] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [pollError, setPollError] = useState<unknown>(null);
  const [arrivals, setArrivals] = useState(0);

  const replace = useCallback((next: LiveRecord[]) => {
    listRef.current = next;
    setRecords(next);
  }, []);
  /** Shows a live update; counts an arrival only when it added something. */
  const update = useCallback((next: LiveRecord[]) => {
    if (next === listRef.current) return;
    listRef.current = next;
    setRecords(next);
    setArrivals((n) => n + 1);
  }, []);
  /** Merges a fetched page ahead of the list when it holds anything not listed yet. */
  const addPolled = useCallback(
    (rows: readonly LiveRecord[]) => {
      const shown = new Set(listRef.current.map(recordKey));
      if (rows.some((r) => !shown.has(recordKey(r)))) update(mergePolled(listRef.current, rows));
    },
    [update],
  );

  // Live switched back on: load again (merging) before following, so nothing missed while off is lost.
  // (Adjusted while rendering, so no effect ever sees live on with the old load.)
  const [resumes, setResumes] = useState(0);
  const [wasLive, setWasLive] = useState(live);
  if (live !== wasLive) {
    setWasLive(live);
    if (live) setResumes((n) => n + 1);
  }

  // The filter's events: a new filter starts from an empty list, a resume merges into it.
  const loadKey = `${resumes}|${filterKey}`;
  const loadedFilter = useRef<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    const sameFilter = loadedFilter.current === filterKey;
    if (!sameFilter) {
      replace([]);
      setError(null);
      setPollError(null);
    }
    setLoadedKey(null);
    api.referrers.logs(filterRef.current, { signal: controller.signal }).then(
      (rows) => {
        if (controller.signal.aborted) return;
        if (!sameFilter) replace(mergePolled(listRef.current, rows));
        else addPolled(rows);
        loadedFilter.current = filterKey;
        setError(null);
        setLoadedKey(loadKey);
      },
      (e: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Error al cargar datos de referrers_logs', e);
        setError(e);
        setLoadedKey(loadKey);
      },
    );
    return () => controller.abort();
  }, [api, loadKey]); // eslint-disable-line react-hooks/exhaustive-deps

  const ready = loadedKey === loadKey;

  // Live over SSE: one EventSource per filter, resuming after the newest listed event.
  useEffect(() => {
    if (!live || mode !== 'sse' || !ready) return;
    const { url } = buildRequest(contract.referrers.stream, {
      ...filterRef.current,
      lastEventId: lastEventId(listRef.current),
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
      if (batch.length) update(prependNew(listRef.current, batch));
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
  }, [live, mode, ready, loadKey, update]);

  // Live by polling: now, then every pollMs after each answer.
  useEffect(() => {
    if (!live || mode !== 'polling' || !ready) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const rows = await api.referrers.logs(filterRef.current, { signal: controller.signal });
        if (controller.signal.aborted) return;
        addPolled(rows);
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
  }, [api, live, mode, ready, loadKey, pollMs, addPolled]);

  return useMemo(
    () => ({ records, mode, loading: !ready, error, pollError, arrivals }),
    [records, mode, ready, error, pollError, arrivals],
  );
}
