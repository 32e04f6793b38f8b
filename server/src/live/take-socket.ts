// Takes a long-lived response's socket away from node's HTTP server once its head is written,
// so an idle live stream holds a socket and a few fields instead of node's request, response
// and parser state plus the Koa context that hangs on them (about 14 KB of heap per stream
// before; node keeps all of it alive for as long as the response is open).
//
// Node offers no public way to do this for a plain request (only `upgrade` hands a socket
// over), so this does what node's own upgrade path does (_http_server.js): drop the HTTP
// server's socket listeners, stop the parser consuming the socket and detach the response.
// Every internal it touches is checked first; when one is missing (another node version, TLS,
// a HEAD, a pipelined request, a body still arriving) the stream stays on its ServerResponse as before.
//
// The parser is done with the connection then: it is unregistered from the server and freed
// at once (~2 KB of native memory per stream when it was kept until the socket closed), and the
// socket is kept in its server's set of taken sockets instead, so `server.closeAllConnections()`
// and `server.close()` (which closes idle connections: a taken stream counts as one) still end
// taken streams as they end every other connection. A taken stream's connection closes when
// the stream ends (it is not kept alive for another request).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/** The internal parser node attaches to a server socket, as far as it is used here. */
interface Parser {
  unconsume(): void;
  remove(): void;
  close(): void;
  _consumed?: boolean;
  socket: Socket | null;
  incoming: unknown;
  outgoing: unknown;
  onIncoming: unknown;
  _headers: unknown;
  _url: string;
  [slot: number]: unknown;
}

type ServerSocket = Socket & { parser?: Parser | null; _httpMessage?: unknown; encrypted?: boolean; server?: unknown };
/** The server's methods that end its connections (close() calls the idle one): each also ends its taken sockets. */
const CLOSE_METHODS = ['closeAllConnections', 'closeIdleConnections'] as const;
type ClosingServer = Record<(typeof CLOSE_METHODS)[number], () => void>;

/** Each server's taken sockets, open. */
const takenBy = new WeakMap<object, Set<Socket>>();

/**
 * The server's set of taken sockets, made on its first take: from then on its
 * closeAllConnections and closeIdleConnections also end them (a taken stream is idle to node).
 */
function takenSet(server: ClosingServer): Set<Socket> {
  const known = takenBy.get(server);
  if (known) return known;
  const sockets = new Set<Socket>();
  for (const name of CLOSE_METHODS) {
    const own = server[name];
    server[name] = function (this: ClosingServer) {
      own.call(this);
      for (const s of sockets) s.destroy();
    };
  }
  takenBy.set(server, sockets);
  return sockets;
}
type Response = ServerResponse & { detachSocket?: (socket: Socket) => void; outputData?: unknown[]; chunkedEncoding?: boolean };

/** The events node's HTTP server (and Koa's on-finished) listen to on a connection. */
const HTTP_EVENTS = ['data', 'end', 'close', 'drain', 'error', 'timeout', 'resume', 'pause'] as const;
/** net's own 'end' listener (half-open bookkeeping), which stays. */
const NET_END_LISTENER = 'onReadableStreamEnd';
/** The parser's per-connection callbacks (node's cleanParser clears the same). */
const PARSER_SLOTS = ['kOnMessageBegin', 'kOnExecute', 'kOnTimeout'] as const;

export interface TakenSocket {
  socket: Socket;
  /** The head announced `Transfer-Encoding: chunked`: every write must be framed as a chunk. */
  chunked: boolean;
}

/**
 * The socket of `res`, taken from the HTTP server, once `res` has written its head and a first
 * write (both already handed to the socket); undefined when it cannot be taken safely, and then
 * nothing has changed. The caller owns the socket from then on: it listens to 'close', 'error',
 * 'drain', 'data' and 'end', writes (framed when `chunked`), ends or destroys it, and calls
 * releaseSocket once it closed.
 */
export function takeSocket(req: IncomingMessage, res: ServerResponse): TakenSocket | undefined {
  const socket = req.socket as ServerSocket;
  const response = res as Response;
  const parser = socket.parser;
  const slots = (parser?.constructor ?? {}) as Record<string, unknown>;
  if (
    !(socket instanceof Socket) ||
    socket.encrypted ||
    req.method === 'HEAD' ||
    !parser ||
    typeof parser.unconsume !== 'function' ||
    typeof parser.remove !== 'function' ||
    typeof parser.close !== 'function' ||
    !PARSER_SLOTS.every((k) => typeof slots[k] === 'number') ||
    typeof response.detachSocket !== 'function' ||
    !CLOSE_METHODS.every((m) => typeof (socket.server as Partial<ClosingServer> | undefined)?.[m] === 'function') ||
    socket._httpMessage !== res ||
    !req.complete ||
    !res.headersSent ||
    (response.outputData?.length ?? 0) > 0 ||
    res.writableEnded ||
    socket.destroyed
  )
    return undefined;

  response.detachSocket(socket);
  for (const event of HTTP_EVENTS)
    for (const listener of socket.listeners(event))
      if (!(event === 'end' && listener.name === NET_END_LISTENER)) socket.removeListener(event, listener as (...a: unknown[]) => void);
  // Node wraps these to stop the parser consuming on a 'data' listener; the prototype's again.
  const proto = Socket.prototype as ServerSocket;
  socket.on = proto.on;
  socket.addListener = proto.addListener;
  socket.prependListener = proto.prependListener;
  socket.setEncoding = proto.setEncoding;
  if (parser._consumed) parser.unconsume();
  parser._consumed = false;
  parser.incoming = null;
  parser.outgoing = null;
  parser.onIncoming = null;
  parser._headers = [];
  parser._url = '';
  for (const k of PARSER_SLOTS) parser[slots[k] as number] = null;
  (req as { parser?: unknown }).parser = null;
  // The parser unregistered from the server and freed; the server's set holds the socket.
  socket.parser = null;
  parser.socket = null;
  parser.remove();
  // As node frees a parser it does not pool: closed outside the current callback.
  setImmediate(closeParser, parser);
  takenSet(socket.server as ClosingServer).add(socket);

  return { socket, chunked: response.chunkedEncoding === true };
}

/** Forgets a taken socket once it closed. */
export function releaseSocket(taken: Socket): void {
  const server = (taken as ServerSocket).server;
  if (server) takenBy.get(server)?.delete(taken);
}

function closeParser(parser: Parser): void {
  parser.close();
}
