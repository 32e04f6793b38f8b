// Runs the CLI in-process with captured streams, a piped (or fake terminal) stdin and a
// temp config directory, the way a script or a person would use it.
import { PassThrough } from 'node:stream';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '../src/main.js';

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

export async function newConfigDir(): Promise<string> {
  return path.join(await mkdtemp(path.join(tmpdir(), 'adops-cli-')), 'config');
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

/** A stdin that looks like a terminal: raw mode is recorded, keys are typed later. */
export function fakeTerminal(): PassThrough & { isTTY: boolean; rawModes: boolean[]; setRawMode(mode: boolean): void } {
  const stream = new PassThrough() as PassThrough & { isTTY: boolean; rawModes: boolean[]; setRawMode(mode: boolean): void };
  stream.isTTY = true;
  stream.rawModes = [];
  stream.setRawMode = (mode: boolean) => {
    stream.rawModes.push(mode);
  };
  return stream;
}

/**
 * Runs `adops <args>` at a fake terminal and types `answer` + Enter once the command asks (it
 * starts reading the keyboard), as a person answering a confirmation would.
 */
export async function runAnswering(args: string[], configDir: string, server: string, answer: string, options: RunOptions = {}): Promise<CliResult> {
  const keyboard = fakeTerminal();
  let asked = false;
  keyboard.once('resume', () => {
    asked = true;
  });
  const pending = runCli(args, configDir, server, { isTTY: true, ...options, stdinStream: keyboard });
  while (!asked) await new Promise((r) => setTimeout(r, 10));
  keyboard.write(`${answer}\r`);
  return pending;
}
