// Two API instances on one Redis live bus, one entity store and one warehouse: an alert the
// evaluator fires and resolves on instance A reaches a stream open on instance B, on the
// 'alerts' bus with its own ids (the referrer log's sequence is untouched).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Config } from '../src/app.js';
import { createWarehouse, type Warehouse } from '../src/warehouse/index.js';
import { openLowdbStore } from '../src/store/lowdb/index.js';
import type { EntityStore } from '../src/store/types.js';
import { startTestServer, type TestServer } from './helpers.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { event } from './warehouse-contract.js';
import { followAlerts } from './alert-stream-client.js';

const T = Math.floor((Date.now() - 86_400_000) / 3_600_000) * 3_600_000;
const MIN = 60_000;

let redis: RedisServer;
let dir: string;
let warehouse: Warehouse;
let entities: EntityStore;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  redis = await startRedisServer();
  dir = await mkdtemp(path.join(tmpdir(), 'adops-alerts-cluster-'));
  warehouse = await createWarehouse({ dataDir: dir });
  entities = await openLowdbStore(dir);
  const cluster: Partial<Config> = {
    jwtSecret: 'cluster-secret-0123456789-0123456789',
    live: 'redis',
    redis: { url: redis.url, prefix: 'cluster:' },
  };
  a = await startTestServer(cluster, undefined, { warehouse, store: entities });
  b = await startTestServer(cluster, undefined, { warehouse, store: entities });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await warehouse?.close();
  await entities?.close();
  await rm(dir, { recursive: true, force: true });
  await redis?.stop();
});

test('an alert fired and resolved by the evaluator on instance A reaches a tail on instance B', async () => {
  expect(a.app.services.alertStream.bus.backend).toBe('redis');
  const admin = await a.admin();
  const rule = await admin.alerts.createRule({ name: 'IPs calientes', kind: 'ip_burst', params: { visits: 20, minutes: 10 } });
  const onB = await followAlerts(b.url, admin.token);
  try {
    expect(onB.status).toBe(200);
    await warehouse.referrers.append(Array.from({ length: 25 }, (_, i) => event(i + 1, T - MIN + i, { zone_id: 'Z-1', ip: '10.4.4.4' })));
    expect(await a.app.services.alerts.evaluate(T)).toMatchObject({ ran: true, fired: 1 });
    const [fired] = await onB.waitFor(1);
    expect(fired).toMatchObject({ event: 'fired', alert: { rule_id: rule.id, subject: '10.4.4.4', state: 'open' } });
    expect(await a.app.services.alerts.evaluate(T + 15 * MIN)).toMatchObject({ resolved: 1 });
    const [, resolved] = await onB.waitFor(2);
    expect(resolved).toMatchObject({ event: 'resolved', alert: { id: fired.alert.id, state: 'resolved' } });
    // Its own ids: the referrer log's counter has handed out none.
    expect(await a.app.services.referrers.bus.latestId()).toBe(0);
    expect(await b.app.services.alertStream.latestId()).toBe(resolved.id);
  } finally {
    onB.close();
  }
});
