// The live referrer log over SSE, through the real `eventsource` client: filtering on the
// server, ids, resuming without gaps or duplicates, heartbeats, slow clients, clean-up.
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EventSource } from 'eventsource';
import { buildRequest, contract, type ReferrerLogRecord, type ReferrerStreamQuery } from '@adops/core';
import type { TestServer } from './helpers.js';
import { postBatch, setZoneOwners, startReferrerServer } from './referrers-fixture.js';

let t: TestServer;
let token: string;

beforeAll(async () => {
  t = await startReferrerServer();
  token = (await t.admin()).token;
  t.app.services.referrers.hub.options.retryMs = 100;
  await setZoneOwners(t, [{ date: '2025-06-01', zone_id: '4001', publisher: 'Pub S', advertiser: 'Adv S' }]);
});
afterAll(() => t.close());

const streamUrl = (server: TestServer, q: ReferrerStreamQuery) => buildRequest(contract.referrers.stream, q, server.url).url;

interface Received {
  id: string;
  record: ReferrerLogRecord;
}

/** An EventSource with the session token in the query (as browsers do) collecting its messages. */
function open(server: TestServer, q: ReferrerStreamQuery, init?: ConstructorParameters<typeof EventSource>[1]) {
  const es = new EventSource(streamUrl(server, { access_token: token, ...q }), init);
  const received: Received[] = [];
  const errors: unknown[] = [];
  es.addEventListener('message', (m) => received.push({ id: m.lastEventId, record: JSON.parse(m.data) as ReferrerLogRecord }));
  es.addEventListener('error', (e) => errors.push(e));
  const opened = new Promise<void>((resolve, reject) => {
    es.addEventListener('open', () => resolve(), { once: true });
    setTimeout(() => reject(new Error('stream did not open')), 5000);
  });
  return { es, received, errors, opened };
}

