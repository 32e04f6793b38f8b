// The live stream on its bare socket (live/take-socket.ts): once the head is written the stream
// holds no request, response or Koa context, and what goes on the wire is still a well-formed
// HTTP/1.1 response — chunks framed, heartbeats, the last chunk on close — or, for an HTTP/1.0
// client, a body ended by closing; a HEAD never gets body bytes; the server's closeAllConnections
// still ends taken streams.
import net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildRequest, contract, type ReferrerStreamQuery } from '@adops/core';
import type Koa from 'koa';
import type { TestServer } from './helpers.js';
import { postBatch, startReferrerServer } from './referrers-fixture.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

let t: TestServer;
let token: string;

beforeAll(async () => {
  t = await startReferrerServer();
  token = (await t.admin()).token;
});
afterAll(() => t.close());

const streamPath = (server: TestServer, q: ReferrerStreamQuery) => {
  const url = new URL(buildRequest(contract.referrers.stream, { access_token: token, ...q }, server.url).url);
  return url.pathname + url.search;
};

async function waitFor(check: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A raw TCP client: sends `request`, keeps every byte the server sends and whether it closed. */
function rawClient(server: TestServer, request: string) {
  const { port } = new URL(server.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  const state = { bytes: Buffer.alloc(0), closed: false };
  socket.on('data', (d) => (state.bytes = Buffer.concat([state.bytes, d])));
  socket.on('close', () => (state.closed = true));
  socket.on('error', () => undefined);
  socket.write(request);
  const head = () => {
    const at = state.bytes.indexOf('\r\n\r\n');
    return at < 0 ? undefined : state.bytes.subarray(0, at).toString('latin1');
  };
  const body = () => {
    const at = state.bytes.indexOf('\r\n\r\n');
    return at < 0 ? Buffer.alloc(0) : state.bytes.subarray(at + 4);
  };
  return { socket, state, head, body };
}

/** A chunked body decoded strictly: the chunks' text, and whether the last (empty) chunk came. */
function dechunk(body: Buffer): { text: string; ended: boolean } {
  let text = '';
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) return { text, ended: false };
    const size = Number.parseInt(body.subarray(at, eol).toString('latin1'), 16);
    expect(body.subarray(at, eol).toString('latin1')).toMatch(/^[0-9a-f]+$/);
    if (body.length < eol + 2 + size + 2) return { text, ended: false };
    if (size === 0) return { text, ended: body.subarray(eol + 2, eol + 4).toString() === '\r\n' };
    text += body.subarray(eol + 2, eol + 2 + size).toString('utf8');
    expect(body.subarray(eol + 2 + size, eol + 4 + size).toString()).toBe('\r\n');
    at = eol + 4 + size;
  }
}

