// Waiting on what a test is waiting for — a condition or an event — instead of on the clock.
import type { EventEmitter } from 'node:events';

/**
 * Resolves once `check()` holds, re-checking every 20 ms; fails naming `what` after `ms`. A
 * condition, not a clock: the test goes on the moment the thing it waits for happens, and a
 * busy machine only makes it wait longer, never fail early.
 */
export async function waitFor(check: () => boolean, what = 'the screen to answer', ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Resolves once an Ink app reads its keyboard: Ink listens for 'readable' on stdin from the
 * effect that turns raw mode on, the same commit in which useInput subscribes — keys typed
 * before it are lost.
 */
export function keyboardReady(stdin: EventEmitter): Promise<void> {
  return waitFor(() => stdin.listenerCount('readable') > 0, 'the keyboard');
}
