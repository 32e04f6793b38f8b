// What every command gets: the streams, prompts, the server it talks to, an API client
// carrying the stored session, output in the right form (Ink table or JSON) and the
// mapping from failures to one-line messages and exit codes.
import { PassThrough } from 'node:stream';
import type { ReactElement } from 'react';
import type { Command } from 'commander';
import { ApiError, createApi, decodeSession, isValidTimeZone, jsonFigures, sessionValid, type Api } from '@adops/core/lite';
import { CliError, DEFAULT_SERVER, EXIT, reportingTz, type CliIO } from './io.js';
import { loadCredentials, saveCredentials, type Credentials } from './credentials.js';
import { setNetworkCurrency } from './currency.js';
import { httpFetch } from './http-fetch.js';
import { Prompter } from './prompt.js';
import { wrapProse } from './text.js';
import type { TableProps } from './ui/Table.js';
import { loadUi } from './ui-loader.js';

/**
 * Requests say they come from adops (an admin's session list shows 'Terminal (adops)'); they go
 * over node:http where they can (http-fetch.ts: Node's fetch costs a one-shot command ~130 ms).
 */
export const cliFetch: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('user-agent', 'adops-cli');
  return httpFetch(input, { ...init, headers });
};
export const SESSION_EXPIRED = 'Sesión no válida o expirada: ejecuta `adops login`';
export const NOT_SIGNED_IN = 'No has iniciado sesión: ejecuta `adops login`';

/** Options every command accepts (declared on the program). */
export interface GlobalOptions {
  server?: string;
}

