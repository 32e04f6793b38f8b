// The beacon's token buckets in Redis (one Lua script per take), so every API instance draws from
// the same buckets; the same rule as memory/token-bucket.ts.
import type { TokenBucket } from '../types.js';
import { Script, type RedisClient } from './client.js';

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
