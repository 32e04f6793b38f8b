// The Redis live bus and login limiter as several API instances use them: each "instance" here
// is its own Redis connection and bus on one throwaway redis-server, as separate processes would be.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/app.js';
import { connectRedis, type RedisClient } from '../src/live/redis/client.js';
import { RedisLiveBus, type RedisBusOptions } from '../src/live/redis/bus.js';
import { RedisLoginLimiter } from '../src/live/redis/limiter.js';
import { openLiveBackend } from '../src/live/index.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

interface Ev {
  id: number;
  from: string;
}

let redis: RedisServer;
const opened: Array<{ close: () => Promise<void> }> = [];
const logs: string[] = [];
const log = (line: string) => logs.push(line);
let prefixes = 0;
/** A key prefix of its own: one cluster of instances per test. */
const cluster = () => `bus-test-${++prefixes}:`;

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  for (const o of opened.reverse()) await o.close();
  await redis?.stop();
});

async function connect(): Promise<RedisClient> {
  const client = await connectRedis(redis.url, log);
  opened.push({ close: async () => client.destroy() });
  return client;
}

/** One API instance's bus (its own connection), started with the store's highest id `floor`. */
async function instance(prefix: string, options: Partial<RedisBusOptions> = {}, floor = 0) {
  const client = await connect();
  const bus = new RedisLiveBus<Ev>(client, prefix, log, options);
  opened.push(bus);
  await bus.start(floor);
  const received: number[] = [];
  bus.subscribe((events) => received.push(...events.map((e) => e.id)));
  return { bus, client, received };
}

