// Token buckets per key in this process (the beacon's per-IP limit): a bucket holds up to `burst`
// tokens and refills at `ratePerSecond`; a request takes one, and an empty bucket answers how long
// until the next token. redis/token-bucket.ts keeps the same buckets in Redis.
import type { TokenBucket } from '../types.js';

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets in this process. Full buckets are forgotten when the map grows (a full bucket is a fresh one). */
export class MemoryTokenBucket implements TokenBucket {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    ratePerSecond: number,
    private readonly burst: number,
    private readonly maxKeys = 100_000,
  ) {
    this.perMs = ratePerSecond / 1000;
  }

  /** The synchronous take (the memory bucket needs no round trip). */
  takeNow(key: string, now: number): number {
    let b = this.buckets.get(key);
    if (b === undefined) {
      if (this.buckets.size >= this.maxKeys) this.sweep(now);
      b = { tokens: this.burst, at: now };
      this.buckets.set(key, b);
    } else if (now > b.at) {
      b.tokens = Math.min(this.burst, b.tokens + (now - b.at) * this.perMs);
      b.at = now;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perMs));
  }

  take(key: string, now: number): Promise<number> {
    return Promise.resolve(this.takeNow(key, now));
  }

  /** Drops the buckets that have refilled (they behave as new ones); all of them if none has. */
  private sweep(now: number): void {
    for (const [k, b] of this.buckets) if (b.tokens + (now - b.at) * this.perMs >= this.burst) this.buckets.delete(k);
    if (this.buckets.size >= this.maxKeys) this.buckets.clear();
  }
}
