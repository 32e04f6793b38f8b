// Publisher keys that can be handled safely (issue 11): the token in `Authorization: Bearer` or in
// the URL, an expiry, an allow-list of addresses and ranges, an hourly limit per token (429 with
// Retry-After) whose counts survive a restart, admins addressing a token by its id and seeing its
// last use and request count, one publisher never reading another's rows, and no token in the log.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PublisherDataTable, type Api, type PublisherToken } from '@adops/core';
import { ADMIN, failure, knownPublishers, startTestServer, type TestServer } from './helpers.js';
import { FIXTURE_CSV, postZoneReport } from './reports-fixture.js';

const RANGE = { start_date: '2026-02-28', end_date: '2026-03-03' };
let s: TestServer;
let admin: Api & { token: string };

beforeAll(async () => {
  // One trusted proxy: each request says its client's address in X-Forwarded-For.
  s = await startTestServer({ trustProxy: 1 });
  admin = await s.admin();
  expect((await postZoneReport(s, admin.token, FIXTURE_CSV)).status).toBe(200);
});
afterAll(() => s?.close());

let n = 0;
const newToken = async (over: Partial<Parameters<Api['admin']['createToken']>[0]> = {}, name = `Pub${++n}`) => {
  await knownPublishers(admin, name);
  return admin.admin.createToken({ publisher_name: name, ...over });
};

/** GET /api/publisher/data with the token in the header (`bearer`) or the URL (`token`), from `ip`. */
async function pull(opts: { bearer?: string; token?: string; ip?: string; query?: Record<string, string> } = {}) {
  const q = new URLSearchParams({ ...RANGE, ...(opts.token !== undefined ? { token: opts.token } : {}), ...opts.query });
  const headers: Record<string, string> = { 'x-forwarded-for': opts.ip ?? '192.0.2.10' };
  if (opts.bearer !== undefined) headers.authorization = `Bearer ${opts.bearer}`;
  const res = await s.fetch(`/api/publisher/data?${q}`, { headers });
  const text = await res.text();
  let body: { detail?: string; rows?: Array<{ zone_id: string; date: string }> } & Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {
    body = { text };
  }
  return { status: res.status, body, retryAfter: res.headers.get('retry-after'), type: res.headers.get('content-type') ?? '' };
}

const listed = async (id: string): Promise<PublisherToken> => (await admin.admin.listTokens()).find((t) => t.id === id)!;

describe('the token in the Authorization header or in the URL', () => {
  test('Bearer and ?token= answer the same rows; both at once must be the same token', async () => {
    const { token } = await newToken({}, 'PubA');
    const byHeader = await pull({ bearer: token });
    const byUrl = await pull({ token });
    expect(byHeader.status).toBe(200);
    expect(PublisherDataTable.parse(byHeader.body).rows.map((r) => r.zone_id)).toEqual(['Z-101', 'Z-100', 'Z-100']);
    expect(byUrl.body).toEqual(byHeader.body);
    expect((await pull({ bearer: token, token })).status).toBe(200);
    const other = await newToken({}, 'PubB');
    const both = await pull({ bearer: token, token: other.token });
    expect(both.status).toBe(400);
    expect(both.body.detail).toBe('Envía un solo token: en la cabecera Authorization o en la URL, no dos distintos');
  });

  test('a session token is no publisher token, and a publisher token opens no session', async () => {
    const { token } = await newToken();
    const asSession = await pull({ bearer: admin.token });
    expect(asSession).toMatchObject({ status: 401, body: { detail: 'Token de publisher no válido' } });
    const res = await s.fetch('/api/admin/users', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
    for (const bearer of ['', 'x'.repeat(300), "' OR 1=1 --", `${token}x`]) expect((await pull({ bearer })).status).toBe(401);
  });
});

describe('expiry', () => {
  test('a day is its midnight in the reporting time zone; the token works until then and the list says so', async () => {
    const t = await newToken({ expires_at: '2099-01-15' });
    expect(t).toMatchObject({ expires_at: '2099-01-15T00:00:00.000Z', expired: false });
    expect((await pull({ bearer: t.token })).status).toBe(200);
    const instant = await newToken({ expires_at: '2099-06-01T12:30:00+02:00' });
    expect(instant.expires_at).toBe('2099-06-01T10:30:00.000Z');
  });

  test('an expired token is a 401 saying so; clearing its expiry opens it again', async () => {
    const t = await newToken({ expires_at: '2099-01-01' });
    // It expired a moment ago (the API refuses a date in the past; the store takes any).
    await s.app.services.store.tokens.update(t.id, { expires_at: new Date(Date.now() - 1000).toISOString() });
    const refused = await pull({ token: t.token });
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/^El token de publisher caducó el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}; pide uno nuevo$/);
    expect(await listed(t.id)).toMatchObject({ expired: true });
    expect(await admin.admin.updateToken({ id: t.id, expires_at: null })).toMatchObject({ expires_at: null, expired: false });
    expect((await pull({ token: t.token })).status).toBe(200);
  });

  test('a date already past is refused with 400 and nothing is created', async () => {
    await knownPublishers(admin, 'PubPasado');
    const before = await s.storedEntities();
    for (const expires_at of ['2020-01-01', new Date(Date.now() - 60_000).toISOString()]) {
      const err = await failure(admin.admin.createToken({ publisher_name: 'PubPasado', expires_at }));
      expect(err.status).toBe(400);
      expect(err.detail).toBe('Caduca el: la fecha ya pasó');
    }
    expect(await s.storedEntities()).toBe(before);
  });
});

