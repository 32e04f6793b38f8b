// `adops tail`'s follower: the newest events first (in pinned pages of the server's log), then
// core's LiveFollower over the SSE stream with Last-Event-ID, falling back to polling and back to
// the stream once it answers again. Used by
// the tail command and drawn by ui/Tail.tsx (which imports only this file's types).
import { EventSource } from 'eventsource';
import {
  type Api,
  buildRequest,
  routes,
  FollowSessionError,
  type FollowStatus,
  LIVE_CAP,
  LiveFollower,
  type LiveRecord,
  type LiveSource,
  MAX_PAGE_SIZE,
  type ReferrerFilter,
} from '@adops/core/lite';
import { cliFetch, SESSION_EXPIRED } from './context.js';
import { CliError, EXIT } from './io.js';

export type TailMode = FollowStatus['mode'];
export type TailStatus = FollowStatus;

export interface LiveTailOptions {
  api: Api;
  server: string;
  token: string;
  filter: ReferrerFilter;
  /** Latest events shown before following (0: only new ones). */
  lines: number;
  /** Polling interval (default 5 s, SPEC §4). */
  pollMs?: number;
  /** Failed stream attempts in a row before falling back to polling. */
  maxStreamFailures?: number;
  /** While polling, how often the stream is tried again (default 15 s); it is used again once it opens. */
  streamRetryMs?: number;
}

/** The server's stream and log as the follower's source, with the stored session. */
function source(options: LiveTailOptions): LiveSource {
  const { api, server, token, filter } = options;
  return {
    stream(lastEventId, on) {
      const url = buildRequest(routes.referrers.stream, { ...filter, lastEventId }, server).url;
      const es = new EventSource(url, {
        fetch: (input, init) => cliFetch(input, { ...init, headers: { ...init.headers, Authorization: `Bearer ${token}` } }),
      });
      es.addEventListener('open', () => on.open());
      es.addEventListener('message', (m) => on.message(m.data));
      es.addEventListener('error', (e) => on.error({ status: e.code, closed: es.readyState === es.CLOSED, message: e.message }));
      return es;
    },
    // Events newer than the newest seen, newest first, in pages of 500 pinned to the first answer.
    async poll(afterId, signal) {
      const fresh: LiveRecord[] = [];
      let pinned: number | undefined;
      for (let page = 1; fresh.length < LIVE_CAP; page++) {
        const answer = await api.referrers.logs({ ...filter, before_id: pinned, page, page_size: MAX_PAGE_SIZE }, { signal });
        pinned ??= answer.totals.latest_id ?? undefined;
        const unseen = answer.rows.filter((r) => r.id > afterId);
        fresh.push(...unseen);
        if (unseen.length < answer.rows.length || page >= answer.page_count) break;
      }
      return { rows: fresh };
    },
  };
}

/**
 * Follows the referrer log: emits new events (oldest first, each once), the mode in use and
 * a fatal error (session expired) that ends it. `stop()` ends it cleanly.
 */
export class LiveTail {
  private readonly follower: LiveFollower;
  private readonly listeners = new Set<(records: LiveRecord[]) => void>();
  /** Resolves when stopped; rejects with the CLI's session error when the session ended. */
  readonly done: Promise<void>;

  constructor(private readonly options: LiveTailOptions) {
    this.follower = new LiveFollower(source(options), {
      pollMs: options.pollMs,
      maxStreamFailures: options.maxStreamFailures ?? 3,
      streamRetryMs: options.streamRetryMs ?? 15_000,
    });
    this.follower.onEvents((records) => this.emit(records));
    this.done = this.follower.done.catch((e: unknown) => {
      throw e instanceof FollowSessionError ? new CliError(SESSION_EXPIRED, EXIT.session) : e;
    });
  }

  get status(): TailStatus {
    return this.follower.status;
  }

  /** Malformed stream messages ignored (SPEC: warning, ignored). */
  get ignored(): number {
    return this.follower.ignored;
  }

  /** The backlog, then live events: oldest first, each once. */
  onEvents(listener: (records: LiveRecord[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onStatus(listener: (status: TailStatus) => void): () => void {
    return this.follower.onStatus(listener);
  }

  async start(): Promise<void> {
    const backlog = await this.latest(Math.min(LIVE_CAP, Math.max(0, this.options.lines)));
    // The newest `lines` events are shown, oldest first; following resumes after the newest id.
    if (backlog.rows.length) this.emit([...backlog.rows].reverse());
    this.follower.start(backlog.rows, backlog.lastId);
  }

  stop(): void {
    this.follower.stop();
  }

  private emit(records: LiveRecord[]): void {
    for (const l of this.listeners) l(records);
  }

  /**
   * The newest `count` events (newest first) in pages of at most 500, pinned to the newest id
   * of the first answer so arrivals never shift later pages; with count 0, only that id.
   */
  private async latest(count: number): Promise<{ rows: LiveRecord[]; lastId: number }> {
    const { api, filter } = this.options;
    const size = Math.max(1, Math.min(MAX_PAGE_SIZE, count));
    const first = await api.referrers.logs({ ...filter, page: 1, page_size: size });
    const rows = first.rows.slice(0, count);
    const pinned = first.totals.latest_id ?? undefined;
    for (let page = 2; rows.length < count && page <= first.page_count; page++) {
      const next = await api.referrers.logs({ ...filter, before_id: pinned, page, page_size: size });
      rows.push(...next.rows.slice(0, count - rows.length));
    }
    const lastId = Math.max(first.totals.latest_id ?? -1, ...first.rows.map((r) => r.id));
    return { rows, lastId };
  }
}
