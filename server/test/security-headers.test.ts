// Every kind of answer carries the security headers — the web's HTML and assets, JSON, the API
// docs, CSV exports, errors, the beacon — and Strict-Transport-Security is added when the request
// came over HTTPS: on the server's own TLS socket, or from a trusted proxy that says so
// (X-Forwarded-Proto with ADOPS_TRUST_PROXY); a client's own X-Forwarded-Proto is not believed.
import http from 'node:http';
import https from 'node:https';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HSTS } from '../src/app.js';
import { startTestServer, type TestServer } from './helpers.js';

const TLS = path.join(import.meta.dirname, 'tls');
let web: string;
let direct: TestServer;
let proxied: TestServer;
let tls: https.Server;
let tlsUrl: string;
let ca: Buffer;
/** Session tokens by server URL: '<admin>' and '<staff>' in a request's authorization header stand for them. */
const tokens = new Map<string, { admin: string; staff: string }>();

async function sessions(s: TestServer) {
  const admin = await s.admin();
  await admin.admin.createUser({ first_name: 'Eva', email: 'eva@test.local', password: 'eva-pass-123' });
  return { admin: admin.token, staff: (await s.as('eva@test.local', 'eva-pass-123')).token };
}

beforeAll(async () => {
  web = await mkdtemp(path.join(tmpdir(), 'adops-web-'));
  await mkdir(path.join(web, 'assets'));
  await writeFile(path.join(web, 'index.html'), '<!doctype html><title>AdOps</title>');
  await writeFile(path.join(web, 'assets', 'app-1234.js'), 'export const x = 1;\n');
  direct = await startTestServer({ webDist: web, trustProxy: 0 });
  proxied = await startTestServer({ webDist: web, trustProxy: 1 });
  tokens.set(direct.url, await sessions(direct));
  tokens.set(proxied.url, await sessions(proxied));
  // The same app, spoken to over TLS directly.
  ca = await readFile(path.join(TLS, 'localhost-cert.pem'));
  tls = https.createServer({ key: await readFile(path.join(TLS, 'localhost-key.pem')), cert: ca }, direct.app.listener);
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
  tlsUrl = `https://localhost:${(tls.address() as { port: number }).port}`;
  tokens.set(tlsUrl, tokens.get(direct.url)!);
});
afterAll(async () => {
  await new Promise<void>((resolve) => {
    tls.close(() => resolve());
    tls.closeAllConnections();
  });
  await direct.close();
  await proxied.close();
  await rm(web, { recursive: true, force: true });
});

interface Answer {
  status: number;
  type: string;
  headers: http.IncomingHttpHeaders;
}

