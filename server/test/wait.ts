// Waiting on what a test is waiting for — a condition or an event — instead of on the clock.

/**
 * Resolves once `check()` holds, re-checking every 20 ms; fails naming `what` after `ms`. A
 * condition, not a clock: the test goes on the moment the thing it waits for happens, and a
 * busy machine only makes it wait longer, never fail early.
 */
export async function waitFor(check: () => boolean | Promise<boolean>, what = 'the condition', ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
