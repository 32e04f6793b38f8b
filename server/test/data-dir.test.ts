// The data directory is the server's alone: 0700, and every file in it (adops.json with the
// password hashes, secrets.json, the DuckDB warehouse and its WAL) 0600 — as written on the first
// start, as rewritten by later changes and imports, and tightened on start when found looser.
import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { logCapture, startTestServer } from './helpers.js';
import { postZoneReport } from './reports-fixture.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function freshDir(): Promise<string> {
  const parent = await mkdtemp(path.join(tmpdir(), 'adops-test-'));
  dirs.push(parent);
  return path.join(parent, 'data'); // not there yet: the server creates it
}

const mode = async (p: string) => ((await stat(p)).mode & 0o777).toString(8);

/** Every entry under `dir` with its mode, e.g. { '.': '700', 'adops.json': '600' }. */
async function modes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = { '.': await mode(dir) };
  for (const entry of await readdir(dir, { recursive: true })) out[entry] = await mode(path.join(dir, entry));
  return out;
}
const looser = (all: Record<string, string>) => Object.entries(all).filter(([, m]) => (Number.parseInt(m, 8) & 0o077) !== 0);

describe('the data directory is private', () => {
  test('created 0700 with its files 0600, and still so after users are written and a report imported', async () => {
    const dir = await freshDir();
    const s = await startTestServer({}, dir);
    try {
      const admin = await s.admin();
      await admin.admin.createUser({ first_name: 'Ana', email: 'ana@test.local', password: 'ana-pass-123' });
      const res = await postZoneReport(
        s,
        admin.token,
        'date,advertiser,publisher,zone_id,impressions,clicks,revenue\n2026-04-01,AdNova,PubA,Z-1,10,1,2\n',
        'text/csv',
      );
      expect(res.status).toBe(200);
      const all = await modes(dir);
      expect(all['.']).toBe('700');
      expect(all['adops.json']).toBe('600');
      expect(all['secrets.json']).toBe('600');
      expect(all['warehouse.duckdb']).toBe('600');
      expect(looser(all)).toEqual([]);
    } finally {
      await s.close();
    }
  });

  test('a data dir left readable by others is tightened on start, and the log says what changed', async () => {
    const dir = await freshDir();
    await (await startTestServer({}, dir)).close();
    await chmod(dir, 0o755);
    for (const name of ['adops.json', 'secrets.json', 'warehouse.duckdb']) await chmod(path.join(dir, name), 0o644);
    expect(await mode(path.join(dir, 'adops.json'))).toBe('644');

    const log = logCapture();
    const s = await startTestServer({ log: 'info', logStream: log.stream }, dir);
    try {
      const all = await modes(dir);
      expect(all['.']).toBe('700');
      expect(looser(all)).toEqual([]);
      const tightened = log
        .entries<{ msg: string; path?: string; was?: string; now?: string }>()
        .filter((l) => l.msg === 'data dir permissions tightened');
      expect(tightened.map((l) => [path.relative(dir, l.path!) || '.', l.was, l.now]).sort()).toEqual([
        ['.', '0755', '0700'],
        ['adops.json', '0644', '0600'],
        ['secrets.json', '0644', '0600'],
        ['warehouse.duckdb', '0644', '0600'],
      ]);
      // The server works on the tightened files.
      expect((await s.admin()).token).toBeTruthy();
    } finally {
      await s.close();
    }
  });
});
