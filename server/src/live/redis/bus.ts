// The live bus shared by every API instance through Redis. Ids come from one counter (INCRBY
// per committed batch), so they are unique and increasing across instances; committed events are
// appended to a capped stream, and one XREAD loop per instance hands them to its local streams
// in id order.
//
// Batches commit in parallel on several instances, so the stream's order is not the id order: a
// batch may be published while a lower reservation is still being committed elsewhere. Every
// reservation is therefore recorded (a sorted set, with a deadline) until it is published or
// cancelled, and every stream entry carries the watermark when it was written: the highest id
// below every open reservation. An instance delivers an event only once the watermark passed it,
// in id order, so every instance delivers the same sequence, Last-Event-ID means the same thing
// on all of them, and the log table read up to the watermark (polling) agrees with the stream.
// A reservation whose instance died is given up at its deadline; events published after their
// deadline (an instance stalled that long) are kept in the log but skipped by live streams.
import { MemoryLiveBus } from '../memory/bus.js';
import { replayFromRing } from '../ring.js';
import type { Identified, Listener, LiveBus, Replay } from '../types.js';
import { pingRedis, Script, type RedisClient, type Reply } from './client.js';

export interface RedisBusOptions {
  /** Events kept in memory for replay (the stream's newest are loaded at start). */
  ringSize: number;
  /** The stream is trimmed to about this many entries (one per event, plus watermark marks). */
  streamMaxLen: number;
  /** Entries per XREAD. */
  readCount: number;
  /** How long one XREAD waits for new entries (ms). */
  blockMs: number;
  /** A reservation neither published nor cancelled within this long is given up (ms). */
  reservationTtlMs: number;
  /** How often this instance gives up expired reservations (ms). */
  sweepEveryMs: number;
}

export const DEFAULT_REDIS_BUS_OPTIONS: RedisBusOptions = {
  ringSize: 10_000,
  streamMaxLen: 10_000,
  readCount: 1000,
  blockMs: 5000,
  reservationTtlMs: 10_000,
  sweepEveryMs: 1000,
};

// KEYS: 1 id counter, 2 open reservations (score: first id; member first:deadline), 3 stream.
const WATERMARK = `
local function watermark()
  local lowest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  if #lowest > 0 then return string.format('%d', tonumber(lowest[2]) - 1) end
  return redis.call('GET', KEYS[1]) or '0'
end
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/** ARGV: floor. Raises the counter to the store's highest id; returns the watermark. */
const START = new Script(`${WATERMARK}
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return watermark()`);

/**
 * ARGV: count, ttl ms, floor (the highest id this instance knows: should Redis have lost the
 * counter, ids still never go back). Returns the first id of the reservation.
 */
const RESERVE = new Script(`${WATERMARK}
local count = tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current < tonumber(ARGV[3]) then redis.call('SET', KEYS[1], ARGV[3]) end
local first = redis.call('INCRBY', KEYS[1], count) - count + 1
redis.call('ZADD', KEYS[2], first, string.format('%d:%d', first, now_ms() + tonumber(ARGV[2])))
return first`);

/**
 * ARGV: first id, max length, event JSON… (the whole reservation, in id order). An entry's
 * watermark never passes its own event: the batch's later events are not written yet.
 * Returns 1 when the reservation was still open.
 */
const PUBLISH = new Script(`${WATERMARK}
local open = redis.call('ZREMRANGEBYSCORE', KEYS[2], ARGV[1], ARGV[1])
local w = tonumber(watermark())
local first = tonumber(ARGV[1])
for i = 3, #ARGV do
  local mark = w
  if i < #ARGV then mark = math.min(w, first + i - 3) end
  redis.call('XADD', KEYS[3], '*', 'w', string.format('%d', mark), 'e', ARGV[i])
end
redis.call('XTRIM', KEYS[3], 'MAXLEN', '~', ARGV[2])
return open`);

/** ARGV: first id, max length. */
const CANCEL = new Script(`${WATERMARK}
redis.call('ZREMRANGEBYSCORE', KEYS[2], ARGV[1], ARGV[1])
redis.call('XADD', KEYS[3], '*', 'w', watermark())
redis.call('XTRIM', KEYS[3], 'MAXLEN', '~', ARGV[2])
return 1`);

/** ARGV: max length. Gives up reservations past their deadline; returns how many. */
const SWEEP = new Script(`${WATERMARK}
local now = now_ms()
local expired = 0
for _, member in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  local deadline = tonumber(string.match(member, ':(%d+)$'))
  if deadline == nil or deadline < now then
    redis.call('ZREM', KEYS[2], member)
    expired = expired + 1
  end
