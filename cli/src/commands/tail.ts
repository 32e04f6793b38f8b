// `adops tail`: the live referrer log. Shows the latest events, then follows the SSE stream
// (resuming with Last-Event-ID after a drop); when the stream fails it polls the log every
// 5 s instead, merging and de-duplicating with core's live-log rules. NDJSON with --json.
import type { Command } from 'commander';
import { EventSource } from 'eventsource';
import {
  ApiError,
  LIVE_CAP,
  MAX_PAGE_SIZE,
  POLL_INTERVAL_MS,
  buildRequest,
  contract,
  parseLiveMessage,
  prependNew,
  type Api,
  type LiveRecord,
  type ReferrerFilter,
} from '@adops/core';
import type { Cli } from '../context.js';
import { SESSION_EXPIRED } from '../context.js';
import { CliError, EXIT } from '../io.js';
import { keyboardAttached } from '../ui/screen.js';
import { canonicalFilters, reportingTz } from './report-filters.js';
import { loadUi } from '../ui-loader.js';

export type TailMode = 'connecting' | 'sse' | 'polling';

export interface TailStatus {
  mode: TailMode;
  /** Why the tail polls, or the last polling error. */
  detail?: string;
}

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
}

type Listener<T> = (value: T) => void;

/**
 * Follows the referrer log: emits new events (oldest first, each once), the mode in use and
 * a fatal error (session expired) that ends it. `stop()` ends it cleanly.
 */
export class LiveTail {
  /** Events known, newest first, capped (core live-log list). */
  private list: LiveRecord[] = [];
  private es: EventSource | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private pending: LiveRecord[] = [];
  private failures = 0;
  /** The newest event id seen (-1: none); polling hands on only newer ones. */
  private lastId = -1;
  private stopped = false;
  private polling = false;
  private readonly eventListeners = new Set<Listener<LiveRecord[]>>();
  private readonly statusListeners = new Set<Listener<TailStatus>>();
  private finish!: (error: Error | null) => void;
  /** Resolves when stopped; rejects on a fatal error. */
  readonly done: Promise<void>;
  status: TailStatus = { mode: 'connecting' };
  /** Malformed stream messages ignored (SPEC: warning, ignored). */
  ignored = 0;

  constructor(private readonly options: LiveTailOptions) {
    this.done = new Promise((resolve, reject) => {
      this.finish = (error) => (error ? reject(error) : resolve());
    });
  }

  onEvents(listener: Listener<LiveRecord[]>): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onStatus(listener: Listener<TailStatus>): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  async start(): Promise<void> {
    const backlog = await this.latest(Math.min(LIVE_CAP, Math.max(0, this.options.lines)));
    // The newest `lines` events are shown, oldest first; the stream resumes after the newest id.
    this.list = backlog.rows;
    if (backlog.rows.length) this.emit([...backlog.rows].reverse());
    this.lastId = backlog.lastId;
    this.openStream(this.lastId >= 0 ? this.lastId : undefined);
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

  stop(): void {
    this.end(null);
  }

  private end(error: Error | null): void {
    if (this.stopped) return;
    this.stopped = true;
    this.es?.close();
    this.es = null;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.finish(error);
  }

  private setStatus(status: TailStatus): void {
    this.status = status;
    for (const l of this.statusListeners) l(status);
  }

  private emit(records: LiveRecord[]): void {
    for (const l of this.eventListeners) l(records);
  }

  /** Adds records (arrival order); emits those not seen before, by core's record key. */
  private add(records: readonly LiveRecord[]): void {
    if (this.stopped || records.length === 0) return;
    for (const r of records) if (typeof r.id === 'number' && r.id > this.lastId) this.lastId = r.id;
    const before = this.list;
    const after = prependNew(before, records, LIVE_CAP);
    if (after === before) return;
    const boundary = before.length ? after.indexOf(before[0]) : -1;
    const added = boundary === -1 ? after : after.slice(0, boundary);
    this.list = after;
    this.emit([...added].reverse());
  }

  private openStream(lastEventId: number | undefined): void {
    const { server, token, filter } = this.options;
    const url = buildRequest(contract.referrers.stream, { ...filter, lastEventId }, server).url;
    const es = new EventSource(url, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, Authorization: `Bearer ${token}` } }),
    });
    this.es = es;
    es.addEventListener('open', () => {
      this.failures = 0;
      this.setStatus({ mode: 'sse' });
    });
    es.addEventListener('message', (m) => {
      const record = parseLiveMessage(m.data);
      if (!record) {
        this.ignored++;
        return;
      }
      // Messages arrive one by one: hand them on in small batches.
      this.pending.push(record);
      this.flushTimer ??= setTimeout(() => {
        this.flushTimer = null;
        const batch = this.pending;
        this.pending = [];
        this.add(batch);
      }, 50);
    });
    es.addEventListener('error', (e) => {
      if (this.stopped || this.es !== es) return;
      if (e.code === 401) return this.end(new CliError(SESSION_EXPIRED, EXIT.session));
      this.failures++;
      const closed = es.readyState === es.CLOSED;
      if (closed || this.failures >= (this.options.maxStreamFailures ?? 3)) {
        const why = e.code ? `HTTP ${e.code}` : (e.message ?? 'conexión perdida');
        this.fallBack(`flujo en vivo no disponible (${why})`);
      } else this.setStatus({ mode: 'connecting', detail: 'reconectando…' });
    });
  }

  /** The stream failed: poll the log from now on (SPEC §4: permanently). */
  private fallBack(detail: string): void {
    if (this.polling || this.stopped) return;
    this.polling = true;
    this.es?.close();
    this.es = null;
    this.setStatus({ mode: 'polling', detail });
    void this.poll();
  }

  private async poll(): Promise<void> {
    if (this.stopped) return;
    try {
      // Events newer than the newest seen, newest first in pages of 500 (pinned to the first answer).
      const fresh: LiveRecord[] = [];
      let pinned: number | undefined;
      for (let page = 1; fresh.length < LIVE_CAP; page++) {
        const answer = await this.options.api.referrers.logs({ ...this.options.filter, before_id: pinned, page, page_size: MAX_PAGE_SIZE });
        pinned ??= answer.totals.latest_id ?? undefined;
        const unseen = answer.rows.filter((r) => r.id > this.lastId);
        fresh.push(...unseen);
        if (unseen.length < answer.rows.length || page >= answer.page_count) break;
      }
      // Hand on the unseen ones oldest first.
      this.add(fresh.reverse());
      if (this.status.detail?.startsWith('error')) this.setStatus({ mode: 'polling' });
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return this.end(new CliError(SESSION_EXPIRED, EXIT.session));
      this.setStatus({ mode: 'polling', detail: `error al consultar: ${(e as Error).message}` });
    }
    if (!this.stopped) this.pollTimer = setTimeout(() => void this.poll(), this.options.pollMs ?? POLL_INTERVAL_MS);
  }
}

