// Shows an Ink screen on the command's terminal: interactive ones run until the user quits
// (q, Esc, Ctrl-C) or the process is told to stop; static ones draw once and return. Ctrl-C
// (the key in raw mode, or SIGINT) marks the command cancelled, so it ends with exit code 130.
import type { ReactElement } from 'react';
import type { CliIO } from '../io.js';

/** What a screen needs of the command: its streams, and a way to say the user cancelled. */
export interface ScreenHost {
  io: CliIO;
  cancel(): void;
}

/** A keyboard is attached: stdin is a terminal that can switch to raw mode. */
export function keyboardAttached(io: CliIO): boolean {
  return Boolean(io.stdin.isTTY && typeof io.stdin.setRawMode === 'function');
}

/** NO_COLOR (any value but empty, https://no-color.org) turns colours off while `draw` runs. */
export async function withColours<T>(io: CliIO, draw: () => Promise<T>): Promise<T> {
  if (!io.env.NO_COLOR) return draw();
  const chalk = (await import('chalk')).default;
  const level = chalk.level;
  chalk.level = 0;
  try {
    return await draw();
  } finally {
    chalk.level = level;
  }
}

export async function showScreen(host: ScreenHost, element: ReactElement, interactive: boolean): Promise<void> {
  const { io } = host;
  const { render } = await import('ink');
  await withColours(io, async () => {
    const instance = render(element, {
      stdout: io.stdout as NodeJS.WriteStream,
      stderr: io.stderr as NodeJS.WriteStream,
      stdin: io.stdin as NodeJS.ReadStream,
      exitOnCtrlC: false,
      patchConsole: false,
    });
    const exited = instance.waitUntilExit();
    if (!interactive) {
      instance.unmount();
      await exited;
      return;
    }
    // Ink ends a frame with a line feed, except a frame as tall as the window (drawn after a
    // clear): the last character written is watched so the shell's prompt gets a line of its own.
    const out = io.stdout;
    const write = out.write;
    let last = '\n';
    out.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = String(chunk);
      if (text) last = text.at(-1) ?? last;
      return (write as (...a: unknown[]) => boolean).call(out, chunk, ...rest);
    }) as typeof out.write;
    const stop = () => instance.unmount();
    const interrupted = () => {
      host.cancel();
      stop();
    };
    // The screens quit on Ctrl-C themselves; this only notes that it was a Ctrl-C.
    const onKeys = (chunk: Buffer | string) => {
      if (String(chunk).includes('\u0003')) host.cancel();
    };
    io.stdin.on('data', onKeys);
    process.once('SIGTERM', stop);
    process.once('SIGINT', interrupted);
    io.signal?.addEventListener('abort', stop, { once: true });
    try {
      await exited;
    } finally {
      out.write = write;
      if (last !== '\n') out.write('\n');
      io.stdin.off('data', onKeys);
      process.off('SIGTERM', stop);
      process.off('SIGINT', interrupted);
      io.signal?.removeEventListener('abort', stop);
    }
  });
}

/**
 * For a command that prints lines itself (no Ink) while a person watches: q or Esc calls
 * `stop`, Ctrl-C (raw mode turns it into a key) marks the command cancelled and stops it.
 * Returns the release, which gives the terminal its line mode back.
 */
export function quitKeys(host: ScreenHost, stop: () => void): () => void {
  const { stdin } = host.io;
  const onKeys = (chunk: Buffer | string) => {
    const keys = String(chunk);
    if (keys.includes('\u0003')) host.cancel();
    // Esc alone, not the start of an arrow key's sequence.
    if (keys.includes('\u0003') || keys.includes('q') || keys === '\u001b') stop();
  };
  stdin.setRawMode?.(true);
  stdin.on('data', onKeys);
  stdin.resume();
  return () => {
    stdin.off('data', onKeys);
    stdin.setRawMode?.(false);
    stdin.pause();
  };
}
