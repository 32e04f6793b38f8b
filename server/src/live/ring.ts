// A fixed-size ring buffer of the latest events (ids strictly increasing), from which a
// stream that reconnects replays what it missed.
import type { Identified, Replay } from './types.js';

export class RingBuffer<T extends Identified> {
  private readonly items: Array<T | undefined>;
  private start = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    this.items = new Array<T | undefined>(capacity);
  }

  push(item: T): void {
    if (this.size < this.capacity) {
      this.items[(this.start + this.size) % this.capacity] = item;
      this.size++;
    } else {
      this.items[this.start] = item;
      this.start = (this.start + 1) % this.capacity;
    }
  }

  private at(i: number): T {
    return this.items[(this.start + i) % this.capacity] as T;
  }

  get length(): number {
    return this.size;
  }

  /** The oldest id still held (undefined when empty). */
  get oldestId(): number | undefined {
    return this.size ? this.at(0).id : undefined;
  }

  get newestId(): number | undefined {
    return this.size ? this.at(this.size - 1).id : undefined;
  }

  /** Items with id > afterId, oldest first (binary search: ids only grow). */
  since(afterId: number): T[] {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(mid).id <= afterId) lo = mid + 1;
      else hi = mid;
    }
    const out: T[] = [];
    for (let i = lo; i < this.size; i++) out.push(this.at(i));
    return out;
  }
}

/** A ring's answer to a resume: the store covers what the ring does not reach back to (below `emptyBound` when it is empty). */
export function replayFromRing<T extends Identified>(ring: RingBuffer<T>, afterId: number, limit: number, emptyBound: number): Replay<T> {
  const events = ring.since(afterId).slice(-limit);
  const oldest = ring.oldestId;
  return { events, complete: oldest !== undefined && oldest <= afterId + 1, storeBefore: oldest ?? emptyBound };
}
