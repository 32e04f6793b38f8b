// The live backend the configuration names (ADOPS_LIVE): this process only (the default), or
// Redis shared by every API instance — the referrer bus and the login failure limiter.
import type { Config } from '../config.js';
import path from 'node:path';
import { MemoryLiveBus } from './memory/bus.js';
import { MemoryCounters, MemoryLoginLimiter } from './memory/limiter.js';
import { MemoryTokenBucket } from './memory/token-bucket.js';
import { RedisLiveBus, type RedisBusOptions } from './redis/bus.js';
import { connectRedis, pingRedis, type RedisClient } from './redis/client.js';
import { RedisLoginLimiter } from './redis/limiter.js';
import { RedisTokenBucket } from './redis/token-bucket.js';
import type { Identified, LiveBus, LoginLimiter, TokenBucket } from './types.js';

export type { LiveBus } from './types.js';

export interface LiveBackend {
  readonly backend: Config['live'];
  /** A bus for one kind of event: the referrer log (unnamed), or a named one (`alerts`) with its own ids and Redis keys. */
  bus<T extends Identified>(options: Partial<RedisBusOptions> & { ringSize: number; name?: string }): LiveBus<T>;
  /**
   * A counter with its own limit and window (sign-in failures per address and e-mail, per
   * account, per address; requests per publisher token), shared like the bus; limiters of one
   * name share their counts whatever their limits. In memory, saved to the data dir.
   */
  limiter(name: string, maxFailures: number, windowMs: number): LoginLimiter;
  /** Token buckets per key (the beacon's per-IP limit), shared like the bus. */
  tokenBucket(name: string, ratePerSecond: number, burst: number): TokenBucket;
  /** For /api/health: the backend and whether it answers. */
  health(): Promise<{ backend: Config['live']; ok: boolean; detail?: string }>;
  close(): Promise<void>;
}

/** Where the in-process limiters keep their counts across restarts (in the data dir). */
export const LIMITS_FILE = 'limits.json';

export async function openLiveBackend(
  config: Pick<Config, 'live' | 'redis' | 'loginMaxFailures' | 'loginWindowMs'> & Partial<Pick<Config, 'dataDir'>>,
  log: (line: string) => void,
): Promise<LiveBackend> {
  if (config.live !== 'redis' || !config.redis) {
    // The limiters' counts survive a restart: saved to the data dir now and then and on close.
    const counters = await MemoryCounters.open(config.dataDir ? path.join(config.dataDir, LIMITS_FILE) : null);
    return {
      backend: 'memory',
      bus: <T extends Identified>({ ringSize }: { ringSize: number }) => new MemoryLiveBus<T>(ringSize),
      limiter: (name, maxFailures, windowMs) => new MemoryLoginLimiter(maxFailures, windowMs, { counters, name }),
      tokenBucket: (_name, ratePerSecond, burst) => new MemoryTokenBucket(ratePerSecond, burst),
      health: async () => ({ backend: 'memory', ok: true }),
      close: () => counters.close(),
    };
  }
  const { url, prefix } = config.redis;
  const client: RedisClient = await connectRedis(url, log);
  const buses: Array<LiveBus<Identified>> = [];
  return {
    backend: 'redis',
    bus: <T extends Identified>({ name, ...options }: Partial<RedisBusOptions> & { ringSize: number; name?: string }) => {
      const bus = new RedisLiveBus<T>(client, name ? `${prefix}${name}:` : prefix, log, {
        streamMaxLen: Math.max(options.ringSize, 1000),
        ...options,
      });
      buses.push(bus as unknown as LiveBus<Identified>);
      return bus;
    },
    limiter: (name, maxFailures, windowMs) => new RedisLoginLimiter(client, `${prefix}${name}:`, maxFailures, windowMs, log),
    tokenBucket: (name, ratePerSecond, burst) => new RedisTokenBucket(client, `${prefix}bucket:${name}:`, ratePerSecond, burst, log),
    health: async () => {
      const ping = await pingRedis(client);
      if (!ping.ok) return { backend: 'redis', ...ping };
      for (const bus of buses) {
        const answer = await bus.health();
        if (!answer.ok) return { backend: 'redis', ...answer };
      }
      return { backend: 'redis', ok: true };
    },
    async close() {
      for (const bus of buses) await bus.close();
      client.destroy();
    },
  };
}
