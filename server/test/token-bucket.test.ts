// The beacon's per-address bucket on its own clock: `burst` visits at once, then one per
// 1 / rate seconds, and an empty bucket says how long until the next — the times the HTTP
// answer's Retry-After carries. No waiting: the clock is the caller's `now`.
import { expect, test } from 'vitest';
import { MemoryTokenBucket } from '../src/live/memory/token-bucket.js';

test('a burst of 3 at 1 per second: three at once, then the wait until the next token, which then comes', () => {
  const bucket = new MemoryTokenBucket(1, 3);
  const t0 = 1_000_000;
  expect([0, 1, 2].map(() => bucket.takeNow('198.51.100.7', t0))).toEqual([0, 0, 0]);
  expect(bucket.takeNow('198.51.100.7', t0)).toBe(1000); // empty: a token in 1 s
  expect(bucket.takeNow('198.51.100.7', t0 + 400)).toBe(600);
  expect(bucket.takeNow('198.51.100.8', t0 + 400)).toBe(0); // another address has its own bucket
  expect(bucket.takeNow('198.51.100.7', t0 + 1000)).toBe(0); // refilled at its rate
  expect(bucket.takeNow('198.51.100.7', t0 + 1000)).toBe(1000);
  // Never more than the burst, however long the address was away.
  const later = t0 + 3_600_000;
  expect([0, 1, 2, 3].map(() => bucket.takeNow('198.51.100.7', later))).toEqual([0, 0, 0, 1000]);
});

test('a full map forgets the buckets that refilled (a full bucket is a fresh one) and keeps the others', () => {
  const bucket = new MemoryTokenBucket(1, 2, 2);
  bucket.takeNow('a', 0);
  bucket.takeNow('a', 0); // 'a' empty
  bucket.takeNow('b', 0); // 'b' one left
  // At 1 s 'b' is full again (forgotten to make room for 'c'); 'a' has refilled one token only.
  expect(bucket.takeNow('c', 1000)).toBe(0);
  expect(bucket.takeNow('a', 1000)).toBe(0);
  expect(bucket.takeNow('a', 1000)).toBe(1000); // its own bucket, kept: a fresh one would have had two
});
