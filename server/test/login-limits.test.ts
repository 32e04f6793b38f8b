// Sign-in resists guessing and flooding (issue 11): failures are limited per account across
// addresses (10 in 15 minutes, for unknown devices) and per address across accounts (30), besides
// per address and e-mail (5); a wrong current password of a password change is judged per session
// and counts against the account; the 429 says when to come back (Retry-After); and password
// hashing has a bounded queue, so a flood gets 503 at once instead of making a real sign-in wait.
// A trusted proxy lets each request come from its own address (X-Forwarded-For).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_RUNNING, MAX_WAITING } from '../src/services/passwords.js';
import { ADMIN, startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ trustProxy: 1 });
});
afterAll(() => s.close());

let ipSeq = 0;
const freshIp = () => `198.51.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

async function login(email: string, password: string, ip = freshIp()) {
  const res = await s.fetch('/api/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { detail?: string; access_token?: string } };
}

let n = 0;
async function newUser() {
  const email = `limit${++n}@test.local`;
  const password = `limit-pass-${n}-ok`;
  await (await s.admin()).admin.createUser({ first_name: 'Lim', email, password });
  return { email, password };
}

describe('per account, from any address', () => {
  test('ten failures from ten addresses refuse the eleventh attempt, even right, with 429 and Retry-After; other accounts go on', async () => {
    const u = await newUser();
    for (let i = 0; i < 10; i++) expect((await login(u.email, 'wrong-guess')).status).toBe(401);
    const refused = await login(u.email, u.password);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toBe('Demasiados intentos fallidos. Espera unos minutos e inténtalo de nuevo.');
    const wait = Number(refused.retryAfter);
    expect(wait).toBeGreaterThan(800); // the 15-minute window opened a moment ago
    expect(wait).toBeLessThanOrEqual(900);
    // The e-mail's case changes nothing.
    expect((await login(u.email.toUpperCase(), u.password)).status).toBe(429);
    const other = await newUser();
    expect((await login(other.email, other.password)).status).toBe(200);
  });

  test('an unknown e-mail is limited the same way, so the answers never tell which accounts exist', async () => {
    for (let i = 0; i < 10; i++) expect((await login('nobody@test.local', 'guess')).status).toBe(401);
    const known = await newUser();
    for (let i = 0; i < 10; i++) await login(known.email, 'guess');
    const [a, b] = [await login('nobody@test.local', 'guess'), await login(known.email, 'guess')];
    expect([a.status, a.body.detail]).toEqual([b.status, b.body.detail]);
  });
});

describe('per address, across accounts', () => {
  test('thirty failures over thirty e-mails from one address refuse it the next sign-in; another address signs in', async () => {
    const ip = freshIp();
    for (let i = 0; i < 30; i++) expect((await login(`spray${i}@test.local`, 'Password1', ip)).status).toBe(401);
    const refused = await login(ADMIN.email, ADMIN.password, ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((await login(ADMIN.email, ADMIN.password)).status).toBe(200);
  });
});

describe('change password', () => {
  test("wrong current passwords are judged per session (the sixth is a 429) and count against the account's sign-ins from unknown devices", async () => {
    const u = await newUser();
    const { body } = await login(u.email, u.password);
    const other = await login(u.email, u.password);
    const change = (token: string, current: string) =>
      s.fetch('/api/change-password', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-forwarded-for': freshIp() },
        body: JSON.stringify({ current_password: current, new_password: 'a-new-pass-0042' }),
      });
    for (let i = 0; i < 5; i++) expect((await change(body.access_token!, 'not-it')).status).toBe(400);
    const refused = await change(body.access_token!, u.password);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    for (let i = 0; i < 4; i++) expect((await change(body.access_token!, 'not-it')).status).toBe(429);
    // Ten attempts through that session: sign-in from an unknown device is refused for the account …
    expect((await login(u.email, u.password)).status).toBe(429);
    // … while the owner's other session, judged on its own, still changes the password.
    expect((await change(other.body.access_token!, u.password)).status).toBe(200);
  });
});

describe('a flood of sign-ins', () => {
  test('beyond the hashing queue gets 503 with Retry-After at once; a real sign-in right after is answered', async () => {
    // Hashes slow enough (2^12) that the queue fills even when each attempt is first counted in Redis.
    const slow = await startTestServer({ trustProxy: 1, scryptLogN: 12 });
    try {
      // Ten times what the queue holds (hashing and waiting): on a machine so busy that the requests
      // trickle in, the queue still fills before the first hashes end.
      const flood = await Promise.all(
        Array.from({ length: 10 * (MAX_RUNNING + MAX_WAITING) }, async (_, i) => {
          const res = await slow.fetch('/api/login', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
            body: JSON.stringify({ email: `flood${i}@test.local`, password: 'whatever' }),
          });
          return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { detail?: string } };
        }),
      );
      const busy = flood.filter((r) => r.status === 503);
      expect(busy.length).toBeGreaterThan(0);
      expect(busy[0].retryAfter).toBe('2');
      expect(busy[0].body.detail).toBe('El servidor está ocupado verificando contraseñas. Inténtalo de nuevo en unos segundos.');
      expect(flood.every((r) => r.status === 503 || r.status === 401)).toBe(true);
      expect((await slow.anon.auth.login({ email: ADMIN.email, password: ADMIN.password })).access_token).toBeTruthy();
    } finally {
      await slow.close();
    }
  }, 60_000);
});
