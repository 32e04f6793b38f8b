// The limiters' counters as the publisher-token limit and sign-in use them: `take` lets exactly
// `max` uses through a window even when they arrive at once; the in-process counters are saved to
// the data dir (0600) and read back without ended windows. Shared by instances: limiter-redis.test.ts.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { LIMITS_FILE, openLiveBackend } from '../src/live/index.js';
import { MemoryCounters, MemoryLoginLimiter } from '../src/live/memory/limiter.js';

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'adops-limits-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('in this process', () => {
  test('take lets max uses through its window, refused ones are not counted, and the window ends on time', async () => {
    const limiter = new MemoryLoginLimiter(3, 1000);
    const t0 = 1_000_000;
    const answers = await Promise.all(Array.from({ length: 6 }, () => limiter.take('tok', t0)));
    expect(answers).toEqual([0, 0, 0, 1000, 1000, 1000]);
    expect(await limiter.take('tok', t0 + 400)).toBe(600);
    expect(await limiter.take('other', t0 + 400)).toBe(0);
    expect(await limiter.take('tok', t0 + 1000)).toBe(0);
  });

  test('hit counts attempts arriving at once, refused ones too: exactly max are within the limit; release takes one back', async () => {
    const limiter = new MemoryLoginLimiter(5, 60_000);
    const t0 = 2_000_000;
    const answers = await Promise.all(Array.from({ length: 18 }, () => limiter.hit('ip|a@b.co', t0)));
    expect(answers.filter((w) => w === 0)).toHaveLength(5);
    expect(answers.filter((w) => w === 60_000)).toHaveLength(13);
    // Eighteen counted: thirteen releases still leave the key at its limit.
    for (let i = 0; i < 13; i++) await limiter.release('ip|a@b.co');
    expect(await limiter.retryAfterMs('ip|a@b.co', t0 + 1000)).toBe(59_000);
    await limiter.release('ip|a@b.co');
    expect(await limiter.retryAfterMs('ip|a@b.co', t0 + 1000)).toBe(0);
    expect(await limiter.hit('ip|a@b.co', t0 + 1000)).toBe(0);
    expect(await limiter.hit('ip|a@b.co', t0 + 1000)).toBe(59_000);
    await limiter.release('never-counted');
    expect(await limiter.hit('never-counted', t0)).toBe(0);
  });

  test('limiters of one name share their counts whatever their limits; the counts survive a restart of the backend', async () => {
    const dataDir = await tempDir();
    const first = await openLiveBackend({ live: 'memory', loginMaxFailures: 5, loginWindowMs: 60_000, dataDir }, () => undefined);
    const now = Date.now();
    const three = first.limiter('publisher-token', 3, 3_600_000);
    for (let i = 0; i < 3; i++) expect(await three.take('id-1', now)).toBe(0);
    expect(await three.take('id-1', now)).toBeGreaterThan(0);
    // A higher limit for the same token sees the same three uses.
    const five = first.limiter('publisher-token', 5, 3_600_000);
    expect(await five.take('id-1', now)).toBe(0);
    await first.limiter('login', 1, 60_000).hit('ip|a@b.co', now);
    await first.close();
    const file = path.join(dataDir, LIMITS_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).not.toContain('undefined');

    const again = await openLiveBackend({ live: 'memory', loginMaxFailures: 5, loginWindowMs: 60_000, dataDir }, () => undefined);
    expect(await again.limiter('publisher-token', 5, 3_600_000).take('id-1', now)).toBe(0);
    expect(await again.limiter('publisher-token', 5, 3_600_000).take('id-1', now)).toBeGreaterThan(3_500_000);
    expect(await again.limiter('login', 1, 60_000).retryAfterMs('ip|a@b.co', now)).toBeGreaterThan(50_000);
    await again.close();
  });

  test('windows that ended while the server was down are dropped; a torn or foreign file starts with no counts', async () => {
    const dir = await tempDir();
    const file = path.join(dir, LIMITS_FILE);
    const now = Date.now();
    await writeFile(file, JSON.stringify({ version: 1, counters: { t: { ended: [9, now - 1], open: [2, now + 60_000], bad: ['x', 'y'] } } }));
    const counters = await MemoryCounters.open(file, 60_000, now);
    expect([...counters.counters('t').keys()]).toEqual(['open']);
    await counters.close();
    for (const text of ['{"counters": ', '[]', 'null', '{"counters": {"t": 5}}']) {
      await writeFile(file, text);
      const c = await MemoryCounters.open(file, 60_000, now);
      expect(c.counters('t').size).toBe(0);
      await c.close();
    }
  });
});
