// A backup asked of a server whose entities are on PostgreSQL or whose facts are on ClickHouse is
// refused with 409, naming those engines' own tools, and nothing is written. The embedded stores'
// backups and restores: backup.test.ts.
import { readdir } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { ADMIN, startTestServer, useClickHouseWarehouse, type TestServer } from './helpers.js';
import { startPgCluster } from './pg-cluster.js';

const PASSPHRASE = 'una frase de paso larga';

const backupRequest = (s: TestServer, token: string, body: object = { password: ADMIN.password, passphrase: PASSPHRASE }) =>
  s.fetch('/api/admin/backup', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('deployments on PostgreSQL or ClickHouse', () => {
  test('with the entities on PostgreSQL the server answers 409 saying to use pg_dump, and writes nothing', async () => {
    const cluster = await startPgCluster();
    try {
      const s = await startTestServer({ store: 'postgres', databaseUrl: await cluster.createDatabase('backup_refused') });
      try {
        const admin = await s.admin();
        const res = await backupRequest(s, admin.token);
        expect(res.status).toBe(409);
        expect(((await res.json()) as { detail: string }).detail).toMatch(/Con PostgreSQL usa pg_dump/);
        expect((await readdir(s.dataDir)).filter((n) => n.startsWith('.backup-'))).toEqual([]);
      } finally {
        await s.close();
      }
    } finally {
      await cluster.stop();
    }
  }, 60_000);

  test('the server answers 409 saying to use clickhouse-backup / pg_dump', async () => {
    useClickHouseWarehouse(true);
    const s = await startTestServer();
    try {
      const admin = await s.admin();
      const res = await backupRequest(s, admin.token);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/pg_dump.*clickhouse-backup/);
    } finally {
      await s.close();
      useClickHouseWarehouse(false);
    }
  });
});
