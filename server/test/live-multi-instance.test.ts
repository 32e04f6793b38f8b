// Two API instances in one process on one Redis live bus, one warehouse and one entity store (the
// same objects: embedded DuckDB and lowdb cannot be opened twice; deployed instances share
// ClickHouse and PostgreSQL), as behind a load balancer: beacon hits cross instances, a session
// opened on one is valid on the other, streams resume on the other instance, ids are one
// sequence, login limits are shared.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EventSource } from 'eventsource';
import { buildRequest, contract, type ApiError, type ReferrerStreamQuery } from '@adops/core';
import type { Config } from '../src/app.js';
import { createWarehouse, type Warehouse } from '../src/warehouse/index.js';
import { openLowdbStore } from '../src/store/lowdb/index.js';
import type { EntityStore } from '../src/store/types.js';
import { startTestServer, type TestServer } from './helpers.js';
import { INGEST_KEY, postBatch } from './referrers-fixture.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let redis: RedisServer;
let warehouseDir: string;
let warehouse: Warehouse;
let entities: EntityStore;
let a: TestServer;
let b: TestServer;
let token: string;
let cluster: Partial<Config>;

beforeAll(async () => {
  redis = await startRedisServer();
  warehouseDir = await mkdtemp(path.join(tmpdir(), 'adops-shared-warehouse-'));
  warehouse = await createWarehouse({ dataDir: warehouseDir });
  entities = await openLowdbStore(warehouseDir);
  // What instances behind one load balancer share: the JWT secret, the ingest key, Redis.
  cluster = {
    ingestKey: INGEST_KEY,
    jwtSecret: 'cluster-secret-0123456789-0123456789',
    live: 'redis',
    redis: { url: redis.url, prefix: 'cluster:' },
  };
  a = await startTestServer(cluster, undefined, { warehouse, store: entities });
  b = await startTestServer(cluster, undefined, { warehouse, store: entities });
  token = (await a.admin()).token;
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await warehouse?.close();
  await entities?.close();
  await rm(warehouseDir, { recursive: true, force: true });
  await redis?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** An EventSource on `server` (the session in the query) collecting event ids; `lastEventId` goes as the header. */
function stream(server: TestServer, q: ReferrerStreamQuery, lastEventId?: number) {
  const url = buildRequest(contract.referrers.stream, { access_token: token, ...q }, server.url).url;
  const es = new EventSource(url, {
    fetch: (input, init) =>
      fetch(input, { ...init, headers: { ...init?.headers, ...(lastEventId ? { 'last-event-id': String(lastEventId) } : {}) } }),
  });
  const ids: number[] = [];
  es.addEventListener('message', (m) => ids.push(Number(m.lastEventId)));
  const opened = new Promise<void>((resolve, reject) => {
    es.addEventListener('open', () => resolve(), { once: true });
    setTimeout(() => reject(new Error('stream did not open')), 5000);
  });
  return { es, ids, opened };
}

/** Posts a batch of `n` events of `zone` and answers their ids. */
async function ingest(server: TestServer, zone: string, n: number): Promise<number[]> {
  const res = await postBatch(
    server,
    Array.from({ length: n }, (_, i) => ({ zone_id: zone, referrer: `https://multi.example.com/${i}` })),
  );
  expect(res.status).toBe(200);
  const { first_id, last_id } = await res.json();
  return Array.from({ length: last_id - first_id + 1 }, (_, i) => first_id + i);
}

/** Batches posted at the same time, alternately to A and B. */
async function ingestOnBoth(zone: string, batches: number, size: number): Promise<number[]> {
  const all = await Promise.all(Array.from({ length: batches }, (_, i) => ingest(i % 2 ? b : a, zone, size)));
  return all.flat().sort((x, y) => x - y);
}

describe('two API instances on one Redis live bus', () => {
  test('both report the Redis live bus in /api/health', async () => {
    expect((await a.anon.health.check()).live).toEqual({ backend: 'redis', ok: true });
    expect((await b.anon.health.check()).live).toEqual({ backend: 'redis', ok: true });
  });

  test('a beacon hit on instance A appears within a second on a stream connected to instance B', async () => {
    const s = stream(b, { zoneId: 'mi-hit' });
    await s.opened;
    const started = Date.now();
    const hit = await a.fetch('/api/hit?zone_id=mi-hit&ref=https%3A%2F%2Fnews.example.com%2Fa');
    expect(hit.status).toBe(204);
    await waitFor(() => s.ids.length === 1, 1000, 'the hit on B');
    expect(Date.now() - started).toBeLessThan(1000);
    const page = await (await b.admin()).referrers.logs({ zoneId: 'mi-hit' });
    expect(page.rows.map((r) => r.id)).toEqual(s.ids);
    s.es.close();
  });

  test('a client that reconnects to the other instance resumes from its Last-Event-ID: no gap, no duplicate', async () => {
    const first = stream(a, { zoneId: 'mi-resume' });
    await first.opened;
    const before = await ingestOnBoth('mi-resume', 6, 40);
    await waitFor(() => first.ids.length === before.length, 5000, 'the first events on A');
    first.es.close();
    const lastSeen = first.ids[first.ids.length - 1];
    const whileAway = await ingestOnBoth('mi-resume', 6, 40);
    const again = stream(b, { zoneId: 'mi-resume' }, lastSeen);
    await again.opened;
    const after = await ingestOnBoth('mi-resume', 4, 25);
    // One more batch, after the rest: the stream is in id order, so a duplicate or a stray event
    // would arrive before it — its arrival proves nothing else came, without waiting on the clock.
    const last = await ingest(a, 'mi-resume', 1);
    await waitFor(() => again.ids.includes(last[0]), 5000, 'the replay, the live events and the last one on B');
    expect(first.ids).toEqual(before);
    expect(again.ids).toEqual([...whileAway, ...after, ...last]);
    again.es.close();
  });

  test('ids are one increasing sequence across instances; both streams and the polled log agree', async () => {
    const onA = stream(a, { zoneId: 'mi-seq' });
    const onB = stream(b, { zoneId: 'mi-seq' });
    await Promise.all([onA.opened, onB.opened]);
    const ids = await ingestOnBoth('mi-seq', 16, 60);
    expect(new Set(ids).size).toBe(ids.length);
    await waitFor(() => onA.ids.length === ids.length && onB.ids.length === ids.length, 5000, 'both streams');
    expect(onA.ids).toEqual(ids);
    expect(onB.ids).toEqual(ids);
    for (const server of [a, b]) {
      const api = await server.admin();
      const pages = [1, 2].map((page) => api.referrers.logs({ zoneId: 'mi-seq', page, page_size: 500 }));
      const [first, second] = await Promise.all(pages);
      expect(first.total_rows).toBe(ids.length);
      expect([...first.rows, ...second.rows].map((r) => r.id).sort((x, y) => x - y)).toEqual(ids);
      expect(first.totals.latest_id).toBeGreaterThanOrEqual(ids[ids.length - 1]);
    }
    onA.es.close();
    onB.es.close();
  });

  test('while a lower id is still committing elsewhere, neither the stream nor the polled log shows the higher ones yet', async () => {
    const s = stream(b, { zoneId: 'mi-hold' });
    await s.opened;
    const api = await b.admin();
    const slow = await a.app.services.referrers.bus.reserve(1); // A's commit of id `slow` is under way
    const ids = await ingest(b, 'mi-hold', 3);
    expect(ids[0]).toBeGreaterThan(slow);
    await sleep(200); // a fixed wait on purpose: held-back events can only be shown not to arrive
    expect(s.ids).toEqual([]);
    const held = await api.referrers.logs({ zoneId: 'mi-hold' });
    expect(held.rows).toEqual([]);
    expect(held.totals.latest_id ?? 0).toBeLessThan(slow);
    await a.app.services.referrers.bus.cancel(slow, 1); // that commit failed: nothing waits for it
    await waitFor(() => s.ids.length === 3, 2000, 'the held events');
    expect(s.ids).toEqual(ids);
    const polled = await api.referrers.logs({ zoneId: 'mi-hold' });
    expect(polled.rows.map((r) => r.id).sort((x, y) => x - y)).toEqual(ids);
    expect(polled.totals.latest_id).toBeGreaterThanOrEqual(ids[2]);
    s.es.close();
  });

  test('failed sign-ins are counted across instances and still refused by a restarted instance', async () => {
    const attempt = (server: TestServer, password: string) =>
      server.anon.auth.login({ email: 'flood@test.local', password }).then(
        () => 200,
        (e: ApiError) => e.status,
      );
    for (let i = 0; i < 3; i++) expect(await attempt(a, 'bad')).toBe(401);
    for (let i = 0; i < 2; i++) expect(await attempt(b, 'bad')).toBe(401);
    expect(await attempt(a, 'bad')).toBe(429);
    expect(await attempt(b, 'bad')).toBe(429);
    const restarted = await startTestServer(cluster, undefined, { warehouse });
    try {
      expect(await attempt(restarted, 'bad')).toBe(429);
    } finally {
      await restarted.close();
    }
  });
});
