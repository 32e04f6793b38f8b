// Runs the CLI in-process with captured streams, a piped (or fake terminal) stdin and a
// temp config directory, the way a script or a person would use it.
import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '../src/main.js';
import { waitFor } from './wait.js';

export { waitFor };

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Piped stdin text (ended after it). */
  stdin?: string;
  env?: Record<string, string | undefined>;
  /** stdout is a terminal (Ink tables) — default false, i.e. machine output. */
  isTTY?: boolean;
  /** Width of the pretend terminal when isTTY (default 200). */
  columns?: number;
  /** Height of the pretend terminal when isTTY (default: unknown). */
  rows?: number;
  /** A ready-made stdin (e.g. a fake terminal). */
  stdinStream?: NodeJS.ReadableStream;
  /** Given, as the command starts, what it has written so far (to wait on a screen before typing). */
  stdoutSoFar?: (text: () => string) => void;
}

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * The config dirs the running test file made: scripts/vitest-setup.ts removes them after the
 * file, so a run leaves /tmp as it found it (one list however often this module is loaded).
 */
const shared = globalThis as { adopsCliConfigDirs?: string[] };
shared.adopsCliConfigDirs ??= [];
const made = shared.adopsCliConfigDirs;

export async function newConfigDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'adops-cli-'));
  made.push(dir);
  return path.join(dir, 'config');
}

/** Runs `adops <args>` against `server` with its own config dir. */
export async function runCli(args: string[], configDir: string, server: string, options: RunOptions = {}): Promise<CliResult> {
  const out = sink();
  if (options.isTTY) Object.assign(out.stream, { columns: options.columns ?? 200, rows: options.rows });
  options.stdoutSoFar?.(out.text);
  const err = sink();
  const stdin = (options.stdinStream as PassThrough | undefined) ?? new PassThrough();
  if (!options.stdinStream) stdin.end(options.stdin ?? '');
  const code = await run(args, {
    stdout: out.stream,
    stderr: err.stream,
    stdin,
    env: { ADOPS_CONFIG_DIR: configDir, ADOPS_URL: server, ...options.env },
    isTTY: options.isTTY ?? false,
  });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: out.text(), stderr: err.text() };
}

/** A fake terminal's stdin: raw mode is recorded, keys are typed later. */
export type FakeTerminal = PassThrough & {
  isTTY: boolean;
  rawModes: boolean[];
  setRawMode(mode: boolean): void;
  /** Types `text` once the command asks for it (starts reading the keyboard again), as a person would. */
  answer(text: string): Promise<void>;
};

/** A stdin that looks like a terminal: raw mode is recorded, keys are typed later. */
export function fakeTerminal(): FakeTerminal {
  const stream = new PassThrough() as FakeTerminal;
  stream.isTTY = true;
  stream.rawModes = [];
  stream.setRawMode = (mode: boolean) => {
    stream.rawModes.push(mode);
  };
  // Each prompt starts reading (a 'resume'); typing before it would be read by the one before.
  let asks = 0;
  let answered = 0;
  stream.on('resume', () => asks++);
  stream.answer = async (text: string) => {
    await waitFor(() => asks > answered, 'the command to ask');
    answered = asks;
    stream.write(text);
  };
  return stream;
}

/**
 * Runs `adops <args>` at a fake terminal and types `answer` + Enter once the command asks (it
 * starts reading the keyboard), as a person answering a confirmation would.
 */
export async function runAnswering(args: string[], configDir: string, server: string, answer: string, options: RunOptions = {}): Promise<CliResult> {
  const keyboard = fakeTerminal();
  const pending = runCli(args, configDir, server, { isTTY: true, ...options, stdinStream: keyboard });
  await keyboard.answer(`${answer}\r`);
  return pending;
}

/** What Ink drew last: the text after its last erase (log-update ends each erase with ESC[G). */
export function lastFrame(raw: string): string {
  return stripVTControlCharacters(raw.slice(raw.lastIndexOf('\u001b[G') + 3));
}

export interface Keyboard {
  /** Everything the command has written so far, without colours. */
  screen(): string;
  /** The frame on screen now. */
  frame(): string;
  /** Raw modes the command set, in order. */
  rawModes: boolean[];
  /**
   * Types `keys`, then waits until the command has drawn again and `answered(frame)` holds —
   * the screen's answer to the key, not a guess at how long it takes.
   */
  press(keys: string, answered: (frame: string) => boolean, what: string): Promise<void>;
  /** Types `keys` that end the command (q, Ctrl+C) and resolves with its result. */
  quit(keys?: string): Promise<CliResult>;
}

/** A report screen at rest: its key line drawn and nothing loading. */
export const atRest = (frame: string) => frame.includes('q salir') && !/cargando|ordenando/.test(frame);

/**
 * Starts a screen at a fake terminal (raw mode, ref/unref as Ink drives it) and resolves once it
 * reads the keyboard and `ready(frame)` holds — e.g. its key line is drawn under loaded data.
 */
export async function atKeyboard(
  start: (options: RunOptions) => Promise<CliResult>,
  ready: (frame: string) => boolean,
  what: string,
): Promise<Keyboard> {
  const tty = Object.assign(fakeTerminal(), { ref: () => undefined, unref: () => undefined });
  let written = () => '';
  const done = start({ isTTY: true, stdinStream: tty, stdoutSoFar: (t) => (written = t) });
  let ended = false;
  void done.finally(() => (ended = true));
  const frame = () => lastFrame(written());
  const settled = (check: () => boolean) => () => {
    if (ended) throw new Error('the command ended before the screen answered');
    return check();
  };
  await waitFor(
    settled(() => tty.rawModes.includes(true) && ready(frame())),
    what,
  );
  return {
    screen: () => stripVTControlCharacters(written()),
    frame,
    rawModes: tty.rawModes,
    quit(keys = 'q') {
      tty.write(keys);
      return done;
    },
    async press(keys, answered, answer) {
      const before = written().length;
      tty.write(keys);
      await waitFor(
        settled(() => written().length > before && answered(frame())),
        answer,
      );
    },
  };
}
