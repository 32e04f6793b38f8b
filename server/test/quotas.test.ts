// Per-user quotas: one account (a staff user, or a leaked token) cannot swamp the server for the
// others. Alert rules per user (409 past the quota), live streams per user (429; a closed stream
// frees its place), report queries per user (a few at once, a few waiting in order, 429 with
// Retry-After beyond) — while another user's dashboard and /api/health answer without waiting.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { addDays, buildRequest, contract, type Api, type CreateAlertRule } from '@adops/core';
import { loadConfig } from '../src/config.js';
import { failure, startTestServer, zoneReportRow, type TestServer } from './helpers.js';
import { importRows } from './warehouse-contract.js';

let s: TestServer;
let admin: Api & { token: string };
let ana: Api & { token: string };
let bob: Api & { token: string };
let anaId: string;
let bobId: string;

const RULES = 3;
const STREAMS = 2;

beforeAll(async () => {
  const defaults = loadConfig({}).quotas;
  s = await startTestServer({ quotas: { ...defaults, alertRules: RULES, streams: STREAMS } });
  admin = await s.admin();
  for (const [first_name, email] of [
    ['Ana', 'ana@example.com'],
    ['Bob', 'bob@example.com'],
  ])
    await admin.admin.createUser({ first_name, last_name: 'Staff', email, password: 'una-clave-larga-1' });
  ana = await s.as('ana@example.com', 'una-clave-larga-1');
  bob = await s.as('bob@example.com', 'una-clave-larga-1');
  anaId = (await s.app.services.users.byEmail('ana@example.com'))!.id;
  bobId = (await s.app.services.users.byEmail('bob@example.com'))!.id;
  await importRows(s.app.services.warehouse, [zoneReportRow('2026-03-01', 'Z-1'), zoneReportRow('2026-03-02', 'Z-2')]);
});
afterAll(() => s?.close());

test('the quotas default to 50 rules, 20 streams and 2 report queries with 8 waiting per user, and each is set by its variable', () => {
  expect(loadConfig({}).quotas).toEqual({ alertRules: 50, streams: 20, reportQueries: 2, reportQueue: 8, alertNoticesPerRule: 10 });
  const env = {
    ADOPS_MAX_ALERT_RULES: '5',
    ADOPS_MAX_STREAMS: '3',
    ADOPS_REPORT_QUERIES: '4',
    ADOPS_REPORT_QUEUE: '0',
    ADOPS_ALERT_NOTICES_PER_RULE: '2',
  };
  expect(loadConfig(env).quotas).toEqual({ alertRules: 5, streams: 3, reportQueries: 4, reportQueue: 0, alertNoticesPerRule: 2 });
  expect(() => loadConfig({ ADOPS_MAX_STREAMS: '0' })).toThrow(/ADOPS_MAX_STREAMS must be a whole number from 1/);
});

describe('alert rules per user', () => {
  const burst = (n: number): CreateAlertRule => ({ name: `Pico ${n}`, kind: 'referrer_burst', params: { visits: 40 + n, minutes: 10 } });

  test('one rule past the quota is refused with 409 naming the limit, nothing stored; other users still create theirs', async () => {
    const mine = [];
    for (let i = 0; i < RULES; i++) mine.push(await ana.alerts.createRule(burst(i)));
    const before = await s.storedEntities();
    const refused = await failure(ana.alerts.createRule(burst(99)));
    expect(refused.status).toBe(409);
    expect(refused.detail).toBe(
      `Has llegado al máximo de ${RULES} reglas de alerta por usuario (ADOPS_MAX_ALERT_RULES): borra alguna de las tuyas para crear otra.`,
    );
    expect(await s.storedEntities()).toBe(before);
    // Someone else's quota is their own, admins' included.
    const theirs = await admin.alerts.createRule(burst(50));
    // A rule deleted frees its place.
    await ana.alerts.deleteRule({ id: mine[0].id });
    const again = await ana.alerts.createRule(burst(7));
    expect((await ana.alerts.rules()).filter((r) => r.created_by === 'ana@example.com')).toHaveLength(RULES);
    for (const r of [...mine.slice(1), again, theirs]) await admin.alerts.deleteRule({ id: r.id });
  });

  test('a burst of parallel creations is counted as it comes: exactly the quota is created', async () => {
    const answers = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => bob.alerts.createRule(burst(i))));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(RULES);
    expect(answers.filter((a) => a.status === 'rejected').map((a) => (a as PromiseRejectedResult).reason.status)).toEqual(Array(8 - RULES).fill(409));
    const bobs = (await bob.alerts.rules()).filter((r) => r.created_by === 'bob@example.com');
    expect(bobs).toHaveLength(RULES);
    for (const r of bobs) await bob.alerts.deleteRule({ id: r.id });
  });
});

