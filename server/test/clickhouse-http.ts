// TEST-ONLY: a throwaway ClickHouse HTTP endpoint for tests that need a fact store shared by
// several processes: chdb-http-server.mjs (the embedded engine served over ClickHouse's HTTP
// interface) in a child process, its own temp data dir and a free port; stopped and removed at
// the end. Production runs clickhouse-server; this stands in for it where @clickhouse/client
// connects with a `url`.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild } from './processes.js';

export interface ClickHouseHttp {
  /** http://127.0.0.1:PORT, for ADOPS_CLICKHOUSE_URL or createClient({ url }). */
  url: string;
  port: number;
  dir: string;
  stop(): Promise<void>;
}

export const CHDB_HTTP_SERVER = fileURLToPath(new URL('./chdb-http-server.mjs', import.meta.url));

/** Starts the chdb HTTP server on a port of its choosing; resolves once it listens. */
export async function startClickHouseHttp(): Promise<ClickHouseHttp> {
  const dir = await mkdtemp(path.join(tmpdir(), 'adops-chdb-http-'));
  const child = spawn(process.execPath, [CHDB_HTTP_SERVER, path.join(dir, 'data'), '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  let output = '';
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`chdb HTTP server not ready after 30 s:\n${output}`)), 30_000);
      const onData = (c: Buffer) => {
        output += c.toString();
        const m = /chdb-http listening on (\d+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`chdb HTTP server exited (code ${code}) before it was ready:\n${output}`));
      });
    });
    child.stdout.resume();
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      dir,
      async stop() {
        process.off('exit', onExit);
        await stopChild(child, exited, 'SIGTERM', 10_000);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    process.off('exit', onExit);
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}
