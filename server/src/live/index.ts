// The live backend the configuration names (ADOPS_LIVE): this process only (the default), or
// Redis shared by every API instance — the referrer bus and the login failure limiter.
import type { Config } from '../config.js';
import { MemoryLoginLimiter, RedisLoginLimiter, type LoginLimiter } from '../services/login-limiter.js';
import { MemoryLiveBus, type LiveBus } from './bus.js';
import type { Identified } from './ring.js';
import { connectRedis, pingRedis, type RedisClient } from './redis.js';
import { RedisLiveBus, type RedisBusOptions } from './redis-bus.js';

export type { LiveBus } from './bus.js';

export interface LiveBackend {
  readonly backend: Config['live'];
  /** A bus for one kind of event (the referrer log). */
  bus<T extends Identified>(options: Partial<RedisBusOptions> & { ringSize: number }): LiveBus<T>;
  /** A sign-in failure counter (per address and e-mail, per account, per address) with its own limit and window, shared like the bus. */
  limiter(name: string, maxFailures: number, windowMs: number): LoginLimiter;
  /** For /api/health: the backend and whether it answers. */
  health(): Promise<{ backend: Config['live']; ok: boolean; detail?: string }>;
  close(): Promise<void>;
}

export async function openLiveBackend(
  config: Pick<Config, 'live' | 'redis' | 'loginMaxFailures' | 'loginWindowMs'>,
  log: (line: string) => void,
): Promise<LiveBackend> {
  if (config.live !== 'redis' || !config.redis) {
    return {
      backend: 'memory',
      bus: <T extends Identified>({ ringSize }: { ringSize: number }) => new MemoryLiveBus<T>(ringSize),
      limiter: (_name, maxFailures, windowMs) => new MemoryLoginLimiter(maxFailures, windowMs),
      health: async () => ({ backend: 'memory', ok: true }),
      close: async () => {},
    };
  }
  const { url, prefix } = config.redis;
  const client: RedisClient = await connectRedis(url, log);
  const buses: Array<LiveBus<Identified>> = [];
  return {
    backend: 'redis',
    bus: <T extends Identified>(options: Partial<RedisBusOptions> & { ringSize: number }) => {
      const bus = new RedisLiveBus<T>(client, prefix, log, { streamMaxLen: Math.max(options.ringSize, 1000), ...options });
      buses.push(bus as unknown as LiveBus<Identified>);
      return bus;
    },
    limiter: (name, maxFailures, windowMs) => new RedisLoginLimiter(client, `${prefix}${name}:`, maxFailures, windowMs, log),
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
