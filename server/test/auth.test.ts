// Sign-in, sessions and password change over HTTP against the real app.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import jwt from 'jsonwebtoken';
import { decodeSession } from '@adops/core';
import { startTestServer, ADMIN, type TestServer, failure } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  s.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('health', () => {
  test('answers without a session', async () => {
    const health = await s.anon.health.check();
    expect(health.status).toBe('ok');
    // Each backend named, and answering.
    expect(health.store).toEqual({ backend: s.store, ok: true });
    expect(health.warehouse).toEqual({ backend: s.app.services.warehouse.engine, ok: true });
    expect(health.live).toEqual({ backend: 'memory', ok: true });
    // The reporting zone and the network's currency every face formats amounts in.
    expect(health).toMatchObject({ tz: s.app.services.config.tz, currency: s.app.services.config.currency });
  });
  test('an unknown API path is a JSON 404', async () => {
    const res = await s.fetch('/api/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: 'No encontrado' });
  });
});

describe('login', () => {
  test('the admin signs in and gets a 12-hour bearer token naming them', async () => {
    const res = await s.anon.auth.login({ email: ADMIN.email, password: ADMIN.password });
    expect(res.token_type).toBe('bearer');
    const session = decodeSession(res.access_token)!;
    expect(session.email).toBe(ADMIN.email);
    expect(session.is_admin).toBe(true);
    const hours = (session.exp * 1000 - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
  });

  test('e-mail is matched regardless of case and surrounding spaces', async () => {
    const res = await s.anon.auth.login({ email: `  ${ADMIN.email.toUpperCase()} `, password: ADMIN.password });
    expect(decodeSession(res.access_token)!.email).toBe(ADMIN.email);
  });

  test('a wrong password and an unknown e-mail get the same 401 detail', async () => {
    const wrong = await failure(s.anon.auth.login({ email: ADMIN.email, password: 'nope-nope' }));
    const unknown = await failure(s.anon.auth.login({ email: 'ghost@test.local', password: 'nope-nope' }));
    expect(wrong.status).toBe(401);
    expect(wrong.detail).toBe('Email o contraseña incorrectos');
    expect(unknown.status).toBe(401);
    expect(unknown.detail).toBe(wrong.detail);
  });

  test('after five failures the same IP and e-mail are refused with 429, even with the right password', async () => {
    const email = 'flood@test.local';
    const admin = await s.admin();
    await admin.admin.createUser({ first_name: 'Flood', email, password: 'right-password' });
    for (let i = 0; i < 5; i++) expect((await failure(s.anon.auth.login({ email, password: 'bad' }))).status).toBe(401);
    const limited = await failure(s.anon.auth.login({ email, password: 'right-password' }));
    expect(limited.status).toBe(429);
    expect(limited.detail).toMatch(/Demasiados intentos/);
    // Another account from the same address is not affected.
    await expect(s.anon.auth.login({ email: ADMIN.email, password: ADMIN.password })).resolves.toBeTruthy();
  });

  test.each([
    ['malformed JSON', '{"email": ', 400, 'JSON mal formado'],
    ['a missing password', '{"email":"a@b.co"}', 400, 'Contraseña: es obligatorio'],
    ['a number for the e-mail', '{"email":42,"password":"x"}', 400, 'Email: debe ser texto'],
    ['an array body', '[1,2,3]', 400, 'Debe ser un objeto con sus campos'],
    ['an empty body', '', 400, 'Email: es obligatorio'],
  ])('%s is a 400 with a detail', async (_name, body, status, detail) => {
    const res = await post('/api/login', body);
    expect(res.status).toBe(status);
    const json = (await res.json()) as { detail: string };
    expect(json.detail).toBe(detail);
  });

  test('a 5 MB body is refused with 413', async () => {
    const res = await post('/api/login', JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(5 * 1024 * 1024) }));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/demasiado grande/);
  });

  test('the answer carries a request id and security headers, never a stack trace', async () => {
    const res = await post('/api/login', '{"email":');
    expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await res.text()).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('sessions', () => {
  const me = (token: string) => s.fetch('/api/me', { headers: { authorization: `Bearer ${token}` } });

  test('a valid token reaches protected routes; none gets 401', async () => {
    const admin = await s.admin();
    expect((await admin.auth.me()).is_admin).toBe(true);
    const res = await s.fetch('/api/me');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: 'No autenticado' });
  });

  test('a token signed with another secret is refused', async () => {
    const forged = jwt.sign({ sub: ADMIN.email, is_admin: true }, 'x'.repeat(48), { expiresIn: 3600 });
    expect((await me(forged)).status).toBe(401);
  });

  test('an expired token is refused with a detail asking to sign in again', async () => {
    const secret = s.app.services.secrets.jwtSecret;
    const expired = jwt.sign({ sub: ADMIN.email, is_admin: true, exp: Math.floor(Date.now() / 1000) - 60 }, secret);
    const res = await me(expired);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/expirado/);
  });

  test('an alg:none token is refused', async () => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: ADMIN.email, is_admin: true, exp: 9999999999 })}.`;
    expect((await me(none)).status).toBe(401);
  });

  test('garbage in the Authorization header is refused', async () => {
    for (const token of ['abc', 'a.b.c', "' OR 1=1 --", 'x'.repeat(4000)]) expect((await me(token)).status).toBe(401);
  });

  test('the token of a deleted user stops working at once', async () => {
    const admin = await s.admin();
    const user = await admin.admin.createUser({ first_name: 'Temp', email: 'temp@test.local', password: 'temp-pass-1' });
    const temp = await s.as('temp@test.local', 'temp-pass-1');
    expect((await temp.auth.me()).email).toBe('temp@test.local');
    await admin.admin.deleteUser({ id: user.id });
    expect((await failure(temp.auth.me())).status).toBe(401);
  });

  test('admin rights come from the account, not from a stale token', async () => {
    const admin = await s.admin();
    const user = await admin.admin.createUser({ first_name: 'Boss', email: 'boss@test.local', password: 'boss-pass-1', is_admin: true });
    const boss = await s.as('boss@test.local', 'boss-pass-1');
    expect(await boss.admin.listUsers()).toBeTruthy();
    await admin.admin.updateUser({ id: user.id, is_admin: false });
    const refused = await failure(boss.admin.listUsers());
    expect(refused.status).toBe(403);
    expect(refused.detail).toBe('No autorizado');
  });
});

describe('change password', () => {
  test('with the right current password the new one works and the old one no longer does', async () => {
    const admin = await s.admin();
    await admin.admin.createUser({ first_name: 'Pat', email: 'pat@test.local', password: 'old-password' });
    const pat = await s.as('pat@test.local', 'old-password');
    const answer = await pat.auth.changePassword({ current_password: 'old-password', new_password: 'new-password' });
    expect(answer.detail).toBe('Contraseña actualizada');
    await expect(s.as('pat@test.local', 'new-password')).resolves.toBeTruthy();
    expect((await failure(s.as('pat@test.local', 'old-password'))).status).toBe(401);
    // The answer carries a fresh session for the same user.
    expect(decodeSession(answer.access_token)).toMatchObject({ email: 'pat@test.local', is_admin: false });
  });

  test('sessions issued before the change stop working; the fresh token keeps the user signed in', async () => {
    const admin = await s.admin();
    await admin.admin.createUser({ first_name: 'Quim', email: 'quim@test.local', password: 'quim-pass-1' });
    const laptop = await s.as('quim@test.local', 'quim-pass-1');
    const phone = await s.as('quim@test.local', 'quim-pass-1');
    // At once: nothing depends on a second passing (tokens once carried only a whole-second iat).
    const { access_token } = await laptop.auth.changePassword({ current_password: 'quim-pass-1', new_password: 'quim-pass-2' });
    const stale = await failure(phone.auth.me());
    expect(stale.status).toBe(401);
    expect(stale.detail).toBe('La sesión ya no es válida. Inicia sesión nuevamente.');
    expect((await failure(laptop.auth.me())).status).toBe(401);
    const res = await s.fetch('/api/me', { headers: { authorization: `Bearer ${access_token}` } });
    expect(res.status).toBe(200);
  });

  test("an admin resetting a user's password ends that user's sessions", async () => {
    const admin = await s.admin();
    const u = await admin.admin.createUser({ first_name: 'Rita', email: 'rita@test.local', password: 'rita-pass-1' });
    const rita = await s.as('rita@test.local', 'rita-pass-1');
    await admin.admin.updateUser({ id: u.id, password: 'rita-pass-2' });
    expect((await failure(rita.auth.me())).status).toBe(401);
    // Other edits do not sign anyone out.
    const again = await s.as('rita@test.local', 'rita-pass-2');
    await admin.admin.updateUser({ id: u.id, last_name: 'Soler' });
    expect((await again.auth.me()).last_name).toBe('Soler');
  });

  test('a wrong current password is a 400 that changes nothing', async () => {
    const admin = await s.admin();
    await admin.admin.createUser({ first_name: 'Lu', email: 'lu@test.local', password: 'lu-password' });
    const lu = await s.as('lu@test.local', 'lu-password');
    const err = await failure(lu.auth.changePassword({ current_password: 'wrong', new_password: 'whatever-123' }));
    expect(err.status).toBe(400);
    expect(err.detail).toBe('La contraseña actual no es correcta');
    await expect(s.as('lu@test.local', 'lu-password')).resolves.toBeTruthy();
  });

  test('a new password shorter than 8 characters is refused', async () => {
    const admin = await s.admin();
    const err = await failure(admin.auth.changePassword({ current_password: ADMIN.password, new_password: 'short' }));
    expect(err.status).toBe(400);
    expect(err.detail).toMatch(/al menos 8/);
  });

  test('without a session it is a 401 and nothing is parsed', async () => {
    const res = await post('/api/change-password', '{not json');
    expect(res.status).toBe(401);
  });
});
