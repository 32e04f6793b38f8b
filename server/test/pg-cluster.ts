// A throwaway PostgreSQL cluster for a test file: initdb in a new temp dir, postgres on a free
// port (its unix socket in that dir too), stopped and removed at the end; as root, both run as
// the postgres user. Missing binaries fail loudly: the PostgreSQL tests are part of the suite,
// never skipped (.ci/run installs Debian's postgresql).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, stopChild } from './processes.js';

export interface PgCluster {
  port: number;
  dir: string;
  /** A postgres:// URL for `database` (default: postgres). */
  url(database?: string): string;
  /** Creates the database unless it exists; its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

const SUPERUSER = 'postgres';

/** ADOPS_TEST_PG_BIN, else the newest /usr/lib/postgresql/<version>/bin (Debian's layout). */
function binDir(): string {
  if (process.env.ADOPS_TEST_PG_BIN) return process.env.ADOPS_TEST_PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length)
    throw new Error(
      `no PostgreSQL server binaries in ${root}/<version>/bin: the PostgreSQL tests need Debian's postgresql (apt-get install -y postgresql; .ci/run installs it) or ADOPS_TEST_PG_BIN`,
    );
  return path.join(root, versions[0], 'bin');
}

/** As root, the cluster runs as the postgres user (initdb and postgres refuse root). */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('running as root, the PostgreSQL tests need a postgres user to run the cluster as (Debian’s postgresql package creates it)');
  }
}

function run(bin: string, args: string[], opts: { cwd: string; user?: { uid: number; gid: number } }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: opts.cwd, ...opts.user, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c));
    child.stderr.on('data', (c: Buffer) => (output += c));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(bin)} failed (code ${code}):\n${output}`))));
  });
}

/** Resolves when postgres accepts connections; rejects with its output when it exits first. */
function ready(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => finish(new Error(`postgres on port ${port} not ready after 20 s:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('database system is ready to accept connections')) finish();
    };
    const onExit = (code: number | null) => finish(new Error(`postgres exited (code ${code}) before it was ready:\n${output}`));
    const finish = (e?: Error) => {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onExit);
      if (e) reject(e);
      else resolve();
    };
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onExit);
  });
}

/** initdb + postgres on a free port (a few tries when the port is taken meanwhile). */
export async function startPgCluster(): Promise<PgCluster> {
  const bin = binDir();
  const user = runAs();
  const dir = await mkdtemp(path.join(tmpdir(), 'adops-pg-'));
  if (user) await chown(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  try {
    await run(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', SUPERUSER, '--no-sync', '-E', 'UTF8', '--locale=C'], { cwd: dir, user });
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn(
      path.join(bin, 'postgres'),
      [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'shared_buffers=32MB',
        '-c',
        'max_connections=200',
      ],
      { cwd: dir, ...user, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } },
    );
    try {
      await ready(child, port);
    } catch (e) {
      lastError = e;
      child.kill('SIGKILL');
      continue;
    }
    child.stderr?.resume();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // A test process that dies without stop() must not leave a postmaster behind.
    const onExit = () => child.kill('SIGQUIT');
    process.once('exit', onExit);
    const url = (database = 'postgres') => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
    return {
      port,
      dir,
      url,
      async createDatabase(name) {
        if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain database name: ${name}`);
        const client = new pg.Client({ connectionString: url() });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE "${name}"`);
        } catch (e) {
          if ((e as { code?: string }).code !== '42P04') throw e; // exists already
        } finally {
          await client.end();
        }
        return url(name);
      },
      async stop() {
        process.off('exit', onExit);
        await stopChild(child, exited, 'SIGINT', 10_000); // SIGINT: PostgreSQL's fast shutdown
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  await rm(dir, { recursive: true, force: true });
  throw lastError;
}
