// The live follower of the referrer log, written once for the Logs screen and `adops tail`:
// follows the server-sent event stream (resuming after the newest id known), gathers its
// messages in short batches, falls back to polling when the stream fails (SPEC §4) — for good,
// or, given `streamRetryMs`, trying the stream again meanwhile and going back to it once it opens —
// hands on every event once (by id, then by core's record key), keeps a bounded list, and ends
// on a refused session. The faces only say how to open a stream and how to poll.
import { LIVE_CAP, POLL_INTERVAL_MS, type LiveRecord, parseLiveMessage, prependNew } from './live.js';

export type FollowMode = 'connecting' | 'sse' | 'polling';

export interface FollowStatus {
  mode: FollowMode;
  /** Why it polls, or the last polling error. */
  detail?: string;
}

/** What a stream reports: its opening, each message's data, and its errors. */
export interface StreamCallbacks {
  open(): void;
  message(data: string): void;
  /** `status`: the HTTP status when the stream was refused; `closed`: it will not reconnect by itself. */
  error(info: { status?: number; closed: boolean; message?: string }): void;
}

export interface LiveSource {
  /** Opens the stream after `lastEventId`; absent where no stream can be opened (then it polls). */
  stream?: (lastEventId: number | undefined, on: StreamCallbacks) => { close(): void };
  /**
   * Events newer than `afterId` (-1: none known), newest first; `total`: every matching event,
   * when the source counts them. Rejects with `{ status: 401 }` (an ApiError) for an ended session.
   */
  poll(afterId: number, signal: AbortSignal): Promise<{ rows: LiveRecord[]; total?: number }>;
}

export interface FollowerOptions {
  /** Polling interval (default 5 s, SPEC §4). */
  pollMs?: number;
  /** Stream errors in a row before polling for good (the web: 1, SPEC §4; the terminal rides out 2 drops). */
  maxStreamFailures?: number;
  /** How long stream messages gather before they are handed on (ms). */
  batchMs?: number;
  /**
   * While polling, try the stream again this often and go back to it once it opens (the
   * terminal, after an outage); absent: poll for good once the stream failed.
   */
  streamRetryMs?: number;
  /** Events remembered for de-duplication. */
  cap?: number;
  /** Told of each stream message that is not an event (it is counted in `ignored` and skipped). */
  onMalformed?: (data: string) => void;
}

type Listener<T> = (value: T) => void;

/** The session ended (HTTP 401): the follower stops with this error. */
export class FollowSessionError extends Error {
  constructor() {
    super('session ended');
    this.name = 'FollowSessionError';
  }
}

const statusOf = (e: unknown): number | undefined =>
  typeof e === 'object' && e !== null && typeof (e as { status?: unknown }).status === 'number' ? (e as { status: number }).status : undefined;

