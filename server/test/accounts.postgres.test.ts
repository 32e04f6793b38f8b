// The sign-in, session and admin route tests (auth.test.ts, sessions.test.ts, admin.test.ts,
// signin-floods.test.ts) once more with the entities on
// PostgreSQL — a throwaway cluster for this file, a database for each test server — and two API
// instances on one database: what one changes, the other sees at its next request.
import { afterAll, describe, expect, test } from 'vitest';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startTestServer, usePostgresStore, failure, knownPublishers } from './helpers.js';
import { startPgCluster } from './pg-cluster.js';

const cluster = await startPgCluster();
usePostgresStore(cluster);
// Registered before the imported files' hooks: "after" hooks run as a stack, so this one runs last.
afterAll(() => cluster.stop());
await import('./auth.test.js');
await import('./admin.test.js');
await import('./sessions.test.js');
await import('./signin-floods.test.js');

describe('two API instances on one PostgreSQL database', () => {
  test('keep nothing in their data dirs and share users, sessions, tokens and password changes at once', async () => {
    const databaseUrl = await cluster.createDatabase('two_instances');
    // Both start at once on an empty database: one creates the protected admin and the keys.
    const [a, b] = await Promise.all([startTestServer({ store: 'postgres', databaseUrl }), startTestServer({ store: 'postgres', databaseUrl })]);
    try {
      expect(a.app.services.store.engine).toBe('postgres');
      for (const s of [a, b]) {
        expect(existsSync(path.join(s.dataDir, 'adops.json'))).toBe(false);
        expect(existsSync(path.join(s.dataDir, 'secrets.json'))).toBe(false);
      }
      expect((await a.admin().then((x) => x.admin.listUsers())).filter((u) => u.protected)).toHaveLength(1);

      // A user created on A signs in on B; a session from A is valid on B.
      const adminA = await a.admin();
      await adminA.admin.createUser({ first_name: 'Ana', email: 'ana@example.com', password: 'ana-pass-1' });
      const anaOnB = await b.as('ana@example.com', 'ana-pass-1');
      const res = await b.fetch('/api/me', { headers: { authorization: `Bearer ${adminA.token}` } });
      expect(res.status).toBe(200);

      // The same e-mail created on B is a 409.
      const adminB = await b.admin();
      const dup = await failure(adminB.admin.createUser({ first_name: 'Ana 2', email: 'ANA@example.com', password: 'ana-pass-2' }));
      expect(dup.status).toBe(409);

      // A token created on A opens on B, and B lists it (a token is for a publisher the network knows).
      await knownPublishers(adminA, 'Publisher Uno');
      const t = await adminA.admin.createToken({ publisher_name: 'Publisher Uno' });
      expect(await b.app.services.tokens.resolve(t.token)).toBe('Publisher Uno');
      expect((await adminB.admin.listTokens()).map((x) => x.token)).toEqual([t.token]);
      expect((await failure(adminB.admin.createToken({ publisher_name: 'publisher uno' }))).status).toBe(409);

      // A password change on A ends the session B issued, at B's next request.
      const anaOnA = await a.as('ana@example.com', 'ana-pass-1');
      await anaOnA.auth.changePassword({ current_password: 'ana-pass-1', new_password: 'ana-pass-2' });
      expect((await failure(anaOnB.auth.me())).status).toBe(401);
      expect((await failure(b.as('ana@example.com', 'ana-pass-1'))).status).toBe(401);
      await expect(b.as('ana@example.com', 'ana-pass-2')).resolves.toBeTruthy();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('text PostgreSQL cannot keep', () => {
  test('a name with U+0000 is a 400 with a detail and stores nothing', async () => {
    const s = await startTestServer();
    try {
      const admin = await s.admin();
      const before = await s.storedEntities();
      const send = (method: string, p: string, body: unknown) =>
        s.fetch(p, {
          method,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
          body: JSON.stringify(body),
        });
      // A token's publisher must be known first (a revenue share), so the name reaches the store there.
      for (const [method, p, body] of [
        ['POST', '/api/admin/users', { first_name: 'a\u0000b', email: 'nul@example.com', password: 'nul-pass-1' }],
        ['PUT', '/api/admin/publishers', { name: 'p\u0000', revenue_share: 0.5 }],
      ] as const) {
        const res = await send(method, p, body);
        expect(res.status, p).toBe(400);
        expect(((await res.json()) as { detail: string }).detail).toBe('El texto no puede contener el carácter nulo (U+0000)');
      }
      expect(await s.storedEntities()).toBe(before);
    } finally {
      await s.close();
    }
  });
});

describe('/api/health on PostgreSQL', () => {
  test('says the entity store answers, and says it no longer does once its database is gone', async () => {
    const databaseUrl = await cluster.createDatabase('health_gone');
    const s = await startTestServer({ store: 'postgres', databaseUrl });
    try {
      expect((await s.anon.health.check()).store).toEqual({ backend: 'postgres', ok: true });
      const { default: pg } = await import('pg');
      const admin = new pg.Client({ connectionString: cluster.url() });
      await admin.connect();
      try {
        await admin.query('DROP DATABASE health_gone WITH (FORCE)');
      } finally {
        await admin.end();
      }
      const health = await s.anon.health.check();
      expect(health.status).toBe('ok'); // the process answers; the store does not
      expect(health.store).toEqual({ backend: 'postgres', ok: false });
      expect(health.warehouse?.ok).toBe(true);
    } finally {
      await s.close().catch(() => undefined);
    }
  });
});