describe('live streams per user', () => {
  const referrerStream = (token: string) =>
    fetch(buildRequest(contract.referrers.stream, { access_token: token }, s.url).url, { signal: AbortSignal.timeout(10_000) });
  const alertStream = (token: string) => fetch(`${s.url}/api/alerts/stream`, { headers: { authorization: `Bearer ${token}` } });

  test('past the quota (referrer log and alerts together) a stream is refused with 429; a closed one frees its place; others open theirs', async () => {
    const open = [await referrerStream(ana.token), await alertStream(ana.token)];
    expect(open.map((r) => r.status)).toEqual([200, 200]);
    expect(s.app.services.streams.held(anaId)).toBe(STREAMS);
    for (const extra of [await referrerStream(ana.token), await alertStream(ana.token)]) {
      expect(extra.status).toBe(429);
      expect((await extra.json()).detail).toBe(
        `Ya tienes ${STREAMS} conexiones en vivo abiertas, el máximo por usuario (ADOPS_MAX_STREAMS): cierra alguna (otra pestaña de Logs o de Alertas, un adops tail) para abrir otra.`,
      );
    }
    expect(s.app.services.streams.held(anaId)).toBe(STREAMS);
    // Bob is not held back by Ana's streams.
    const bobs = await referrerStream(bob.token);
    expect(bobs.status).toBe(200);
    // Ana closes one: once the server sees it gone, she opens another.
    await open[0].body!.cancel();
    await vi.waitFor(() => expect(s.app.services.streams.held(anaId)).toBe(STREAMS - 1), { timeout: 5000, interval: 20 });
    const reopened = await referrerStream(ana.token);
    expect(reopened.status).toBe(200);
    for (const r of [open[1], bobs, reopened]) await r.body!.cancel();
    await vi.waitFor(() => expect([s.app.services.streams.held(anaId), s.app.services.streams.held(bobId)]).toEqual([0, 0]), {
      timeout: 5000,
      interval: 20,
    });
  });
});

describe('report queries per user', () => {
  const start = '2024-01-01';
  const end = addDays(start, 799); // the longest range a report takes: 800 days
  const report = (token: string) =>
    fetch(buildRequest(contract.adReport.zoneDetails, { start_date: start, end_date: end }, s.url).url, {
      headers: { authorization: `Bearer ${token}` },
    });

  test("16 parallel 800-day reports of one user: 2 run, 8 wait their turn in order, the rest get 429 with Retry-After; another user's overview and /api/health answer meanwhile", async () => {
    const pool = s.app.services.reportPool;
    // Two of Ana's heavy reports are running (their places held until the test lets them go).
    const running = [await pool.acquire(anaId), await pool.acquire(anaId)];
    const sent = Array.from({ length: 14 }, () => report(ana.token));
    const order: string[] = [];
    const answered = sent.map((p, i) =>
      p.then(async (res) => {
        order.push(`ana-${res.status}`);
        return { i, res, body: await res.json() };
      }),
    );
    await vi.waitFor(() => expect(pool.load(anaId)).toEqual({ running: 2, waiting: 8 }), { timeout: 5000, interval: 10 });
    // Bob's dashboard and the health check answer while every one of Ana's reports still waits.
    const overview = await bob.dashboard.overview({ start_date: '2026-03-01', end_date: '2026-03-02' });
    order.push('bob-overview');
    expect(overview.summary.revenue).toBe(200);
    const health = await s.fetch('/api/health');
    order.push('health');
    expect(health.status).toBe(200);
    expect((await health.json()).warehouse).toMatchObject({ ok: true });
    expect(pool.load(anaId)).toEqual({ running: 2, waiting: 8 });
    // The six beyond her line were refused at once, each saying why and when to try again.
    const refused = order.filter((o) => o === 'ana-429');
    expect(refused).toHaveLength(6);
    expect(order.filter((o) => o === 'ana-200')).toEqual([]);
    for (const f of running) f();
    const all = await Promise.all(answered);
    const statuses = all.map((a) => a.res.status);
    expect(statuses.filter((st) => st === 200)).toHaveLength(8);
    expect(statuses.filter((st) => st === 429)).toHaveLength(6);
    for (const a of all.filter((x) => x.res.status === 429)) {
      expect(a.res.headers.get('retry-after')).toBe('2');
      expect(a.body.detail).toBe(
        'Tienes demasiados informes en curso: 2 a la vez y 8 en espera por usuario (ADOPS_REPORT_QUERIES, ADOPS_REPORT_QUEUE). Espera a que terminen y vuelve a intentarlo.',
      );
    }
    // Ana's waiting reports ran after Bob's overview and the health check, and her places were all given back.
    expect(order.indexOf('ana-200')).toBeGreaterThan(order.indexOf('health'));
    expect(pool.load(anaId)).toEqual({ running: 0, waiting: 0 });
  });

  test('a waiting report whose client leaves gives its place in the line back', async () => {
    const pool = s.app.services.reportPool;
    const running = [await pool.acquire(bobId), await pool.acquire(bobId)];
    const leaving = new AbortController();
    const gone = fetch(buildRequest(contract.adReport.zoneDetails, { start_date: start, end_date: end }, s.url).url, {
      headers: { authorization: `Bearer ${bob.token}` },
      signal: leaving.signal,
    }).catch((e: Error) => e.name);
    await vi.waitFor(() => expect(pool.load(bobId)).toEqual({ running: 2, waiting: 1 }), { timeout: 5000, interval: 10 });
    leaving.abort();
    expect(await gone).toBe('AbortError');
    await vi.waitFor(() => expect(pool.load(bobId)).toEqual({ running: 2, waiting: 0 }), { timeout: 5000, interval: 10 });
    for (const f of running) f();
    expect(pool.load(bobId)).toEqual({ running: 0, waiting: 0 });
  });

  test('a streamed export gives its place back once sent whole', async () => {
    const pool = s.app.services.reportPool;
    const res = await fetch(buildRequest(contract.adReport.zoneDetails, { start_date: start, end_date: end, format: 'csv' }, s.url).url, {
      headers: { authorization: `Bearer ${bob.token}` },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Z-1');
    await vi.waitFor(() => expect(pool.load(bobId)).toEqual({ running: 0, waiting: 0 }), { timeout: 5000, interval: 10 });
  });
});
