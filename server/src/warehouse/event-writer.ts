// Group commit for referrer events: callers' events are gathered and committed together
// (a flush starts `lingerMs` after the first pending event while writes come close together,
// at once at `maxRows`, and after the previous flush when events arrived meanwhile — no sooner
// than `commitEveryMs` after that flush began: each commit costs the engine ~2 ms of CPU
// whatever its size (DuckDB, measured), so under a steady stream of beacon hits committing back
// to back spent more CPU on commits than on the hits; paced, a commit carries a few times more);
// a write after a quiet spell (none in the last `lingerMs`)
// waits for no company that is not coming: it is flushed at the end of the event-loop turn,
// with whatever else that turn read. Each caller hears (its promise settles, or its callback is
// called: enqueue, for the beacon, which answers per hit and so takes no promise per hit) only
// after its batch committed, and committed
// events are handed on (the live bus) in id order — only those the commit stored (it may leave
// out duplicates of events stored before).
import type { ReferrerEvent } from './types.js';

export interface EventWriterOptions {
  /** How long the first pending event waits for company before a flush (ms), when the write before it came within as long. */
  lingerMs: number;
  /** Flush at once when this many events are pending. */
  maxRows: number;
  /** Under load (events pending when a flush ends), the next flush begins no sooner than this after the last one began (ms; 0: at once). */
  commitEveryMs?: number;
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

/** Called once a write's batch committed (no error) or failed to commit (the error). */
export type WriteDone = (error?: unknown) => void;

interface Waiter<Tag> extends WritePart<Tag> {
  done: WriteDone;
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
  /** When the running or last flush began (performance.now()). */
  private flushStartedAt = Number.NEGATIVE_INFINITY;
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
    return new Promise<void>((resolve, reject) => this.enqueue(events, tag, (e) => (e === undefined ? resolve() : reject(e))));
  }

  /**
   * write() without a promise: `done` is called once the events are committed (or with the error
   * their batch failed with) — never before enqueue returns. The beacon's hits come this way: a
   * promise and its reactions per hit cost more than the rest of queuing it.
   */
  enqueue(events: readonly ReferrerEvent[], tag: Tag | undefined, done: WriteDone): void {
    if (this.closed) return void queueMicrotask(() => done(new Error('event writer closed')));
    if (events.length === 0) return void queueMicrotask(() => done());
    const now = performance.now();
    const alone = now - this.lastWriteAt >= this.options.lingerMs;
    this.lastWriteAt = now;
    this.pending.push({ events, tag, done });
    this.pendingRows += events.length;
    this.schedule(alone);
  }

  get backlog(): number {
    return this.pendingRows;
  }

  /** `alone`: no write came within the linger before this one (none to wait for). */
  private schedule(alone: boolean): void {
    if (this.flushing) return; // picked up as soon as the running flush ends
    if (this.pendingRows >= this.options.maxRows) this.flush();
    else if (this.timer === undefined && this.immediate === undefined) {
      // Paced as well: a commit that blocked the event loop lets no write arrive during it, so
      // the first write after it looks alone though hits keep coming.
      const paced = this.pacedWait();
      if (paced > 0) this.timer = setTimeout(() => this.flush(), alone ? paced : Math.max(paced, this.options.lingerMs));
      else if (alone) this.immediate = setImmediate(() => this.flush());
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
    this.flushStartedAt = performance.now();
    this.flushing = this.run(batch).finally(() => {
      this.flushing = undefined;
      if (this.pending.length > 0) this.next();
    });
  }

  /** How long until the next flush may begin (ms; ≤ 0: now). */
  private pacedWait(): number {
    return this.flushStartedAt + (this.options.commitEveryMs ?? 0) - performance.now();
  }

  /** Events arrived during a flush: the next one at once when full (or closing), else paced by commitEveryMs. */
  private next(): void {
    const wait = this.pacedWait();
    if (wait <= 0 || this.closed || this.pendingRows >= this.options.maxRows) this.flush();
    else if (this.timer === undefined) this.timer = setTimeout(() => this.flush(), wait);
  }

  private async run(batch: Waiter<Tag>[]): Promise<void> {
    let stored: readonly ReferrerEvent[];
    try {
      stored = (await this.commit(batch)) ?? eventsOf(batch);
    } catch (e) {
      settle(batch, e);
      return;
    }
    try {
      if (stored.length > 0) this.committed(stored);
    } finally {
      settle(batch, undefined);
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

/** Tells each write of a batch how it went; one caller's throw does not keep the others from hearing. */
function settle(batch: ReadonlyArray<Waiter<unknown>>, error: unknown): void {
  let thrown: { e: unknown } | undefined;
  for (const w of batch) {
    try {
      w.done(error);
    } catch (e) {
      thrown ??= { e };
    }
  }
  if (thrown) throw thrown.e;
}
