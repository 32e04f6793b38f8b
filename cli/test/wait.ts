// Waiting on what a test is waiting for — a condition or an event — instead of on the clock.
import type { EventEmitter } from 'node:events';
import { waitFor } from '../../server/test/wait.js';

export { waitFor };

/**
 * Resolves once an Ink app reads its keyboard: Ink listens for 'readable' on stdin from the
 * effect that turns raw mode on, the same commit in which useInput subscribes — keys typed
 * before it are lost.
 */
export function keyboardReady(stdin: EventEmitter): Promise<void> {
  return waitFor(() => stdin.listenerCount('readable') > 0, 'the keyboard');
}
