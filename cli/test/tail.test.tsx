import http from 'node:http';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import type { LiveRecord, ReferrerLogRecord } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { run } from '../src/main.js';
import { LiveTail } from '../src/live-tail.js';
import { STATIC_BATCH, Tail, formatTailLine, headerLine } from '../src/ui/Tail.js';
import { newConfigDir, runCli, waitFor } from './helpers.js';

let server: TestServer;
let token: string;
let dir: string;

beforeAll(async () => {
  server = await startTestServer();
  server.app.services.referrers.hub.options.retryMs = 100;
  token = (await server.admin()).token;
  dir = await newConfigDir();
  expect((await runCli(['login', '--email', ADMIN.email], dir, server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
});
afterAll(() => server?.close());

let seq = 0;
/** A unique event for a zone (ingest answers after the batch is committed). */
async function post(zone: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  seq++;
  const event = {
    zone_id: zone,
    referrer: `https://ref${seq}.example.com/page-${seq}`,
    keyword: `kw ${seq}`,
    ip: `203.0.113.${seq % 250}`,
    country: 'ES',
    ...extra,
  };
  const res = await server.fetch('/api/ingest/referrers', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
    body: `${JSON.stringify(event)}\n`,
  });
  expect(res.status).toBe(200);
  return event;
}

/** Runs a long command in-process; `stop()` aborts it as SIGTERM would. */
function start(args: string[], serverUrl: string, configDir = dir) {
  const sink = () => {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (c: Buffer) => (text += c.toString('utf8')));
    return { stream, text: () => text };
  };
  const out = sink();
  const err = sink();
  const stdin = new PassThrough();
  stdin.end();
  const controller = new AbortController();
  const done = run(args, {
    stdout: out.stream,
    stderr: err.stream,
    stdin,
    env: { ADOPS_CONFIG_DIR: configDir, ADOPS_URL: serverUrl },
    isTTY: false,
    signal: controller.signal,
  });
  const records = () =>
    out
      .text()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ReferrerLogRecord);
  return { stdout: out.text, stderr: err.text, records, stop: () => controller.abort(), done };
}

