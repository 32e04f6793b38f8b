// The entity-store contract on lowdb (a temp data dir each), then what only lowdb has: its file as
// earlier versions wrote it, its append-only audit file; and ADOPS_STORE's configuration. The same
// contract on PostgreSQL: store.contract.postgres.test.ts.
import { afterAll, describe, expect, test } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../src/config.js';
import { openLowdbStore } from '../src/store/lowdb/index.js';
import { describeStoreContract, user } from './store-contract.js';
import { auditEntry } from './store-contract-audit.js';

const dirs: string[] = [];

afterAll(async () => {
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