describe('allow-list', () => {
  test('addresses and CIDR ranges, IPv4 and IPv6: inside answers, outside is a 403 naming the address', async () => {
    const t = await newToken({ allowed_ips: ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7', '203.0.113.0/24'] });
    expect(t.allowed_ips).toEqual(['203.0.113.0/24', '2001:db8::/32', '198.51.100.7']);
    for (const ip of ['203.0.113.9', '198.51.100.7', '2001:db8::5', '2001:db8:ffff::1'])
      expect((await pull({ bearer: t.token, ip })).status, ip).toBe(200);
    for (const ip of ['198.51.100.8', '203.0.114.1', '2001:db9::1', '10.0.0.1']) {
      const res = await pull({ bearer: t.token, ip });
      expect(res.status, ip).toBe(403);
      expect(res.body.detail).toBe(`Este token de publisher no admite peticiones desde la dirección ${ip}`);
    }
  });

  test('the address is the one the trusted proxy saw: entries a client adds in front change nothing', async () => {
    const t = await newToken({ allowed_ips: ['203.0.113.0/24'] });
    expect((await pull({ token: t.token, ip: '203.0.113.1, 198.51.100.1' })).status).toBe(403);
    expect((await pull({ token: t.token, ip: '198.51.100.1, 203.0.113.1' })).status).toBe(200);
  });

  test('an admin changes the list by the token id; an empty list allows every address', async () => {
    const t = await newToken({ allowed_ips: ['10.0.0.0/8'] });
    expect((await pull({ token: t.token })).status).toBe(403);
    expect(await admin.admin.updateToken({ id: t.id, allowed_ips: ['192.0.2.0/24'] })).toMatchObject({ allowed_ips: ['192.0.2.0/24'] });
    expect((await pull({ token: t.token })).status).toBe(200);
    await admin.admin.updateToken({ id: t.id, allowed_ips: [] });
    expect((await pull({ token: t.token, ip: '2001:db8::1' })).status).toBe(200);
  });
});

describe('limit per token', () => {
  test('past its requests per hour a token gets 429 with Retry-After; other tokens go on; admins see uses and last use', async () => {
    const t = await newToken({ rate_limit: 3 });
    expect(t).toMatchObject({ rate_limit: 3, effective_rate_limit: 3, request_count: 0, last_used_at: null });
    for (let i = 0; i < 3; i++) expect((await pull({ bearer: t.token })).status).toBe(200);
    const refused = await pull({ bearer: t.token });
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^Demasiadas peticiones con este token \(límite: 3 por hora\); vuelve a intentarlo en \d+ s$/);
    const wait = Number(refused.retryAfter);
    expect(wait).toBeGreaterThan(3500);
    expect(wait).toBeLessThanOrEqual(3600);
    // CSV exports count the same.
    expect((await pull({ token: t.token, query: { format: 'csv' } })).status).toBe(429);
    const other = await newToken({ rate_limit: 3 });
    expect((await pull({ bearer: other.token })).status).toBe(200);
    // Counted: the answered requests only; the last use is recent.
    const seen = await listed(t.id);
    expect(seen.request_count).toBe(3);
    expect(Date.now() - Date.parse(seen.last_used_at!)).toBeLessThan(60_000);
    // A higher limit takes effect at once, on the same count.
    await admin.admin.updateToken({ id: t.id, rate_limit: 5 });
    expect((await pull({ bearer: t.token })).status).toBe(200);
    expect((await pull({ bearer: t.token })).status).toBe(200);
    expect((await pull({ bearer: t.token })).status).toBe(429);
  });

  test('a token without its own limit has the server default (ADOPS_PUBLISHER_RATE_LIMIT, 600 unless set)', async () => {
    expect((await newToken()).effective_rate_limit).toBe(600);
    const k = await startTestServer({ publisherRateLimit: 2 });
    try {
      const kApi = await k.admin();
      await knownPublishers(kApi, 'PubA');
      const a = await kApi.admin.createToken({ publisher_name: 'PubA' });
      expect(a).toMatchObject({ rate_limit: null, effective_rate_limit: 2 });
      const get = () => k.fetch(`/api/publisher/data?${new URLSearchParams(RANGE)}`, { headers: { authorization: `Bearer ${a.token}` } });
      expect((await get()).status).toBe(200);
      expect((await get()).status).toBe(200);
      expect((await get()).status).toBe(429);
    } finally {
      await k.close();
    }
  });

  test('renewing keeps the id and the policy; the new token starts a new count', async () => {
    const t = await newToken({ rate_limit: 7, allowed_ips: ['192.0.2.0/24'], expires_at: '2099-02-02' });
    await pull({ token: t.token });
    const renewed = await admin.admin.renewToken({ publisher_name: t.publisher_name });
    expect(renewed).toMatchObject({
      id: t.id,
      rate_limit: 7,
      allowed_ips: ['192.0.2.0/24'],
      expires_at: t.expires_at,
      request_count: 0,
      last_used_at: null,
    });
    expect(renewed.token).not.toBe(t.token);
    expect((await pull({ token: t.token })).status).toBe(401);
    expect((await pull({ token: renewed.token })).status).toBe(200);
  });
});

describe('one publisher never reads another’s rows', () => {
  test('whatever the parameters, the token’s publisher alone', async () => {
    const pubC = await newToken({}, 'PubC');
    const own = ['Z-300'];
    const queries: Array<Record<string, string>> = [
      {},
      { publisher: 'PubA' },
      { advertiser: 'AdNova', zone_id: 'Z-100' },
      { zone_id: 'Z-2' },
      { sort: 'impressions:desc', page_size: '1', page: '2' },
      { start_date: '2025-01-01', end_date: '2026-12-31' },
      { geo: 'ES', source: 'search', domain: 'a.com' },
      { format: 'ndjson' },
      { format: 'csv' },
      { "publisher' OR 1=1 --": 'x', 'publisher[$ne]': 'PubC' },
    ];
    for (const query of queries) {
      const res = await pull({ bearer: pubC.token, query });
      expect(res.status, JSON.stringify(query)).toBe(200);
      const text = JSON.stringify(res.body);
      for (const zone of ['Z-100', 'Z-101', 'Z-200', 'Z-201']) expect(text, JSON.stringify(query)).not.toContain(zone);
      if (res.type.startsWith('application/json')) {
        const rows = PublisherDataTable.parse(res.body).rows;
        for (const row of rows) expect(own).toContain(row.zone_id);
      }
    }
    // A second token in the URL beside it is refused, never mixed in.
    const pubA = (await admin.admin.listTokens()).find((t) => t.publisher_name === 'PubA')!;
    expect((await pull({ bearer: pubC.token, token: pubA.token })).status).toBe(400);
    const repeated = await s.fetch(`/api/publisher/data?${new URLSearchParams(RANGE)}&token=${pubC.token}&token=${pubA.token}`);
    expect(repeated.status).toBe(400);
  });
});

describe('admin routes name a token by its id', () => {
  test('list, change and revoke by id; an unknown id is a 404; the token in the path is a 410 that revokes nothing', async () => {
    const t = await newToken();
    expect(t.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await admin.admin.updateToken({ id: t.id, rate_limit: 9 })).toMatchObject({ id: t.id, token: t.token, rate_limit: 9 });
    expect((await failure(admin.admin.updateToken({ id: 'no-such-id', rate_limit: 9 }))).status).toBe(404);
    const old = await failure(admin.admin.deleteToken({ id: t.token }));
    expect([old.status, old.detail]).toEqual([
      410,
      'Los tokens ya no se eliminan por el token en la ruta: usa su id (GET /api/admin/publisher-tokens)',
    ]);
    expect((await pull({ token: t.token })).status).toBe(200);
    await admin.admin.deleteToken({ id: t.id });
    expect((await pull({ token: t.token })).status).toBe(401);
  });

  test('missing, malformed, oversized and hostile policy fields are refused with 400 in Spanish, and nothing is stored', async () => {
    const t = await newToken();
    const before = await s.storedEntities();
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ expires_at: 'mañana' }, /^Caduca el: debe ser un día AAAA-MM-DD/],
      [{ expires_at: '2099-02-30' }, /^Caduca el: /],
      [{ expires_at: 20990101 }, /^Caduca el: /],
      [{ allowed_ips: '10.0.0.1' }, /^IPs permitidas: debe ser una lista/],
      [{ allowed_ips: ['1.2.3.4/33'] }, /^IPs permitidas \(1\.ª\): «1\.2\.3\.4\/33» no es una dirección IP ni un rango CIDR/],
      [{ allowed_ips: ['10.0.0.1', '<script>alert(1)</script>'] }, /^IPs permitidas \(2\.ª\): .* no es una dirección IP/],
      [{ allowed_ips: ["' OR 1=1 --"] }, /no es una dirección IP/],
      [{ allowed_ips: ['fe80::1%eth0'] }, /no es una dirección IP/],
      [{ allowed_ips: Array.from({ length: 101 }, (_, i) => `10.0.${i}.1`) }, /^IPs permitidas: admite como mucho 100 entradas$/],
      [{ rate_limit: 0 }, /^Límite por hora: debe ser al menos 1$/],
      [{ rate_limit: -1 }, /^Límite por hora: /],
      [{ rate_limit: 1.5 }, /^Límite por hora: /],
      [{ rate_limit: '10' }, /^Límite por hora: /],
      [{ rate_limit: 1e12 }, /^Límite por hora: /],
      [{ token: 'mine' }, /token/],
    ];
    const send = (method: string, path: string, body: unknown) =>
      s.fetch(path, { method, headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    for (const [body, detail] of bad) {
      for (const [method, path, full] of [
        ['POST', '/api/admin/publisher-tokens', { publisher_name: 'Nuevo', ...body }],
        ['PATCH', `/api/admin/publisher-tokens/${t.id}`, body],
      ] as const) {
        const res = await send(method, path, full);
        expect(res.status, `${method} ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
        expect(((await res.json()) as { detail: string }).detail, JSON.stringify(body).slice(0, 80)).toMatch(detail);
      }
    }
    const malformed = await s.fetch(`/api/admin/publisher-tokens/${t.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: '{"rate_limit": ',
    });
    expect([malformed.status, await malformed.json()]).toEqual([400, { detail: 'JSON mal formado' }]);
    const huge = await send('PATCH', `/api/admin/publisher-tokens/${t.id}`, { allowed_ips: ['10.0.0.1'.repeat(200_000)] });
    expect(huge.status).toBe(413);
    expect(await s.storedEntities()).toBe(before);
  });
});

describe('across a restart', () => {
  test('the embedded limiter keeps its counts (tokens and sign-in failures) and the uses are kept', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'adops-keys-'));
    const a = await startTestServer({ trustProxy: 1 }, dataDir);
    let b: TestServer | undefined;
    try {
      const aApi = await a.admin();
      await knownPublishers(aApi, 'PubA');
      const t = await aApi.admin.createToken({ publisher_name: 'PubA', rate_limit: 2 });
      const get = (srv: TestServer) =>
        srv.fetch(`/api/publisher/data?${new URLSearchParams(RANGE)}`, { headers: { authorization: `Bearer ${t.token}` } });
      expect((await get(a)).status).toBe(200);
      expect((await get(a)).status).toBe(200);
      // Five wrong passwords from one address: the pair (address, e-mail) is limited.
      const login = (srv: TestServer, password: string) =>
        srv.fetch('/api/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
          body: JSON.stringify({ email: ADMIN.email, password }),
        });
      for (let i = 0; i < 5; i++) expect((await login(a, 'wrong-password')).status).toBe(401);
      expect((await login(a, ADMIN.password)).status).toBe(429);
      await a.close();
      b = await startTestServer({ trustProxy: 1 }, dataDir);
      const refused = await get(b);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
      expect((await login(b, ADMIN.password)).status).toBe(429);
      expect((await (await b.admin()).admin.listTokens())[0]).toMatchObject({ request_count: 2, last_used_at: expect.any(String) });
    } finally {
      await b?.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the server log', () => {
  test('never contains a token: not from the URL, the header, refusals, the old admin path or a server error', async () => {
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
    const k = await startTestServer({ log: 'info', logStream: stream, trustProxy: 1 });
    try {
      const kAdmin = await k.admin();
      await knownPublishers(kAdmin, 'PubA');
      const t = await kAdmin.admin.createToken({ publisher_name: 'PubA', rate_limit: 2, allowed_ips: ['192.0.2.0/24'] });
      const get = (init: { query?: boolean; ip?: string }) =>
        k.fetch(`/api/publisher/data?${new URLSearchParams({ ...RANGE, ...(init.query ? { token: t.token } : {}) })}`, {
          headers: { 'x-forwarded-for': init.ip ?? '192.0.2.1', ...(init.query ? {} : { authorization: `Bearer ${t.token}` }) },
        });
      const statuses = [];
      statuses.push((await get({ query: true })).status);
      statuses.push((await get({})).status);
      statuses.push((await get({ ip: '203.0.113.1' })).status);
      statuses.push((await get({ query: true })).status);
      await k.app.services.store.tokens.update(t.id, { expires_at: new Date(Date.now() - 1000).toISOString() });
      statuses.push((await get({ query: true })).status);
      const del = await k.fetch(`/api/admin/publisher-tokens/${t.token}`, { method: 'DELETE', headers: { authorization: `Bearer ${kAdmin.token}` } });
      statuses.push(del.status);
      expect(statuses).toEqual([200, 200, 403, 429, 401, 410]);
      // A server error while a publisher pulls its data: the warehouse is gone.
      await k.app.services.store.tokens.update(t.id, { expires_at: null, rate_limit: 100 });
      await k.app.services.warehouse.close();
      expect((await get({ query: true })).status).toBe(500);
      await new Promise((r) => setTimeout(r, 50));
      const log = lines.join('');
      expect(log).toMatch(/"status":500/);
      expect(log).toMatch(/"status":410/);
      expect(log.includes(t.token)).toBe(false);
      expect(log).not.toContain(t.token.slice(0, 20));
    } finally {
      await k.close().catch(() => undefined);
    }
  });
});
