// Counters with a window per key in this process (see LoginLimiter in types.ts), saved to the
// data dir now and then and on close, so the counts survive a restart. redis/limiter.ts keeps
// the same counts in Redis so every API instance shares them.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoginLimiter } from '../types.js';

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
