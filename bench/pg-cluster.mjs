// A throwaway PostgreSQL cluster for the benches (Debian's server, in a temp dir, fsync off):
// initdb, pg_ctl start on a free port, psql for SQL, and a stop the caller (and the process's
// exit) runs. As root the cluster runs as the postgres user.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1. */
export async function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** `settings`: extra `-c name=value` for the server; `initdb`: extra arguments of initdb (`--locale=C`). */
export async function startPgCluster({ work, pgBin, settings = [], initdb = [] }) {
  const pgRoot = path.join(work, 'pg');
  const asPostgres = process.getuid?.() === 0;
  const user = asPostgres ? 'postgres' : (process.env.USER ?? 'postgres');
  mkdirSync(pgRoot, { recursive: true });
  if (asPostgres) {
    const pw = spawnSync('id', ['-u', 'postgres']);
    const pg = spawnSync('id', ['-g', 'postgres']);
    chmodSync(work, 0o755);
    chownSync(pgRoot, Number(pw.stdout), Number(pg.stdout));
  }
  const runPg = (bin, args, opts = {}) => {
    const cmd = asPostgres ? 'runuser' : path.join(pgBin, bin);
    const full = asPostgres ? ['-u', 'postgres', '--', path.join(pgBin, bin), ...args] : args;
    const r = spawnSync(cmd, full, { encoding: 'utf8', ...opts });
    if (r.status !== 0) throw new Error(`${bin} failed: ${r.stderr || r.stdout}`);
    return r.stdout;
  };
  const port = await freePort();
  const pgData = path.join(pgRoot, 'data');
  runPg('initdb', ['-D', pgData, '-A', 'trust', '-U', user, '--no-sync', '-E', 'UTF8', ...initdb]);
  const options = [`-p ${port}`, '-c listen_addresses=127.0.0.1', `-k ${pgRoot}`, ...settings.map((s) => `-c ${s}`)].join(' ');
  runPg('pg_ctl', ['-D', pgData, '-l', path.join(pgRoot, 'log'), '-w', '-o', options, 'start']);
  const stop = () => {
    try {
      runPg('pg_ctl', ['-D', pgData, '-m', 'fast', '-w', 'stop']);
    } catch {
      /* already stopped */
    }
  };
  process.on('exit', stop); // also when the bench fails half-way
  /** Runs SQL through psql on database `db`; its output when `quiet` is false. */
  const psql = (sql, { quiet = true, db = 'postgres' } = {}) => {
    const r = spawnSync(
      'psql',
      [
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        user,
        '-d',
        db,
        '-X',
        '-q',
        '-v',
        'ON_ERROR_STOP=1',
        ...(quiet ? ['-o', '/dev/null'] : []),
        '-f',
        '-',
      ],
      { input: sql, encoding: 'utf8', maxBuffer: 1 << 30 },
    );
    if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`);
    return r.stdout;
  };
  return { port, user, psql, stop, url: (db) => `postgres://${user}@127.0.0.1:${port}/${db}` };
}
