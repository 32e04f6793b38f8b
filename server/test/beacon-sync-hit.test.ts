// The beacon's hit path takes no promise (issue 29): with the bucket in this process, a hit is
// counted, validated, classified and queued for the group commit inside the request listener's
// own call, and answered from the writer's callback once its batch committed. Promises and their
// reactions per hit cost more CPU than the rest of queuing it, so the count is the guard, not a timer.
import { createHook } from 'node:async_hooks';
import http from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestServer } from './helpers.js';
import { parseQuery, parseQueryStandard } from '../src/beacon.js';
import { logRows, startReferrerServer } from './referrers-fixture.js';

let t: TestServer;
let server: http.Server;
let url: string;
/** Promises created during the listener's synchronous call, per request path (the last one). */
const promisesIn = new Map<string, number>();
let counting: number | undefined;
const hook = createHook({
  init(_id, type) {
    if (counting !== undefined && type === 'PROMISE') counting++;
  },
});

beforeAll(async () => {
  // Bot classification and the per-IP bucket on, as in production.
  t = await startReferrerServer({ trustProxy: 1, botFilter: true, beaconRatePerSecond: 1, beaconBurst: 1 });
  // The same app behind a listener that counts the promises its synchronous part creates.
  server = http.createServer((req, res) => {
    counting = 0;
    try {
      t.app.listener(req, res);
    } finally {
      promisesIn.set(req.url ?? '', counting);
      counting = undefined;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  hook.enable();
});
afterAll(async () => {
  hook.disable();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await t.close();
});

const get = (path: string, ip: string) =>
  fetch(url + path, { headers: { 'x-forwarded-for': ip, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0' } });

test('a hit, a keyed hit, a refusal and a 429 take no promise in the listener; a request through Koa does (the count sees them)', async () => {
  const hit = '/api/hit?zone_id=sync-1&ref=https%3A%2F%2Fwww.example.com%2F';
  expect((await get(hit, '198.51.100.1')).status).toBe(204);
  expect(promisesIn.get(hit)).toBe(0);

  const keyed = '/api/hit?zone_id=sync-1&event_id=sync-key-1&format=gif';
  expect((await get(keyed, '198.51.100.2')).status).toBe(200);
  expect(promisesIn.get(keyed)).toBe(0);

  const bad = '/api/hit?zone_id=';
  const refused = await get(bad, '198.51.100.3');
  expect(refused.status).toBe(400);
  expect((await refused.json()).detail).toMatch(/obligatorio/);
  expect(promisesIn.get(bad)).toBe(0);

  // The first address again: its bucket (burst 1) is spent.
  const again = '/api/hit?zone_id=sync-2';
  expect((await get(again, '198.51.100.1')).status).toBe(429);
  expect(promisesIn.get(again)).toBe(0);

  expect((await get('/api/health', '198.51.100.4')).status).toBe(200);
  expect(promisesIn.get('/api/health')).toBeGreaterThan(0);
});

test('the hits are stored as before: each counted once, the keyed one not again when resent', async () => {
  const admin = await t.admin();
  expect(await logRows(admin, { zoneId: 'sync-3' })).toEqual([]);
  const keyed = '/api/hit?zone_id=sync-3&event_id=sync-key-3';
  expect((await get(keyed, '198.51.100.10')).status).toBe(204);
  expect((await get(keyed, '198.51.100.11')).status).toBe(204);
  expect((await get('/api/hit?zone_id=sync-3&kw=vuelos', '198.51.100.12')).status).toBe(204);
  const rows = await logRows(admin, { zoneId: 'sync-3' });
  expect(rows.map((r) => r.ip).sort()).toEqual(['198.51.100.10', '198.51.100.12']);
});

test('the query is read as URLSearchParams reads it, whatever it holds', () => {
  const pieces = [
    'zone_id',
    'ref',
    'kw',
    '__proto__',
    'toString',
    '=',
    '&',
    '&&',
    '?',
    '+',
    '%',
    '%2',
    '%zz',
    '%20',
    '%2B',
    '%26',
    '%3D',
    '%C3%A9',
    '%C3',
    '%E2%82%AC',
    '%ED%A0%80',
    '%F0%9F%98%80',
    'é',
    'a',
    '1',
    '\u0000',
    ' ',
    '#',
  ];
  let seed = 29;
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const cases = [
    '',
    '?',
    '??a=1',
    'a',
    'a=',
    '=a',
    'a=1&a=2&a=3&b',
    '__proto__=x&__proto__=y',
    'ref=https%3A%2F%2Fwww.example.com%2Fpage-1&kw=vuelos+baratos',
  ];
  for (let i = 0; i < 5000; i++) cases.push(Array.from({ length: 1 + rnd(12) }, () => pieces[rnd(pieces.length)]).join(''));
  for (const q of cases) {
    const fast = parseQuery(q);
    const standard = parseQueryStandard(q);
    expect(Object.getPrototypeOf(fast)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(fast), q).toEqual(Object.getOwnPropertyNames(standard));
    for (const k of Object.getOwnPropertyNames(standard))
      expect(Object.getOwnPropertyDescriptor(fast, k), q).toEqual(Object.getOwnPropertyDescriptor(standard, k));
  }
});
