// GET /api/alerts/stream on the real server: alerts reach an open stream as the evaluator fires
// and resolves them (each user sees the rules their channels name), a stream resumes after its
// last event id, and a missing session or a malformed resume point is refused in Spanish.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Api } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';
import { event } from './warehouse-contract.js';
import { followAlerts, type AlertFollower } from './alert-stream-client.js';

const T = Math.floor((Date.now() - 86_400_000) / 3_600_000) * 3_600_000;
const MIN = 60_000;

let s: TestServer;
let admin: Api & { token: string };
let bob: Api & { token: string };
let nextId = 1;
const open: AlertFollower[] = [];

const burst = (at: number, ip: string) =>
  s.app.services.warehouse.referrers.append(Array.from({ length: 25 }, (_, i) => event(nextId++, at + i, { zone_id: 'Z-1', ip })));
const follow = async (token: string, lastEventId?: number) => {
  const f = await followAlerts(s.url, token, lastEventId);
  open.push(f);
  return f;
};

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.admin();
  await admin.admin.createUser({ first_name: 'Bob', last_name: 'Ruiz', email: 'bob@example.com', password: 'una-clave-larga-1' });
  bob = await s.as('bob@example.com', 'una-clave-larga-1');
});
afterAll(async () => {
  for (const f of open) f.close();
  await s?.close();
});

describe('alerts as they fire and resolve', () => {
  test('an open stream gets each alert that fires and resolves; a user whose channels name other rules gets only theirs', async () => {
    const ips = await admin.alerts.createRule({ name: 'IPs calientes', kind: 'ip_burst', params: { visits: 20, minutes: 10 } });
    const other = await admin.alerts.createRule({ name: 'Otra IP', kind: 'ip_burst', params: { visits: 24, minutes: 10 } });
    await bob.alerts.setSubscription({ in_app: true, rule_ids: [other.id] });
    const mine = await follow(admin.token);
    const bobs = await follow(bob.token);
    expect(mine.status).toBe(200);
    await burst(T - MIN, '10.9.9.9');
    expect(await s.app.services.alerts.evaluate(T)).toMatchObject({ fired: 2 });
    const fired = await mine.waitFor(2);
    expect(fired.map((e) => [e.event, e.alert.rule_name, e.alert.subject, e.alert.state])).toEqual(
      expect.arrayContaining([
        ['fired', 'IPs calientes', '10.9.9.9', 'open'],
        ['fired', 'Otra IP', '10.9.9.9', 'open'],
      ]),
    );
    expect(fired[0].id).toBeLessThan(fired[1].id);
    const [bobFired] = await bobs.waitFor(1);
    expect(bobFired).toMatchObject({
      event: 'fired',
      alert: { rule_id: other.id, message: 'IP 10.9.9.9: 25 visitas humanas en 10 min (umbral 24)' },
    });
    // Fifteen minutes later the burst is over: both resolve.
    expect(await s.app.services.alerts.evaluate(T + 15 * MIN)).toMatchObject({ resolved: 2 });
    const all = await mine.waitFor(4);
    expect(all.slice(2).map((e) => [e.event, e.alert.state])).toEqual([
      ['resolved', 'resolved'],
      ['resolved', 'resolved'],
    ]);
    await bobs.waitFor(2);
    expect(bobs.events.map((e) => [e.event, e.alert.rule_id])).toEqual([
      ['fired', other.id],
      ['resolved', other.id],
    ]);
    expect(all.some((e) => e.alert.rule_id === ips.id)).toBe(true);
    await admin.alerts.deleteRule({ id: ips.id });
    await admin.alerts.deleteRule({ id: other.id });
  });

  test('a stream that resumes after an event id gets what it missed, then the rest live', async () => {
    const rule = await admin.alerts.createRule({ name: 'Reanudar', kind: 'ip_burst', params: { visits: 20, minutes: 10 } });
    const first = await follow(admin.token);
    await burst(T + 60 * MIN, '10.8.8.8');
    await s.app.services.alerts.evaluate(T + 61 * MIN);
    const [fired] = await first.waitFor(1);
    first.close();
    await s.app.services.alerts.evaluate(T + 80 * MIN); // resolved while nobody listens
    const resumed = await follow(admin.token, fired.id);
    const [missed] = await resumed.waitFor(1);
    expect(missed).toMatchObject({ event: 'resolved', alert: { id: fired.alert.id, state: 'resolved' } });
    expect(missed.id).toBeGreaterThan(fired.id);
    // A resume point the bus never handed out (a restarted server's): live from now.
    const fresh = await follow(admin.token, 1_000_000);
    await burst(T + 100 * MIN, '10.8.8.8');
    await s.app.services.alerts.evaluate(T + 101 * MIN);
    expect((await fresh.waitFor(1))[0]).toMatchObject({ event: 'fired', alert: { subject: '10.8.8.8' } });
    await admin.alerts.deleteRule({ id: rule.id });
  });

  test('no session: 401; a malformed resume point: 400 in Spanish', async () => {
    const anon = await s.fetch('/api/alerts/stream');
    expect(anon.status).toBe(401);
    const bad = await s.fetch('/api/alerts/stream?lastEventId=abc', { headers: { authorization: `Bearer ${admin.token}` } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).detail).toBe('Último evento: debe ser un número');
    const negative = await s.fetch('/api/alerts/stream?lastEventId=-5', { headers: { authorization: `Bearer ${admin.token}` } });
    expect(negative.status).toBe(400);
    expect((await negative.json()).detail).toBe('Último evento: debe ser al menos 0');
  });
});
