// The live backend's interfaces, one per part; each has two engines side by side: memory/ (this
// process only, the default) and redis/ (shared by every API instance). index.ts picks one by
// the configuration (ADOPS_LIVE).

/** An event with its id (ids strictly increasing). */
export interface Identified {
  id: number;
}

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

/** Token buckets per key (the beacon's per-IP limit). */
export interface TokenBucket {
  /** Takes a token for `key`: 0 when there was one, else the ms until there will be (nothing taken). */
  take(key: string, now: number): Promise<number>;
}

/**
 * Counters with a window per key (sign-in attempts per address with an e-mail, per account, per
 * address, per known device; requests per publisher token): a window opens at the first count,
 * and once it holds `max` the key is refused until the window ends; `clear` starts it over.
 */
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
