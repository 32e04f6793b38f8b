// `adops migrate` on the command line: the target named by options or ADOPS_* variables, a
// missing one named in a usage error, and the copy's comparison printed (the copy itself is
// server/test/migrate.test.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startPgCluster, type PgCluster } from '../../server/test/pg-cluster.js';
import { startTestServer } from '../../server/test/helpers.js';
import { newConfigDir, runCli } from './helpers.js';

let pg: PgCluster;
let dataDir: string;
let chdbDir: string;

beforeAll(async () => {
  pg = await startPgCluster();
  dataDir = await mkdtemp(path.join(tmpdir(), 'adops-cli-migrate-'));
  chdbDir = await mkdtemp(path.join(tmpdir(), 'adops-cli-migrate-chdb-'));
  const s = await startTestServer({}, dataDir);
  await (await s.admin()).admin.createUser({ first_name: 'Eva', email: 'eva@test.local', password: 'eva-password-123' });
  await s.close();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
  await rm(dataDir, { recursive: true, force: true });
  await rm(chdbDir, { recursive: true, force: true });
});

describe('adops migrate', () => {
  test('without a PostgreSQL target it names the variable and exits with a usage error', async () => {
    const r = await runCli(['migrate', '--data', dataDir], await newConfigDir(), 'http://127.0.0.1:9', {
      env: { ADOPS_CLICKHOUSE_URL: `chdb://${chdbDir}` },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ADOPS_DATABASE_URL');
  });

  test('copies the data dir and prints the comparison of counts and sums; run again, it copies nothing', async () => {
    const args = ['migrate', '--data', dataDir, '--database-url', await pg.createDatabase('cli'), '--clickhouse-url', `chdb://${chdbDir}`];
    const r = await runCli(args, await newConfigDir(), 'http://127.0.0.1:9');
    expect(r.stderr).toContain('Copiando');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^users\s+2\s+2\s+ok$/m);
    expect(r.stdout).toMatch(/^zone_report rows\s+0\s+0\s+ok$/m);
    expect(r.stdout).toContain('Verificación correcta');
    const again = await runCli([...args, '--json'], await newConfigDir(), 'http://127.0.0.1:9');
    expect(again.code).toBe(0);
    const result = JSON.parse(again.stdout);
    expect(result.ok).toBe(true);
    expect(result.copied.users).toBe(0);
  });
});
