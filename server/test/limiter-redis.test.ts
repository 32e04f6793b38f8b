// The limiters' counters shared by instances through Redis (a throwaway redis-server): uses and
// sign-in attempts arriving at once on two instances let exactly `max` through, and a Redis that is
// down refuses nobody and logs once. In one process: limiter.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectRedis } from '../src/live/redis/client.js';
import { RedisLoginLimiter } from '../src/live/redis/limiter.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

describe('in Redis, shared by instances', () => {
  test('uses arriving at once on two instances let exactly max through; the rest say when to come back', async () => {
    const log = () => undefined;
    const [a, b] = [await connectRedis(redis.url, log), await connectRedis(redis.url, log)];
    try {
      const prefix = 'take-test:';
      const limiters = [new RedisLoginLimiter(a, prefix, 5, 60_000, log), new RedisLoginLimiter(b, prefix, 5, 60_000, log)];
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => limiters[i % 2].take('token-id', Date.now())));
      expect(answers.filter((w) => w === 0)).toHaveLength(5);
      for (const w of answers.filter((x) => x > 0)) expect(w).toBeGreaterThan(55_000);
      // A higher limit on the same key (an admin raised it) sees the same five uses.
      const seven = new RedisLoginLimiter(a, prefix, 7, 60_000, log);
      expect(await seven.take('token-id', Date.now())).toBe(0);
      expect(await seven.take('token-id', Date.now())).toBe(0);
      expect(await seven.take('token-id', Date.now())).toBeGreaterThan(0);
    } finally {
      a.destroy();
      b.destroy();
    }
  });

  test('while Redis is down, attempts are not refused and a flood of them writes one log line, not one per attempt', async () => {
    const own = await startRedisServer();
    const lines: string[] = [];
    const client = await connectRedis(own.url, () => undefined);
    try {
      const limiter = new RedisLoginLimiter(client, 'down:', 5, 60_000, (line) => lines.push(line));
      await own.stop();
      const answers = await Promise.all(Array.from({ length: 100 }, () => limiter.hit('ip|a@b.co', Date.now())));
      expect(answers.every((w) => w === 0)).toBe(true);
      await limiter.release('ip|a@b.co');
      await limiter.clear('ip|a@b.co');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^login limiter: Redis did not answer .*; not limiting$/);
    } finally {
      client.destroy();
      await own.stop();
    }
  });

  test('sign-in attempts hit at once on two instances: exactly max within the limit, the rest counted and told when to come back; release takes one back', async () => {
    const log = () => undefined;
    const [a, b] = [await connectRedis(redis.url, log), await connectRedis(redis.url, log)];
    try {
      const prefix = 'hit-test:';
      const limiters = [new RedisLoginLimiter(a, prefix, 5, 60_000, log), new RedisLoginLimiter(b, prefix, 5, 60_000, log)];
      const answers = await Promise.all(Array.from({ length: 18 }, (_, i) => limiters[i % 2].hit('ip|a@b.co', Date.now())));
      expect(answers.filter((w) => w === 0)).toHaveLength(5);
      for (const w of answers.filter((x) => x > 0)) expect(w).toBeGreaterThan(55_000);
      for (let i = 0; i < 13; i++) await limiters[i % 2].release('ip|a@b.co');
      expect(await limiters[0].retryAfterMs('ip|a@b.co', Date.now())).toBeGreaterThan(55_000);
      await limiters[1].release('ip|a@b.co');
      expect(await limiters[0].retryAfterMs('ip|a@b.co', Date.now())).toBe(0);
      expect(await limiters[0].hit('ip|a@b.co', Date.now())).toBe(0);
      expect(await limiters[1].hit('ip|a@b.co', Date.now())).toBeGreaterThan(55_000);
      // Taking back what was never counted leaves nothing behind.
      await limiters[0].release('never-counted');
      expect(await a.sendCommand(['EXISTS', `${prefix}login-failures:never-counted`])).toBe(0);
    } finally {
      a.destroy();
      b.destroy();
    }
  });
});
