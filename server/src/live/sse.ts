// Server-sent event streams fed by the live bus: per-client filtering, `id:` on every event,
// heartbeat comments, replay after Last-Event-ID (ring buffer, then an older backfill),
// slow clients dropped past a backlog bound, cleanup on disconnect, all ended on close.
// Once its head is written a stream goes on on the bare socket (take-socket.ts): node's request,
// response and parser state and the Koa context are let go, so an idle stream costs little memory.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Identified, LiveBus } from './types.js';
import { releaseSocket, takeSocket } from './take-socket.js';

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
  /** Streams with the same key share one `alive` answer per check (the session's id). */
  aliveKey?: string;
  /**
   * Takes the stream's place in its owner's quota before anything is written (throwing refuses
   * the stream: the caller answers); what it answers is called once when the stream ends.
   */
  take?: () => () => void;
}

/** What a stream opens on: a Koa context, or a bare request and response. */
export interface StreamContext {
  req: IncomingMessage;
  res: ServerResponse;
  respond?: boolean;
  status?: number;
  /** Headers to send before the stream's own (the lean path's; a Koa context has set its own on res). */
  head?: Readonly<Record<string, string>>;
}

/** A stream's own headers. */
const SSE_HEAD: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-store, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/** Events per write: large enough to batch, small enough to pace with 'drain'. */
const CHUNK_EVENTS = 256;
const PING = Buffer.from(': ping\n\n');

/** `data` framed as one HTTP/1.1 chunk (what ServerResponse.write sends on a chunked response). */
function chunk(data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, CRLF]);
}
const CRLF = Buffer.from('\r\n');
const PING_CHUNK = chunk(PING);
/** A chunked body's end. */
const LAST_CHUNK = Buffer.from('0\r\n\r\n');

/** What a stream writes to: its response, or the bare socket taken from it. */
type Out = (ServerResponse | Socket) & { [STREAM]?: Stream<Identified> };
const STREAM = Symbol('sse stream');

// The same listeners for every stream (the stream is found on its socket or response).
function onDrain(this: Out): void {
  this[STREAM]?.onDrain();
}
function onClose(this: Out): void {
  const stream = this[STREAM];
  if (!stream) return;
  stream.end(false);
  if (stream.taken) releaseSocket(this as Socket);
}
function onEnd(this: Out): void {
  this[STREAM]?.end(false); // the client half-closed: it is gone
}
function ignore(): void {
  // a taken socket's bytes from the client (none expected) and errors (its 'close' follows)
}

/**
 * One open stream: its socket (or response), filter and queue as plain fields (no Koa context,
 * no closure or timer of its own: the hub's shared heartbeat and session checks visit every stream).
 */
class Stream<T extends Identified> {
  /** Matching events not yet written, oldest first; `head` is the next to write. */
  queue: T[] = [];
  head = 0;
  lastQueued: number;
  /** Live events that arrive while the replay is read. */
  held: T[] | null;
  waitingDrain = false;
  closed = false;
  /** Writes go to the bare socket, not a ServerResponse. */
  taken = false;
  /** On a taken socket, each write is framed as a chunk (the head said chunked). */
  chunked = false;
  /** Gives the stream's place in its owner's quota back. */
  release: (() => void) | undefined;

  constructor(
    readonly hub: SseHub<T>,
    readonly out: Out,
    readonly match: (event: T) => boolean,
    lastEventId: number | undefined,
    readonly alive: (() => Promise<boolean>) | undefined,
    readonly aliveKey: string | undefined,
  ) {
    this.lastQueued = lastEventId ?? 0;
    this.held = lastEventId !== undefined ? [] : null;
  }

  get idle(): boolean {
    return !this.waitingDrain && this.head === this.queue.length;
  }

  end(drop: boolean): void {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    this.release?.();
    this.hub.remove(this, drop);
    const out = this.out;
    if (drop) out.destroy();
    else if (!this.taken) (out as ServerResponse).end();
    else if (out.destroyed) return;
    else if (this.chunked) (out as Socket).end(LAST_CHUNK);
    else (out as Socket).end();
  }

  /** Writes text, framed as one chunk when the taken socket's body is chunked. */
  write(text: string): void {
    const data = this.chunked ? `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n` : text;
    if (!this.out.write(data)) this.waitingDrain = true;
  }

  /** The shared heartbeat: a comment while nothing else is on its way. */
  ping(): void {
    if (!this.idle) return;
    if (!this.out.write(this.chunked ? PING_CHUNK : PING)) this.waitingDrain = true;
  }

  pump(): void {
    const { queue } = this;
    while (!this.closed && !this.waitingDrain && this.head < queue.length) {
      const stop = Math.min(queue.length, this.head + CHUNK_EVENTS);
      let text = '';
      for (let i = this.head; i < stop; i++) text += this.hub.frame(queue[i]);
      this.head = stop;
      this.write(text);
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 4096) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * A published batch: written as the hub's shared frame of the whole batch when every event is
   * new and matches and nothing waits (the usual live case), else queued one by one.
   */
  deliver(events: readonly T[], shared: (chunked: boolean) => Buffer): void {
    if (this.held) {
      for (const e of events) this.held.push(e);
      return;
    }
    if (this.idle && events[0].id > this.lastQueued && events.every(this.match)) {
      this.lastQueued = events[events.length - 1].id;
      if (!this.out.write(shared(this.chunked))) this.waitingDrain = true;
      return;
    }
    this.enqueue(events);
  }

  enqueue(events: readonly T[]): void {
    if (this.closed) return;
    for (const e of events) {
      if (e.id <= this.lastQueued) continue;
      this.lastQueued = e.id;
      if (this.match(e)) this.queue.push(e);
    }
    if (this.queue.length - this.head > this.hub.options.maxBacklogEvents) this.end(true);
    else this.pump();
  }

  onDrain(): void {
    this.waitingDrain = false;
    this.pump();
  }
}

export class SseHub<T extends Identified> {
  private readonly clients = new Set<Stream<T>>();
  /** Streams dropped for falling behind (for logs and tests). */
  dropped = 0;
  private unsubscribe: (() => void) | undefined;
  /** One heartbeat and one session check for every stream, each at its option's period when started. */
  private heartbeat: { timer: NodeJS.Timeout; every: number } | undefined;
  private aliveCheck: { timer: NodeJS.Timeout; every: number } | undefined;

