// The entity-store contract on PostgreSQL (a throwaway cluster, a new database each), then what only
// PostgreSQL has: its schema migrations (applied once, even when instances start at once) and its
// audit table that refuses changes. The same contract on lowdb: store.contract.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import pg from 'pg';
import { MIGRATIONS, migrate, openPostgresStore } from '../src/store/postgres/index.js';
import { startPgCluster, type PgCluster } from './pg-cluster.js';
import { describeStoreContract, user } from './store-contract.js';
import { auditEntry } from './store-contract-audit.js';

let cluster: PgCluster;
let databases = 0;
const newDatabase = () => cluster.createDatabase(`contract_${++databases}`);

beforeAll(async () => {
  cluster = await startPgCluster();
});
afterAll(async () => {
  await cluster?.stop();
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