/** A server origin as typed by the user → normalised (no trailing slash); usage error when not http(s). */
export function normaliseServer(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new CliError(`URL de servidor no válida: ${raw}`, EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError(`URL de servidor no válida (usa http:// o https://): ${raw}`, EXIT.usage);
  return (url.origin + url.pathname).replace(/\/+$/, '');
}

/** Two spellings of one server origin (a stored one that no longer parses is none). */
function sameServer(a: string, b: string): boolean {
  try {
    return normaliseServer(a) === normaliseServer(b);
  } catch {
    return false;
  }
}

export class Cli {
  readonly prompt: Prompter;
  private credentials: Credentials | null | undefined;
  /** The server of the command being run, for error messages. */
  private currentServer = DEFAULT_SERVER;
  /** An answer of this run named the server's reporting zone (X-Adops-Tz). */
  private zoneConfirmed = false;
  /** The stored session being updated with a new zone. */
  private savingZone: Promise<void> = Promise.resolve();

  constructor(readonly io: CliIO) {
    this.prompt = new Prompter(io);
  }

  async storedCredentials(): Promise<Credentials | null> {
    if (this.credentials === undefined) this.credentials = await loadCredentials(this.io.env);
    return this.credentials;
  }

  /** --server, else ADOPS_URL, else the server of the stored session, else http://localhost:8080. */
  async server(cmd: Command): Promise<string> {
    const flag = cmd.optsWithGlobals<GlobalOptions>().server;
    const stored = await this.storedCredentials();
    const raw = flag ?? (this.io.env.ADOPS_URL || undefined) ?? stored?.server ?? DEFAULT_SERVER;
    this.currentServer = normaliseServer(raw);
    return this.currentServer;
  }

  /** A client without a session (login). */
  async anonymousApi(cmd: Command): Promise<{ api: Api; server: string }> {
    const server = await this.server(cmd);
    return { api: createApi({ baseUrl: server, fetch: cliFetch, onTimeZone: (tz) => this.serverZone(tz), onCurrency: setNetworkCurrency }), server };
  }

  /**
   * A client carrying the stored session. The token is only ever sent to the server it was
   * issued by; a missing or locally expired session fails before any request. With `zone`
   * (a command that turns presets or defaults into days) the server's current reporting zone
   * is confirmed first — one health check, unless ADOPS_TZ is set here.
   */
  async api(cmd: Command, options: { zone?: boolean } = {}): Promise<{ api: Api; server: string; token: string }> {
    const server = await this.server(cmd);
    const stored = await this.storedCredentials();
    if (!stored) throw new CliError(NOT_SIGNED_IN, EXIT.session);
    if (normaliseServer(stored.server) !== server)
      throw new CliError(`No has iniciado sesión en ${server}: ejecuta \`adops login --server ${server}\``, EXIT.session);
    if (!sessionValid(decodeSession(stored.token))) throw new CliError(SESSION_EXPIRED, EXIT.session);
    const token = stored.token;
    const api = createApi({
      baseUrl: server,
      getToken: () => token,
      fetch: cliFetch,
      onTimeZone: (tz) => this.serverZone(tz),
      onCurrency: setNetworkCurrency,
    });
    if (options.zone && !this.zoneConfirmed && !this.io.env.ADOPS_TZ) await this.confirmZone(api);
    return { api, server, token };
  }

  /** The zone dates and times are shown in (ADOPS_TZ here, else the server's). */
  get tz(): string {
    return reportingTz(this.io);
  }

  /** Asks the server its reporting zone (the public health check); an unreachable server fails as any call would. */
  private async confirmZone(api: Api): Promise<void> {
    try {
      await api.health.check();
    } catch (e) {
      if (e instanceof ApiError && e.status === 0) throw e;
      // Any other answer still named the zone (or not): the command goes on with the one known.
    }
  }

  /**
   * The zone an answer named: a change from the one known is taken at once, kept with the
   * stored session of this server, and said on stderr (an ADOPS_TZ set here still wins, and
   * that is said too).
   */
  serverZone(tz: string): void {
    if (!isValidTimeZone(tz)) return;
    this.zoneConfirmed = true;
    this.io.serverTz = tz;
    const stored = this.credentials;
    if (!stored || !sameServer(stored.server, this.currentServer) || stored.tz === tz) return;
    if (stored.tz) {
      const own = this.io.env.ADOPS_TZ;
      this.io.stderr.write(
        `Aviso: la zona horaria del servidor es ahora ${tz} (antes ${stored.tz}); ${
          own ? `ADOPS_TZ=${own} en tu entorno sigue mandando` : 'fechas, presets y horas se leen en ella'
        }\n`,
      );
    }
    const updated = { ...stored, tz };
    this.credentials = updated;
    this.savingZone = this.savingZone.then(() =>
      saveCredentials(this.io.env, updated).then(
        () => {},
        () => {},
      ),
    );
  }

  /** Waits for the stored session's zone to be written (the end of a run). */
  settle(): Promise<void> {
    return this.savingZone;
  }

  /** Machine output: asked for with --json, or stdout is not a terminal. */
  machine(json: boolean | undefined): boolean {
    return Boolean(json) || !this.io.isTTY;
  }

  /** A line of text for people (status messages). */
  say(text: string): void {
    this.io.stdout.write(`${text}\n`);
  }

  /**
   * Prose for people, wrapped at word boundaries to the terminal's width (80 when it does not
   * say); see wrapProse.
   */
  async prose(text: string, indent = ''): Promise<void> {
    this.say(await wrapProse(text, this.io.stdout.columns ?? 80, indent));
  }

  /** Plain JSON for scripts, one document per command. */
  json(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(jsonFigures(value), null, 2)}\n`);
  }

  /** Draws a table with Ink (terminal output); Ink loads only when something is drawn. */
  async table<Row>(props: TableProps<Row>): Promise<void> {
    const [{ createElement }, { Table }] = await Promise.all([import('react'), loadUi(() => import('./ui/Table.js'))]);
    await this.draw(createElement(Table<Row>, props));
  }

  /**
   * Draws an Ink element once, as plain lines after what the terminal already shows: rendered
   * off-screen at the terminal's width and written whole, so a report taller than the window
   * never clears the screen or its scrollback. NO_COLOR is honoured.
   */
  async draw(element: ReactElement): Promise<void> {
    const [{ render }, { withColours }] = await Promise.all([loadUi(() => import('ink')), loadUi(() => import('./ui/screen.js'))]);
    let frame = '';
    const sink = Object.assign(new PassThrough(), { columns: this.io.stdout.columns ?? 80 });
    sink.write = ((chunk: string | Uint8Array) => {
      // Each debug-mode render writes the whole frame. An Ink loaded in CI mode (by a host that
      // imported it before loadUi could hide CI) also writes its empty last frame and a line feed
      // on unmount: that is not a frame.
      if (String(chunk) !== '\n') frame = String(chunk);
      return true;
    }) as typeof sink.write;
    await withColours(this.io, async () => {
      const instance = render(element, {
        stdout: sink as unknown as NodeJS.WriteStream,
        stderr: this.io.stderr as NodeJS.WriteStream,
        stdin: new PassThrough() as unknown as NodeJS.ReadStream,
        exitOnCtrlC: false,
        patchConsole: false,
        debug: true,
      });
      const exited = instance.waitUntilExit();
      instance.unmount();
      await exited;
    });
    this.io.stdout.write(frame.endsWith('\n') ? frame : `${frame}\n`);
  }

  /** The user cancelled (Ctrl-C): the command ends with exit code 130 once it has stopped. */
  cancelled = false;
  cancel(): void {
    this.cancelled = true;
  }

  /** One line on stderr and the exit code for a failure. */
  fail(error: unknown): number {
    const { message, code } = this.describe(error);
    this.io.stderr.write(`${message}\n`);
    return code;
  }

  private describe(error: unknown): { message: string; code: number } {
    if (error instanceof CliError) return { message: error.message, code: error.exitCode };
    if (error instanceof ApiError) {
      if (error.status === 0) return { message: `No se pudo conectar con ${this.currentServer}`, code: EXIT.unreachable };
      if (error.status === 401) return { message: SESSION_EXPIRED, code: EXIT.session };
      if (error.status === 403) return { message: error.detail || 'No autorizado', code: EXIT.forbidden };
      return { message: error.detail || `Error HTTP ${error.status}`, code: EXIT.error };
    }
    const e = error as NodeJS.ErrnoException;
    return { message: `Error inesperado: ${e?.message ?? String(error)}`, code: EXIT.error };
  }
}
