// The live bus: committed events are published here in id order, kept for replay, and handed
// to every subscriber (the SSE streams). One interface, two engines: this process only (the
// default, below) or shared by every API instance through a Redis stream (redis-bus.ts).
import { RingBuffer, type Identified } from './ring.js';

export type Listener<T> = (events: readonly T[]) => void;

/** What a stream resuming after an id can get from the bus, and where the store must take over. */
export interface Replay<T> {
  /** Held events with id > afterId, oldest first (at most the newest `limit`). */
  events: T[];
  /** True when the bus holds every event after afterId (no store lookup needed). */
  complete: boolean;
  /** Events older than this id (exclusive) must come from the store: the bus holds none below it. */
  storeBefore: number;
}

export interface LiveBus<T extends Identified> {
  readonly backend: 'memory' | 'redis';
  /** Ids continue after `floor` (the store's highest id), never reusing one handed out. */
  start(floor: number): Promise<void>;
  /** Reserves `count` consecutive ids for a batch about to be committed; resolves to the first. */
  reserve(count: number): Promise<number>;
  /** A reserved batch that was not committed: its ids are never published. */
  cancel(firstId: number, count: number): Promise<void>;
  /** Publishes one committed batch (a whole reservation, in id order) to every subscriber. */
  publish(events: readonly T[]): Promise<void>;
  subscribe(listener: Listener<T>): () => void;
  /** Held events after `afterId` (see Replay). */
  replay(afterId: number, limit: number): Replay<T>;
  /** The highest id handed out by any instance (a resume point past it belongs to a reset store). */
  latestId(): Promise<number>;
  /**
   * Every event with an id up to this one has been delivered to this instance's subscribers (or
   * will never be): the log table is read up to it so polling and the stream agree. Undefined
   * when commits and deliveries cannot interleave (one process).
   */
  readonly settledId: number | undefined;
  readonly subscribers: number;
  /** Whether the bus's backend answers. */
  health(): Promise<{ ok: boolean; detail?: string }>;
  close(): Promise<void>;
}

/** The bus of one process: ids from a counter, a ring buffer for replay, delivery in publish(). */
export class MemoryLiveBus<T extends Identified> implements LiveBus<T> {
  readonly backend = 'memory' as const;
  readonly ring: RingBuffer<T>;
  private readonly listeners = new Set<Listener<T>>();
  private lastId = 0;

  constructor(ringSize = 10_000) {
    this.ring = new RingBuffer<T>(ringSize);
  }

  async start(floor: number): Promise<void> {
    this.lastId = Math.max(this.lastId, floor);
  }

  reserve(count: number): Promise<number> {
    const first = this.lastId + 1;
    this.lastId += count;
    return Promise.resolve(first);
  }

  async cancel(): Promise<void> {}

  publish(events: readonly T[]): Promise<void> {
    this.deliver(events);
    return Promise.resolve();
  }

  /** Pushes events into the ring and hands them to every listener, synchronously. */
  protected deliver(events: readonly T[]): void {
    if (events.length === 0) return;
    for (const e of events) this.ring.push(e);
    for (const listener of this.listeners) {
      try {
        listener(events);
      } catch {
        // one broken subscriber never stops the others
      }
    }
  }

  subscribe(listener: Listener<T>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  replay(afterId: number, limit: number): Replay<T> {
    return replayFromRing(this.ring, afterId, limit, Number.MAX_SAFE_INTEGER);
  }

  latestId(): Promise<number> {
    return Promise.resolve(this.lastId);
  }

  get settledId(): number | undefined {
    return undefined;
  }

  get subscribers(): number {
    return this.listeners.size;
  }

  health(): Promise<{ ok: boolean }> {
    return Promise.resolve({ ok: true });
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}

/** A ring's answer to a resume: the store covers what the ring does not reach back to (below `emptyBound` when it is empty). */
export function replayFromRing<T extends Identified>(ring: RingBuffer<T>, afterId: number, limit: number, emptyBound: number): Replay<T> {
  const events = ring.since(afterId).slice(-limit);
  const oldest = ring.oldestId;
  return { events, complete: oldest !== undefined && oldest <= afterId + 1, storeBefore: oldest ?? emptyBound };
}