/** A raw request (no client of ours in between); the body is read and dropped. */
function request(
  base: string,
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const url = new URL(pathname, base);
  const lib = url.protocol === 'https:' ? https : http;
  const headers = { ...options.headers };
  const who = /^Bearer <(admin|staff)>$/.exec(headers.authorization ?? '')?.[1] as 'admin' | 'staff' | undefined;
  if (who) headers.authorization = `Bearer ${tokens.get(base)![who]}`;
  return new Promise((resolve, reject) => {
    const req = lib.request(url, { method: options.method ?? 'GET', headers, ca }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type'] ?? ''), headers: res.headers }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const ADMIN_SESSION = { authorization: 'Bearer <admin>' };
const STAFF_SESSION = { authorization: 'Bearer <staff>' };
const RANGE = 'start_date=2026-03-01&end_date=2026-03-02';

/** One request of each kind the server answers: [name, path, options, expected status, content type]. */
const KINDS: Array<[string, string, Parameters<typeof request>[2], number, RegExp | null]> = [
  ['the web page', '/', {}, 200, /text\/html/],
  ['a page of the web app (SPA route)', '/dashboard', {}, 200, /text\/html/],
  ['a static asset', '/assets/app-1234.js', {}, 200, /javascript/],
  ['JSON', '/api/me', { headers: ADMIN_SESSION }, 200, /application\/json/],
  ['the API docs page', '/api/docs', {}, 200, /text\/html/],
  ['a CSV export', `/api/dashboard/table/aggregated?${RANGE}&format=csv`, { headers: ADMIN_SESSION }, 200, /text\/csv/],
  ['the beacon (204)', '/api/hit?zone_id=Z-1', {}, 204, null],
  ['the beacon (pixel)', '/api/hit?zone_id=Z-1&format=gif', {}, 200, /image\/gif/],
  ['a 400', '/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' }, 400, /application\/json/],
  ['a 401', '/api/me', {}, 401, /application\/json/],
  ['a 401 for a forged token', '/api/me', { headers: { authorization: 'Bearer nope' } }, 401, /application\/json/],
  ['a 403', '/api/admin/users', { headers: STAFF_SESSION }, 403, /application\/json/],
  ['a 404 of the API', '/api/nope', {}, 404, /application\/json/],
  ['a 405', '/api/me', { method: 'DELETE', headers: ADMIN_SESSION }, 405, null],
];

function expectSecurityHeaders(a: Answer): void {
  expect(a.headers['x-content-type-options']).toBe('nosniff');
  expect(a.headers['x-frame-options']).toBe('DENY');
  expect(a.headers['referrer-policy']).toBe('same-origin');
  expect(a.headers['cross-origin-opener-policy']).toBe('same-origin');
  const csp = String(a.headers['content-security-policy']);
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(a.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
}

describe('every answer carries the security headers', () => {
  test.each(KINDS)('%s', async (_name, pathname, options, status, type) => {
    for (const base of [direct.url, tlsUrl]) {
      const a = await request(base, pathname, options);
      expect(a.status).toBe(status);
      if (type) expect(a.type).toMatch(type);
      expectSecurityHeaders(a);
    }
  });

  test('no answer but the beacon allows other origins (CORS)', async () => {
    expect((await request(direct.url, '/api/hit?zone_id=Z-1')).headers['access-control-allow-origin']).toBe('*');
    for (const [, pathname, options] of KINDS.filter(([name]) => !name.startsWith('the beacon')))
      expect(
        (await request(direct.url, pathname, { ...options, headers: { ...options?.headers, origin: 'https://evil.example' } })).headers,
      ).not.toHaveProperty('access-control-allow-origin');
  });
});

describe('Strict-Transport-Security', () => {
  test.each(KINDS)('over HTTPS on the server\u2019s own socket: %s', async (_name, pathname, options, status) => {
    const a = await request(tlsUrl, pathname, options);
    expect(a.status).toBe(status);
    expect(a.headers['strict-transport-security']).toBe(HSTS);
  });

  test.each(KINDS)('from a trusted proxy that received HTTPS: %s', async (_name, pathname, options, status) => {
    const headers = { ...options?.headers, 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };
    const a = await request(proxied.url, pathname, { ...options, headers });
    expect(a.status).toBe(status);
    expect(a.headers['strict-transport-security']).toBe(HSTS);
    expectSecurityHeaders(a);
  });

  test('never over plain HTTP: directly, from a trusted proxy that received HTTP, or when an untrusted client claims HTTPS', async () => {
    for (const [, pathname, options] of KINDS) {
      expect((await request(direct.url, pathname, options)).headers).not.toHaveProperty('strict-transport-security');
      const viaHttp = { ...options, headers: { ...options?.headers, 'x-forwarded-proto': 'http' } };
      expect((await request(proxied.url, pathname, viaHttp)).headers).not.toHaveProperty('strict-transport-security');
      const claimed = { ...options, headers: { ...options?.headers, 'x-forwarded-proto': 'https' } };
      expect((await request(direct.url, pathname, claimed)).headers).not.toHaveProperty('strict-transport-security');
    }
  });

  test('asks for a year on this host only (other hosts of the domain are not pinned)', () => {
    expect(HSTS).toBe('max-age=31536000');
  });
});
