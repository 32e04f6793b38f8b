// The in-process live bus: committed events are published here (in id order), kept in a ring
// buffer for replay, and handed to every subscriber (the SSE streams).
import { RingBuffer, type Identified } from './ring.js';

export type Listener<T> = (events: readonly T[]) => void;

export class LiveBus<T extends Identified> {
  readonly ring: RingBuffer<T>;
  private readonly listeners = new Set<Listener<T>>();

  constructor(ringSize = 10_000) {
    this.ring = new RingBuffer<T>(ringSize);
  }

  publish(events: readonly T[]): void {
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

  get subscribers(): number {
    return this.listeners.size;
  }
}
