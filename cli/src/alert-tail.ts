// `adops tail --alerts`: alerts as they fire and resolve on any server instance — the latest
// ones first (-n), then the server's alert stream (SSE, resumed after the last event id when it
// drops, tried again every 2 s). A line per alert on a terminal; NDJSON (AlertStreamEvent) with
// --json or in a pipe. Ends on Ctrl-C, SIGTERM, a closed pipe, or when the session ends.
import { EventSource } from 'eventsource';
import wrapAnsi from 'wrap-ansi';
import { alertText, buildRequest, routes, formatDateTimeDMY, type Alert, type AlertStreamEvent, type Api } from '@adops/core/lite';
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

/**
 * A backlog row or a stream message, as printed; `at` is the instant the line tells about (when
 * it fired, fired again or resolved), which is not always the alert's fired_at: see `lineAt`.
 */
export type AlertLine = Pick<AlertStreamEvent, 'event' | 'alert'> & { id?: number; at?: string };

/** Fired again within its rule's cooldown: the server reopened the alert it had resolved. */
const refired = ({ event, alert }: Pick<AlertLine, 'event' | 'alert'>) => event === 'fired' && alert.fire_count > 1;

/**
 * When a stream message happened: the evaluation's instant the server sends with it. A server
 * that sends none (older): a resolution's resolved_at, a first firing's fired_at, and a re-fire
 * (which keeps its first fired_at, the cooldown's anchor) the time it arrived.
 */
export function lineAt({ event, alert, at }: Pick<AlertLine, 'event' | 'alert' | 'at'>, arrived: Date): string {
  if (at) return at;
  if (event === 'resolved') return alert.resolved_at ?? arrived.toISOString();
  return refired({ event, alert }) ? arrived.toISOString() : alert.fired_at;
}

/**
 * The latest alerts (newest first, as listed) as lines in the order things happened: each
 * alert's firing, then its resolution when it resolved, both at their own time.
 */
export function backlogLines(alerts: readonly Alert[]): AlertLine[] {
  const lines: AlertLine[] = [];
  for (const alert of alerts) {
    lines.push({ event: 'fired', alert, at: alert.fired_at });
    if (alert.state === 'resolved' && alert.resolved_at) lines.push({ event: 'resolved', alert, at: alert.resolved_at });
  }
  return lines.sort((a, b) => Date.parse(a.at!) - Date.parse(b.at!));
}

const STATE_WORD = { fired: 'DISPARADA', again: 'DE NUEVO ', resolved: 'RESUELTA ' } as const;

/** Narrowest text column worth wrapping into; a terminal narrower than that gets the line whole. */
const MIN_TEXT_COLUMNS = 24;

/**
 * '12/03/2026 10:02  DISPARADA  [Alertas] Pico de una IP: … — regla «…»', the time on the
 * reporting zone's clock (tz). Given the terminal's `columns`, a longer text wraps at word
 * boundaries under its own start, so the time and state columns stay clear; without (a pipe),
 * one line per alert.
 */
export function alertLine(line: AlertLine, tz: string, columns?: number): string {
  const { event, alert } = line;
  const at = line.at ?? (event === 'resolved' ? (alert.resolved_at ?? alert.fired_at) : alert.fired_at);
  // A re-fire of the live stream says so; a backlog row (timed by its first firing) counts them.
  const again = refired(line) && at !== alert.fired_at;
  const word = event === 'resolved' ? STATE_WORD.resolved : again ? STATE_WORD.again : STATE_WORD.fired;
  const head = `${formatDateTimeDMY(at, tz)}  ${word}  `;
  const times = !refired(line) ? '' : again ? ` (${alert.fire_count}.ª vez)` : ` (disparada ${alert.fire_count} veces)`;
  const text = alertText(alert) + times;
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
      const backlog = backlogLines(rows);
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
    const url = buildRequest(routes.alerts.stream, this.lastId === undefined ? {} : { lastEventId: this.lastId }, server).url;
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
      this.emit([{ ...e, at: lineAt(e, new Date()) }]);
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
