// Two API server processes as deployed behind a load balancer: each is `node server/dist/main.js`
// (what `npm start` runs) with its own data dir, configured only through ADOPS_* variables, on a
// throwaway PostgreSQL (entities), a throwaway Redis (live bus, limits) and one ClickHouse fact
// store. The fact store is TEST-ONLY: the chdb engine served over ClickHouse's HTTP interface
// by chdb-http-server.mjs (clickhouse-http.ts), since chdb runs inside one process; both
// instances reach it through @clickhouse/client's `url`, as they would reach clickhouse-server.
// Needs the build (`npx tsc -b core server`; `npm install` runs it).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EventSource } from 'eventsource';
import { buildRequest, contract, createApi, type Api, type ReferrerStreamQuery } from '@adops/core';
import { startClickHouseHttp, type ClickHouseHttp } from './clickhouse-http.js';
import { startPgCluster, type PgCluster } from './pg-cluster.js';
import { stopChild } from './processes.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const main = path.join(root, 'server/dist/main.js');
const ADMIN = { email: 'admin@cluster.local', password: 'cluster-admin-pass-1' };
const INGEST_KEY = 'cluster-ingest-key-0123456789';

interface Instance {
  url: string;
  anon: Api;
  as(email: string, password: string): Promise<Api & { token: string }>;
  stop(): Promise<void>;
}

