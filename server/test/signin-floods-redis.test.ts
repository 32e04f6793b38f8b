// The sign-in limit and flood tests (login-limits.test.ts, signin-floods.test.ts, unchanged) once
// more with the limiters in Redis (ADOPS_LIVE=redis) on a throwaway redis-server: attempts counted
// before the hash, known devices and bursts judged the same when every instance shares the counts.
import { afterAll, expect, test } from 'vitest';
import { startTestServer, useRedisLive } from './helpers.js';
import { startRedisServer } from './redis-server.js';

const redis = await startRedisServer();
useRedisLive(redis.url);
// Registered first, so it runs after the suites' own clean-up has closed their servers.
afterAll(() => redis.stop());

test('the servers of this file keep their sign-in counts in Redis', async () => {
  const s = await startTestServer();
  try {
    expect((await s.anon.health.check()).live).toEqual({ backend: 'redis', ok: true });
    expect(
      (
        await s.fetch('/api/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"email":"x@test.local","password":"y"}',
        })
      ).status,
    ).toBe(401);
    const { createClient } = await import('redis');
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      expect((await client.keys('test:*:login-ip:*')).length).toBeGreaterThan(0);
    } finally {
      client.destroy();
    }
  } finally {
    await s.close();
  }
});

await import('./login-limits.test.js');
await import('./signin-floods.test.js');
