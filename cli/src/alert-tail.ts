// `adops tail --alerts`: alerts as they fire and resolve on any server instance — the latest
// ones first (-n), then the server's alert stream (SSE, resumed after the last event id when it
// drops, tried again every 2 s). A line per alert on a terminal; NDJSON (AlertStreamEvent) with
// --json or in a pipe. Ends on Ctrl-C, SIGTERM, a closed pipe, or when the session ends.
import { EventSource } from 'eventsource';
import wrapAnsi from 'wrap-ansi';
import { alertText, buildRequest, contract, formatDateTimeDMY, type Alert, type AlertStreamEvent, type Api } from '@adops/core';
import { cliFetch, SESSION_EXPIRED } from './context.js';
import { CliError, EXIT } from './io.js';

export interface AlertTailOptions {
  api: Api;
  server: string;
  token: string;
  /** Latest alerts shown before following (0: only new ones). */
  lines: number;
  /** Wait before opening the stream again after it failed (ms). */
  retryMs?: number;
}

/** A backlog row or a stream message, as printed. */
export type AlertLine = Pick<AlertStreamEvent, 'event' | 'alert'> & { id?: number };

/** Narrowest text column worth wrapping into; a terminal narrower than that gets the line whole. */
const MIN_TEXT_COLUMNS = 24;

/**
 * '12/03/2026 10:02  DISPARADA  [Alertas] Pico de una IP: … — regla «…»', the time on the
 * reporting zone's clock (tz). Given the terminal's `columns`, a longer text wraps at word
 * boundaries under its own start, so the time and state columns stay clear; without (a pipe),
 * one line per alert.
 */
export function alertLine({ event, alert }: AlertLine, tz: string, columns?: number): string {
  const at = event === 'resolved' ? (alert.resolved_at ?? alert.fired_at) : alert.fired_at;
  const head = `${formatDateTimeDMY(at, tz)}  ${event === 'resolved' ? 'RESUELTA ' : 'DISPARADA'}  `;
  const text = alertText(alert);
  const room = (columns ?? 0) - head.length;
  if (room < MIN_TEXT_COLUMNS) return head + text;
  // A figure keeps its unit ('-18,1 %') on one line.
  const wrapped = wrapAnsi(text.replaceAll(' %', '\u00a0%'), room, { hard: true }).replaceAll('\u00a0%', ' %');
  return head + wrapped.replaceAll('\n', `\n${' '.repeat(head.length)}`);
}

export class AlertTail {
  private source: EventSource | null = null;
  private retry: NodeJS.Timeout | null = null;
  private lastId: number | undefined;
  private stopped = false;
  private finish!: (error?: unknown) => void;
  /** Resolves when stopped; rejects with the session error when the session ended. */
  readonly done: Promise<void>;

  constructor(
    private readonly options: AlertTailOptions,
    private readonly emit: (lines: AlertLine[]) => void,
    private readonly status: (text: string) => void,
  ) {
    this.done = new Promise<void>((resolve, reject) => {
      this.finish = (error) => (error ? reject(error) : resolve());
    });
  }

  /** Shows the latest alerts, then follows the stream. */
  async start(): Promise<void> {
    if (this.options.lines > 0) {
      const { rows } = await this.options.api.alerts.list({ state: 'all', page_size: this.options.lines });
      const backlog = [...rows].reverse().map((alert: Alert): AlertLine => ({ event: alert.state === 'resolved' ? 'resolved' : 'fired', alert }));
      if (backlog.length) this.emit(backlog);
    }
    this.open();
  }

  stop(error?: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.source?.close();
    this.finish(error);
  }

  private open(): void {
    if (this.stopped) return;
    const { server, token } = this.options;
    const url = buildRequest(contract.alerts.stream, this.lastId === undefined ? {} : { lastEventId: this.lastId }, server).url;
    const es = new EventSource(url, {
      fetch: (input, init) => cliFetch(input, { ...init, headers: { ...init.headers, Authorization: `Bearer ${token}` } }),
    });
    this.source = es;
    es.addEventListener('open', () => this.status('alertas en vivo (SSE)'));
    es.addEventListener('message', (m) => {
      let e: AlertStreamEvent;
      try {
        e = JSON.parse(m.data) as AlertStreamEvent;
      } catch {
        return; // not an alert: ignored
      }
      if (typeof e.id === 'number') this.lastId = e.id;
      this.emit([e]);
    });
    es.addEventListener('error', (e) => {
      if (this.stopped) return;
      if (e.code === 401) return this.stop(new CliError(SESSION_EXPIRED, EXIT.session));
      // A network failure is retried by EventSource itself; an answer that closed it, here.
      if (es.readyState !== es.CLOSED) return this.status(`reconectando…${e.message ? ` — ${e.message}` : ''}`);
      this.status(`el flujo falló${e.code ? ` (HTTP ${e.code})` : ''}; nuevo intento en ${Math.round((this.options.retryMs ?? 2000) / 1000)} s`);
      this.retry = setTimeout(() => this.open(), this.options.retryMs ?? 2000);
    });
  }
}
