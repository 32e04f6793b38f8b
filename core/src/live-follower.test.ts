// The live follower's rules, with a scripted source standing in for the server's stream and
// log (the real ones are exercised by `adops tail` and the Logs screen's browser tests).
import { describe, expect, test } from 'vitest';
import { FollowSessionError, LiveFollower, type LiveSource, type StreamCallbacks } from './live-follower.js';
import type { LiveRecord } from './live.js';

const record = (id: number, zone = 'z1'): LiveRecord => ({
  id,
  zone_id: zone,
  parent_domain: 'example.com',
  referrer: `https://r${id}.example`,
  seen_at: `2026-11-24T10:00:${String(id % 60).padStart(2, '0')}.000Z`,
  keyword: null,
  ip: null,
  country: null,
});
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function scripted(pollRows: () => LiveRecord[] = () => []) {
  const streams: Array<{ lastEventId: number | undefined; on: StreamCallbacks; closed: boolean }> = [];
  const polls: number[] = [];
  const source: LiveSource = {
    stream(lastEventId, on) {
      const s = { lastEventId, on, closed: false };
      streams.push(s);
      return { close: () => (s.closed = true) };
    },
    async poll(afterId) {
      polls.push(afterId);
      const rows = pollRows();
      return { rows, total: rows.length };
    },
  };
  return { source, streams, polls };
}

describe('LiveFollower', () => {
  test('hands on stream messages in batches, oldest first, each once by id and by key; malformed ones are counted and skipped', async () => {
    const { source, streams } = scripted();
    const malformed: string[] = [];
    const follower = new LiveFollower(source, { batchMs: 10, onMalformed: (data) => malformed.push(data) });
    const seen: LiveRecord[][] = [];
    follower.onEvents((r) => seen.push(r));
    follower.start([record(5)], 5);
    expect(streams[0].lastEventId).toBe(5); // resumes after the newest known
    const { on } = streams[0];
    on.open();
    expect(follower.status.mode).toBe('sse');
    for (const r of [record(5), record(6), record(7)]) on.message(JSON.stringify(r));
    on.message('{not json');
    on.message(JSON.stringify({ ...record(7), id: 99 })); // same event under another id: same key
    await wait(30);
    expect(seen).toEqual([[record(6), record(7)]]);
    expect(follower.ignored).toBe(1);
    expect(malformed).toEqual(['{not json']);
    follower.stop();
    await expect(follower.done).resolves.toBeUndefined();
    expect(streams[0].closed).toBe(true);
  });

  test('after maxStreamFailures errors in a row it polls for good, asking only for what is newer', async () => {
    let rows = [record(3), record(2)];
    const { source, streams, polls } = scripted(() => rows);
    const follower = new LiveFollower(source, { maxStreamFailures: 2, pollMs: 20 });
    const seen: number[] = [];
    const counts: number[] = [];
    follower.onEvents((r) => seen.push(...r.map((x) => Number(x.id))));
    follower.onCount((n) => counts.push(n));
    follower.start([record(2)], 2);
    streams[0].on.error({ closed: false });
    expect(follower.status).toEqual({ mode: 'connecting', detail: 'reconectando…' });
    streams[0].on.error({ closed: false, status: 502 });
    expect(follower.status.mode).toBe('polling');
    expect(follower.status.detail).toContain('HTTP 502');
    expect(streams[0].closed).toBe(true);
    await wait(5);
    expect(seen).toEqual([3]);
    rows = [record(4), record(3), record(2)];
    await wait(40);
    expect(seen).toEqual([3, 4]);
    expect(polls.slice(0, 2)).toEqual([2, 3]);
    expect(counts.at(-1)).toBe(3);
    expect(streams).toHaveLength(1); // never back to the stream
    follower.stop();
  });

  test('a refused session (401) ends it with FollowSessionError, from the stream or from a poll', async () => {
    const a = scripted();
    const onStream = new LiveFollower(a.source);
    onStream.start();
    a.streams[0].on.error({ closed: true, status: 401 });
    await expect(onStream.done).rejects.toBeInstanceOf(FollowSessionError);

    const refused: LiveSource = {
      poll: async () => {
        throw Object.assign(new Error('Sesión no válida'), { status: 401 });
      },
    };
    const onPoll = new LiveFollower(refused);
    onPoll.start();
    expect(onPoll.status.mode).toBe('polling'); // no stream to open: polling from the start
    await expect(onPoll.done).rejects.toBeInstanceOf(FollowSessionError);
  });

  test('a failing poll is said in the status and retried; the next good one clears it', async () => {
    let fail = true;
    const source: LiveSource = {
      poll: async () => {
        if (fail) throw new Error('HTTP 503');
        return { rows: [record(1)] };
      },
    };
    const follower = new LiveFollower(source, { pollMs: 15 });
    const seen: number[] = [];
    follower.onEvents((r) => seen.push(...r.map((x) => Number(x.id))));
    follower.start();
    await wait(5);
    expect(follower.status.detail).toBe('error al consultar: HTTP 503');
    fail = false;
    await wait(40);
    expect(follower.status).toEqual({ mode: 'polling' });
    expect(seen).toEqual([1]);
    follower.stop();
  });
});