/** A proxy to the test server that can refuse the stream path or cut open streams. */
async function startProxy(target: string) {
  const upstream = new URL(target);
  const state = { failStream: false, streamHeaders: [] as http.IncomingHttpHeaders[] };
  const open = new Set<http.ServerResponse>();
  const proxy = http.createServer((req, res) => {
    const isStream = (req.url ?? '').startsWith('/api/referrers_logs/stream');
    if (isStream) state.streamHeaders.push(req.headers);
    if (isStream && state.failStream) {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'stream down' }));
      return;
    }
    const up = http.request({ hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (ur) => {
      res.writeHead(ur.statusCode ?? 502, ur.headers);
      ur.pipe(res);
      if (isStream) {
        open.add(res);
        res.on('close', () => {
          open.delete(res);
          ur.destroy();
        });
      }
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  return {
    url,
    state,
    openStreams: () => open.size,
    dropStreams: () => {
      for (const res of open) res.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        proxy.close(() => resolve());
        proxy.closeAllConnections();
      }),
  };
}

describe('adops tail --json', () => {
  it('prints an event posted after it starts as one NDJSON record, once, and ends cleanly when stopped', async () => {
    const tail = start(['tail', '--json', '-n', '0', '--zone', 'zt-one'], server.url);
    await waitFor(() => tail.stderr().includes('en vivo (SSE)'), 'the stream to open');
    const sent = await post('zt-one');
    await post('zt-other'); // another zone: filtered out on the server
    await waitFor(() => tail.records().length >= 1, 'the event');
    // The stream keeps order: once a later event is here, a repeat or the other zone's would be too.
    const later = await post('zt-one');
    await waitFor(() => tail.records().length >= 2, 'the later event');
    tail.stop();
    expect(await tail.done).toBe(0);
    const [record, ...rest] = tail.records();
    expect(rest.map((r) => r.referrer)).toEqual([later.referrer]);
    expect(record).toMatchObject({ zone_id: 'zt-one', referrer: sent.referrer, keyword: sent.keyword, ip: sent.ip, country: 'ES' });
    expect(typeof record.id).toBe('number');
    expect(Number.isNaN(Date.parse(record.seen_at))).toBe(false);
  });

  it('shows the latest --lines events first (oldest first), then new ones', async () => {
    const older = [await post('zt-back'), await post('zt-back'), await post('zt-back')];
    const tail = start(['tail', '--json', '-n', '2', '--zone', 'zt-back'], server.url);
    await waitFor(() => tail.records().length === 2 && tail.stderr().includes('SSE'), 'the backlog');
    const newer = await post('zt-back');
    await waitFor(() => tail.records().length === 3, 'the new event');
    tail.stop();
    expect(await tail.done).toBe(0);
    expect(tail.records().map((r) => r.referrer)).toEqual([older[1].referrer, older[2].referrer, newer.referrer]);
  });

  it('shows more --lines than one page of the log holds: the newest 600 of 620, oldest first', async () => {
    const body = `${Array.from({ length: 620 }, (_, i) => JSON.stringify({ zone_id: 'zt-pages', keyword: `back-${i}` })).join('\n')}\n`;
    const res = await server.fetch('/api/ingest/referrers', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
      body,
    });
    expect(res.status).toBe(200);
    const tail = start(['tail', '--json', '-n', '600', '--zone', 'zt-pages'], server.url);
    await waitFor(() => tail.records().length === 600 && tail.stderr().includes('SSE'), 'the backlog');
    tail.stop();
    expect(await tail.done).toBe(0);
    expect(tail.records().map((r) => r.keyword)).toEqual(Array.from({ length: 600 }, (_, i) => `back-${i + 20}`));
    const tooMany = await runCli(['tail', '--json', '-n', '6000'], dir, server.url);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain('--lines no válido: 6000');
  });

  it('resumes a dropped stream with Last-Event-ID: the event sent while disconnected arrives once, none twice', async () => {
    const proxy = await startProxy(server.url);
    const proxyDir = await newConfigDir();
    try {
      expect((await runCli(['login', '--email', ADMIN.email], proxyDir, proxy.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
      const tail = start(['tail', '--json', '-n', '0', '--zone', 'zt-resume'], proxy.url, proxyDir);
      await waitFor(() => proxy.openStreams() === 1 && tail.stderr().includes('SSE'), 'the stream');
      const a = await post('zt-resume');
      await waitFor(() => tail.records().length === 1, 'event A');
      proxy.dropStreams();
      const b = await post('zt-resume'); // while the tail reconnects
      await waitFor(() => tail.records().length >= 2, 'event B after the reconnection');
      const c = await post('zt-resume');
      await waitFor(() => tail.records().length >= 3, 'event C');
      const d = await post('zt-resume'); // in order after any repeat of A, B or C
      await waitFor(() => tail.records().length >= 4, 'event D');
      tail.stop();
      expect(await tail.done).toBe(0);
      expect(tail.records().map((r) => r.referrer)).toEqual([a.referrer, b.referrer, c.referrer, d.referrer]);
      const resumed = proxy.state.streamHeaders.at(-1)!;
      expect(resumed['last-event-id']).toBe(String(tail.records()[0].id));
      expect(tail.stderr()).not.toContain('Polling');
    } finally {
      await proxy.close();
    }
  });

  it('falls back to polling every 5 s when the stream fails, says so, and still delivers each event once', async () => {
    const proxy = await startProxy(server.url);
    proxy.state.failStream = true;
    const proxyDir = await newConfigDir();
    try {
      expect((await runCli(['login', '--email', ADMIN.email], proxyDir, proxy.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
      const before = await post('zt-poll');
      const tail = start(['tail', '--json', '-n', '0', '--zone', 'zt-poll'], proxy.url, proxyDir);
      await waitFor(() => tail.stderr().includes('Polling'), 'the fallback');
      expect(tail.stderr()).toContain('flujo en vivo no disponible (HTTP 503)');
      const sent = await post('zt-poll');
      await waitFor(() => tail.records().length >= 1, 'the polled event');
      // The next poll brings the next event and must not repeat the first.
      const next = await post('zt-poll');
      await waitFor(() => tail.records().length >= 2, 'the next polled event');
      tail.stop();
      expect(await tail.done).toBe(0);
      expect(tail.records().map((r) => r.referrer)).toEqual([sent.referrer, next.referrer]);
      expect(tail.records().some((r) => r.referrer === before.referrer)).toBe(false);
    } finally {
      await proxy.close();
    }
  }, 30_000);

  it('goes back from polling to the stream once the stream answers again, and delivers each event once', async () => {
    const proxy = await startProxy(server.url);
    proxy.state.failStream = true;
    const api = await server.admin();
    // Polls go straight to the server; the stream through the proxy that refuses it.
    const tail = new LiveTail({
      api,
      server: proxy.url,
      token: api.token,
      filter: { zoneId: 'zt-back' },
      lines: 0,
      pollMs: 100,
      streamRetryMs: 100,
    });
    const modes: string[] = [];
    const seen: string[] = [];
    tail.onStatus((s) => modes.push(s.mode));
    tail.onEvents((records) => seen.push(...records.map((r) => String(r.referrer))));
    try {
      await tail.start();
      await waitFor(() => modes.includes('polling'), 'the fallback');
      const polled = await post('zt-back');
      await waitFor(() => seen.includes(String(polled.referrer)), 'the polled event');
      proxy.state.failStream = false; // the outage ends
      await waitFor(() => tail.status.mode === 'sse', 'the stream again');
      const streamed = await post('zt-back');
      await waitFor(() => seen.includes(String(streamed.referrer)), 'the streamed event');
      expect(proxy.openStreams()).toBe(1);
      expect(modes.slice(-1)).toEqual(['sse']);
      expect(seen).toEqual([polled.referrer, streamed.referrer]);
    } finally {
      tail.stop();
      await proxy.close();
    }
  });

  it('a session refused by the server ends it with exit code 3', async () => {
    const admin = await server.admin();
    await admin.admin.createUser({ first_name: 'Tail', last_name: '', email: 'tail@test.local', password: 'tail-pass-123', is_admin: false });
    const userDir = await newConfigDir();
    expect((await runCli(['login', '--email', 'tail@test.local'], userDir, server.url, { stdin: 'tail-pass-123\n' })).code).toBe(0);
    const user = (await admin.admin.listUsers()).find((u) => u.email === 'tail@test.local')!;
    await admin.admin.deleteUser({ id: user.id });
    const tail = start(['tail', '--json'], server.url, userDir);
    expect(await tail.done).toBe(3);
    expect(tail.stderr()).toContain('adops login');
  });
});

describe('adops tail on a terminal', () => {
  it('prints lines once under a header, with the SSE badge and a live footer; q stops it', async () => {
    const api = await server.admin();
    const tail = new LiveTail({ api, server: server.url, token: api.token, filter: { zoneId: 'zt-ink' }, lines: 5 });
    const ui = render(<Tail tail={tail} tz="UTC" filter={{ zoneId: 'zt-ink' }} interactive width={100} />);
    const frame = () => (ui.lastFrame() ?? '').replace(/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}/g, 'dd/MM HH:mm:ss');
    await tail.start();
    await waitFor(() => frame().includes(' SSE '), 'the SSE badge');
    const first = await post('zt-ink', { country: 'MX' });
    const second = await post('zt-ink', { referrer: null, country: 'MX' });
    const kw1 = String(first.keyword);
    const kw2 = String(second.keyword);
    await waitFor(() => frame().includes(kw1) && frame().includes(kw2), 'both lines');
    const text = frame();
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^Date\s+Zone ID\s+Source\s+Referrer\s+Keyword\s+IP\s+Country$/);
    const host = new URL(String(first.referrer)).host;
    // Each line printed once, oldest first, cut to the terminal's width.
    const firstLines = lines.filter((l) => l.includes(kw1));
    expect(firstLines).toHaveLength(1);
    expect(firstLines[0]).toMatch(
      new RegExp(`^dd/MM HH:mm:ss\\s+zt-ink\\s+${host.slice(0, 8)}.*https://${host.slice(0, 6)}.*${kw1}\\s+${first.ip}\\s+MX$`),
    );
    expect(lines.findIndex((l) => l.includes(kw1))).toBeLessThan(lines.findIndex((l) => l.includes(kw2)));
    // An empty referrer (and so an empty source) shows '-'.
    expect(lines.find((l) => l.includes(kw2))).toMatch(/zt-ink\s+-\s+-\s+kw/);
    expect(text).toContain('2 recibidos');
    expect(text).toContain('Top países (último minuto): MX 2');
    expect(text).toContain(`Top referrers (último minuto): ${host} 1`);
    ui.stdin.write('q');
    await expect(tail.done).resolves.toBeUndefined();
    ui.unmount();
  });

  it('fits 80 columns (the IP gives way, Country stays) with seconds; 120 columns show every column and the year', async () => {
    const record = {
      zone_id: 'zt-w',
      parent_domain: 'news.example.com',
      referrer: 'https://news.example.com/a/very/long/path?q=1',
      keyword: 'ofertas de viaje',
      ip: '203.0.113.77',
      country: 'ES',
      seen_at: '2026-11-24T09:05:07.000Z',
    };
    const narrow = formatTailLine(record as LiveRecord, 'UTC', 80);
    expect(narrow.length).toBeLessThanOrEqual(79);
    expect(narrow).toMatch(/^24\/11 09:05:07\s+zt-w\s+news\.exa.*https:\/\/news.*\s+ofertas.*\s+ES$/);
    expect(narrow).not.toContain('203.0.113.77');
    expect(headerLine(80)).toMatch(/^Date\s+Zone ID\s+Source\s+Referrer\s+Keyword\s+Country$/);
    const wide = formatTailLine(record as LiveRecord, 'UTC', 120);
    expect(wide.length).toBeLessThanOrEqual(119);
    expect(wide).toMatch(/^24\/11\/2026 09:05:07\s+zt-w\s+.*\s+203\.0\.113\.77\s+ES$/);
    expect(headerLine(120)).toMatch(/^Date\s+Zone ID\s+Source\s+Referrer\s+Keyword\s+IP\s+Country$/);
    for (const width of [60, 80, 100, 120, 200]) expect(headerLine(width).length, `${width}`).toBeLessThan(width);
  });

  it('with --bots a Bot column names why an event was flagged (blank for people), at 80 and 120 columns', () => {
    const human = { zone_id: 'zt-b', referrer: 'https://news.example.com/a', country: 'ES', seen_at: '2026-11-24T09:05:07.000Z', reason: null };
    const spam = { ...human, referrer: 'https://spam.example.xyz/', reason: 'spam_referrer' };
    for (const width of [80, 120]) {
      expect(headerLine(width, true)).toMatch(/\s+Country\s+Bot/);
      expect(formatTailLine(spam as LiveRecord, 'UTC', width, true)).toMatch(width > 100 ? /\s+ES\s+Spam de referrer$/ : /\s+ES\s+Spam de refer…$/);
      expect(formatTailLine(human as LiveRecord, 'UTC', width, true)).toMatch(/\s+ES$/);
      expect(formatTailLine(spam as LiveRecord, 'UTC', width, true).length).toBeLessThan(width);
      expect(headerLine(width)).not.toContain('Bot');
    }
  });

  it('p pauses: new lines wait (counted in the footer) and print in order when p is pressed again; the header stays in view', async () => {
    const api = await server.admin();
    const tail = new LiveTail({ api, server: server.url, token: api.token, filter: { zoneId: 'zt-pause' }, lines: 0 });
    const ui = render(<Tail tail={tail} tz="UTC" filter={{ zoneId: 'zt-pause' }} interactive width={100} />);
    await tail.start();
    await waitFor(() => (ui.lastFrame() ?? '').includes(' SSE '), 'the SSE badge');
    const before = await post('zt-pause', { country: 'AR' });
    await waitFor(() => (ui.lastFrame() ?? '').includes(String(before.keyword)), 'the first line');
    ui.stdin.write('p');
    await waitFor(() => (ui.lastFrame() ?? '').includes('EN PAUSA'), 'the pause badge');
    const held = [await post('zt-pause', { country: 'CL' }), await post('zt-pause', { country: 'PE' })];
    await waitFor(() => (ui.lastFrame() ?? '').includes('2 eventos esperando · p reanuda'), 'the count of held lines');
    for (const r of held) expect(ui.lastFrame()).not.toContain(String(r.keyword));
    // The column names under the newest lines, above the status.
    const lines = (ui.lastFrame() ?? '').split('\n');
    const rule = lines.findIndex((l) => l.startsWith('─'));
    expect(lines[rule + 1]).toMatch(/^Date\s+Zone ID\s+Source/);
    ui.stdin.write('p');
    await waitFor(() => held.every((r) => (ui.lastFrame() ?? '').includes(String(r.keyword))), 'the held lines');
    const text = ui.lastFrame() ?? '';
    expect(text).not.toContain('EN PAUSA');
    expect(text.indexOf(String(held[0].keyword))).toBeLessThan(text.indexOf(String(held[1].keyword)));
    ui.stdin.write('q');
    await tail.done;
    ui.unmount();
  });

  it('past the Static batch size keeps printing every line exactly once, in order', async () => {
    const api = await server.admin();
    const tail = new LiveTail({ api, server: server.url, token: api.token, filter: { zoneId: 'zt-many' }, lines: 0 });
    const ui = render(<Tail tail={tail} tz="UTC" filter={{ zoneId: 'zt-many' }} interactive={false} width={100} />);
    await tail.start();
    await waitFor(() => (ui.lastFrame() ?? '').includes(' SSE '), 'the SSE badge');
    const total = STATIC_BATCH + 150;
    const sendBatch = async (from: number, count: number) => {
      const body = `${Array.from({ length: count }, (_, i) => JSON.stringify({ zone_id: 'zt-many', keyword: `many-${from + i}`, country: 'AR' })).join('\n')}\n`;
      const res = await server.fetch('/api/ingest/referrers', {
        method: 'POST',
        headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/x-ndjson' },
        body,
      });
      expect(res.status).toBe(200);
    };
    // Several batches, so lines arrive across renders and the <Static> batch rolls over.
    for (let i = 0; i < total; i += 130) await sendBatch(i, Math.min(130, total - i));
    await waitFor(() => (ui.lastFrame() ?? '').includes(`many-${total - 1} `), 'the last line');
    const keywords = (ui.lastFrame() ?? '')
      .split('\n')
      .map((l) => /many-(\d+)/.exec(l)?.[1])
      .filter((k): k is string => k !== undefined)
      .map(Number);
    expect(keywords).toEqual(Array.from({ length: total }, (_, i) => i));
    tail.stop();
    await tail.done;
    ui.unmount();
  });
});
