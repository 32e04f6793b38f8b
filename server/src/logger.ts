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
