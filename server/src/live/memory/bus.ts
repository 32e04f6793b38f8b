// The live bus of one process (the default): committed events are published in id order, kept in
// a ring buffer for replay, and handed to every subscriber (the SSE streams) in publish(). The
// Redis bus (redis/bus.ts) uses one as its in-process fan-out.
import { RingBuffer, replayFromRing } from '../ring.js';
import type { Identified, Listener, LiveBus, Replay } from '../types.js';

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
