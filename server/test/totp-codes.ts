// What an authenticator app shows, for tests: the TOTP code of a secret for this time step or
// one either side, and a wait that keeps a test's codes inside the server's ±1-step window.
import { generate } from 'otplib';

const PERIOD = 30;

/** The app's code `steps` time steps from now (-1: the previous step's, 1: the next one's). */
export const totpCode = (secret: string, steps = 0): Promise<string> =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * PERIOD, period: PERIOD });

/**
 * Waits out the end of the current time step when fewer than `marginSeconds` are left, so the
 * codes a test makes next (previous, current, next step) stay valid while it runs.
 */
export async function awayFromStepEdge(marginSeconds = 5): Promise<void> {
  const left = PERIOD - ((Date.now() / 1000) % PERIOD);
  if (left < marginSeconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 200));
}
