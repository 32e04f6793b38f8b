// Server-sent event streams fed by the live bus: per-client filtering, `id:` on every event,
// heartbeat comments, replay after Last-Event-ID (ring buffer, then an older backfill),
// slow clients dropped past a backlog bound, cleanup on disconnect, all ended on close.
import type { ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { LiveBus } from './bus.js';
import type { Identified } from './ring.js';

export interface SseOptions {
  /** Comment line sent this often so proxies and clients see the stream alive (ms). */
  heartbeatMs: number;
  /** Events waiting for a client beyond which it is dropped (it reconnects and replays). */
  maxBacklogEvents: number;
  /** Reconnection delay suggested to EventSource clients (ms). */
  retryMs: number;
  /** Most events replayed on reconnection. */
  maxReplay: number;
  /** How often a stream asks whether its session still lives (ms). */
  aliveCheckMs: number;
}

export interface StreamRequest<T> {
  match: (event: T) => boolean;
  /** Resume after this id (Last-Event-ID). */
  lastEventId?: number;
  /** Events with afterId < id < beforeId from the store, when the ring does not reach back. */
  backfill?: (afterId: number, beforeId: number, limit: number) => Promise<T[]>;
  /** Whether the stream may go on (its session lives); asked every `aliveCheckMs`, the stream ends on false. */
  alive?: () => Promise<boolean>;
}

interface Client {
  end: () => void;
}

/** Events per write: large enough to batch, small enough to pace with 'drain'. */
const CHUNK_EVENTS = 256;

export class SseHub<T extends Identified> {
  private readonly clients = new Set<Client>();
  /** Streams dropped for falling behind (for logs and tests). */
  dropped = 0;

  constructor(
    private readonly bus: LiveBus<T>,
    /** The event's whole SSE frame (`id:` and `data:` lines), computed once per event. */
    private readonly frame: (event: T) => string,
    readonly options: SseOptions,
  ) {}

  get size(): number {
    return this.clients.size;
  }

  /** Takes over the response of ctx and streams events to it until either side closes. */
  open(ctx: Koa.Context, req: StreamRequest<T>): void {
    const res: ServerResponse = ctx.res;
    const socket = ctx.req.socket;
    ctx.respond = false;
    ctx.status = 200;
    socket.setTimeout(0);
    socket.setNoDelay(true);
    socket.setKeepAlive(true);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-store, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });

    /** Matching events not yet written, oldest first; `head` is the next to write. */
    let queue: T[] = [];
    let head = 0;
    let lastQueued = req.lastEventId ?? 0;
    let held: T[] | null = req.lastEventId !== undefined ? [] : null; // live events during the replay
    let waitingDrain = false;
    let closed = false;

    const end = (drop: boolean) => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      clearInterval(aliveCheck);
      unsubscribe();
      this.clients.delete(client);
      queue = [];
      if (drop) {
        this.dropped++;
        res.destroy();
      } else res.end();
    };
    const pump = () => {
      while (!closed && !waitingDrain && head < queue.length) {
        const stop = Math.min(queue.length, head + CHUNK_EVENTS);
        let chunk = '';
        for (let i = head; i < stop; i++) chunk += this.frame(queue[i]);
        head = stop;
        if (!res.write(chunk)) waitingDrain = true;
      }
      if (head === queue.length) {
        queue = [];
        head = 0;
      } else if (head > 4096) {
        queue = queue.slice(head);
        head = 0;
      }
    };
    const enqueue = (events: readonly T[]) => {
      if (closed) return;
      for (const e of events) {
        if (e.id <= lastQueued) continue;
        lastQueued = e.id;
        if (req.match(e)) queue.push(e);
      }
      if (queue.length - head > this.options.maxBacklogEvents) end(true);
      else pump();
    };
    const unsubscribe = this.bus.subscribe((events) => {
      if (held) held.push(...events);
      else enqueue(events);
    });
    const heartbeat = setInterval(() => {
      if (!waitingDrain && head === queue.length) res.write(': ping\n\n');
    }, this.options.heartbeatMs);
    heartbeat.unref();
    // An ended session (sign-out, password change, deleted user) ends its streams within a check;
    // a store that cannot answer leaves them open (the next request decides).
    const alive = req.alive;
    const aliveCheck = alive
      ? setInterval(() => {
          void alive().then(
            (ok) => {
              if (!ok) end(false);
            },
            () => undefined,
          );
        }, this.options.aliveCheckMs)
      : undefined;
    aliveCheck?.unref();
    const client: Client = { end: () => end(false) };
    res.on('drain', () => {
      waitingDrain = false;
      pump();
    });
    res.on('close', () => end(false));
    this.clients.add(client);

    res.write(`retry: ${this.options.retryMs}\n: connected\n\n`);
    if (held) {
      void this.replay(req.lastEventId ?? 0, req.backfill).then((missed) => {
        const live = held ?? [];
        held = null;
        enqueue(missed);
        enqueue(live);
      });
    }
  }

  /** What a client resuming after `after` missed: older events from the store, then the bus's. */
  private async replay(after: number, backfill: StreamRequest<T>['backfill']): Promise<T[]> {
    const held = this.bus.replay(after, this.options.maxReplay);
    if (held.complete || !backfill || held.events.length >= this.options.maxReplay) return held.events;
    try {
      const older = await backfill(after, held.storeBefore, this.options.maxReplay - held.events.length);
      return [...older, ...held.events];
    } catch {
      return held.events; // the store is unavailable: replay what the bus holds
    }
  }

  /** Ends every stream (server shutdown). */
  closeAll(): void {
    for (const client of [...this.clients]) client.end();
  }
}