export class LiveFollower {
  /** Events known, newest first, capped. */
  private list: LiveRecord[] = [];
  /** The newest event id known (-1: none). */
  private lastId = -1;
  private handle: { close(): void } | null = null;
  private pending: LiveRecord[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  private pollAbort: AbortController | null = null;
  private probeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Polls are under way (a poll finishing after the stream came back schedules no other). */
  private polling = false;
  private failures = 0;
  private stopped = false;
  private readonly eventListeners = new Set<Listener<LiveRecord[]>>();
  private readonly statusListeners = new Set<Listener<FollowStatus>>();
  private readonly countListeners = new Set<Listener<number>>();
  private finish!: (error: Error | null) => void;
  /** Resolves when stopped; rejects with FollowSessionError when the session ended. */
  readonly done: Promise<void>;
  status: FollowStatus = { mode: 'connecting' };
  /** Malformed stream messages ignored (SPEC: warning, ignored). */
  ignored = 0;

  constructor(
    private readonly source: LiveSource,
    private readonly options: FollowerOptions = {},
  ) {
    this.done = new Promise((resolve, reject) => {
      this.finish = (error) => (error ? reject(error) : resolve());
    });
    // Nobody need wait on `done`: an unobserved end is not an unhandled rejection.
    this.done.catch(() => undefined);
  }

  /** New events, oldest first, each once. */
  onEvents(listener: Listener<LiveRecord[]>): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onStatus(listener: Listener<FollowStatus>): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Every matching event, as each poll counts them. */
  onCount(listener: Listener<number>): () => void {
    this.countListeners.add(listener);
    return () => this.countListeners.delete(listener);
  }

  /**
   * Starts following after what is already shown (`known`, newest first: never handed on again)
   * and the newest id known (`afterId`, e.g. the page's latest_id).
   */
  start(known: readonly LiveRecord[] = [], afterId?: number): void {
    this.list = known.slice(0, this.options.cap ?? LIVE_CAP);
    this.lastId = Math.max(afterId ?? -1, ...known.map((r) => (typeof r.id === 'number' ? r.id : -1)));
    if (this.source.stream) this.openStream();
    else this.fallBack();
  }

  stop(): void {
    this.end(null);
  }

  private end(error: Error | null): void {
    if (this.stopped) return;
    this.flush();
    this.stopped = true;
    this.handle?.close();
    this.handle = null;
    clearTimeout(this.flushTimer);
    clearTimeout(this.pollTimer);
    clearTimeout(this.probeTimer);
    this.pollAbort?.abort();
    this.finish(error);
  }

  private setStatus(status: FollowStatus): void {
    this.status = status;
    for (const l of this.statusListeners) l(status);
  }

  /** Adds records (arrival order); hands on those not known before, by core's record key. */
  private add(records: readonly LiveRecord[]): void {
    if (this.stopped || records.length === 0) return;
    for (const r of records) if (typeof r.id === 'number' && r.id > this.lastId) this.lastId = r.id;
    const before = this.list;
    const after = prependNew(before, records, this.options.cap ?? LIVE_CAP);
    if (after === before) return;
    const boundary = before.length ? after.indexOf(before[0]) : -1;
    const added = boundary === -1 ? after : after.slice(0, boundary);
    this.list = after;
    if (added.length === 0) return;
    const oldestFirst = [...added].reverse();
    for (const l of this.eventListeners) l(oldestFirst);
  }

  private flush(): void {
    this.flushTimer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.add(batch);
  }

  /** Opens the stream; a `probe` is tried while polling, which goes on until the stream opens. */
  private openStream(probe = false): void {
    const stream = this.source.stream!;
    let handle: { close(): void } | null = null;
    handle = stream(this.lastId >= 0 ? this.lastId : undefined, {
      open: () => {
        if (this.stopped || this.handle !== handle) return;
        this.failures = 0;
        if (probe) this.stopPolling();
        this.setStatus({ mode: 'sse' });
      },
      message: (data) => {
        if (this.stopped || this.handle !== handle) return;
        const record = parseLiveMessage(data);
        if (!record) {
          this.ignored++;
          this.options.onMalformed?.(data);
          return;
        }
        this.pending.push(record);
        this.flushTimer ??= setTimeout(() => this.flush(), this.options.batchMs ?? 50);
      },
      error: ({ status, closed, message }) => {
        if (this.stopped || this.handle !== handle) return;
        if (status === 401) return this.end(new FollowSessionError());
        if (this.polling) {
          // A probe that did not open: polling goes on, the stream is tried again later.
          handle?.close();
          this.handle = null;
          return this.scheduleProbe();
        }
        this.failures++;
        if (closed || this.failures >= (this.options.maxStreamFailures ?? 3)) {
          this.flush();
          this.fallBack(`flujo en vivo no disponible (${status ? `HTTP ${status}` : (message ?? 'conexión perdida')})`);
        } else this.setStatus({ mode: 'connecting', detail: 'reconectando…' });
      },
    });
    this.handle = handle;
  }

  /** The stream failed (or none can be opened): poll from now on, trying the stream again when asked to. */
  private fallBack(detail?: string): void {
    if (this.stopped) return;
    this.handle?.close();
    this.handle = null;
    this.polling = true;
    this.setStatus({ mode: 'polling', ...(detail ? { detail } : {}) });
    void this.poll();
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    const every = this.options.streamRetryMs;
    if (this.stopped || !this.source.stream || every === undefined) return;
    clearTimeout(this.probeTimer);
    this.probeTimer = setTimeout(() => {
      if (!this.stopped && this.polling && !this.handle) this.openStream(true);
    }, every);
  }

  /** The stream is back: the poll under way is dropped (the stream resumes after the newest id). */
  private stopPolling(): void {
    this.polling = false;
    clearTimeout(this.pollTimer);
    clearTimeout(this.probeTimer);
    this.pollAbort?.abort();
  }

  private async poll(): Promise<void> {
    if (this.stopped || !this.polling) return;
    const abort = new AbortController();
    this.pollAbort = abort;
    try {
      const { rows, total } = await this.source.poll(this.lastId, abort.signal);
      // Back on the stream meanwhile: it resumes after the id it opened with, so nothing is lost.
      if (this.stopped || !this.polling) return;
      // Newest first from the source: handed on oldest first, only what is newer than known.
      this.add(rows.filter((r) => typeof r.id !== 'number' || r.id > this.lastId).reverse());
      if (total !== undefined) for (const l of this.countListeners) l(total);
      if (this.status.detail?.startsWith('error')) this.setStatus({ mode: 'polling' });
    } catch (e) {
      if (this.stopped || !this.polling) return;
      if (statusOf(e) === 401) return this.end(new FollowSessionError());
      this.setStatus({ mode: 'polling', detail: `error al consultar: ${(e as Error).message}` });
    }
    if (!this.stopped && this.polling) this.pollTimer = setTimeout(() => void this.poll(), this.options.pollMs ?? POLL_INTERVAL_MS);
  }
}
