// The live log's page as the user sees it (SPEC §4 live mode over server pages): the server
// answers a page of the events stored up to an id; events that arrive live after that id are
// "arrivals". Page 1 shows the newest rows, arrivals first; from page 2 on the pages are pinned
// to the newest id known when the user left page 1 (before_id), so arrivals never shift them.
// Arrivals are always counted.
import { mergePolled, type LiveRecord } from '@adops/core';

/** The page asked for; `beforeId` pins pages 2+ to the events up to that id. */
export interface LogView {
  page: number;
  beforeId?: number;
}

/** A page as the server answered it. */
export interface LogSnapshot {
  rows: LiveRecord[];
  total_rows: number;
  page: number;
  page_count: number;
  /** The newest stored id when the page was read (any filter). */
  latest_id: number | null;
}

/** An event's numeric id, or undefined. */
export function eventId(r: Pick<LiveRecord, 'id'>): number | undefined {
  const id = typeof r.id === 'number' ? r.id : typeof r.id === 'string' && /^\d+$/.test(r.id) ? Number(r.id) : NaN;
  return Number.isSafeInteger(id) && id >= 0 ? id : undefined;
}

/** The id up to which the snapshot already holds every matching event: the pin, else its newest stored id. */
export function baselineOf(view: LogView, snapshot: Pick<LogSnapshot, 'latest_id'> | null | undefined): number {
  return view.beforeId ?? snapshot?.latest_id ?? 0;
}

/** Arrivals the snapshot does not hold (id above the baseline; an event without id counts as new). */
export function pendingArrivals<T extends Pick<LiveRecord, 'id'>>(arrivals: readonly T[], baseline: number): T[] {
  return arrivals.filter((r) => {
    const id = eventId(r);
    return id === undefined || id > baseline;
  });
}

/** The newest event id known: the snapshot's newest stored id or a newer arrival's. */
export function newestKnownId(snapshot: Pick<LogSnapshot, 'latest_id'> | null | undefined, arrivals: readonly LiveRecord[]): number | undefined {
  let newest = snapshot?.latest_id ?? undefined;
  for (const r of arrivals) {
    const id = eventId(r);
    if (id !== undefined && (newest === undefined || id > newest)) newest = id;
  }
  return newest;
}

/** Moving to a page: page 1 follows the live list again; pages 2+ keep the pin or take the newest id known. */
export function moveTo(view: LogView, page: number, newest: number | undefined): LogView {
  const target = Math.max(1, Math.floor(page) || 1);
  if (target === 1) return { page: 1 };
  return { page: target, beforeId: view.beforeId ?? newest ?? 0 };
}

export interface ShownLogPage {
  rows: LiveRecord[];
  page: number;
  pageCount: number;
  /** Every matching event: the snapshot's and the arrivals after it. */
  total: number;
}

/**
 * What the table shows for a view, the server's page and the arrivals so far. `counted` is a
 * newer count of every matching event when one is known (a poll's), so a burst larger than a
 * poll's page is still counted.
 */
export function shownLogPage(view: LogView, snapshot: LogSnapshot, arrivals: readonly LiveRecord[], pageSize: number, counted = 0): ShownLogPage {
  const pending = pendingArrivals(arrivals, baselineOf(view, snapshot));
  const total = Math.max(snapshot.total_rows + pending.length, counted);
  if (view.beforeId === undefined) {
    // Page 1, live: arrivals ahead of the server's newest rows (duplicates by key once).
    return {
      rows: mergePolled(snapshot.rows, pending).slice(0, pageSize),
      page: 1,
      pageCount: Math.max(1, Math.ceil(total / pageSize)),
      total,
    };
  }
  return { rows: snapshot.rows, page: snapshot.page, pageCount: Math.max(1, snapshot.page_count), total };
}