/** Reserves `n` ids, waits `commitMs` (the warehouse commit) and publishes them. */
async function commitBatch(bus: RedisLiveBus<Ev>, n: number, from: string, commitMs = 0): Promise<number[]> {
  const first = await bus.reserve(n);
  const events = Array.from({ length: n }, (_, i) => ({ id: first + i, from }));
  if (commitMs) await sleep(commitMs);
  await bus.publish(events);
  return events.map((e) => e.id);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const increasing = (ids: number[]) => ids.every((id, i) => i === 0 || id > ids[i - 1]);

describe('Redis live bus across instances', () => {
  test('an event published on instance A reaches a subscriber on instance B within a second', async () => {
    const prefix = cluster();
    const a = await instance(prefix);
    const b = await instance(prefix);
    const started = Date.now();
    const [id] = await commitBatch(a.bus, 1, 'a');
    await waitFor(() => b.received.length === 1, 1000, 'the event on B');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(b.received).toEqual([id]);
    expect(a.received).toEqual([id]); // A's own streams get it through the stream too
  });

  test('a resume on B from an id published on A gets every later event once, in order, across bursts larger than a read batch', async () => {
    const prefix = cluster();
    const a = await instance(prefix, { readCount: 50 });
    const b = await instance(prefix, { readCount: 50 });
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) ids.push(...(await commitBatch(a.bus, 37, 'a')));
    await waitFor(() => b.bus.settledId >= ids[ids.length - 1], 5000, 'B to read the burst');
    const resumeAfter = ids[100];
    const replay = b.bus.replay(resumeAfter, 10_000);
    expect(replay.complete).toBe(true);
    expect(replay.events.map((e) => e.id)).toEqual(ids.slice(101));
    expect(b.received).toEqual(ids);

    // An instance started after the burst holds it too (the stream's tail, read at start).
    const c = await instance(prefix, { readCount: 50 });
    const fromC = c.bus.replay(resumeAfter, 10_000);
    expect(fromC.complete).toBe(true);
    expect(fromC.events.map((e) => e.id)).toEqual(ids.slice(101));
    // …and follows what comes next, like the others.
    const next = await commitBatch(b.bus, 120, 'b');
    await waitFor(() => c.received.length === 120 && a.received.length === ids.length + 120, 5000, 'every instance to deliver the next batch');
    expect(c.received).toEqual(next);
  });

  test('a batch committed later with a lower id is delivered before a higher one published first', async () => {
    const prefix = cluster();
    const a = await instance(prefix);
    const b = await instance(prefix);
    const slowFirst = await a.bus.reserve(3); // A's warehouse commit is slow
    const fast = await commitBatch(b.bus, 2, 'b');
    expect(fast[0]).toBeGreaterThan(slowFirst);
    // A fixed wait, on purpose: what is held back can only be shown not to arrive (no later event
    // can pass it — that is the rule under test).
    await sleep(200);
    expect(a.received).toEqual([]); // held back: id slowFirst is still committing
    expect(b.received).toEqual([]);
    const slow = [slowFirst, slowFirst + 1, slowFirst + 2];
    await a.bus.publish(slow.map((id) => ({ id, from: 'a' })));
    await waitFor(() => a.received.length === 5 && b.received.length === 5);
    expect(a.received).toEqual([...slow, ...fast]);
    expect(b.received).toEqual([...slow, ...fast]);
    // A cancelled reservation (its commit failed) does not hold the others back.
    const failed = await b.bus.reserve(4);
    const after = await commitBatch(a.bus, 1, 'a');
    await sleep(100); // as above: held back behind the reservation, so only absence can show it
    expect(a.received).toHaveLength(5);
    await b.bus.cancel(failed);
    await waitFor(() => a.received.length === 6 && b.received.length === 6);
    expect(b.received.slice(-1)).toEqual(after);
  });

  test('ids are unique and increasing across instances under concurrent publishers; every instance delivers the same sequence', async () => {
    const prefix = cluster();
    const a = await instance(prefix, { readCount: 7 });
    const b = await instance(prefix, { readCount: 7 });
    const published: number[] = [];
    const writer = async (bus: RedisLiveBus<Ev>, from: string, seed: number) => {
      let r = seed;
      const rand = (n: number) => {
        r = (r * 1103515245 + 12345) % 2 ** 31;
        return r % n;
      };
      // Several batches in flight at once per instance, each "committing" for a random while.
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let i = 0; i < 15; i++) {
            const n = 1 + rand(25);
            if (rand(9) === 0) {
              const first = await bus.reserve(n);
              await sleep(rand(10));
              await bus.cancel(first);
            } else published.push(...(await commitBatch(bus, n, from, rand(12))));
          }
        }),
      );
    };
    await Promise.all([writer(a.bus, 'a', 7), writer(b.bus, 'b', 11)]);
    const all = [...published].sort((x, y) => x - y);
    expect(new Set(all).size).toBe(all.length);
    await waitFor(() => a.received.length === all.length && b.received.length === all.length, 5000, 'both instances to deliver everything');
    expect(increasing(a.received)).toBe(true);
    expect(a.received).toEqual(all);
    expect(b.received).toEqual(all);
    expect(await a.bus.latestId()).toBeGreaterThanOrEqual(all[all.length - 1]);
    // The stream's order was not the id order: the watermark is what put them in order.
    const entries = await a.client.sendCommand<Array<[string, string[]]>>(['XRANGE', `${prefix}{live}:events`, '-', '+']);
    const streamOrder = entries.filter(([, f]) => f.includes('e')).map(([, f]) => (JSON.parse(f[f.indexOf('e') + 1]) as Ev).id);
    expect(increasing(streamOrder)).toBe(false);
  });

  test('a reservation whose instance died is given up at its deadline; the others move on and its late events are skipped live', async () => {
    const prefix = cluster();
    const options = { reservationTtlMs: 300, sweepEveryMs: 50 };
    const a = await instance(prefix, options);
    const b = await instance(prefix, options);
    const stuck = await a.bus.reserve(2); // A "dies" before publishing
    const started = Date.now();
    const ids = await commitBatch(b.bus, 3, 'b');
    await waitFor(() => b.received.length === 3, 3000, 'B to give up on A');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(b.received).toEqual(ids);
    await a.bus.publish([
      { id: stuck, from: 'a' },
      { id: stuck + 1, from: 'a' },
    ]);
    const more = await commitBatch(b.bus, 1, 'b');
    await waitFor(() => b.received.length === 4);
    expect(b.received).toEqual([...ids, ...more]);
    expect(b.bus.skipped).toBe(2);
    expect(logs.some((l) => l.includes('after their reservation expired'))).toBe(true);
  });

  test('the stream is capped (MAXLEN ~) and a new instance still replays from its tail', async () => {
    const prefix = cluster();
    const a = await instance(prefix, { streamMaxLen: 200, ringSize: 200 });
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) ids.push(...(await commitBatch(a.bus, 100, 'a')));
    const length = Number(await a.client.sendCommand<number>(['XLEN', `${prefix}{live}:events`]));
    expect(length).toBeGreaterThanOrEqual(200);
    expect(length).toBeLessThan(400); // trimmed by whole nodes: about the cap, far below 3,000
    const b = await instance(prefix, { streamMaxLen: 200, ringSize: 200 });
    const replay = b.bus.replay(ids[ids.length - 101], 1000);
    expect(replay.complete).toBe(true);
    expect(replay.events.map((e) => e.id)).toEqual(ids.slice(-100));
    // Older than the tail: the store must answer below what the bus holds.
    const older = b.bus.replay(ids[10], 1000);
    expect(older.complete).toBe(false);
    expect(older.storeBefore).toBeLessThanOrEqual(ids[ids.length - 100]);
    expect(older.storeBefore).toBeGreaterThan(ids[10]);
  });

  test('ids continue after the store’s highest id and after every id handed out', async () => {
    const prefix = cluster();
    const a = await instance(prefix, {}, 3_000_000_000);
    const [first] = await commitBatch(a.bus, 1, 'a');
    expect(first).toBe(3_000_000_001);
    const b = await instance(prefix, {}, 10); // a lower floor never moves the counter back
    const [next] = await commitBatch(b.bus, 1, 'b');
    expect(next).toBe(3_000_000_002);
    expect(await b.bus.latestId()).toBe(3_000_000_002);
    await waitFor(() => a.received.length === 2);
    expect(a.bus.settledId).toBe(3_000_000_002);
    // Should Redis lose the counter (a restart without persistence), ids still never go back.
    await a.client.sendCommand(['DEL', `${prefix}{live}:seq`]);
    const [afterLoss] = await commitBatch(a.bus, 1, 'a');
    expect(afterLoss).toBe(3_000_000_003);
  });

  test('health answers ok while Redis answers, and says not ok once it stops', async () => {
    const own = await startRedisServer();
    try {
      const backend = await openLiveBackend(
        { live: 'redis', redis: { url: own.url, prefix: 'h:' }, loginMaxFailures: 5, loginWindowMs: 60_000 },
        log,
      );
      const bus = backend.bus<Ev>({ ringSize: 100 });
      await bus.start(0);
      expect(await backend.health()).toEqual({ backend: 'redis', ok: true });
      await own.stop();
      expect(await backend.health()).toMatchObject({ backend: 'redis', ok: false });
      await expect(bus.reserve(1)).rejects.toThrow(); // ingest answers 503 rather than waiting
      await backend.close();
    } finally {
      await own.stop();
    }
  });
});

