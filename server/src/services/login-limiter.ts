// Failed sign-ins per key (an address with an e-mail, an account, an address: one limiter each):
// a window opens at the first failure, and once it holds `maxFailures` the key is refused until
// the window ends; a success clears it. Kept in this process, or in Redis so every API instance
// shares the counts and they survive a restart.
import { Script, type RedisClient } from '../live/redis.js';

export interface LoginLimiter {
  /** How long until the key may try again (ms); 0 when it is not limited. */
  retryAfterMs(key: string, now: number): Promise<number>;
  /** Counts one failure (opening a window when none is open). */
  fail(key: string, now: number): Promise<void>;
  /** A successful sign-in: the count starts over. */
  clear(key: string): Promise<void>;
}

interface Failures {
  count: number;
  resetAt: number;
}

export class MemoryLoginLimiter implements LoginLimiter {
  private failures = new Map<string, Failures>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
  ) {}

  async retryAfterMs(key: string, now: number): Promise<number> {
    const f = this.failures.get(key);
    if (!f) return 0;
    if (f.resetAt <= now) {
      this.failures.delete(key);
      return 0;
    }
    return f.count >= this.maxFailures ? f.resetAt - now : 0;
  }

  async fail(key: string, now: number): Promise<void> {
    const f = this.failures.get(key);
    if (!f || f.resetAt <= now) this.failures.set(key, { count: 1, resetAt: now + this.windowMs });
    else f.count++;
    if (this.failures.size > 50_000) {
      for (const [k, v] of this.failures) if (v.resetAt <= now) this.failures.delete(k);
    }
  }

  async clear(key: string): Promise<void> {
    this.failures.delete(key);
  }
}

/** ARGV: window ms. The window opens (expiry set) with the first failure only. */
const FAIL = new Script(`
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`);

/** KEYS[1]: the count; ARGV[1]: the limit. The ms left in its window when limited, else 0. */
const RETRY_AFTER = new Script(`
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n < tonumber(ARGV[1]) then return 0 end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then return 0 end
return ttl`);

/**
 * The same counts in Redis (one key per IP|e-mail, expiring with its window). When Redis does
 * not answer, sign-in is not refused for it (the failure is logged): the scrypt limit still
 * bounds guessing, and staff can reach their reports while Redis is down.
 */
export class RedisLoginLimiter implements LoginLimiter {
  constructor(
    private readonly client: RedisClient,
    private readonly prefix: string,
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly log: (line: string) => void,
  ) {}

  private key(key: string): string {
    return `${this.prefix}login-failures:${key}`;
  }

  async retryAfterMs(key: string): Promise<number> {
    try {
      return Number(await RETRY_AFTER.run(this.client, [this.key(key)], [String(this.maxFailures)]));
    } catch (e) {
      this.log(`login limiter: Redis did not answer (${(e as Error).message}); not limiting`);
      return 0;
    }
  }

  async fail(key: string): Promise<void> {
    try {
      await FAIL.run(this.client, [this.key(key)], [String(this.windowMs)]);
    } catch (e) {
      this.log(`login limiter: failure not counted (${(e as Error).message})`);
    }
  }

  async clear(key: string): Promise<void> {
    try {
      await this.client.sendCommand(['DEL', this.key(key)]);
    } catch (e) {
      this.log(`login limiter: count not cleared (${(e as Error).message})`);
    }
  }
}
