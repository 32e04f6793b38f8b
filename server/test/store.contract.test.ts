// The entity-store contract on lowdb (a temp data dir each) and on PostgreSQL (a throwaway
// cluster, a new database each); then what only one engine has: lowdb's file as earlier
// versions wrote it, PostgreSQL's schema migrations (applied once, even when instances start at once).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ConfigError, loadConfig } from '../src/config.js';
import { openLowdbStore } from '../src/store/lowdb/index.js';
import { MIGRATIONS, migrate, openPostgresStore } from '../src/store/postgres/index.js';
import { startPgCluster, type PgCluster } from './pg-cluster.js';
import { describeStoreContract, user } from './store-contract.js';
import { auditEntry } from './store-contract-audit.js';

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
  test('a data dir written by earlier versions opens as it is and keeps its file format (gaining an empty session list, and ids for its tokens)', async () => {
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
    // Tokens of earlier versions gain a stable id, no expiry, no allow-list, the default limit, no uses.
    const upgraded = { ...before.publisherTokens[0], id: expect.any(String), expires_at: null, allowed_ips: [], rate_limit: null, request_count: 0 };
    expect(await store.tokens.byHash('h'.repeat(64))).toEqual(upgraded);
    const { id } = (await store.tokens.byHash('h'.repeat(64)))!;
    const added = user({ email: 'new@example.com' });
    await store.users.create(added);
    await store.close();
    const after = JSON.parse(await readFile(path.join(dir, 'adops.json'), 'utf8'));
    expect(after).toEqual({ ...before, publisherTokens: [{ ...upgraded, id }], users: [...before.users, added], sessions: [] });
    // The id is kept: the next start finds the same one.
    const again = await openLowdbStore(dir);
    expect((await again.tokens.byHash('h'.repeat(64)))?.id).toBe(id);
    await again.close();
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

  test('publisher tokens stored before migration 4 get an id each, no expiry, no allow-list, the default limit', async () => {
    const url = await newDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // The schema as a server before publisher-token policies left it, with two tokens in it.
      await client.query(
        'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      for (const m of MIGRATIONS.filter((x) => x.version < 4)) {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      }
      for (const name of ['Viejo', 'Antiguo'])
        await client.query(
          "INSERT INTO publisher_tokens (publisher_name, token_sealed, token_hash, created_at, last_used_at) VALUES ($1, 'sealed', $2, '2025-01-01T00:00:00Z', NULL)",
          [name, name.repeat(8)],
        );
    } finally {
      await client.end();
    }
    const store = await openPostgresStore(url);
    try {
      const tokens = await store.tokens.list();
      expect(tokens.map((t) => t.publisher_name)).toEqual(['Viejo', 'Antiguo']);
      for (const t of tokens) expect(t).toMatchObject({ expires_at: null, allowed_ips: [], rate_limit: null, request_count: 0, last_used_at: null });
      expect(new Set(tokens.map((t) => t.id)).size).toBe(2);
      for (const t of tokens) expect(await store.tokens.byId(t.id)).toEqual(t);
    } finally {
      await store.close();
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

describe('PostgreSQL audit trail', () => {
  test('the table refuses UPDATE, DELETE and TRUNCATE from anyone, even straight SQL: entries stay as written', async () => {
    const url = await newDatabase();
    const store = await openPostgresStore(url, { maxConnections: 2 });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const entry = auditEntry();
      await store.audit.append(entry);
      await expect(client.query("UPDATE audit_log SET action = 'user.delete'")).rejects.toThrow(/append-only: UPDATE refused/);
      await expect(client.query('DELETE FROM audit_log')).rejects.toThrow(/append-only: DELETE refused/);
      await expect(client.query('TRUNCATE audit_log')).rejects.toThrow(/append-only: TRUNCATE refused/);
      expect(await store.audit.query({}, 'desc', 0, 10)).toEqual({ rows: [entry], total: 1 });
    } finally {
      await client.end();
      await store.close();
    }
  });
});

describe('lowdb audit trail', () => {
  test('lives in its own append-only file: a line torn by a crash is cut off on open, later entries append cleanly', async () => {
    const dir = await tempDir();
    const store = await openLowdbStore(dir);
    const kept = auditEntry();
    await store.audit.append(kept);
    await store.close();
    const file = path.join(dir, 'audit.ndjson');
    const written = await readFile(file, 'utf8');
    expect(written).toBe(`${JSON.stringify(kept)}\n`);
    await writeFile(file, `${written}{"id":"torn","at":"2025`);
    const again = await openLowdbStore(dir);
    const next = auditEntry();
    await again.audit.append(next);
    expect((await again.audit.query({}, 'asc', 0, 10)).rows).toEqual([kept, next]);
    await again.close();
    expect(await readFile(file, 'utf8')).toBe(`${JSON.stringify(kept)}\n${JSON.stringify(next)}\n`);
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
