// The windowed counters of LoginLimiter (types.ts) in Redis, one key per counted key expiring
// with its window, so every API instance shares the counts; the same rule as memory/limiter.ts.
import type { LoginLimiter } from '../types.js';
import { Script, type RedisClient } from './client.js';

/**
 * KEYS[1]: the count; ARGV[1]: window ms, ARGV[2]: the limit. Counts one attempt (the window opens,
 * its expiry set, with the first); 0 while within the limit, else the ms left in the window.
 */
const HIT = new Script(`
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
if n <= tonumber(ARGV[2]) then return 0 end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 1 then return 1 end
return ttl`);

/** KEYS[1]: the count. Takes one back while the window lives (gone at zero). */
const RELEASE = new Script(`
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n <= 1 then redis.call('DEL', KEYS[1]) return 0 end
return redis.call('DECR', KEYS[1])`);

/** KEYS[1]: the count; ARGV[1]: the limit. The ms left in its window when limited, else 0. */
const RETRY_AFTER = new Script(`
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n < tonumber(ARGV[1]) then return 0 end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then return 0 end
return ttl`);

/**
 * KEYS[1]: the count; ARGV[1]: window ms, ARGV[2]: the limit. With room in the window, counts one
 * use and returns 0; when full, counts nothing and returns the ms left in the window.
 */
const TAKE = new Script(`
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n >= tonumber(ARGV[2]) then
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl > 0 then return ttl end
end
n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return 0`);

/**
 * The same counts in Redis (one key per IP|e-mail, expiring with its window). When Redis does
 * not answer, sign-in is not refused for it (the failure is logged, at most once a minute: a
 * flood during an outage is not a line per request): the scrypt limit still bounds guessing,
 * and staff can reach their reports while Redis is down.
 */
export class RedisLoginLimiter implements LoginLimiter {
  private saidAt = Number.NEGATIVE_INFINITY;
  private unsaid = 0;
  private readonly log: (line: string) => void;

  constructor(
    private readonly client: RedisClient,
    private readonly prefix: string,
    private readonly maxFailures: number,
    private readonly windowMs: number,
    log: (line: string) => void,
  ) {
    this.log = (line) => {
      const now = Date.now();
      if (now - this.saidAt < 60_000) {
        this.unsaid++;
        return;
      }
      log(this.unsaid > 0 ? `${line} (and ${this.unsaid} more since the last line)` : line);
      this.saidAt = now;
      this.unsaid = 0;
    };
  }

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

  async hit(key: string): Promise<number> {
    try {
      return Number(await HIT.run(this.client, [this.key(key)], [String(this.windowMs), String(this.maxFailures)]));
    } catch (e) {
      this.log(`login limiter: Redis did not answer (${(e as Error).message}); not limiting`);
      return 0;
    }
  }

  async release(key: string): Promise<void> {
    try {
      await RELEASE.run(this.client, [this.key(key)], []);
    } catch (e) {
      this.log(`login limiter: attempt not taken back (${(e as Error).message})`);
    }
  }

  async take(key: string): Promise<number> {
    try {
      return Number(await TAKE.run(this.client, [this.key(key)], [String(this.windowMs), String(this.maxFailures)]));
    } catch (e) {
      this.log(`limiter: Redis did not answer (${(e as Error).message}); not limiting`);
      return 0;
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
