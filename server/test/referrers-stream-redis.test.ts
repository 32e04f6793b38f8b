// The live referrer log's SSE tests (referrers-stream.test.ts, unchanged) run again with the
// Redis live bus (ADOPS_LIVE=redis) on a throwaway redis-server.
import { afterAll, expect, test } from 'vitest';
import { useRedisLive } from './helpers.js';
import { startRedisServer } from './redis-server.js';
import { startReferrerServer } from './referrers-fixture.js';

const redis = await startRedisServer();
useRedisLive(redis.url);
// Registered first, so it runs after the suite's own clean-up has closed its servers.
afterAll(() => redis.stop());

test('the servers of this file run on the Redis live bus, and /api/health says so', async () => {
  const t = await startReferrerServer();
  try {
    expect(t.app.services.referrers.bus.backend).toBe('redis');
    expect((await t.anon.health.check()).live).toEqual({ backend: 'redis', ok: true });
  } finally {
    await t.close();
  }
});

await import('./referrers-stream.test.js');