  constructor(
    private readonly bus: Pick<LiveBus<T>, 'subscribe' | 'replay'>,
    /** The event's whole SSE frame (`id:` and `data:` lines), computed once per event. */
    readonly frame: (event: T) => string,
    readonly options: SseOptions,
  ) {}

  get size(): number {
    return this.clients.size;
  }

  /**
   * Takes over the response of ctx (a Koa context, or the lean path's bare request and response:
   * lean-stream.ts) and streams events to it until either side closes. Headers already set on the
   * response, or given as ctx.head (request id, security headers), go before the stream's own.
   */
  open(ctx: StreamContext, req: StreamRequest<T>): void {
    const res = ctx.res;
    const request = ctx.req;
    const socket = request.socket;
    // Refused before anything is written, so the caller can still answer (429).
    const release = req.take?.();
    if (release && (socket.destroyed || res.headersSent)) {
      release();
      return;
    }
    ctx.respond = false;
    ctx.status = 200;
    socket.setTimeout(0);
    socket.setNoDelay(true);
    socket.setKeepAlive(true);
    res.writeHead(200, ctx.head ? { ...ctx.head, ...SSE_HEAD } : SSE_HEAD);
    res.write(`retry: ${this.options.retryMs}\n: connected\n\n`);
    const taken = takeSocket(request, res);
    const out: Out = taken?.socket ?? res;
    const stream = new Stream<T>(this, out, req.match, req.lastEventId, req.alive, req.aliveKey);
    stream.release = release;
    out[STREAM] = stream as unknown as Stream<Identified>;
    if (taken) {
      stream.taken = true;
      stream.chunked = taken.chunked;
      stream.waitingDrain = taken.socket.writableNeedDrain;
      taken.socket.on('error', ignore);
      taken.socket.on('end', onEnd);
      taken.socket.on('data', ignore); // read on, so the client's close is seen
      taken.socket.resume();
    }
    out.on('drain', onDrain);
    out.on('close', onClose);
    this.clients.add(stream);
    this.unsubscribe ??= this.bus.subscribe((events) => this.publish(events));
    this.startTimers();

    if (stream.held) {
      void this.replay(req.lastEventId ?? 0, req.backfill).then((missed) => {
        const live = stream.held ?? [];
        stream.held = null;
        stream.enqueue(missed);
        stream.enqueue(live);
      });
    }
  }

  /** Hands a published batch to every stream; the batch's frames are joined and encoded once, when a stream takes them whole. */
  private publish(events: readonly T[]): void {
    if (events.length === 0) return;
    let shared: Buffer | undefined;
    let framed: Buffer | undefined;
    const whole = (chunked: boolean) => {
      if (shared === undefined) {
        let text = '';
        for (const e of events) text += this.frame(e);
        shared = Buffer.from(text);
      }
      if (!chunked) return shared;
      framed ??= chunk(shared);
      return framed;
    };
    for (const stream of this.clients) {
      try {
        stream.deliver(events, whole);
      } catch {
        // one broken stream never stops the others
      }
    }
  }

  /** Starts the shared timers, or restarts one whose option changed since. */
  private startTimers(): void {
    const { heartbeatMs, aliveCheckMs } = this.options;
    if (this.heartbeat?.every !== heartbeatMs) {
      if (this.heartbeat) clearInterval(this.heartbeat.timer);
      const timer = setInterval(() => {
        for (const stream of this.clients) stream.ping();
      }, heartbeatMs);
      timer.unref();
      this.heartbeat = { timer, every: heartbeatMs };
    }
    if (this.aliveCheck?.every !== aliveCheckMs) {
      if (this.aliveCheck) clearInterval(this.aliveCheck.timer);
      const timer = setInterval(() => this.checkSessions(), aliveCheckMs);
      timer.unref();
      this.aliveCheck = { timer, every: aliveCheckMs };
    }
  }

  /**
   * An ended session (sign-out, password change, deleted user) ends its streams within a check,
   * asked once per session however many streams it has open; a store that cannot answer leaves
   * them open (the next request decides).
   */
  private checkSessions(): void {
    const asked = new Map<string, Promise<boolean>>();
    for (const stream of this.clients) {
      if (!stream.alive) continue;
      let answer = stream.aliveKey === undefined ? undefined : asked.get(stream.aliveKey);
      if (answer === undefined) {
        answer = stream.alive();
        if (stream.aliveKey !== undefined) asked.set(stream.aliveKey, answer);
      }
      answer.then(
        (ok) => {
          if (!ok) stream.end(false);
        },
        () => undefined,
      );
    }
  }

  /** A stream that ended: forgotten; the bus and the timers stop with the last one. */
  remove(stream: Stream<T>, dropped: boolean): void {
    if (!this.clients.delete(stream)) return;
    if (dropped) this.dropped++;
    if (this.clients.size > 0) return;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.heartbeat) clearInterval(this.heartbeat.timer);
    if (this.aliveCheck) clearInterval(this.aliveCheck.timer);
    this.heartbeat = undefined;
    this.aliveCheck = undefined;
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
    for (const stream of [...this.clients]) stream.end(false);
  }
}