/** Starts `node server/dist/main.js` on a free port with `env`; resolves once it listens. */
async function startInstance(env: Record<string, string>): Promise<Instance> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'adops-instance-'));
  const child: ChildProcess = spawn(process.execPath, [main], {
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', ADOPS_DATA_DIR: dataDir, ADOPS_DEMO: '0', ADOPS_LOG: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance not listening after 30 s:\n${output}`)), 30_000);
    child.stdout?.on('data', (c: Buffer) => {
      output += c.toString();
      const m = /listening on http:\/\/localhost:(\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`instance exited (code ${code}) before listening:\n${output}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    anon: createApi({ baseUrl: url }),
    async as(email, password) {
      const { access_token } = await createApi({ baseUrl: url }).auth.login({ email, password });
      return Object.assign(createApi({ baseUrl: url, getToken: () => access_token }), { token: access_token });
    },
    async stop() {
      await stopChild(child, exited, 'SIGTERM', 10_000);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

let pg: PgCluster;
let redis: RedisServer;
let clickhouse: ClickHouseHttp;
let a: Instance;
let b: Instance;
let adminA: Api & { token: string };

beforeAll(async () => {
  if (!existsSync(main)) throw new Error(`${main} is missing: build first (npx tsc -b core server)`);
  // Each is kept as soon as it runs, so afterAll stops it even when another failed to start.
  await Promise.all([
    startPgCluster().then((x) => (pg = x)),
    startRedisServer().then((x) => (redis = x)),
    startClickHouseHttp().then((x) => (clickhouse = x)),
  ]);
  // Only what every instance is given; the JWT secret is not among it (the first instance keeps one in PostgreSQL).
  const env = {
    ADOPS_STORE: 'postgres',
    ADOPS_DATABASE_URL: await pg.createDatabase('adops'),
    ADOPS_LIVE: 'redis',
    ADOPS_REDIS_URL: redis.url,
    ADOPS_WAREHOUSE: 'clickhouse',
    ADOPS_CLICKHOUSE_URL: clickhouse.url,
    ADOPS_CLICKHOUSE_DATABASE: 'adops',
    ADOPS_ADMIN_EMAIL: ADMIN.email,
    ADOPS_ADMIN_PASSWORD: ADMIN.password,
    ADOPS_INGEST_KEY: INGEST_KEY,
  };
  // Both start at once, as a deployment's instances do: one schema, one protected admin.
  await Promise.all([startInstance(env).then((x) => (a = x)), startInstance(env).then((x) => (b = x))]);
  adminA = await a.as(ADMIN.email, ADMIN.password);
}, 90_000);

afterAll(async () => {
  await Promise.allSettled([a?.stop(), b?.stop()]);
  await Promise.allSettled([pg?.stop(), redis?.stop(), clickhouse?.stop()]);
}, 60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** An EventSource on `server` collecting event ids; `lastEventId` goes as the Last-Event-ID header. */
function stream(server: Instance, token: string, q: ReferrerStreamQuery, lastEventId?: number) {
  const url = buildRequest(contract.referrers.stream, { access_token: token, ...q }, server.url).url;
  const es = new EventSource(url, {
    fetch: (input, init) =>
      fetch(input, { ...init, headers: { ...init?.headers, ...(lastEventId ? { 'last-event-id': String(lastEventId) } : {}) } }),
  });
  const ids: number[] = [];
  const arrived: number[] = [];
  es.addEventListener('message', (m) => {
    ids.push(Number(m.lastEventId));
    arrived.push(Date.now());
  });
  const opened = new Promise<void>((resolve, reject) => {
    es.addEventListener('open', () => resolve(), { once: true });
    setTimeout(() => reject(new Error('stream did not open')), 5000);
  });
  return { es, ids, arrived, opened };
}

/** Posts an NDJSON batch of `n` events of `zone` to `server`; their ids. */
async function ingest(server: Instance, zone: string, n: number): Promise<number[]> {
  const body = Array.from({ length: n }, (_, i) => JSON.stringify({ zone_id: zone, referrer: `https://proc.example.com/${i}` })).join('\n');
  const res = await fetch(`${server.url}/api/ingest/referrers`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', 'x-ingest-key': INGEST_KEY },
    body: `${body}\n`,
  });
  expect(res.status).toBe(200);
  const { first_id, last_id } = await res.json();
  return Array.from({ length: last_id - first_id + 1 }, (_, i) => first_id + i);
}

describe('two API processes on PostgreSQL, Redis and one ClickHouse', () => {
  test('each reports its three shared backends as answering', async () => {
    for (const server of [a, b]) {
      const health = await server.anon.health.check();
      expect(health.store).toEqual({ backend: 'postgres', ok: true });
      expect(health.live).toEqual({ backend: 'redis', ok: true });
      expect(health.warehouse).toEqual({ backend: 'clickhouse', ok: true });
    }
  });

  test('a user created on A signs in on B, and a session opened on A is valid on B', async () => {
    const created = await adminA.admin.createUser({ first_name: 'Ana', email: 'ana@cluster.local', password: 'ana-password-123' });
    const onB = await b.as('ana@cluster.local', 'ana-password-123');
    expect((await onB.auth.me()).email).toBe('ana@cluster.local');
    const adminOnB = createApi({ baseUrl: b.url, getToken: () => adminA.token });
    expect((await adminOnB.admin.listUsers()).map((u) => u.id)).toContain(created.id);
  });

  test('an event ingested on A reaches a stream connected to B within a second', async () => {
    const s = stream(b, adminA.token, { zoneId: 'proc-live' });
    await s.opened;
    const sent = Date.now();
    const ids = await ingest(a, 'proc-live', 1);
    await waitFor(() => s.ids.length === 1, 1000, 'the event on B');
    expect(s.ids).toEqual(ids);
    expect(s.arrived[0] - sent).toBeLessThan(1000);
    // A browser's beacon (a crawler's hits are kept apart from the live log).
    const hit = await fetch(`${a.url}/api/hit?zone_id=proc-live&ref=https%3A%2F%2Fnews.example.com%2Fa`, {
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36' },
    });
    expect(hit.status).toBe(204);
    await waitFor(() => s.ids.length === 2, 1000, 'the beacon hit on B');
    s.es.close();
  });

  test('a client that reconnects to B with the Last-Event-ID it saw on A misses nothing and sees nothing twice', async () => {
    const first = stream(a, adminA.token, { zoneId: 'proc-resume' });
    await first.opened;
    const before = [...(await ingest(a, 'proc-resume', 30)), ...(await ingest(b, 'proc-resume', 30))];
    await waitFor(() => first.ids.length === before.length, 5000, 'the first events on A');
    first.es.close();
    const whileAway = [...(await ingest(b, 'proc-resume', 25)), ...(await ingest(a, 'proc-resume', 25))];
    const again = stream(b, adminA.token, { zoneId: 'proc-resume' }, first.ids[first.ids.length - 1]);
    await again.opened;
    const after = await ingest(a, 'proc-resume', 20);
    // One more batch, after the rest: the stream is in id order, so a duplicate or a stray event
    // would arrive before it — its arrival proves nothing else came, without waiting on the clock.
    const last = await ingest(b, 'proc-resume', 1);
    await waitFor(() => again.ids.includes(last[0]), 5000, 'the replay, the live events and the last one on B');
    expect(first.ids).toEqual(before);
    expect(again.ids).toEqual([...whileAway, ...after, ...last]);
    again.es.close();
  });

  test('a zone report imported on A answers the same on A and B, to the cent', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({
      date: `2026-02-${String(1 + (i % 20)).padStart(2, '0')}`,
      advertiser: `Adv ${i % 3}`,
      publisher: `Pub ${i % 4}`,
      zone_id: `z${i}`,
      geo: i % 2 ? 'ES' : 'MX',
      source: 'web',
      domain: `d${i % 5}.com`,
      impressions: 1000 + i,
      clicks: i,
      revenue: Math.round((1.01 + i * 0.37) * 100) / 100,
    }));
    const res = await fetch(`${a.url}/api/ingest/zone-report`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'x-ingest-key': INGEST_KEY },
      body: `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`,
    });
    expect(res.status).toBe(200);
    expect((await res.json()).inserted).toBe(60);
    const range = { start_date: '2026-02-01', end_date: '2026-02-28' };
    const adminB = createApi({ baseUrl: b.url, getToken: () => adminA.token });
    const [overviewA, overviewB] = await Promise.all([adminA.dashboard.overview(range), adminB.dashboard.overview(range)]);
    expect(overviewB).toEqual(overviewA);
    const expected = rows.reduce((sum, r) => sum + r.revenue, 0);
    expect(Math.round(overviewA.summary.revenue * 100)).toBe(Math.round(expected * 100));
    expect(overviewA.summary.impressions).toBe(rows.reduce((sum, r) => sum + r.impressions, 0));
    const details = { ...range, sort: 'revenue:desc', page_size: 100 } as const;
    const [zonesA, zonesB] = await Promise.all([adminA.adReport.zoneDetails(details), adminB.adReport.zoneDetails(details)]);
    expect(zonesA.total_rows).toBe(60);
    expect(zonesB).toEqual(zonesA);
  });
});