async function waitFor(check: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function ingest(server: TestServer, events: object[]): Promise<number[]> {
  const res = await postBatch(server, events);
  expect(res.status).toBe(200);
  const { first_id, last_id } = await res.json();
  return Array.from({ length: last_id - first_id + 1 }, (_, i) => first_id + i);
}

describe('GET /api/referrers_logs/stream', () => {
  test('is never compressed, even for a client that accepts gzip (events must not wait in a buffer)', async () => {
    const controller = new AbortController();
    const res = await fetch(streamUrl(t, { access_token: token }), { headers: { 'accept-encoding': 'gzip, br' }, signal: controller.signal });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('content-encoding')).toBeNull();
    controller.abort();
  });

  test('refuses a missing or bad token with 401', async () => {
    const none = await fetch(streamUrl(t, {}));
    expect(none.status).toBe(401);
    const bad = await fetch(streamUrl(t, { access_token: 'not-a-jwt' }));
    expect(bad.status).toBe(401);
    const es = new EventSource(streamUrl(t, {}));
    const failed = await new Promise<{ code?: number }>((resolve) => es.addEventListener('error', (e) => resolve(e as { code?: number })));
    expect(failed.code).toBe(401);
    es.close();
  });

  test('answers an event stream that proxies must not buffer', async () => {
    const res = await fetch(streamUrl(t, { access_token: token }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expect(res.headers.get('cache-control')).toContain('no-cache');
    await res.body?.cancel();
  });

  test.each([
    [{ startDate: '2025-02-01T00:00:00Z', endDate: '2025-01-01T00:00:00Z' }, 'La fecha de inicio debe ser anterior o igual a la de fin'],
    [{ endDate: 'ayer' }, 'Fecha de fin: '],
    [{ lastEventId: 'abc' as unknown as number }, 'Último evento: '],
    [{ zoneId: 'z'.repeat(65) }, 'Zone ID: '],
  ])('a bad filter %j → 400', async (q, field) => {
    const res = await fetch(streamUrl(t, { access_token: token, ...q }));
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toContain(field);
  });

  test('delivers only the events that pass the filter, each with its id', async () => {
    const s = open(t, { zoneId: '400', publisher: 'Pub S', parentDomain: 'live.example.com' });
    await s.opened;
    const wanted = await ingest(t, [
      { zone_id: '4001', referrer: 'https://live.example.com/1', keyword: 'uno', ip: '192.0.2.1', country: 'CL' },
      { zone_id: '4002', referrer: 'https://live.example.com/2' }, // no owner: not Pub S
      { zone_id: '4001', referrer: 'https://other.example.com/3' },
      { zone_id: '9001', referrer: 'https://live.example.com/4' },
      { zone_id: '4001', referrer: 'https://live.example.com/5' },
    ]);
    await waitFor(() => s.received.length >= 2, 5000, 'two events');
    // The stream keeps order: once a later matching event is here, any wrongly passed one would be too.
    const [later] = await ingest(t, [{ zone_id: '4001', referrer: 'https://live.example.com/6' }]);
    await waitFor(() => s.received.length >= 3, 5000, 'the later event');
    expect(s.received.map((m) => Number(m.id))).toEqual([wanted[0], wanted[4], later]);
    expect(s.received[0].record).toMatchObject({
      id: wanted[0],
      zone_id: '4001',
      parent_domain: 'live.example.com',
      referrer: 'https://live.example.com/1',
      keyword: 'uno',
      ip: '192.0.2.1',
      country: 'CL',
    });
    s.es.close();
  });

  test('takes the session from the Authorization header too', async () => {
    const s = open(
      t,
      { zoneId: '4101', access_token: undefined },
      {
        fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, authorization: `Bearer ${token}` } }),
      },
    );
    await s.opened;
    const [id] = await ingest(t, [{ zone_id: '4101' }]);
    await waitFor(() => s.received.length === 1);
    expect(Number(s.received[0].id)).toBe(id);
    s.es.close();
  });

  test('a dropped connection resumes with Last-Event-ID: every event once, in order', async () => {
    const s = open(t, { zoneId: '4201' });
    await s.opened;
    const first = await ingest(t, [{ zone_id: '4201' }, { zone_id: '4201' }, { zone_id: '4201' }]);
    await waitFor(() => s.received.length === 3);
    t.app.services.referrers.hub.closeAll(); // the server drops every stream
    const whileAway = await ingest(t, [{ zone_id: '4201' }, { zone_id: '4299' }, { zone_id: '4201' }, { zone_id: '4201' }]);
    await waitFor(() => s.received.length === 6, 5000, 'the replay');
    const after = await ingest(t, [{ zone_id: '4201' }, { zone_id: '4201' }]);
    // The second live event comes after any repeat of the replay would have.
    await waitFor(() => s.received.length >= 8, 5000, 'the live events after the replay');
    const expected = [...first, whileAway[0], whileAway[2], whileAway[3], ...after];
    expect(s.received.map((m) => Number(m.id))).toEqual(expected);
    expect(s.errors.length).toBeGreaterThanOrEqual(1); // the drop was seen by the client
    s.es.close();
  });

  test('a new client may resume from lastEventId in the query', async () => {
    const ids = await ingest(t, [{ zone_id: '4301' }, { zone_id: '4301' }, { zone_id: '4301' }]);
    const s = open(t, { zoneId: '4301', lastEventId: ids[0] });
    await waitFor(() => s.received.length === 2);
    expect(s.received.map((m) => Number(m.id))).toEqual([ids[1], ids[2]]);
    s.es.close();
  });

  test('after a restart the stream resumes from the warehouse and ids keep growing', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'adops-referrers-'));
    const first = await startReferrerServer({}, dataDir);
    const ids = await ingest(first, [{ zone_id: '4401' }, { zone_id: '4401' }, { zone_id: '4402' }, { zone_id: '4401' }]);
    await first.close();
    const again = await startReferrerServer({}, dataDir);
    try {
      const adminToken = (await again.admin()).token;
      const es = new EventSource(streamUrl(again, { access_token: adminToken, zoneId: '4401', lastEventId: ids[0] }));
      const got: number[] = [];
      es.addEventListener('message', (m) => got.push(Number(m.lastEventId)));
      await waitFor(() => got.length === 2, 5000, 'the replay from the warehouse');
      const [next] = await ingest(again, [{ zone_id: '4401' }]);
      await waitFor(() => got.length === 3);
      expect(got).toEqual([ids[1], ids[3], next]);
      expect(next).toBeGreaterThan(ids[3]);
      es.close();
    } finally {
      await again.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('sends a heartbeat comment while idle', async () => {
    const hub = t.app.services.referrers.hub;
    const previous = hub.options.heartbeatMs;
    hub.options.heartbeatMs = 100;
    try {
      const res = await fetch(streamUrl(t, { access_token: token, zoneId: 'idle-zone' }));
      const reader = res.body!.getReader();
      let text = '';
      const until = Date.now() + 3000;
      while (!text.includes(': ping') && Date.now() < until) text += new TextDecoder().decode((await reader.read()).value);
      expect(text).toContain(': ping');
      expect(text).toMatch(/^retry: \d+/);
      await reader.cancel();
    } finally {
      hub.options.heartbeatMs = previous;
    }
  });

  test('a client that stops reading is dropped, others keep receiving; disconnects are cleaned up', async () => {
    const live = t.app.services.referrers;
    await waitFor(() => live.hub.size === 0, 5000, 'earlier streams to close');
    const bound = live.hub.options.maxBacklogEvents;
    live.hub.options.maxBacklogEvents = 2500;
    try {
      // A client that never reads its response.
      const droppedBefore = live.hub.dropped;
      await new Promise<void>((resolve, reject) => {
        const req = http.get(streamUrl(t, { access_token: token, zoneId: '4501' }), (res) => {
          res.pause();
          resolve();
        });
        req.on('error', reject);
      });
      const reader = open(t, { zoneId: '4501' });
      await reader.opened;
      await waitFor(() => live.hub.size === 2);
      const referrer = `https://slow.example.com/${'x'.repeat(1900)}`;
      const total = 8000;
      for (let sent = 0; sent < total; sent += 1000)
        await ingest(
          t,
          Array.from({ length: 1000 }, () => ({ zone_id: '4501', referrer })),
        );
      await waitFor(() => live.hub.dropped === droppedBefore + 1 && live.hub.size === 1, 10_000, 'the slow client to be dropped');
      await waitFor(() => reader.received.length >= total, 10_000, 'the reading client to get everything');
      const ids = reader.received.map((m) => Number(m.id));
      expect(new Set(ids).size).toBe(total);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(reader.errors).toEqual([]); // the reading client was never cut off
      reader.es.close();
      await waitFor(() => live.hub.size === 0, 5000, 'streams to be cleaned up');
      expect(live.bus.subscribers).toBe(0);
    } finally {
      live.hub.options.maxBacklogEvents = bound;
    }
  });

  test('closing the service ends open streams', async () => {
    const other = await startReferrerServer();
    try {
      const otherToken = (await other.admin()).token;
      const res = await fetch(streamUrl(other, { access_token: otherToken }));
      const reader = res.body!.getReader();
      await reader.read(); // the opening comment
      await other.app.services.referrers.close();
      let done = false;
      const until = Date.now() + 3000;
      while (!done && Date.now() < until) done = (await reader.read()).done;
      expect(done).toBe(true);
      expect(other.app.services.referrers.hub.size).toBe(0);
    } finally {
      await other.close();
    }
  });
});
