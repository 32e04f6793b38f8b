// The Redis connection shared by the live bus and the login limiter: connects (giving up with a
// clear error when Redis never answers at start), reconnects afterwards, runs Lua scripts by
// their SHA and answers health checks.
import { createHash } from 'node:crypto';
import type { createClient } from 'redis';

export type RedisClient = ReturnType<typeof createClient>;
export type Reply = string | number | null | Reply[];

/** Connects to `url`; rejects when Redis has not answered within `startTimeoutMs`. */
export async function connectRedis(url: string, log: (line: string) => void, startTimeoutMs = 10_000): Promise<RedisClient> {
  const deadline = Date.now() + startTimeoutMs;
  let connected = false;
  let lastError = '';
  // Loaded here, not at the top: a server on the in-process live bus never pays for the Redis client.
  const { createClient } = await import('redis');
  const client = createClient({
    url,
    // A command while disconnected fails at once (ingest answers 503) instead of waiting.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: Math.min(5000, startTimeoutMs),
      reconnectStrategy: (retries, cause) => (connected || Date.now() < deadline ? Math.min(50 * 2 ** Math.min(retries, 6), 2000) : cause),
    },
  });
  client.on('error', (e: Error) => {
    // Logged once per kind of failure, not on every reconnection attempt.
    if (e.message !== lastError && connected) log(`redis: ${e.message}`);
    lastError = e.message;
  });
  client.on('ready', () => {
    if (connected && lastError) log('redis: reconnected');
    lastError = '';
  });
  try {
    await client.connect();
  } catch (e) {
    if (client.isOpen) client.destroy();
    throw new Error(`Redis at ${redactUrl(url)} does not answer: ${(e as Error).message || lastError}`);
  }
  connected = true;
  return client;
}

/** The URL without its password (for messages and logs). */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

/** A Lua script run by SHA (EVALSHA), sent in full once when Redis does not know it yet. */
export class Script {
  readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(client: RedisClient, keys: readonly string[], args: readonly string[]): Promise<Reply> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await client.sendCommand<Reply>(['EVALSHA', this.sha, ...tail]);
    } catch (e) {
      if (!String((e as Error).message).startsWith('NOSCRIPT')) throw e;
      return client.sendCommand<Reply>(['EVAL', this.source, ...tail]);
    }
  }
}

/** Whether Redis answers a PING within `timeoutMs`. */
export async function pingRedis(client: RedisClient, timeoutMs = 1000): Promise<{ ok: boolean; detail?: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const answer = await Promise.race([
      client.sendCommand<string>(['PING']),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return answer === 'PONG' ? { ok: true } : { ok: false, detail: `unexpected answer ${answer}` };
  } catch (e) {
    return { ok: false, detail: (e as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