describe('the live stream on its bare socket', () => {
  test('an open stream holds no request, response or Koa context, and still delivers', async () => {
    const hub = t.app.services.referrers.hub;
    const refs: WeakRef<object>[] = [];
    const open = hub.open;
    hub.open = function (this: typeof hub, ctx: Koa.Context, req) {
      refs.push(new WeakRef(ctx), new WeakRef(ctx.req), new WeakRef(ctx.res));
      open.call(this, ctx, req);
    };
    try {
      const client = rawClient(t, `GET ${streamPath(t, { zoneId: 'held-zone' })} HTTP/1.1\r\nHost: test\r\n\r\n`);
      await waitFor(() => dechunk(client.body()).text.includes(': connected'), 5000, 'the stream to open');
      expect(refs).toHaveLength(3);
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setTimeout(r, 20));
        gc();
      }
      expect(refs.map((r) => r.deref() === undefined)).toEqual([true, true, true]);
      const res = await postBatch(t, [{ zone_id: 'held-zone', referrer: 'https://held.example.com/' }]);
      expect(res.status).toBe(200);
      await waitFor(() => dechunk(client.body()).text.includes('held.example.com'), 5000, 'the event');
      client.socket.destroy();
      await waitFor(() => hub.size === 0, 5000, 'the stream to be cleaned up');
    } finally {
      hub.open = open;
    }
  });

  test('speaks chunked HTTP/1.1: head, events and heartbeats framed, the last chunk when the service ends it', async () => {
    const other = await startReferrerServer();
    try {
      const otherToken = (await other.admin()).token;
      const hub = other.app.services.referrers.hub;
      hub.options.heartbeatMs = 100;
      const path = new URL(buildRequest(contract.referrers.stream, { access_token: otherToken, zoneId: 'wire-zone' }, other.url).url);
      const client = rawClient(other, `GET ${path.pathname}${path.search} HTTP/1.1\r\nHost: test\r\nAccept-Encoding: gzip\r\n\r\n`);
      await waitFor(() => dechunk(client.body()).text.includes(': ping'), 5000, 'a heartbeat');
      const head = client.head() ?? '';
      expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(head).toMatch(/\r\ntransfer-encoding: chunked/i);
      expect(head).toMatch(/\r\ncontent-type: text\/event-stream/i);
      expect(head).toMatch(/\r\nx-request-id: /i);
      expect(head).toMatch(/\r\nx-content-type-options: nosniff/i);
      expect(head).not.toMatch(/content-encoding/i);
      const res = await postBatch(other, [
        { zone_id: 'wire-zone', referrer: 'https://wire.example.com/ñ' },
        { zone_id: 'other-zone', referrer: 'https://skipped.example.com/' },
      ]);
      const { first_id } = (await res.json()) as { first_id: number };
      await waitFor(() => dechunk(client.body()).text.includes('wire.example.com'), 5000, 'the event');
      const { text } = dechunk(client.body());
      expect(text).toMatch(/^retry: \d+\n: connected\n\n/);
      expect(text).toContain(`id: ${first_id}\ndata: `);
      expect(text).toContain('https://wire.example.com/ñ');
      expect(text).not.toContain('skipped.example.com');
      await other.app.services.referrers.close();
      await waitFor(() => client.state.closed, 5000, 'the connection to close');
      expect(dechunk(client.body()).ended).toBe(true);
      expect(hub.size).toBe(0);
    } finally {
      await other.close();
    }
  });

  test('an HTTP/1.0 client gets the body unframed, ended by closing the connection', async () => {
    const hub = t.app.services.referrers.hub;
    await waitFor(() => hub.size === 0, 5000, 'earlier streams to close');
    const client = rawClient(t, `GET ${streamPath(t, { zoneId: 'old-zone' })} HTTP/1.0\r\n\r\n`);
    await waitFor(() => client.body().toString().includes(': connected'), 5000, 'the stream to open');
    expect(client.head()).not.toMatch(/transfer-encoding/i);
    await postBatch(t, [{ zone_id: 'old-zone', referrer: 'https://old.example.com/' }]);
    await waitFor(() => client.body().toString().includes('old.example.com'), 5000, 'the event');
    expect(client.body().toString()).toMatch(/^retry: \d+\n: connected\n\nid: \d+\ndata: \{/);
    hub.closeAll();
    await waitFor(() => client.state.closed, 5000, 'the connection to close');
    expect(client.body().toString()).toMatch(/\n\n$/);
  });

  test('a HEAD is never answered with body bytes, whatever is published (its socket is not taken)', async () => {
    const hub = t.app.services.referrers.hub;
    await waitFor(() => hub.size === 0, 5000, 'earlier streams to close');
    const client = rawClient(t, `HEAD ${streamPath(t, { zoneId: 'head-zone' })} HTTP/1.1\r\nHost: test\r\n\r\n`);
    await waitFor(() => hub.size === 1, 5000, 'the stream to open');
    // A GET beside it is the witness: once it has the event, the HEAD would have it too.
    const witness = rawClient(t, `GET ${streamPath(t, { zoneId: 'head-zone' })} HTTP/1.1\r\nHost: test\r\n\r\n`);
    await waitFor(() => hub.size === 2, 5000, 'the witness stream to open');
    await postBatch(t, [{ zone_id: 'head-zone', referrer: 'https://head.example.com/' }]);
    await waitFor(() => witness.state.bytes.toString().includes('head.example'), 5000, 'the event on the witness stream');
    witness.socket.destroy();
    expect(client.body().length).toBe(0);
    expect(client.state.bytes.toString()).not.toMatch(/retry:|head\.example/);
    client.socket.destroy();
    await waitFor(() => hub.size === 0, 5000, 'the stream to be cleaned up');
  });

  test("the server's closeAllConnections ends taken streams (a server shut down with open streams closes)", async () => {
    const other = await startReferrerServer();
    const otherToken = (await other.admin()).token;
    const path = new URL(buildRequest(contract.referrers.stream, { access_token: otherToken }, other.url).url);
    const client = rawClient(other, `GET ${path.pathname}${path.search} HTTP/1.1\r\nHost: test\r\n\r\n`);
    await waitFor(() => dechunk(client.body()).text.includes(': connected'), 5000, 'the stream to open');
    // close() closes the HTTP server (closeAllConnections), then the app: it resolves only once every connection ended.
    await other.close();
    await waitFor(() => client.state.closed, 5000, 'the connection to close');
  });
});