interface TailFlags {
  zone?: string;
  advertiser?: string;
  publisher?: string;
  source?: string;
  lines: string;
  json?: boolean;
}

const MODE_TEXT: Record<TailMode, string> = {
  connecting: 'conectando…',
  sse: 'en vivo (SSE)',
  polling: 'consultando cada 5 s (Polling)',
};

export function registerTail(program: Command, cli: Cli): void {
  program
    .command('tail')
    .description('Log de referrers en vivo (SSE; si el flujo falla, consulta cada 5 s). q, Ctrl-C o SIGTERM terminan')
    .option('--zone <id>', 'zona (coincidencia parcial del Zone ID)')
    .option('--advertiser <name>', 'advertiser')
    .option('--publisher <name>', 'publisher')
    .option('--source <domain>', 'source (dominio padre exacto)')
    .option('-n, --lines <n>', `eventos recientes que se muestran al empezar (0–${LIVE_CAP})`, '10')
    .option('--json', 'un registro JSON por línea (NDJSON) por evento, para tuberías')
    .action(async (flags: TailFlags, cmd: Command) => {
      if (!/^\d{1,4}$/.test(flags.lines) || Number(flags.lines) > LIVE_CAP)
        throw new CliError(`--lines no válido: ${flags.lines} (de 0 a ${LIVE_CAP})`, EXIT.usage);
      const { api, server, token } = await cli.api(cmd);
      await canonicalFilters(api, flags, ['advertiser', 'publisher']);
      const filter: ReferrerFilter = {
        zoneId: flags.zone,
        advertiser: flags.advertiser,
        publisher: flags.publisher,
        parentDomain: flags.source,
      };
      const tail = new LiveTail({ api, server, token, filter, lines: Number(flags.lines) });

      const stop = () => tail.stop();
      const interrupted = () => {
        cli.cancel();
        stop();
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', interrupted);
      cli.io.signal?.addEventListener('abort', stop, { once: true });
      const out = cli.io.stdout;
      // A closed pipe (`adops tail --json | head`) ends the tail quietly.
      const onOutError = () => stop();
      out.on('error', onOutError);
      out.on('close', stop);
      try {
        if (cli.machine(flags.json)) await followAsNdjson(cli, tail);
        else await followOnScreen(cli, tail, filter);
      } finally {
        tail.stop();
        process.off('SIGTERM', stop);
        process.off('SIGINT', interrupted);
        cli.io.signal?.removeEventListener('abort', stop);
        out.off('error', onOutError);
        out.off('close', stop);
      }
    });
}

async function followAsNdjson(cli: Cli, tail: LiveTail): Promise<void> {
  tail.onEvents((records) => {
    const out = cli.io.stdout;
    if (out.destroyed || out.writableEnded) return tail.stop();
    out.write(`${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  });
  tail.onStatus((s) => cli.io.stderr.write(`tail: ${MODE_TEXT[s.mode]}${s.detail ? ` — ${s.detail}` : ''}\n`));
  await tail.start();
  await tail.done;
}

async function followOnScreen(cli: Cli, tail: LiveTail, filter: ReferrerFilter): Promise<void> {
  const interactive = keyboardAttached(cli.io);
  const [{ createElement }, { Tail }, { showScreen }] = await Promise.all([
    import('react'),
    loadUi(() => import('../ui/Tail.js')),
    loadUi(() => import('../ui/screen.js')),
  ]);
  const screen = showScreen(
    cli,
    createElement(Tail, {
      tail,
      tz: reportingTz(cli.io),
      filter,
      interactive,
      width: cli.io.stdout.columns ?? 120,
    }),
    true,
  );
  try {
    await tail.start();
  } catch (e) {
    tail.stop();
    await screen;
    throw e;
  }
  const [ended] = await Promise.allSettled([tail.done]);
  await screen;
  if (ended.status === 'rejected') throw ended.reason;
}
