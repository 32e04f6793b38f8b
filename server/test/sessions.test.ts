// Sessions that really end (issue 11): tokens name their user by id and their session by jti,
// and are accepted only while that session is stored. Sign-out, a password change, an admin's
// 'cerrar sesiones', deleting a user or taking away their admin right take effect on the next
// request; open live streams of an ended session close within seconds. Runs on lowdb here and on
// PostgreSQL in accounts.postgres.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import jwt from 'jsonwebtoken';
import { buildRequest, contract, decodeSession } from '@adops/core';
import { ADMIN, startTestServer, type TestServer, failure } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  // Open streams check their session every 250 ms here (3 s in production), so a closed one is seen at once.
  s = await startTestServer({ streamAliveCheckMs: 250 });
});
afterAll(async () => {
  await s?.close();
});

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const statusWith = async (token: string, pathname = '/api/me') => (await s.fetch(pathname, bearer(token))).status;

let n = 0;
async function newUser(isAdmin = false) {
  const email = `sess${++n}@test.local`;
  const password = `session-pass-${n}`;
  const admin = await s.admin();
  const user = await admin.admin.createUser({ first_name: 'Ses', email, password, is_admin: isAdmin });
  return { ...user, password, signIn: () => s.as(email, password) };
}

describe('tokens', () => {
  test('name the user by id and the session by jti, and carry an expiry', async () => {
    const u = await newUser();
    const { token } = await u.signIn();
    const claims = jwt.decode(token) as Record<string, unknown>;
    expect(claims.sub).toBe(u.id);
    expect(claims.sub).not.toContain('@');
    expect(typeof claims.jti).toBe('string');
    expect(typeof claims.exp).toBe('number');
    // The clients read the e-mail to show it; the server never identifies anyone by it.
    expect(decodeSession(token)?.email).toBe(u.email);
  });

  test('without exp, without jti, for an unknown session or naming another user are refused', async () => {
    const u = await newUser();
    const other = await newUser();
    const { token } = await u.signIn();
    const { jti } = jwt.decode(token) as { jti: string };
    const secret = s.app.services.secrets.jwtSecret;
    const forge = (claims: object, options: jwt.SignOptions = { expiresIn: 3600 }) => jwt.sign(claims, secret, { algorithm: 'HS256', ...options });
    expect(await statusWith(forge({ sub: u.id, jti }, {}))).toBe(401); // no exp
    expect(await statusWith(forge({ sub: u.id }))).toBe(401); // no session
    expect(await statusWith(forge({ sub: u.id, jti: 'f'.repeat(36) }))).toBe(401);
    expect(await statusWith(forge({ sub: other.id, jti }))).toBe(401); // u's session, other's id
    expect(await statusWith(forge({ sub: u.email, jti }))).toBe(401); // by e-mail, as tokens once were
    expect(await statusWith(token)).toBe(200);
  });
});

describe('sign-out', () => {
  test('POST /api/logout makes that token useless at once; the user’s other sessions go on', async () => {
    const u = await newUser();
    const laptop = await u.signIn();
    const phone = await u.signIn();
    const res = await s.fetch('/api/logout', { method: 'POST', ...bearer(laptop.token) });
    expect(res.status).toBe(204);
    const ended = await failure(laptop.auth.me());
    expect(ended.status).toBe(401);
    expect(ended.detail).toBe('La sesión ya no es válida. Inicia sesión nuevamente.');
    expect(ended.body).toMatchObject({ session_ended: true });
    expect((await phone.auth.me()).email).toBe(u.email);
    // Signing out twice, or without a session, is a 401 that changes nothing.
    expect((await s.fetch('/api/logout', { method: 'POST', ...bearer(laptop.token) })).status).toBe(401);
    expect((await s.fetch('/api/logout', { method: 'POST' })).status).toBe(401);
  });

  test('a password change ends every other session at once, even within the same second', async () => {
    const u = await newUser();
    const laptop = await u.signIn();
    const phone = await u.signIn();
    const { access_token } = await laptop.auth.changePassword({ current_password: u.password, new_password: 'brand-new-pass-9' });
    expect(await statusWith(phone.token)).toBe(401);
    expect(await statusWith(laptop.token)).toBe(401);
    expect(await statusWith(access_token)).toBe(200);
  });
});

describe('changes to the user apply on their next request', () => {
  test("a deleted user's token never comes back, even for a new admin account with the same e-mail", async () => {
    const u = await newUser();
    const old = await u.signIn();
    const admin = await s.admin();
    await admin.admin.deleteUser({ id: u.id });
    expect(await statusWith(old.token)).toBe(401);
    await admin.admin.createUser({ first_name: 'Nuevo', email: u.email, password: 'another-pass-77', is_admin: true });
    expect(await statusWith(old.token)).toBe(401);
    expect(await statusWith(old.token, '/api/admin/users')).toBe(401);
  });

  test('an e-mail changed away and back keeps the same person signed in, never another', async () => {
    const u = await newUser();
    const session = await u.signIn();
    const admin = await s.admin();
    await admin.admin.updateUser({ id: u.id, email: 'moved@test.local' });
    expect((await session.auth.me()).email).toBe('moved@test.local');
    // Someone else now takes the old address: the old token is still only u's.
    const taker = await admin.admin.createUser({ first_name: 'Otro', email: u.email, password: 'taker-pass-123' });
    expect((await session.auth.me()).email).toBe('moved@test.local');
    await admin.admin.deleteUser({ id: taker.id });
    await admin.admin.updateUser({ id: u.id, email: u.email });
    expect((await session.auth.me()).email).toBe(u.email);
  });

  test('taking away the admin right is a 403 on the next admin request', async () => {
    const u = await newUser(true);
    const session = await u.signIn();
    expect(await statusWith(session.token, '/api/admin/users')).toBe(200);
    await (await s.admin()).admin.updateUser({ id: u.id, is_admin: false });
    expect(await statusWith(session.token, '/api/admin/users')).toBe(403);
    expect((await session.auth.me()).is_admin).toBe(false);
  });
});

