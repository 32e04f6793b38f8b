// A throwaway redis-server for a test file: its own temp dir and a free port, no persistence,
// stopped (and its dir removed) at the end. A missing redis-server fails loudly: the Redis
// tests are part of the suite, never skipped (.ci/run installs Debian's redis-server).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, stopChild } from './processes.js';

export interface RedisServer {
  url: string;
  port: number;
  dir: string;
  stop(): Promise<void>;
}

const BINARY = process.env.REDIS_SERVER_BIN || 'redis-server';

/** Resolves when the server logs that it accepts connections; rejects with its output when it exits first. */
function ready(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`redis-server on port ${port} not ready after 10 s:\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) done();
    };
    const onExit = (code: number | null) => fail(new Error(`redis-server exited (code ${code}) before it was ready:\n${output}`));
    const onError = (e: NodeJS.ErrnoException) =>
      fail(
        e.code === 'ENOENT'
          ? new Error(`${BINARY} not found: the Redis tests need Debian's redis-server (apt-get install -y redis-server; .ci/run installs it)`)
          : e,
      );
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
    };
    const done = () => {
      cleanup();
      resolve();
    };
    const fail = (e: Error) => {
      cleanup();
      reject(e);
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

/** Starts redis-server on a free port in a new temp dir (a few tries when the port is taken meanwhile). */
export async function startRedisServer(): Promise<RedisServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'adops-redis-'));
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn(
      BINARY,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'notice', '--daemonize', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      await ready(child, port);
    } catch (e) {
      lastError = e;
      child.kill('SIGKILL');
      if ((e as Error).message.includes('not found')) break;
      continue;
    }
    child.stdout?.resume();
    child.stderr?.resume();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      dir,
      async stop() {
        await stopChild(child, exited, 'SIGTERM', 5000);
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  await rm(dir, { recursive: true, force: true });
  throw lastError;
}
