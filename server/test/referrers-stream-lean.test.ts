// The live referrer stream's lean path (lean-stream.ts) against its Koa route, on the same app:
// a plain, authorised GET opens without a Koa context and with the route's very head; every
// other request — no token, a bad or revoked one, a bad query, a 2FA-setup user — gets
// the route's own answer (status, headers, { detail } in Spanish) from either listener.
import http from 'node:http';
import { PassThrough } from 'node:stream';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { contract } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';

const PATH = contract.referrers.stream.path;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request; a 200 stream is read up to its first event block and then dropped. */
function get(base: string, pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${pathname}`, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      const done = () => {
        const { date: _date, ...rest } = res.headers;
        resolve({ status: res.statusCode ?? 0, headers: rest, body });
      };
      if (method === 'HEAD' && res.statusCode === 200) {
        done();
        req.destroy();
        return;
      }
      res.on('data', (chunk: string) => {
        body += chunk;
        if (res.statusCode === 200 && body.includes('\n\n')) {
          done();
          req.destroy();
        }
      });
      res.on('end', done);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A second server on the same app that only speaks through Koa (no lean path). */
async function koaOnly(t: TestServer): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(t.app.koa.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The same request to both listeners; the answers with their request ids set aside. */
async function both(lean: string, koa: string, pathname: string, headers: Record<string, string> = {}, method = 'GET') {
  const [a, b] = await Promise.all([get(lean, pathname, headers, method), get(koa, pathname, headers, method)]);
  for (const x of [a, b]) {
    expect(x.headers['x-request-id']).toMatch(/^[\w-]{8,64}$/);
    delete x.headers['x-request-id'];
  }
  return { lean: a, koa: b };
}

const q = (params: Record<string, string | string[]>) => {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) search.append(k, one);
  return `${PATH}?${search}`;
};

let t: TestServer;
let koa: Awaited<ReturnType<typeof koaOnly>>;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  koa = await koaOnly(t);
  token = (await t.admin()).token;
});
afterAll(async () => {
  await koa.close();
  await t.close();
});

describe('GET /api/referrers_logs/stream: lean path and Koa route', () => {
  test('a plain authorised GET opens on the lean path, with the head and first bytes the route sends', async () => {
    const contexts = vi.spyOn(t.app.koa, 'createContext');
    try {
      const lean = await get(t.url, q({ access_token: token, zoneId: 'lean-1' }), { 'x-request-id': 'lean-req-0001' });
      expect(contexts).not.toHaveBeenCalled();
      const bearer = await get(t.url, q({ zoneId: 'lean-1' }), { authorization: `Bearer ${token}` });
      expect(contexts).not.toHaveBeenCalled();
      const route = await get(koa.url, q({ access_token: token, zoneId: 'lean-1' }), { 'x-request-id': 'lean-req-0001' });
      expect(contexts).toHaveBeenCalledTimes(1);
      expect(lean.status).toBe(200);
      expect(lean.headers['x-request-id']).toBe('lean-req-0001');
      expect(lean.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(lean.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(lean).toEqual(route);
      expect({ ...bearer, headers: { ...bearer.headers, 'x-request-id': 'x' } }).toEqual({
        ...route,
        headers: { ...route.headers, 'x-request-id': 'x' },
      });
    } finally {
      contexts.mockRestore();
    }
  });

  test('bad input gets the route’s answer from either listener: 401 and 400 with its Spanish detail', async () => {
    const signedElsewhere = jwt.sign({ sub: 'x', jti: 'y' }, 'another-secret-0123456789abcdef0123456789', { algorithm: 'HS256', expiresIn: 60 });
    const unsigned = jwt.sign({ sub: 'x', jti: 'y' }, '', { algorithm: 'none' });
    const cases: Array<[string, Record<string, string>, string?]> = [
      [q({ zoneId: '1' }), {}],
      [q({ access_token: '' }), {}],
      [q({ access_token: 'not-a-jwt' }), {}],
      [q({ access_token: signedElsewhere }), {}],
      [q({ access_token: unsigned }), {}],
      [q({ access_token: [token, token] }), {}],
      [q({}), { authorization: `Basic ${token}` }],
      [q({}), { authorization: `Bearer ${token} extra` }],
      [q({ access_token: token, lastEventId: '-1' }), {}],
      [q({ access_token: token, startDate: '2025-06-10T00:00:00Z', endDate: '2025-06-01T00:00:00Z' }), {}],
      [q({ access_token: token, startDate: 'ayer' }), {}],
      [q({ access_token: token, zoneId: 'z'.repeat(5000) }), {}],
      [`${PATH}/?access_token=${token}`, {}],
    ];
    const statuses: number[] = [];
    for (const [pathname, headers, method] of cases) {
      const { lean, koa: route } = await both(t.url, koa.url, pathname, headers, method);
      statuses.push(lean.status);
      expect(lean, `${method ?? 'GET'} ${pathname.slice(0, 80)} ${JSON.stringify(headers).slice(0, 40)}`).toEqual(route);
      expect(JSON.parse(lean.body)).toHaveProperty('detail');
    }
    // They do refuse (not a vacuous comparison): the route's 401s and 400s.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 400, 400, 400, 400, 401]);
  });

  test('a signed-out session and a 2FA-setup user get the route’s 401 and 403 from either listener', async () => {
    const admin = await t.admin();
    await admin.auth.logout();
    const ended = await both(t.url, koa.url, q({ access_token: admin.token }));
    expect(ended.lean.status).toBe(401);
    expect(ended.lean).toEqual(ended.koa);

    const strict = await startTestServer({ require2fa: 'all' });
    const strictKoa = await koaOnly(strict);
    try {
      const setup = (await strict.admin()).token;
      const answer = await both(strict.url, strictKoa.url, q({ access_token: setup }));
      expect(answer.lean.status).toBe(403);
      expect(JSON.parse(answer.lean.body)).toMatchObject({ totp_setup_required: true });
      expect(answer.lean).toEqual(answer.koa);
    } finally {
      await strictKoa.close();
      await strict.close();
    }
  });

  test('the lean path writes the route’s access log line: route pattern, 200, request id, user; never the token', async () => {
    const lines: string[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    const logged = await startTestServer({ log: 'info', logStream });
    const loggedKoa = await koaOnly(logged);
    try {
      const admin = await logged.admin();
      const contexts = vi.spyOn(logged.app.koa, 'createContext');
      await get(logged.url, q({ access_token: admin.token, zoneId: 'log-1' }), { 'x-request-id': 'lean-log-0001' });
      expect(contexts).not.toHaveBeenCalled();
      contexts.mockRestore();
      await get(loggedKoa.url, q({ access_token: admin.token, zoneId: 'log-1' }), { 'x-request-id': 'koa-log-00001' });
      await new Promise((r) => setTimeout(r, 50));
      const line = (id: string) => {
        const found = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'request' && l.req_id === id);
        expect(found, id).toBeDefined();
        const { time: _time, ms, pid: _pid, hostname: _host, req_id: _id, ...rest } = found as Record<string, unknown>;
        expect(typeof ms).toBe('number');
        return rest;
      };
      expect(line('lean-log-0001')).toEqual(line('koa-log-00001'));
      expect(line('lean-log-0001')).toMatchObject({ route: PATH, status: 200, method: 'GET', user: expect.any(String) });
      expect(lines.join('\n')).not.toContain(admin.token);
    } finally {
      await loggedKoa.close();
      await logged.close();
    }
  });
});
