// A taken stream's socket (live/take-socket.ts) keeps no HTTP parser — node's is unregistered and
// freed when the socket is taken — and the server still ends it as it ends any connection: on
// close() (a taken stream counts as idle) and on closeAllConnections().
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { releaseSocket, takeSocket } from '../src/live/take-socket.js';

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.closeAllConnections();
});

/** A server whose every request becomes a taken event stream; resolves with it and its taken sockets. */
async function streamingServer() {
  const taken: net.Socket[] = [];
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.write(': connected\n\n');
    // As the server takes them: once the request is read whole (its handlers answer after an await).
    setImmediate(() => {
      const t = takeSocket(req, res);
      if (!t) return void res.end(': not taken\n\n');
      t.socket.on('close', () => releaseSocket(t.socket));
      t.socket.on('data', () => undefined);
      t.socket.on('end', () => t.socket.end()); // the client left (as the hub's streams do)
      t.socket.resume();
      taken.push(t.socket);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, taken, port: (server.address() as AddressInfo).port };
}

/** A raw client: resolves once the stream's first bytes came, with a promise of its close. */
async function openStream(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  const closed = new Promise<void>((r) => socket.on('close', () => r()));
  socket.write('GET /stream HTTP/1.1\r\nHost: test\r\n\r\n');
  await new Promise<void>((r) => socket.once('data', () => r()));
  return { socket, closed };
}

const within = <T>(p: Promise<T>, what: string) =>
  Promise.race([p, new Promise<never>((_, no) => setTimeout(() => no(new Error(`${what} did not happen`)), 3000))]);

test('a taken socket keeps no parser: node’s is let go at once', async () => {
  const { port, taken } = await streamingServer();
  await openStream(port);
  await within(new Promise<void>((r) => setTimeout(r, 50)), 'a wait');
  expect(taken).toHaveLength(1);
  expect((taken[0] as net.Socket & { parser?: unknown }).parser).toBeNull();
});

test('server.close() ends taken streams (they count as idle), and its callback runs', async () => {
  const { server, port } = await streamingServer();
  const a = await openStream(port);
  const b = await openStream(port);
  const closed = new Promise<void>((r) => server.close(() => r()));
  await within(Promise.all([a.closed, b.closed, closed]), 'the server closing');
});

test('closeAllConnections() ends taken streams; a stream that ended is forgotten', async () => {
  const { server, port, taken } = await streamingServer();
  const gone = await openStream(port);
  await new Promise((r) => setTimeout(r, 50));
  gone.socket.destroy();
  await within(new Promise<void>((r) => taken[0].once('close', () => r())), 'the stream’s close');
  const open = await openStream(port);
  server.closeAllConnections();
  await within(open.closed, 'the connection closing');
  const closed = new Promise<void>((r) => server.close(() => r()));
  await within(closed, 'the server closing');
});
