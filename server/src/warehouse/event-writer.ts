// Group commit for referrer events: callers' events are gathered and committed together
// (a flush starts `lingerMs` after the first pending event while writes come close together,
// at once at `maxRows`, and right after the previous flush when events arrived meanwhile, so no
// event waits more than ~maxWait); a write after a quiet spell (none in the last `lingerMs`)
// waits for no company that is not coming: it is flushed at the end of the event-loop turn,
// with whatever else that turn read. Each caller's promise settles only after its batch committed, and committed
// events are handed on (the live bus) in id order — only those the commit stored (it may leave
// out duplicates of events stored before).
import type { ReferrerEvent } from './types.js';

export interface EventWriterOptions {
  /** How long the first pending event waits for company before a flush (ms), when the write before it came within as long. */
  lingerMs: number;
  /** Flush at once when this many events are pending. */
  maxRows: number;
}

/** One write's events and the caller's tag for them (what its commit needs to know of that write). */
export interface WritePart<Tag> {
  events: readonly ReferrerEvent[];
  tag: Tag | undefined;
}

/** The parts' events in order, as one array (a single part's own). */
export function eventsOf(parts: ReadonlyArray<WritePart<unknown>>): readonly ReferrerEvent[] {
  if (parts.length === 1) return parts[0].events;
  let n = 0;
  for (const p of parts) n += p.events.length;
  const all = new Array<ReferrerEvent>(n);
  let k = 0;
  for (const p of parts) for (const e of p.events) all[k++] = e;
  return all;
}

interface Waiter<Tag> extends WritePart<Tag> {
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class EventWriter<Tag = never> {
  private pending: Waiter<Tag>[] = [];
  private pendingRows = 0;
  /** The pending flush: after the linger, or at the end of this event-loop turn. */
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  /** When the last write came (performance.now()). */
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private flushing: Promise<void> | undefined;
  private closed = false;

  constructor(
    /**
     * Stores a batch, given as each write's events (and tag) in order; answers the events it
     * stored when it left some out (duplicates), else nothing (all of them).
     */
    private readonly commit: (parts: ReadonlyArray<WritePart<Tag>>) => Promise<readonly ReferrerEvent[] | undefined>,
    private readonly committed: (events: readonly ReferrerEvent[]) => void,
    private readonly options: EventWriterOptions = { lingerMs: 5, maxRows: 5000 },
  ) {}

  /** Resolves once the events are committed; rejects if their batch failed to commit. `tag` goes to the commit with them. */
  write(events: readonly ReferrerEvent[], tag?: Tag): Promise<void> {
    if (this.closed) return Promise.reject(new Error('event writer closed'));
    if (events.length === 0) return Promise.resolve();
    const now = performance.now();
    const alone = now - this.lastWriteAt >= this.options.lingerMs;
    this.lastWriteAt = now;
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ events, tag, resolve, reject });
      this.pendingRows += events.length;
      this.schedule(alone);
    });
  }

  get backlog(): number {
    return this.pendingRows;
  }

  /** `alone`: no write came within the linger before this one (none to wait for). */
  private schedule(alone: boolean): void {
    if (this.flushing) return; // picked up as soon as the running flush ends
    if (this.pendingRows >= this.options.maxRows) this.flush();
    else if (this.timer === undefined && this.immediate === undefined) {
      if (alone) this.immediate = setImmediate(() => this.flush());
      else this.timer = setTimeout(() => this.flush(), this.options.lingerMs);
    }
  }

  private cancelScheduled(): void {
    clearTimeout(this.timer);
    clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }

  private flush(): void {
    this.cancelScheduled();
    if (this.pending.length === 0 || this.flushing) return;
    const batch = this.pending;
    this.pending = [];
    this.pendingRows = 0;
    this.flushing = this.run(batch).finally(() => {
      this.flushing = undefined;
      if (this.pending.length > 0) this.flush();
    });
  }

  private async run(batch: Waiter<Tag>[]): Promise<void> {
    let stored: readonly ReferrerEvent[];
    try {
      stored = (await this.commit(batch)) ?? eventsOf(batch);
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
    this.cancelScheduled();
    while (this.flushing || this.pending.length > 0) {
      if (!this.flushing) this.flush();
      await this.flushing;
    }
  }
}
