// The entity-store contract on lowdb (a temp data dir each) and on PostgreSQL (a throwaway
// cluster, a new database each); then what only one engine has: lowdb's file as earlier
// versions wrote it, PostgreSQL's schema migrations (applied once, even when instances start at once).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ConfigError, loadConfig } from '../src/config.js';
import { openLowdbStore } from '../src/store/lowdb.js';
import { MIGRATIONS, migrate, openPostgresStore } from '../src/store/postgres.js';
import { startPgCluster, type PgCluster } from './pg-cluster.js';
import { describeStoreContract, user } from './store-contract.js';

let cluster: PgCluster;
const dirs: string[] = [];
let databases = 0;
const newDatabase = () => cluster.createDatabase(`contract_${++databases}`);

beforeAll(async () => {
  cluster = await startPgCluster();
});
afterAll(async () => {
  await cluster?.stop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const tempDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'adops-store-'));
  dirs.push(dir);
  return dir;
};

describeStoreContract({
  name: 'lowdb',
  shared: false,
  keepsNul: true,
  async place() {
    const dir = await tempDir();
    return { open: () => openLowdbStore(dir) };
  },
});

describeStoreContract({
  name: 'PostgreSQL',
  shared: true,
  keepsNul: false,
  async place() {
    const url = await newDatabase();
    return { open: () => openPostgresStore(url, { maxConnections: 4 }) };
  },
});

describe('lowdb', () => {
  test('a data dir written by earlier versions opens as it is and keeps its file format (gaining an empty session list)', async () => {
    const dir = await tempDir();
    const before = {
      version: 1,
      users: [user({ email: 'old@example.com', protected: true, is_admin: true })],
      publisherTokens: [
        { publisher_name: 'Viejo', token_sealed: 'sealed', token_hash: 'h'.repeat(64), created_at: '2025-01-01T00:00:00.000Z', last_used_at: null },
      ],
      campaigns: [],
      publishers: [{ name: 'Viejo', revenue_share: 0.55 }],
      settings: {},
    };
    await writeFile(path.join(dir, 'adops.json'), JSON.stringify(before, null, 2));
    const store = await openLowdbStore(dir);
    expect(await store.users.byEmail('OLD@example.com')).toEqual(before.users[0]);
    expect(await store.tokens.byHash('h'.repeat(64))).toEqual(before.publisherTokens[0]);
    const added = user({ email: 'new@example.com' });
    await store.users.create(added);
    await store.close();
    const after = JSON.parse(await readFile(path.join(dir, 'adops.json'), 'utf8'));
    expect(after).toEqual({ ...before, users: [...before.users, added], sessions: [] });
  });

  test('a write that fails leaves the file as it was', async () => {
    const dir = await tempDir();
    const store = await openLowdbStore(dir);
    await store.users.create(user({ email: 'a@example.com' }));
    const file = await readFile(path.join(dir, 'adops.json'), 'utf8');
    await expect(store.users.create(user({ email: 'A@example.com' }))).rejects.toThrow();
    expect(await readFile(path.join(dir, 'adops.json'), 'utf8')).toBe(file);
    await store.close();
  });
});

describe('PostgreSQL schema migrations', () => {
  const applied = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query('SELECT version, count(*)::int AS n FROM schema_migrations GROUP BY version ORDER BY version')).rows;
    } finally {
      await client.end();
    }
  };

  test('stores opening a new database at once apply each migration exactly once', async () => {
    const url = await newDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore(url, { maxConnections: 2 })));
    try {
      expect(await applied(url)).toEqual(MIGRATIONS.map((m) => ({ version: m.version, n: 1 })));
      // Every store works on the one schema.
      await stores[0].users.create(user({ email: 'one@example.com' }));
      expect(await stores[3].users.byEmail('one@example.com')).toBeDefined();
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      try {
        expect(await migrate(pool)).toEqual([]);
      } finally {
        await pool.end();
      }
    } finally {
      for (const s of stores) await s.close();
    }
  });

  test('a database migrated by a newer server is refused with a reason', async () => {
    const url = await newDatabase();
    await (await openPostgresStore(url)).close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("INSERT INTO schema_migrations (version, name) VALUES (9999, 'from the future')");
    await client.end();
    await expect(openPostgresStore(url)).rejects.toThrow(/version 9999, newer than this server/);
  });

  test('an unreachable server fails the open', async () => {
    await expect(openPostgresStore(`postgres://postgres@127.0.0.1:${cluster.port}/no_such_database`)).rejects.toThrow(/no_such_database/);
  });
});

describe('ADOPS_STORE configuration', () => {
  test('lowdb is the default; postgres needs ADOPS_DATABASE_URL, and a bad value names its variable', () => {
    expect(loadConfig({}).store).toBe('lowdb');
    expect(loadConfig({}).databaseUrl).toBeUndefined();
    expect(() => loadConfig({ ADOPS_STORE: 'postgres' })).toThrow(ConfigError);
    expect(() => loadConfig({ ADOPS_STORE: 'postgres' })).toThrow(/ADOPS_DATABASE_URL/);
    expect(() => loadConfig({ ADOPS_STORE: 'postgres', ADOPS_DATABASE_URL: 'mysql://db/adops' })).toThrow(/ADOPS_DATABASE_URL/);
    // The password never appears in the message.
    expect(() => loadConfig({ ADOPS_STORE: 'postgres', ADOPS_DATABASE_URL: 'mysql://u:secret@db/adops' })).not.toThrow(/secret/);
    expect(() => loadConfig({ ADOPS_STORE: 'mongo' })).toThrow(/ADOPS_STORE/);
    expect(loadConfig({ ADOPS_STORE: 'Postgres', ADOPS_DATABASE_URL: 'postgresql://adops:pw@db:5432/adops' })).toMatchObject({
      store: 'postgres',
      databaseUrl: 'postgresql://adops:pw@db:5432/adops',
    });
  });
});
