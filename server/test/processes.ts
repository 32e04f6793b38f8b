// What the throwaway servers of the tests (PostgreSQL, Redis) share: a free port to start on,
// and a stop that asks first and kills after a grace period.
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Sends `signal` to a running child, SIGKILL after `graceMs`; resolves once it has exited. */
export async function stopChild(child: ChildProcess, exited: Promise<unknown>, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(killer);
}
