// The two-factor sign-in tests (totp.test.ts) once more with the entities on PostgreSQL — a
// throwaway cluster for this file — and two API instances on one database: a code accepted by
// one instance is refused by the other, a recovery code spent on one is gone on both.
import { afterAll, describe, expect, test } from 'vitest';
import { failure, startTestServer, usePostgresStore } from './helpers.js';
import { startPgCluster } from './pg-cluster.js';
import { awayFromStepEdge, totpCode } from './totp-codes.js';

const cluster = await startPgCluster();
usePostgresStore(cluster);
// Registered before the imported file's hooks: "after" hooks run as a stack, so this one runs last.
afterAll(() => cluster.stop());
await import('./totp.test.js');

describe('two API instances on one PostgreSQL database', () => {
  test('a code or recovery code accepted by one instance is refused by the other, even sent to both at once', async () => {
    const databaseUrl = await cluster.createDatabase('totp_two_instances');
    const [a, b] = await Promise.all([startTestServer({ store: 'postgres', databaseUrl }), startTestServer({ store: 'postgres', databaseUrl })]);
    try {
      await awayFromStepEdge();
      const email = 'ana@example.com';
      const password = 'ana-clave-segura-1';
      await a.app.services.users.create({ first_name: 'Ana', last_name: '', email, password, is_admin: false });
      // Started on A, confirmed on B: one enrolment both instances see.
      const { secret } = await (await a.as(email, password)).auth.totpBegin({ password });
      const { recovery_codes } = await (await b.as(email, password)).auth.totpConfirm({ code: await totpCode(secret, -1) });
      expect((await failure(a.anon.auth.login({ email, password }))).body.totp_required).toBe(true);

      const code = await totpCode(secret);
      expect((await a.anon.auth.login({ email, password, totp: code })).access_token).toBeTruthy();
      const replayed = await failure(b.anon.auth.login({ email, password, totp: code }));
      expect([replayed.status, replayed.body.totp_required]).toEqual([401, true]);

      expect((await b.anon.auth.login({ email, password, totp: recovery_codes[0] })).access_token).toBeTruthy();
      expect((await failure(a.anon.auth.login({ email, password, totp: recovery_codes[0] }))).status).toBe(401);

      const next = await totpCode(secret, 1);
      const both = await Promise.allSettled([a, b, a, b].map((x) => x.anon.auth.login({ email, password, totp: next })));
      expect(both.filter((x) => x.status === 'fulfilled')).toHaveLength(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
