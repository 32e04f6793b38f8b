// Token buckets per key (the beacon's per-IP limit): a bucket holds up to `burst` tokens and
// refills at `ratePerSecond`; a request takes one, and an empty bucket answers how long until
// the next token. Kept in this process, or in Redis (one Lua script per take) so every API
// instance draws from the same buckets.
import { Script, type RedisClient } from './redis.js';

export interface TokenBucket {
  /** Takes a token for `key`: 0 when there was one, else the ms until there will be (nothing taken). */
  take(key: string, now: number): Promise<number>;
}

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

/**
 * KEYS[1]: the bucket (a hash of tokens and ms); ARGV: now ms, tokens per ms, burst. Answers 0
 * when a token was taken, else the ms to wait. The key expires once the bucket would be full.
 */
const TAKE = new Script(`
local now = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = tonumber(b[1])
local at = tonumber(b[2])
if tokens == nil then
  tokens = burst
  at = now
elseif now > at then
  tokens = math.min(burst, tokens + (now - at) * per_ms)
  at = now
end
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = math.max(1, math.ceil((1 - tokens) / per_ms))
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(at))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / per_ms) + 1000)
return wait`);

/**
 * The same buckets in Redis. When Redis does not answer, the request is let through (the failure
 * logged once a minute): the beacon stays up; its bot classification still flags a flood.
 */
export class RedisTokenBucket implements TokenBucket {
  private lastLogged = 0;

  constructor(
    private readonly client: RedisClient,
    private readonly prefix: string,
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly log: (line: string) => void,
  ) {}

  async take(key: string, now: number): Promise<number> {
    try {
      return Number(await TAKE.run(this.client, [`${this.prefix}${key}`], [String(now), String(this.ratePerSecond / 1000), String(this.burst)]));
    } catch (e) {
      if (now - this.lastLogged > 60_000) {
        this.lastLogged = now;
        this.log(`rate limiter: Redis did not answer (${(e as Error).message}); not limiting`);
      }
      return 0;
    }
  }
}