describe('open sessions', () => {
  test('a user sees their own, the current one marked, with address, browser and last use', async () => {
    const u = await newUser();
    await s.fetch('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (Phone) Test' },
      body: JSON.stringify({ email: u.email, password: u.password }),
    });
    const mine = await u.signIn();
    const list = await mine.auth.mySessions();
    expect(list).toHaveLength(2);
    expect(list.filter((x) => x.current)).toHaveLength(1);
    expect(list.find((x) => !x.current)?.user_agent).toBe('Mozilla/5.0 (Phone) Test');
    for (const x of list) {
      expect(x.ip).toMatch(/127\.0\.0\.1/);
      expect(Date.parse(x.expires_at)).toBeGreaterThan(Date.now());
      expect(Date.parse(x.last_seen_at)).toBeGreaterThanOrEqual(Date.parse(x.created_at));
    }
  });

  test('an admin lists a user’s sessions and ends one, then all; each token stops at once', async () => {
    const u = await newUser();
    const a = await u.signIn();
    const b = await u.signIn();
    const c = await u.signIn();
    const admin = await s.admin();
    const sessions = await admin.admin.userSessions({ id: u.id });
    expect(sessions).toHaveLength(3);
    expect(sessions.some((x) => x.current)).toBe(false); // the admin's own session is not among them
    const { jti } = jwt.decode(a.token) as { jti: string };
    await admin.admin.endUserSession({ id: u.id, session_id: jti });
    expect(await statusWith(a.token)).toBe(401);
    expect(await statusWith(b.token)).toBe(200);
    expect(await admin.admin.endUserSessions({ id: u.id })).toEqual({ ended: 2 });
    expect(await statusWith(b.token)).toBe(401);
    expect(await statusWith(c.token)).toBe(401);
    expect(await admin.admin.userSessions({ id: u.id })).toEqual([]);
  });

  test('missing, unknown and hostile ids are a 404 or 400 that ends nothing', async () => {
    const u = await newUser();
    const session = await u.signIn();
    const admin = await s.admin();
    const other = await newUser();
    const { jti } = jwt.decode(session.token) as { jti: string };
    // Another user's id with this session: not theirs.
    const wrongUser = await failure(admin.admin.endUserSession({ id: other.id, session_id: jti }));
    expect(wrongUser.status).toBe(404);
    expect(wrongUser.detail).toBe('Sesión no encontrada');
    expect((await failure(admin.admin.userSessions({ id: 'no-such-user' }))).detail).toBe('Usuario no encontrado');
    for (const id of ["' OR 1=1 --", '%00', 'x'.repeat(65)]) {
      const res = await s.fetch(`/api/admin/users/${encodeURIComponent(u.id)}/sessions/${encodeURIComponent(id)}`, {
        method: 'DELETE',
        ...bearer(admin.token),
      });
      expect([400, 404]).toContain(res.status);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/\p{L}{4}/u);
    }
    expect(await statusWith(session.token)).toBe(200);
    // Staff may not look at anyone's sessions.
    expect((await failure(session.admin.userSessions({ id: u.id }))).status).toBe(403);
  });
});

describe('live streams', () => {
  async function openStream(token: string) {
    const controller = new AbortController();
    const url = buildRequest(contract.referrers.stream, { access_token: token }, s.url).url;
    const res = await fetch(url, { signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return Date.now();
    })();
    return { ended, abort: () => controller.abort() };
  }

  test('of a session that signs out, or whose user is deleted, close within seconds', async () => {
    const u = await newUser();
    const session = await u.signIn();
    const stream = await openStream(session.token);
    const signedOut = Date.now();
    await session.auth.logout();
    const closedAfter = (await stream.ended) - signedOut;
    expect(closedAfter).toBeLessThan(4000); // checked every 250 ms; room for a busy machine

    const v = await newUser();
    const other = await v.signIn();
    const second = await openStream(other.token);
    const deleted = Date.now();
    await (await s.admin()).admin.deleteUser({ id: v.id });
    expect((await second.ended) - deleted).toBeLessThan(4000);
    // Reconnecting with the ended token is refused.
    const again = await fetch(buildRequest(contract.referrers.stream, { access_token: session.token }, s.url).url);
    expect(again.status).toBe(401);
  }, 30_000);

  test('of other sessions stay open', async () => {
    const u = await newUser();
    const keep = await u.signIn();
    const leave = await u.signIn();
    const stream = await openStream(keep.token);
    await leave.auth.logout();
    const outcome = await Promise.race([stream.ended.then(() => 'closed'), new Promise((r) => setTimeout(() => r('open'), 1500))]); // six session checks
    expect(outcome).toBe('open');
    stream.abort();
  }, 10_000);
});

test('the protected admin signs in and out like anyone', async () => {
  const admin = await s.as(ADMIN.email, ADMIN.password);
  await admin.auth.logout();
  expect(await statusWith(admin.token)).toBe(401);
});