describe('login failures in Redis', () => {
  test('count across instances, survive re-creating the limiter, clear on success and end with their window', async () => {
    const prefix = cluster();
    const limiter = async (windowMs = 60_000) => new RedisLoginLimiter(await connect(), prefix, 5, windowMs, log);
    const a = await limiter();
    const b = await limiter();
    const key = '192.0.2.7|flood@test.local';
    for (let i = 0; i < 3; i++) await a.hit(key, Date.now());
    expect((await a.retryAfterMs(key, Date.now())) > 0).toBe(false);
    for (let i = 0; i < 2; i++) await b.hit(key, Date.now());
    expect((await a.retryAfterMs(key, Date.now())) > 0).toBe(true);
    expect((await b.retryAfterMs(key, Date.now())) > 0).toBe(true);
    // When to come back: what is left of the window opened by the first failure.
    const wait = await b.retryAfterMs(key, Date.now());
    expect(wait).toBeGreaterThan(55_000);
    expect(wait).toBeLessThanOrEqual(60_000);
    expect(await b.retryAfterMs('192.0.2.7|other@test.local', Date.now())).toBe(0);
    expect((await b.retryAfterMs('192.0.2.7|other@test.local', Date.now())) > 0).toBe(false);
    // A restarted instance (a new limiter on a new connection) still refuses.
    const again = await limiter();
    expect((await again.retryAfterMs(key, Date.now())) > 0).toBe(true);
    await again.clear(key);
    expect((await a.retryAfterMs(key, Date.now())) > 0).toBe(false);

    const short = await limiter(300);
    for (let i = 0; i < 5; i++) await short.hit('k|w@test.local', Date.now());
    expect((await short.retryAfterMs('k|w@test.local', Date.now())) > 0).toBe(true);
    await sleep(350); // past the 300 ms window: Redis expires the key on its own clock, not ours
    expect((await a.retryAfterMs('k|w@test.local', Date.now())) > 0).toBe(false);
  });
});

describe('ADOPS_LIVE configuration', () => {
  test('memory is the default; redis needs ADOPS_REDIS_URL, and a bad value names its variable', () => {
    expect(loadConfig({}).live).toBe('memory');
    expect(loadConfig({}).redis).toBeUndefined();
    expect(() => loadConfig({ ADOPS_LIVE: 'redis' })).toThrow(ConfigError);
    expect(() => loadConfig({ ADOPS_LIVE: 'redis' })).toThrow(/ADOPS_REDIS_URL/);
    expect(() => loadConfig({ ADOPS_LIVE: 'redis', ADOPS_REDIS_URL: 'http://localhost:6379' })).toThrow(/ADOPS_REDIS_URL/);
    expect(() => loadConfig({ ADOPS_LIVE: 'kafka' })).toThrow(/ADOPS_LIVE/);
    expect(loadConfig({ ADOPS_LIVE: 'redis', ADOPS_REDIS_URL: 'redis://:pw@cache:6379/2' })).toMatchObject({
      live: 'redis',
      redis: { url: 'redis://:pw@cache:6379/2', prefix: 'adops:' },
    });
  });

  test('a Redis that never answers at start is a clear error naming where it was looked for, without its password', async () => {
    const closed = `redis://:secret@127.0.0.1:${redis.port + 1}`;
    await expect(connectRedis(closed, log, 300)).rejects.toThrow(/Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ does not answer/);
  });
});
