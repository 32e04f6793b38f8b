// The server's log as an operator reads it: JSON lines, one per API request with the status
// the client really got (401, 429, 400 — not 404), the route pattern and no secret anywhere:
// passwords, session tokens, publisher tokens and the ingest key sent during a run never
// appear in what it wrote.
import { waitFor } from './wait.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig, ConfigError } from '../src/app.js';
import { ADMIN, logCapture, startTestServer, type TestServer, knownPublishers } from './helpers.js';

const INGEST_KEY = 'ingest-key-0123456789-secret';
const NEW_PASSWORD = 'Otra-Clave-Muy-Secreta-77';
let t: TestServer;
const log = logCapture();
const lines = log.lines;
const secrets: string[] = [ADMIN.password, INGEST_KEY, NEW_PASSWORD];

interface Line {
  time: string;
  level: string;
  msg: string;
  method?: string;
  route?: string | null;
  status?: number;
  ms?: number;
  user?: string | null;
  req_id?: string;
}
const parsed = (): Line[] => log.entries<Line>();
const requests = (route: string) => parsed().filter((l) => l.msg === 'request' && l.route === route);

beforeAll(async () => {
  t = await startTestServer({ log: 'info', logStream: log.stream, ingestKey: INGEST_KEY, loginMaxFailures: 3 });

  // A run with secrets in every place they travel: bodies, headers, the query string, the path.
  const admin = await t.admin();
  secrets.push(admin.token);
  await knownPublishers(admin, 'PubLog');
  const { token, id: tokenId } = await admin.admin.createToken({ publisher_name: 'PubLog' });
  secrets.push(token);
  await t.fetch(`/api/publisher/data?start_date=2026-01-01&end_date=2026-01-02&token=${encodeURIComponent(token)}`);
  await t.fetch(`/api/publisher/data?start_date=2026-01-01&end_date=2026-01-02`, { headers: { authorization: `Bearer ${token}` } });
  await admin.admin.createUser({ first_name: 'Ana', email: 'ana@test.local', password: NEW_PASSWORD });
  const ana = await t.as('ana@test.local', NEW_PASSWORD);
  secrets.push(ana.token);
  await t.fetch('/api/ingest/referrers', {
    method: 'POST',
    headers: { 'x-ingest-key': INGEST_KEY, 'content-type': 'application/x-ndjson' },
    body: '{"zone_id":"1"}\n',
  });
  // The old form, the token in the path (410, nothing deleted), then by id.
  await t.fetch(`/api/admin/publisher-tokens/${encodeURIComponent(token)}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${admin.token}` },
  });
  await t.fetch(`/api/admin/publisher-tokens/${tokenId}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${admin.token}` },
  });

  // Failures: a wrong password (401), the same until the limit (429), a malformed body (400).
  for (let i = 0; i < 4; i++)
    await t.fetch('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ana@test.local', password: `wrong-${NEW_PASSWORD}` }),
    });
  await t.fetch('/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email": ' });
  // The log is written after each answer: the malformed body's line is the last one asked for.
  await waitFor(() => requests('/api/login').some((l) => l.status === 400), 'the last request’s log line');
});
afterAll(async () => {
  await t?.close();
});

describe('the server log', () => {
  test('every line is JSON with an ISO time, a level and a message', () => {
    expect(lines.length).toBeGreaterThan(10);
    for (const line of parsed()) {
      expect(line.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(['info', 'warn', 'error']).toContain(line.level);
      expect(typeof line.msg).toBe('string');
    }
  });

  test('a request line has the status the client got: 401 and 429 for failed sign-ins, 400 for a malformed body', () => {
    const logins = requests('/api/login').map((l) => [l.status, l.level]);
    expect(logins).toEqual([
      [200, 'info'],
      [200, 'info'],
      [401, 'warn'],
      [401, 'warn'],
      [401, 'warn'],
      [429, 'warn'],
      [400, 'warn'],
    ]);
    expect(parsed().some((l) => l.msg === 'request' && l.status === 404)).toBe(false);
  });

  test('a request line names the route pattern, never its values or the query string, with latency, user and request id', async () => {
    const deleted = requests('/api/admin/publisher-tokens/:id');
    expect(deleted.map((l) => [l.method, l.status])).toEqual([
      ['DELETE', 410],
      ['DELETE', 204],
    ]);
    // Users are named by id, never by e-mail.
    const adminId = (await t.app.services.users.byEmail(ADMIN.email))?.id;
    expect(deleted[0].user).toBe(adminId);
    for (const line of lines) expect(line).not.toContain(ADMIN.email);
    const data = requests('/api/publisher/data');
    expect(data.length).toBe(2);
    const me = requests('/api/admin/users').find((l) => l.method === 'POST')!;
    expect(me.user).toBeTruthy();
    expect(me.ms).toBeGreaterThanOrEqual(0);
    expect(me.req_id).toMatch(/^[\w-]{8,64}$/);
    for (const line of lines) expect(line).not.toMatch(/start_date=|\?/);
  });

  test('no password, session token, publisher token or ingest key appears anywhere in the log', () => {
    expect(secrets.length).toBe(6);
    const log = lines.join('\n');
    for (const secret of secrets) expect(log.includes(secret), `a secret of ${secret.length} characters`).toBe(false);
  });

  test('a flood of refused sign-ins writes a handful of lines: a few in full, then one summary of the minute with counts by status', async () => {
    const own = logCapture();
    const flooded = await startTestServer({ log: 'info', logStream: own.stream });
    const flood = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        flooded.fetch('/api/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: `flood${i}@test.local`, password: 'whatever' }),
        }),
      ),
    );
    const statuses = flood.map((r) => r.status);
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThan(100);
    await flooded.close(); // the minute's summary is written at the latest on close
    await waitFor(() => own.lines.some((l) => l.includes('"sign-in refusals"')), 'the summary line');
    const lines = own.entries<Line & { refused?: Record<string, number>; lines?: number; summarised?: number }>();
    const signIns = lines.filter((l) => l.msg === 'request' && l.route === '/api/login');
    expect(signIns).toHaveLength(10);
    const summaries = lines.filter((l) => l.msg === 'sign-in refusals');
    expect(summaries).toHaveLength(1);
    const counts: Record<string, number> = {};
    for (const x of statuses) counts[x] = (counts[x] ?? 0) + 1;
    expect(summaries[0]).toMatchObject({ level: 'warn', route: '/api/login', refused: counts, lines: 10, summarised: 140 });
    expect(lines.filter((l) => l.level === 'error').length).toBeLessThanOrEqual(10);
    expect(lines.length).toBeLessThan(20);
  });

  test('ADOPS_LOG takes info, pretty or silent, and names itself when it is anything else', () => {
    expect(loadConfig({ ADOPS_LOG: 'pretty' }).log).toBe('pretty');
    expect(loadConfig({}).log).toBe('info');
    expect(() => loadConfig({ ADOPS_LOG: 'verbose' })).toThrow(ConfigError);
    expect(() => loadConfig({ ADOPS_LOG: 'verbose' })).toThrow(/ADOPS_LOG/);
  });
});