end
if expired > 0 then
  redis.call('XADD', KEYS[3], '*', 'w', watermark())
  redis.call('XTRIM', KEYS[3], 'MAXLEN', '~', ARGV[1])
end
return expired`);

type Entry = [id: string, fields: string[]];

export class RedisLiveBus<T extends Identified> implements LiveBus<T> {
  readonly backend = 'redis' as const;
  readonly options: RedisBusOptions;
  /** The ring and the local subscribers: events are delivered here once settled, in id order. */
  private readonly local: MemoryLiveBus<T>;
  private readonly keys: [seq: string, reserved: string, stream: string];
  /** Every id up to this one was delivered here (or will never be). */
  private released = 0;
  /** Read but not yet deliverable (a lower reservation is still open), any order. */
  private pending: T[] = [];
  private lastEntryId = '0-0';
  /** The highest id this instance reserved or started from. */
  private highestKnown = 0;
  private reader: RedisClient | undefined;
  private loop: Promise<void> | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;
  /** Batches being appended to the stream (close waits for them). */
  private readonly publishing = new Set<Promise<Reply>>();
  /** Events skipped because they arrived after their reservation was given up. */
  skipped = 0;

  constructor(
    private readonly client: RedisClient,
    prefix: string,
    private readonly log: (line: string) => void,
    options: Partial<RedisBusOptions> = {},
  ) {
    this.options = { ...DEFAULT_REDIS_BUS_OPTIONS, ...options };
    this.local = new MemoryLiveBus<T>(this.options.ringSize);
    // One hash tag: the scripts touch all three keys, which must share a cluster slot.
    this.keys = [`${prefix}{live}:seq`, `${prefix}{live}:reserved`, `${prefix}{live}:events`];
  }

  /** The events held for replay (tests). */
  get ring() {
    return this.local.ring;
  }

  /** Raises the shared counter to the store's highest id, loads the stream's tail, starts reading. */
  async start(floor: number): Promise<void> {
    this.highestKnown = floor;
    const watermark = Number(await START.run(this.client, this.keys, [String(floor)]));
    const tail = (await this.client.sendCommand<Entry[]>(['XREVRANGE', this.keys[2], '+', '-', 'COUNT', String(this.options.ringSize + 1)])) ?? [];
    if (tail.length === 0) this.released = watermark;
    else {
      // The oldest entry read is the horizon: everything up to its watermark was published before
      // it (possibly trimmed away); the entries after it are replayed into the ring.
      tail.reverse();
      const [horizonId, fields] = tail[0];
      this.released = fieldsOf(fields).w ?? 0;
      this.lastEntryId = horizonId;
      this.absorb(tail.slice(1), false);
    }
    this.reader = this.client.duplicate();
    this.reader.on('error', () => {}); // reported by the main connection
    await this.reader.connect();
    this.loop = this.readLoop(this.reader);
    this.sweeper = setInterval(() => void this.sweep(), this.options.sweepEveryMs);
    this.sweeper.unref();
  }

  async reserve(count: number): Promise<number> {
    const floor = Math.max(this.highestKnown, this.released);
    const first = Number(
      await RESERVE.run(this.client, this.keys.slice(0, 2), [String(count), String(this.options.reservationTtlMs), String(floor)]),
    );
    this.highestKnown = Math.max(this.highestKnown, first + count - 1);
    return first;
  }

  async cancel(firstId: number): Promise<void> {
    await CANCEL.run(this.client, this.keys, [String(firstId), String(this.options.streamMaxLen)]);
  }

  async publish(events: readonly T[]): Promise<void> {
    if (events.length === 0) return;
    const args = [String(events[0].id), String(this.options.streamMaxLen)];
    for (const e of events) args.push(JSON.stringify(e));
    const publishing = PUBLISH.run(this.client, this.keys, args);
    this.publishing.add(publishing);
    let open: Reply;
    try {
      open = await publishing;
    } finally {
      this.publishing.delete(publishing);
    }
    if (Number(open) !== 1)
      this.log(
        `live: events ${events[0].id}–${events[events.length - 1].id} were published after their reservation expired; live streams skip them (the log has them)`,
      );
  }

  subscribe(listener: Listener<T>): () => void {
    return this.local.subscribe(listener);
  }

  replay(afterId: number, limit: number): Replay<T> {
    // With nothing held yet, the store answers only up to what is settled: a higher id may be
    // committed while a lower one is still open, and the stream delivers both later.
    return replayFromRing(this.local.ring, afterId, limit, this.released + 1);
  }

  async latestId(): Promise<number> {
    return Number((await this.client.sendCommand<string | null>(['GET', this.keys[0]])) ?? 0);
  }

  get settledId(): number {
    return this.released;
  }

  get subscribers(): number {
    return this.local.subscribers;
  }

  async health(): Promise<{ ok: boolean; detail?: string }> {
    const ping = await pingRedis(this.client);
    if (!ping.ok) return ping;
    if (!this.reader?.isReady) return { ok: false, detail: 'the stream reader is reconnecting' };
    return { ok: true };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.publishing]);
    this.reader?.destroy(); // ends a blocked XREAD at once
    await this.loop;
    await this.local.close();
  }

  /** One XREAD BLOCK loop for the whole instance, whatever the number of streams. */
  private async readLoop(reader: RedisClient): Promise<void> {
    let failing = false;
    while (!this.closed) {
      try {
        const reply = await reader.sendCommand<Array<[string, Entry[]]> | null>([
          'XREAD',
          'COUNT',
          String(this.options.readCount),
          'BLOCK',
          String(this.options.blockMs),
          'STREAMS',
          this.keys[2],
          this.lastEntryId,
        ]);
        if (failing) this.log('live: reading the Redis stream again');
        failing = false;
        if (reply?.[0]) this.absorb(reply[0][1], true);
      } catch (e) {
        if (this.closed) break;
        if (!failing) this.log(`live: reading the Redis stream failed: ${(e as Error).message}; retrying`);
        failing = true;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  /** Takes entries in stream order; delivers, in id order, every pending event the watermark passed. */
  private absorb(entries: readonly Entry[], live: boolean): void {
    let watermark = this.released;
    let skipped = 0;
    for (const [entryId, raw] of entries) {
      this.lastEntryId = entryId;
      const fields = fieldsOf(raw);
      if (fields.e !== undefined) {
        let event: T;
        try {
          event = JSON.parse(fields.e) as T;
        } catch {
          continue;
        }
        if (event.id > this.released) this.pending.push(event);
        else skipped++;
      }
      if (fields.w !== undefined && fields.w > watermark) watermark = fields.w;
    }
    if (live && skipped > 0) {
      this.skipped += skipped;
      this.log(`live: ${skipped} events arrived after their reservation was given up; live streams skip them`);
    }
    if (watermark > this.released) this.release(watermark);
  }

  private release(watermark: number): void {
    const ready: T[] = [];
    const rest: T[] = [];
    let sorted = true;
    for (const e of this.pending) {
      if (e.id > watermark) rest.push(e);
      else {
        if (ready.length && ready[ready.length - 1].id > e.id) sorted = false;
        ready.push(e);
      }
    }
    if (!sorted) ready.sort((a, b) => a.id - b.id);
    this.pending = rest;
    this.released = watermark;
    void this.local.publish(ready);
  }

  private async sweep(): Promise<void> {
    if (this.closed) return;
    try {
      const expired = Number(await SWEEP.run(this.client, this.keys, [String(this.options.streamMaxLen)]));
      if (expired > 0) this.log(`live: gave up ${expired} id reservation(s) not published within ${this.options.reservationTtlMs} ms`);
    } catch {
      // Redis is unreachable: the next sweep tries again (the connection logs the failure).
    }
  }
}

function fieldsOf(raw: readonly string[]): { w?: number; e?: string } {
  const out: { w?: number; e?: string } = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i] === 'w') out.w = Number(raw[i + 1]);
    else if (raw[i] === 'e') out.e = raw[i + 1];
  }
  return out;
}
