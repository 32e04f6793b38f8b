// Counters with a window per key (sign-in attempts per address with an e-mail, per account, per
// address, per known device; requests per publisher token): a window opens at the first count,
// and once it holds `max` the key is refused until the window ends; `clear` starts it over. Kept in this process —
// saved to the data dir now and then and on close, so the counts survive a restart — or in
// Redis so every API instance shares the counts.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Script, type RedisClient } from '../live/redis.js';

export interface LoginLimiter {
  /** How long until the key may try again (ms); 0 when it is not limited. */
  retryAfterMs(key: string, now: number): Promise<number>;
  /**
   * Counts one attempt in one step, refused ones too (a sign-in is counted before its password is
   * checked, so a burst is judged as it arrives): 0 while the count, this one included, is within
   * the limit; else how long until the window ends (ms).
   */
  hit(key: string, now: number): Promise<number>;
  /** Takes back one attempt that turned out not to be a failure (a right password). */
  release(key: string): Promise<void>;
  /**
   * One use, in one step (concurrent requests cannot slip past the limit): counted and 0 while
   * the window has room; else not counted, and how long until the window ends (ms).
   */
  take(key: string, now: number): Promise<number>;
  /** A successful sign-in: the count starts over. */
  clear(key: string): Promise<void>;
}

interface Failures {
  count: number;
  resetAt: number;
}

/**
 * The in-process counters, one map per limiter name (limiters of one name share it whatever
 * their limits, as they share Redis keys), saved to a JSON file in the data dir every
 * `saveEveryMs` when something changed and on close, and read back on open without the
 * windows that ended meanwhile.
 */
export class MemoryCounters {
  private readonly maps = new Map<string, Map<string, Failures>>();
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();

  private constructor(private readonly file: string | null) {}

  /** The counters saved in `file` (null: kept in memory only), saving again every `saveEveryMs`. */
  static async open(file: string | null, saveEveryMs = 30_000, now = Date.now()): Promise<MemoryCounters> {
    const counters = new MemoryCounters(file);
    if (file) {
      const saved = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
        if (e.code === 'ENOENT') return null;
        throw e;
      });
      if (saved) counters.load(saved, now);
      counters.timer = setInterval(() => void counters.save(), saveEveryMs);
      counters.timer.unref();
    }
    return counters;
  }

  private load(text: string, now: number): void {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return; // a torn or foreign file: start with no counts rather than refuse to start
    }
    const names = (data as { counters?: Record<string, Record<string, [number, number]>> })?.counters;
    if (!names || typeof names !== 'object') return;
    for (const [name, entries] of Object.entries(names)) {
      if (!entries || typeof entries !== 'object') continue;
      const map = this.counters(name);
      for (const [key, value] of Object.entries(entries)) {
        if (!Array.isArray(value)) continue;
        const [count, resetAt] = value;
        if (Number.isInteger(count) && count > 0 && Number.isFinite(resetAt) && resetAt > now) map.set(key, { count, resetAt });
      }
    }
  }

  /** The counts of one limiter name. */
  counters(name: string): Map<string, Failures> {
    const known = this.maps.get(name);
    if (known) return known;
    const map = new Map<string, Failures>();
    this.maps.set(name, map);
    return map;
  }

  changed(): void {
    this.dirty = true;
  }

  /** Writes the open windows when something changed (atomically: a new file renamed over the old, mode 0600). */
  save(now = Date.now()): Promise<void> {
    if (!this.file || !this.dirty) return this.saving;
    const file = this.file;
    this.dirty = false;
    const counters: Record<string, Record<string, [number, number]>> = {};
    for (const [name, map] of this.maps) {
      const open: Record<string, [number, number]> = {};
      for (const [key, f] of map) {
        if (f.resetAt > now) open[key] = [f.count, f.resetAt];
        else map.delete(key);
      }
      counters[name] = open;
    }
    const text = JSON.stringify({ version: 1, saved_at: new Date(now).toISOString(), counters });
    this.saving = this.saving.then(async () => {
      try {
        await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
        const temp = `${file}.${process.pid}.tmp`;
        await writeFile(temp, text, { mode: 0o600 });
        await rename(temp, file);
      } catch {
        this.dirty = true; // tried again at the next save
      }
    });
    return this.saving;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.save();
  }
}

export class MemoryLoginLimiter implements LoginLimiter {
  private readonly failures: Map<string, Failures>;

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly shared?: { counters: MemoryCounters; name: string },
  ) {
    this.failures = shared ? shared.counters.counters(shared.name) : new Map();
  }

  private changed(): void {
    this.shared?.counters.changed();
  }

  async retryAfterMs(key: string, now: number): Promise<number> {
    const f = this.failures.get(key);
    if (!f) return 0;
    if (f.resetAt <= now) {
      this.failures.delete(key);
      this.changed();
      return 0;
    }
    return f.count >= this.maxFailures ? f.resetAt - now : 0;
  }

  private count(key: string, now: number): Failures {
    let f = this.failures.get(key);
    if (!f || f.resetAt <= now) {
      f = { count: 1, resetAt: now + this.windowMs };
      this.failures.set(key, f);
    } else f.count++;
    this.changed();
    if (this.failures.size > 50_000) {
      for (const [k, v] of this.failures) if (v.resetAt <= now) this.failures.delete(k);
    }
    return f;
  }

  async hit(key: string, now: number): Promise<number> {
    // No await between the count and the answer: attempts arriving at once each see their own number.
    const f = this.count(key, now);
    return f.count > this.maxFailures ? f.resetAt - now : 0;
  }

  async release(key: string): Promise<void> {
    const f = this.failures.get(key);
    if (!f) return;
    if (--f.count <= 0) this.failures.delete(key);
    this.changed();
  }

  async take(key: string, now: number): Promise<number> {
    // No await between the check and the count: uses arriving at once cannot both see room.
    const f = this.failures.get(key);
    if (f && f.resetAt > now && f.count >= this.maxFailures) return f.resetAt - now;
    this.count(key, now);
    return 0;
  }

  async clear(key: string): Promise<void> {
    if (this.failures.delete(key)) this.changed();
  }
}

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
