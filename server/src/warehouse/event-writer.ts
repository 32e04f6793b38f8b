// Group commit for referrer events: callers' events are gathered and committed together
// (a flush starts `lingerMs` after the first pending event, at once at `maxRows`, and right
// after the previous flush when events arrived meanwhile, so no event waits more than
// ~maxWait); each caller's promise settles only after its batch committed, and committed
// events are handed on (the live bus) in id order — only those the commit stored (it may leave
// out duplicates of events stored before).
import type { ReferrerEvent } from './types.js';

export interface EventWriterOptions {
  /** How long the first pending event waits for company before a flush (ms). */
  lingerMs: number;
  /** Flush at once when this many events are pending. */
  maxRows: number;
}

interface Waiter {
  events: readonly ReferrerEvent[];
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class EventWriter {
  private pending: Waiter[] = [];
  private pendingRows = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;

  constructor(
    /**
     * Stores a batch, given as each write's events in order; answers the events it stored when
     * it left some out (duplicates), else nothing (all of them).
     */
    private readonly commit: (parts: ReadonlyArray<readonly ReferrerEvent[]>) => Promise<readonly ReferrerEvent[] | undefined>,
    private readonly committed: (events: readonly ReferrerEvent[]) => void,
    private readonly options: EventWriterOptions = { lingerMs: 5, maxRows: 5000 },
  ) {}

  /** Resolves once the events are committed; rejects if their batch failed to commit. */
  write(events: readonly ReferrerEvent[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('event writer closed'));
    if (events.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ events, resolve, reject });
      this.pendingRows += events.length;
      this.schedule();
    });
  }

  get backlog(): number {
    return this.pendingRows;
  }

  private schedule(): void {
    if (this.flushing) return; // picked up as soon as the running flush ends
    if (this.pendingRows >= this.options.maxRows) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.options.lingerMs);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0 || this.flushing) return;
    const batch = this.pending;
    this.pending = [];
    this.pendingRows = 0;
    this.flushing = this.run(batch).finally(() => {
      this.flushing = undefined;
      if (this.pending.length > 0) this.flush();
    });
  }

  private async run(batch: Waiter[]): Promise<void> {
    const parts = batch.map((w) => w.events);
    let stored: readonly ReferrerEvent[];
    try {
      stored = (await this.commit(parts)) ?? (parts.length === 1 ? parts[0] : parts.flat());
    } catch (e) {
      for (const w of batch) w.reject(e);
      return;
    }
    try {
      if (stored.length > 0) this.committed(stored);
    } finally {
      for (const w of batch) w.resolve();
    }
  }

  /** Commits everything pending, then refuses new writes. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.flushing || this.pending.length > 0) {
      if (!this.flushing) this.flush();
      await this.flushing;
    }
  }
}
