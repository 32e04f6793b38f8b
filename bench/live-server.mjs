// The referrer bench's server side (bench/live.mjs): the built server started as a child process
// on a temp data dir (signed in, its bench zones named by a zone report), the client calls it
// takes (an NDJSON batch, an SSE stream), what the process costs (CPU seconds, RSS, a heap after
// a GC through the inspector), and bare node:http servers to measure against.
import { spawn } from 'node:child_process';
import { processCpuSeconds, processMemory } from './process-stats.mjs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'undici';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const INGEST_KEY = 'bench-ingest-key-0123456789abcdef';
const ADMIN = { email: 'bench@adops.local', password: 'bench-pass-123' };

/** Starts node server/dist/main.js on a free port (extra env and node options on top); resolves once it listens. */
export async function startServer(dataDir, env = {}, nodeArgs = []) {
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean), ...nodeArgs, path.join(root, 'server/dist/main.js')],
    {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        ADOPS_DATA_DIR: dataDir,
        ADOPS_DEMO: '0',
        ADOPS_LOG: 'silent',
        ADOPS_INGEST_KEY: INGEST_KEY,
        ADOPS_ADMIN_EMAIL: ADMIN.email,
        ADOPS_ADMIN_PASSWORD: ADMIN.password,
        ADOPS_JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123456789',
        ADOPS_TRUST_PROXY: '1',
        // One token opens every stream measured here (1,000 and more): past the per-user quota.
        ADOPS_MAX_STREAMS: '100000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  // Taken at spawn: a killed child has no exitCode (only signalCode) and its 'exit' may be past.
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      const m = /listening on (http:\/\/\S+?)\s/.exec(output);
      if (m) resolve(m[1].replace('localhost', '127.0.0.1'));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c) => (output += c));
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${output}`)));
    setTimeout(() => reject(new Error(`server did not start: ${output}`)), 30_000);
  });
  const login = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const { access_token } = await login.json();
  // With --inspect, the address of the server's inspector (the idle phase asks it for a GC and the heap's size).
  const inspector = /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1];
  const server = { child, exited, url, token: access_token, inspector };
  await nameZones(server);
  return server;
}

/** The zones the bench sends to, named by a zone report (hits to zones no report names are flagged unknown_zone). */
const BENCH_ZONES = ['bench-ingest', 'bench-live', 'bench-durable', ...Array.from({ length: 16 }, (_, i) => `bench-hit-${i}`)];
export async function nameZones(server) {
  // BENCH_REPORT_DAY=yesterday: today without a zone report yet, as on most days (reports arrive the next day).
  const day = new Date(Date.now() - (process.env.BENCH_REPORT_DAY === 'yesterday' ? 86_400_000 : 0)).toISOString().slice(0, 10);
  const csv = `date,advertiser,publisher,zone_id,geo,source,domain,impressions,clicks,revenue\n${BENCH_ZONES.map(
    (z) => `${day},Bench Adv,Bench Pub,${z},ES,web,bench.example.com,1000,10,1`,
  ).join('\n')}\n`;
  const res = await fetch(`${server.url}/api/ingest/zone-report`, {
    method: 'POST',
    headers: { 'x-ingest-key': INGEST_KEY, 'content-type': 'text/csv' },
    body: csv,
  });
  if (res.status !== 200) throw new Error(`zone report ${res.status}: ${await res.text()}`);
}

export const BROWSER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

export async function stopServer(server) {
  server.child.kill('SIGTERM');
  await server.exited;
}

/** CPU seconds (user + system) the process has used so far. */
export const cpuSeconds = processCpuSeconds;

/** The process's RSS now, in MB. */
export const rssMb = (pid) => processMemory(pid).rssMb;

export function batchBody(count, zone, extra = () => ({})) {
  let out = '';
  for (let i = 0; i < count; i++)
    out += `${JSON.stringify({
      zone_id: zone,
      referrer: `https://www.diario${i % 50}.example.com/noticias/articulo-${i}`,
      keyword: 'seguros de coche',
      ip: `198.51.${(i >> 8) & 255}.${i & 255}`,
      country: 'ES',
      user_agent: BROWSER_UA,
      ...extra(i),
    })}\n`;
  return out;
}

export async function postBatch(pool, body, idempotencyKey) {
  const res = await pool.request({
    path: '/api/ingest/referrers',
    method: 'POST',
    headers: {
      'x-ingest-key': INGEST_KEY,
      'content-type': 'application/x-ndjson',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`ingest ${res.statusCode}: ${text}`);
  return JSON.parse(text);
}

/** Opens an SSE stream; onChunk gets each decoded chunk. Resolves when headers arrived. */
export function openStream(server, query, onChunk, agent) {
  return new Promise((resolve, reject) => {
    const q = new URLSearchParams({ access_token: server.token, ...query });
    const req = http.get(`${server.url}/api/referrers_logs/stream?${q}`, { agent }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', onChunk);
      resolve({ close: () => req.destroy() });
    });
    req.on('error', (e) => (e.code === 'ECONNRESET' ? undefined : reject(e)));
  });
}

/** A Chrome DevTools Protocol session with a server started with --inspect. */
export function connectInspector(address) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(address);
    const pending = new Map();
    let next = 0;
    ws.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      const call = pending.get(msg.id);
      if (!call) return;
      pending.delete(msg.id);
      if (msg.error) call.reject(new Error(msg.error.message));
      else call.resolve(msg.result);
    };
    ws.onerror = () => reject(new Error(`cannot reach the server's inspector at ${address}`));
    ws.onopen = () =>
      resolve({
        send: (method, params = {}) =>
          new Promise((ok, fail) => {
            pending.set(++next, { resolve: ok, reject: fail });
            ws.send(JSON.stringify({ id: next, method, params }));
          }),
        close: () => ws.close(),
      });
  });
}

/** The server's RSS (MB) and JS heap in use (MB) right after a full garbage collection. */
export async function collectedMemory(server, inspector) {
  await inspector.send('HeapProfiler.collectGarbage');
  const { result } = await inspector.send('Runtime.evaluate', { expression: 'process.memoryUsage().heapUsed', returnByValue: true });
  return { rss: await rssMb(server.child.pid), heap: result.value / (1024 * 1024) };
}

/** A bare node:http server holding SSE responses (its head and first frame, nothing else): node's own cost per connection. */
export const BARE_SSE_SERVER = `
const http = require('node:http');
const held = new Set();
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write('retry: 2000\\n: connected\\n\\n');
  held.add(res);
  res.on('close', () => held.delete(res));
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + ' '));
`;

/**
 * A beacon reduced to what any beacon does — read the query, answer 204 — on bare node:http: the
 * machine's own ceiling for hits per CPU-second with this client, printed beside the server's so
 * figures from machines of different speeds can be compared (the ratio travels; the count does not).
 */
export const BARE_HIT_SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  const q = new URLSearchParams(req.url.slice(req.url.indexOf('?') + 1));
  if (!q.get('zone_id')) return void res.writeHead(400).end();
  res.writeHead(204, { 'cache-control': 'no-store' }).end();
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + ' '));
`;

/** A bare node:http server from `code` in a child process: { url, child, stop() }. */
export async function startBare(code) {
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const m = /listening on (http:\/\/\S+?)\s/.exec(output);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
  });
  return {
    url,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
