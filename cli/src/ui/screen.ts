// Shows an Ink screen on the command's terminal: interactive ones run until the user quits
// (q, Esc, Ctrl-C) or the process is told to stop; static ones draw once and return.
import type { ReactElement } from 'react';
import type { CliIO } from '../io.js';

/** A keyboard is attached: stdin is a terminal that can switch to raw mode. */
export function keyboardAttached(io: CliIO): boolean {
  return Boolean(io.stdin.isTTY && typeof io.stdin.setRawMode === 'function');
}

export async function showScreen(io: CliIO, element: ReactElement, interactive: boolean): Promise<void> {
  const { render } = await import('ink');
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
  const stop = () => instance.unmount();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  io.signal?.addEventListener('abort', stop, { once: true });
  try {
    await exited;
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    io.signal?.removeEventListener('abort', stop);
  }
}
