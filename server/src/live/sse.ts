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
  /** Bytes buffered for a client beyond which it is dropped (it reconnects and replays). */
  maxBacklogBytes: number;
  /** Reconnection delay suggested to EventSource clients (ms). */
  retryMs: number;
  /** Most events replayed on reconnection. */
  maxReplay: number;
}

export interface StreamRequest<T> {
  match: (event: T) => boolean;
  /** Resume after this id (Last-Event-ID). */
  lastEventId?: number;
  /** Events with afterId < id < beforeId from the store, when the ring does not reach back. */
  backfill?: (afterId: number, beforeId: number, limit: number) => Promise<T[]>;
}

interface Client {
  res: ServerResponse;
  end: () => void;
}

export class SseHub<T extends Identified> {
  private readonly clients = new Set<Client>();
  /** Streams dropped for falling behind (for logs and tests). */
  dropped = 0;

  constructor(
    private readonly bus: LiveBus<T>,
    private readonly serialize: (event: T) => string,
    readonly options: SseOptions,
  ) {}

  get size(): number {
    return this.clients.size;
  }

  /** Takes over the response of ctx and streams events to it until either side closes. */
  open(ctx: Koa.Context, req: StreamRequest<T>): void {
    const { res } = ctx;
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

    let lastSent = req.lastEventId ?? 0;
    let queue: T[] | null = req.lastEventId !== undefined ? [] : null; // live events held while replaying
    let closed = false;

    const write = (chunk: string) => {
      if (closed) return;
      res.write(chunk);
      if (res.writableLength > this.options.maxBacklogBytes) {
        this.dropped++;
        end(true);
      }
    };
    const send = (events: readonly T[]) => {
      let chunk = '';
      for (const e of events) {
        if (e.id <= lastSent) continue;
        lastSent = e.id;
        if (req.match(e)) chunk += `id: ${e.id}\ndata: ${this.serialize(e)}\n\n`;
      }
      if (chunk) write(chunk);
    };
    const unsubscribe = this.bus.subscribe((events) => {
      if (queue) queue.push(...events);
      else send(events);
    });
    const heartbeat = setInterval(() => write(': ping\n\n'), this.options.heartbeatMs);
    heartbeat.unref();
    const client: Client = { res, end: () => end(false) };
    const end = (destroy: boolean) => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      this.clients.delete(client);
      if (destroy) res.destroy();
      else res.end();
    };
    res.on('close', () => end(false));
    this.clients.add(client);

    write(`retry: ${this.options.retryMs}\n: connected\n\n`);
    if (queue) void this.replay(req, send, () => closed).finally(() => {
      const held = queue ?? [];
      queue = null;
      send(held);
    });
  }

  private async replay(req: StreamRequest<T>, send: (events: readonly T[]) => void, isClosed: () => boolean): Promise<void> {
    const after = req.lastEventId ?? 0;
    const ring = this.bus.ring;
    const fromRing = ring.since(after).slice(-this.options.maxReplay);
    const oldest = ring.oldestId;
    const ringReachesBack = oldest !== undefined && oldest <= after + 1;
    if (!ringReachesBack && req.backfill && fromRing.length < this.options.maxReplay) {
      const before = oldest ?? Number.MAX_SAFE_INTEGER;
      try {
        const older = await req.backfill(after, before, this.options.maxReplay - fromRing.length);
        if (isClosed()) return;
        send(older);
      } catch {
        // the store is unavailable: replay what the ring holds
      }
    }
    send(fromRing);
  }

  /** Ends every stream (server shutdown). */
  closeAll(): void {
    for (const client of [...this.clients]) client.end();
  }
}
