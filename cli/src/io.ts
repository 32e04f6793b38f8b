// The CLI's boundary with the world: its streams and environment (injectable for tests),
// its exit codes and the one error type commands throw to end with a message.
import type { Readable, Writable } from 'node:stream';

export interface CliIO {
  stdout: Writable & { columns?: number; isTTY?: boolean };
  stderr: Writable;
  /** A terminal stdin (isTTY + setRawMode) gets prompts without echo; a pipe is read line by line. */
  stdin: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  env: Record<string, string | undefined>;
  /** stdout is a terminal: draw tables with Ink; otherwise print machine output (JSON). */
  isTTY: boolean;
  /**
   * The reporting time zone of the signed-in server: from the stored session at start, then
   * from each answer's X-Adops-Tz (the server's current ADOPS_TZ), when known.
   */
  serverTz?: string;
  /** Stops long-running commands (`serve`) besides SIGINT/SIGTERM; used by tests. */
  signal?: AbortSignal;
}

/** The server when neither --server, ADOPS_URL nor a stored session names one. */
export const DEFAULT_SERVER = 'http://localhost:8080';

/**
 * The zone dates, presets and times are read in: ADOPS_TZ in this environment when set, else
 * the server's reporting zone (its current one once an answer named it), else UTC.
 */
export const reportingTz = (io: Pick<CliIO, 'env' | 'serverTz'>): string => io.env.ADOPS_TZ || io.serverTz || 'UTC';

/** Exit codes, documented in `adops --help`. */
export const EXIT = {
  ok: 0,
  /** The server refused the request (bad input, not found, conflict…) or a local failure. */
  error: 1,
  /** Wrong command line: unknown command or option, missing or invalid argument. */
  usage: 2,
  /** Not signed in, or the session is invalid or expired (HTTP 401). */
  session: 3,
  /** Signed in but not allowed (HTTP 403). */
  forbidden: 4,
  /** The server could not be reached. */
  unreachable: 5,
  /** Cancelled by the user (Ctrl-C at a prompt, or a confirmation answered no). */
  cancelled: 130,
} as const;

export const EXIT_CODES_HELP = `Códigos de salida:
  0  correcto
  1  el servidor rechazó la operación (detalle en stderr) o fallo local
  2  uso incorrecto (comando, opción o argumento no válido)
  3  sesión no iniciada, no válida o expirada: ejecuta \`adops login\`
  4  no autorizado (p. ej. un comando de administrador sin serlo)
  5  no se pudo conectar con el servidor
  130 cancelado (Ctrl-C o confirmación rechazada)`;

/** A failure to report as one line on stderr with an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.error,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function defaultIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
  };
}

/** `adops users list | head`: a closed pipe on stdout ends the command quietly. */
export function exitQuietlyOnBrokenPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
}
