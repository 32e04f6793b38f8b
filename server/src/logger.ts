// The server's log: JSON lines through pino (time, level, msg and fields), one line per API
// request with the route pattern — never the path's values or the query string — the status
// the client got, the latency and the user. Secrets are removed by configuration (redact
// paths) wherever a field carries one. ADOPS_LOG=pretty prints for people; silent prints nothing.
import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type LogMode = 'info' | 'pretty' | 'silent';
export type { Logger };

/** Field names that may carry a secret, at any of the first two levels of a log object. */
const SECRET_KEYS = [
  'password',
  'new_password',
  'current_password',
  'old_password',
  'token',
  'access_token',
  'refresh_token',
  'authorization',
  'cookie',
  'ingest_key',
  'api_key',
  'secret',
  'totp',
  'passphrase',
];
export const REDACT_PATHS = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((k) => `*.${k}`),
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-ingest-key"]',
];

/**
 * The logger for a mode; `destination` receives the lines (tests read them; default stdout).
 * Pretty output is formatted in-process (no worker thread), for a person at a terminal.
 */
export function createLogger(mode: LogMode, destination?: DestinationStream): Logger {
  const options = {
    level: mode === 'silent' ? 'silent' : 'info',
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: '[redactado]' },
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (mode === 'pretty')
    return pino(
      options,
      pretty({
        colorize: true,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname',
        destination: (destination as NodeJS.WritableStream | undefined) ?? 1,
      }),
    );
  return destination ? pino(options, destination) : pino(options);
}

/** Refused sign-ins logged one line each per minute; the rest of the minute's go into its summary. */
export const SIGN_IN_LINES_PER_MINUTE = 10;

/**
 * Refused sign-ins (any 4xx or 5xx answer to POST /api/login): the first few of each minute get
 * their own request line, the rest are only counted, and the minute ends with one line of counts
 * by status — a flood writes a handful of lines, never one per request.
 */
export class SignInRefusals {
  private logged = 0;
  private counts: Record<string, number> = {};
  private summarised = 0;
  private since = new Date();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly logger: Logger,
    private readonly perMinute = SIGN_IN_LINES_PER_MINUTE,
    everyMs = 60_000,
  ) {
    this.timer = setInterval(() => this.flush(), everyMs);
    this.timer.unref();
  }

  /** Counts a refusal with this status; true while it may still have its own line this minute. */
  note(status: number): boolean {
    this.counts[status] = (this.counts[status] ?? 0) + 1;
    if (this.logged < this.perMinute) {
      this.logged++;
      return true;
    }
    this.summarised++;
    return false;
  }

  /** Writes the minute's summary when some refusals had no line of their own, and starts a new minute. */
  flush(): void {
    if (this.summarised > 0)
      this.logger.warn(
        { route: '/api/login', since: this.since.toISOString(), refused: this.counts, lines: this.logged, summarised: this.summarised },
        'sign-in refusals',
      );
    this.logged = 0;
    this.summarised = 0;
    this.counts = {};
    this.since = new Date();
  }

  close(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
