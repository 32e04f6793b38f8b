// Starts the real app on an ephemeral port with a temp data directory (real lowdb and
// DuckDB, or the entities on a throwaway PostgreSQL), for integration, CLI and browser tests.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createApi, type Api, type ApiError } from '@adops/core';
import { createApp, loadConfig, type AdopsApp, type Config } from '../src/app.js';
import { createHttpServer } from '../src/main.js';
import type { SharedStores } from '../src/services/index.js';
import type { PgCluster } from './pg-cluster.js';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Warehouse, ZoneReportRecord } from '../src/warehouse/index.js';
import { openClickHouseWarehouse } from '../src/warehouse/clickhouse/index.js';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';

export const ADMIN = { email: 'admin@test.local', password: 'admin-pass-123' };

export interface TestServer {
  url: string;
  app: AdopsApp;
  dataDir: string;
  /** The entity store's engine this server runs on. */
  store: Config['store'];
  /** Every stored entity as text (lowdb: adops.json; PostgreSQL: its tables as JSON), to prove a refusal changed nothing. */
  storedEntities(): Promise<string>;
  /** A client without a session. */
  anon: Api;
  /** Signs in and returns a client carrying that session. */
  as(email: string, password: string): Promise<Api & { token: string }>;
  admin(): Promise<Api & { token: string }>;
  /** Raw fetch against the server. */
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** The live backend test servers use (default: in memory). */
let liveRedisUrl: string | undefined;

/**
 * From now on, test servers of this file use the Redis live bus at `url` (undefined: in memory
 * again). Each data dir gets its own key prefix, so servers of one file do not share a stream
 * unless a test names the same prefix (several instances) or reopens the same data dir (restart).
 */
export function useRedisLive(url: string | undefined): void {
  liveRedisUrl = url;
}

/** The PostgreSQL cluster test servers keep their entities on (default: none, lowdb in the data dir). */
let entityCluster: PgCluster | undefined;

/**
 * From now on, test servers of this file keep their entities on PostgreSQL in `cluster`
 * (undefined: lowdb again). Each data dir gets its own database, so a server restarted on the
 * same data dir finds its data again; two servers share one when a test passes the same
 * `databaseUrl` (several instances).
 */
export function usePostgresStore(cluster: PgCluster | undefined): void {
  entityCluster = cluster;
}

/** Whether test servers keep their facts on ClickHouse, and the chdb data path of this process. */
let clickHouseFacts = false;
let factsChdbDir: string | undefined;

/**
 * From now on, test servers of this process keep their facts on ClickHouse — the chdb engine
 * embedded in this process, one data path per process (chdb's rule) — or on DuckDB again
 * (false). Each data dir gets its own database, so a server restarted on the same data dir
 * finds its facts again.
 */
export function useClickHouseWarehouse(on: boolean): void {
  if (on && !factsChdbDir) {
    const dir = mkdtempSync(path.join(tmpdir(), 'adops-test-chdb-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    factsChdbDir = dir;
  }
  clickHouseFacts = on;
}

/**
 * A test file's suites once more with the facts on ClickHouse (the chdb engine embedded in this
 * process, through the production adapter): proves the test servers use it, then loads the file.
 */
export async function againOnClickHouse(load: () => Promise<unknown>): Promise<void> {
  useClickHouseWarehouse(true);
  test('test servers of this file keep their facts on ClickHouse', async () => {
    const s = await startTestServer();
    try {
      expect(s.app.services.warehouse.engine).toBe('clickhouse');
    } finally {
      await s.close();
    }
  });
  await load();
}

/**
 * Both engines for a `describe.each`: DuckDB in memory, and ClickHouse embedded by chdb, a fresh
 * database at each open, in a temp dir (named after `name`) removed after the file's tests.
 */
export function bothWarehouses(name: string): Array<[string, () => Promise<Warehouse>]> {
  const chdbDir = mkdtempSync(path.join(tmpdir(), `adops-${name}-`));
  afterAll(() => rmSync(chdbDir, { recursive: true, force: true }));
  let databases = 0;
  return [
    ['DuckDB', () => openDuckDbWarehouse(':memory:')],
    ['ClickHouse', () => openClickHouseWarehouse({ url: `chdb://${chdbDir}` }, { database: `d${++databases}` })],
  ];
}

/**
 * A ClickHouse client on the chdb engine embedded in this process (one data path per process, so
 * a temp dir for the test file and a database per test), closed and removed after the file.
 */
export async function chdbClient(name: string): Promise<{ client: ClickHouseClient; dir: string }> {
  const [{ createClient }, { createChdbConnection }] = await Promise.all([import('@clickhouse/client'), import('chdb/connection')]);
  const dir = mkdtempSync(path.join(tmpdir(), `adops-${name}-`));
  const client = createClient({ connection: createChdbConnection({ path: dir }) as never });
  afterAll(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { client, dir };
}

/** The ApiError a call that must fail fails with (the test fails when it succeeds). */
export async function failure(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('expected the call to fail');
}

/** Every table of a PostgreSQL entity store as one JSON text, rows in creation order. */
async function dumpPostgres(url: string): Promise<string> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = ['users', 'publisher_tokens', 'campaigns', 'publishers', 'user_totp'];
    const parts = tables.map((t) => `'${t}', (SELECT coalesce(json_agg(x ORDER BY x.seq), '[]') FROM ${t} x)`);
    const { rows } = await client.query(
      `SELECT json_build_object(${parts.join(', ')}, 'settings', (SELECT coalesce(json_agg(x ORDER BY x.key), '[]') FROM settings x))::text AS dump`,
    );
    return rows[0].dump as string;
  } finally {
    await client.end();
  }
}

export async function startTestServer(overrides: Partial<Config> = {}, keepDataDir?: string, shared?: SharedStores): Promise<TestServer> {
  const dataDir = keepDataDir ?? (await mkdtemp(path.join(tmpdir(), 'adops-test-')));
  const live: Partial<Config> = liveRedisUrl ? { live: 'redis', redis: { url: liveRedisUrl, prefix: `test:${path.basename(dataDir)}:` } } : {};
  const entities: Partial<Config> =
    entityCluster && !overrides.databaseUrl
      ? {
          store: 'postgres',
          databaseUrl: await entityCluster.createDatabase(`adops_${createHash('sha256').update(dataDir).digest('hex').slice(0, 20)}`),
        }
      : {};
  const facts: Partial<Config> =
    clickHouseFacts && factsChdbDir && !overrides.warehouse
      ? {
          warehouse: 'clickhouse',
          clickhouse: { url: `chdb://${factsChdbDir}`, database: `t_${createHash('sha256').update(dataDir).digest('hex').slice(0, 20)}` },
        }
      : {};
  const config = loadConfig(
    { ADOPS_LOG: 'silent' },
    {
      dataDir,
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      scryptLogN: 10,
      demo: false,
      port: 0,
      log: 'silent',
      // Test clients are bots by their user agent (Node's fetch says 'node') and hit zones no
      // report names: traffic is classified only where a test turns it on (referrers-bots).
      botFilter: false,
      ...live,
      ...entities,
      ...facts,
      ...overrides,
    },
  );
  const app = await createApp(config, shared);
  // The server's own HTTP settings (timeouts, keep-alive), as `npm start` listens.
  const server = createHttpServer(app.listener, config);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const as = async (email: string, password: string) => {
    const { access_token } = await createApi({ baseUrl: url }).auth.login({ email, password });
    return Object.assign(createApi({ baseUrl: url, getToken: () => access_token }), { token: access_token });
  };
  return {
    url,
    app,
    dataDir,
    store: config.store,
    storedEntities: () => (config.store === 'postgres' ? dumpPostgres(config.databaseUrl!) : readFile(path.join(dataDir, 'adops.json'), 'utf8')),
    anon: createApi({ baseUrl: url }),
    as,
    admin: () => as(ADMIN.email, ADMIN.password),
    fetch: (pathname, init) => fetch(url + pathname, init),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await app.close();
      if (!keepDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A zone-report row of the alerts tests: 5,000 impressions, 50 clicks, revenue 100, TQ 0.9 at AdNova / PubA, unless `over` says otherwise. */
export const zoneReportRow = (date: string, zone_id: string, over: Partial<ZoneReportRecord> = {}): ZoneReportRecord => ({
  date,
  advertiser: 'AdNova',
  publisher: 'PubA',
  zone_id,
  geo: 'ES',
  source: 'search',
  domain: 'a.com',
  impressions: 5000,
  monetized_impressions: 5000,
  clicks: 50,
  revenue: 100,
  rate_applied: 0.7,
  p_revenue: 70,
  margin: 30,
  tq: 0.9,
  ...over,
});

/** Makes publishers known (a revenue share each) so tokens may be made for them: a token for an unknown publisher is refused. */
export async function knownPublishers(api: Api, ...names: string[]): Promise<void> {
  for (const name of names) await api.publishers.set({ name: name.trim(), revenue_share: 0.5 });
}

/**
 * A log stream to give a server (`logStream`) and the lines it received: whole lines only (a line
 * split across two writes is joined), `entries` parsed as JSON from line `from` on.
 */
export function logCapture(): { stream: PassThrough; lines: string[]; entries: <T = Record<string, unknown>>(from?: number) => T[] } {
  const stream = new PassThrough();
  const lines: string[] = [];
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop() ?? '';
    lines.push(...parts.filter((p) => p !== ''));
  });
  return { stream, lines, entries: <T>(from = 0) => lines.slice(from).map((l) => JSON.parse(l) as T) };
}
