// Admin area over HTTP: users and publisher tokens, the protected admin, and refusals.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import path from 'node:path';
import type { Api } from '@adops/core';
import { startTestServer, ADMIN, type TestServer, failure, knownPublishers } from './helpers.js';

let s: TestServer;
let admin: Api & { token: string };
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.admin();
  await knownPublishers(admin, 'Publisher Uno', 'Dos', 'Tres', 'Cuatro', 'Cinco');
});
afterAll(() => s.close());

const raw = (method: string, p: string, body?: string, token = admin.token) =>
  s.fetch(p, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body });
const storedFile = () => s.storedEntities();

describe('users', () => {
  test('an admin creates a user; the answer and the list never carry a password', async () => {
    const created = await admin.admin.createUser({ first_name: 'Ana', last_name: 'Gómez', email: 'Ana@Example.com', password: 'ana-pass-1' });
    expect(created).toMatchObject({ first_name: 'Ana', last_name: 'Gómez', email: 'ana@example.com', is_admin: false, protected: false });
    const list = await admin.admin.listUsers();
    expect(list.map((u) => u.email)).toContain('ana@example.com');
    const text = JSON.stringify(list);
    expect(text).not.toMatch(/password|ana-pass-1|scrypt/);
    // Stored hashed, never in clear.
    const file = await storedFile();
    expect(file).not.toContain('ana-pass-1');
    expect(file).toMatch(/scrypt\$10\$8\$1\$/);
  });

  test('a duplicate e-mail is a 409 and no second user appears', async () => {
    await admin.admin.createUser({ first_name: 'Dup', email: 'dup@example.com', password: 'dup-pass-1' });
    const before = (await admin.admin.listUsers()).length;
    const err = await failure(admin.admin.createUser({ first_name: 'Dup2', email: 'DUP@example.com', password: 'dup-pass-2' }));
    expect(err.status).toBe(409);
    expect(err.detail).toBe('Ya existe un usuario con ese email');
    expect((await admin.admin.listUsers()).length).toBe(before);
  });

  test('editing applies given fields only; empty fields are not applied', async () => {
    const u = await admin.admin.createUser({ first_name: 'Edu', last_name: 'Ruiz', email: 'edu@example.com', password: 'edu-pass-1' });
    const updated = await admin.admin.updateUser({ id: u.id, first_name: 'Eduardo', email: '', password: '' });
    expect(updated).toMatchObject({ first_name: 'Eduardo', last_name: 'Ruiz', email: 'edu@example.com' });
    await expect(s.as('edu@example.com', 'edu-pass-1')).resolves.toBeTruthy();
    await admin.admin.updateUser({ id: u.id, password: 'edu-pass-2', is_admin: true });
    const edu = await s.as('edu@example.com', 'edu-pass-2');
    expect((await edu.auth.me()).is_admin).toBe(true);
  });

  test('changing an e-mail to one already taken is a 409 that changes nothing', async () => {
    const a = await admin.admin.createUser({ first_name: 'A', email: 'a1@example.com', password: 'a1-pass-11' });
    await admin.admin.createUser({ first_name: 'B', email: 'b1@example.com', password: 'b1-pass-11' });
    const err = await failure(admin.admin.updateUser({ id: a.id, email: 'b1@example.com', first_name: 'Changed' }));
    expect(err.status).toBe(409);
    const after = (await admin.admin.listUsers()).find((u) => u.id === a.id)!;
    expect(after).toMatchObject({ email: 'a1@example.com', first_name: 'A' });
  });

  test('the protected admin cannot be edited or deleted (403)', async () => {
    const protectedAdmin = (await admin.admin.listUsers()).find((u) => u.protected)!;
    expect(protectedAdmin.email).toBe(ADMIN.email);
    const edit = await failure(admin.admin.updateUser({ id: protectedAdmin.id, first_name: 'Mallory' }));
    expect(edit.status).toBe(403);
    const del = await failure(admin.admin.deleteUser({ id: protectedAdmin.id }));
    expect(del.status).toBe(403);
    expect((await admin.admin.listUsers()).find((u) => u.id === protectedAdmin.id)!.first_name).toBe('Admin');
  });

  test('deleting removes the user; an unknown id is a 404', async () => {
    const u = await admin.admin.createUser({ first_name: 'Bye', email: 'bye@example.com', password: 'bye-pass-1' });
    await admin.admin.deleteUser({ id: u.id });
    expect((await admin.admin.listUsers()).some((x) => x.id === u.id)).toBe(false);
    const err = await failure(admin.admin.deleteUser({ id: u.id }));
    expect(err.status).toBe(404);
    expect(err.detail).toBe('Usuario no encontrado');
  });

  test('an admin cannot delete their own account', async () => {
    const u = await admin.admin.createUser({ first_name: 'Self', email: 'self@example.com', password: 'self-pass-1', is_admin: true });
    const self = await s.as('self@example.com', 'self-pass-1');
    const err = await failure(self.admin.deleteUser({ id: u.id }));
    expect(err.status).toBe(409);
  });

  test.each([
    ['a missing e-mail', { first_name: 'X', password: 'xxxxxxxx' }, /^Email: es obligatorio$/],
    ['a malformed e-mail', { first_name: 'X', email: 'not-an-email', password: 'xxxxxxxx' }, /^Email: no es una dirección de correo válida$/],
    ['a short password', { first_name: 'X', email: 'x@example.com', password: 'short' }, /al menos 8/],
    [
      'a string for is_admin',
      { first_name: 'X', email: 'x@example.com', password: 'xxxxxxxx', is_admin: 'yes' },
      /^Es administrador: debe ser sí o no/,
    ],
    ['an empty first name', { first_name: '  ', email: 'x@example.com', password: 'xxxxxxxx' }, /nombre/],
    ['a 300-character name', { first_name: 'x'.repeat(300), email: 'x@example.com', password: 'xxxxxxxx' }, /^Nombre: como mucho 100 caracteres$/],
  ])('creating with %s is a 400 and stores nothing', async (_name, body, detail) => {
    const before = await storedFile();
    const res = await raw('POST', '/api/admin/users', JSON.stringify(body));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
    expect(await storedFile()).toBe(before);
  });

  test('unknown fields on edit are refused, so is_admin cannot be smuggled through a prototype key', async () => {
    const u = await admin.admin.createUser({ first_name: 'Proto', email: 'proto@example.com', password: 'proto-pass' });
    const res = await raw('PATCH', `/api/admin/users/${u.id}`, '{"__proto__":{"is_admin":true},"protected":true}');
    expect(res.status).toBe(400);
    const after = (await admin.admin.listUsers()).find((x) => x.id === u.id)!;
    expect(after).toMatchObject({ is_admin: false, protected: false });
  });

  test('SQL-ish and script text is stored and echoed back as plain text', async () => {
    const hostile = `<script>alert(1)</script>' OR 1=1 --`;
    const u = await admin.admin.createUser({
      first_name: hostile,
      last_name: 'Robert"); DROP TABLE users;--',
      email: 'bobby@example.com',
      password: 'bobby-pass',
    });
    expect(u.first_name).toBe(hostile);
    const listed = (await admin.admin.listUsers()).find((x) => x.id === u.id)!;
    expect(listed.first_name).toBe(hostile);
    expect(listed.last_name).toBe('Robert"); DROP TABLE users;--');
    const res = await raw('GET', '/api/admin/users');
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
  });

  test('a 5 MB body is refused with 413 and nothing is stored', async () => {
    const before = await storedFile();
    const res = await raw('POST', '/api/admin/users', JSON.stringify({ first_name: 'x'.repeat(5 * 1024 * 1024) }));
    expect(res.status).toBe(413);
    expect(await storedFile()).toBe(before);
  });

  test('malformed JSON is a 400', async () => {
    const res = await raw('POST', '/api/admin/users', '{"first_name": "a",');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: 'JSON mal formado' });
  });
});

describe('publisher tokens', () => {
  test('creating trims the name and returns a long random token; the list can show it again', async () => {
    const t = await admin.admin.createToken({ publisher_name: '  Publisher Uno  ' });
    expect(t.publisher_name).toBe('Publisher Uno');
    expect(t.token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    const listed = (await admin.admin.listTokens()).find((x) => x.publisher_name === 'Publisher Uno')!;
    expect(listed.token).toBe(t.token);
    expect(listed.last_used_at).toBeNull();
    // Sealed at rest: the token never appears in clear in the stored data.
    expect(await storedFile()).not.toContain(t.token);
  });

  test('an empty name is refused with the spec text', async () => {
    const res = await raw('POST', '/api/admin/publisher-tokens', '{"publisher_name":"   "}');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toContain('El nombre del publisher no puede estar vacío.');
  });

  test('a second token for the same publisher is a 409 (use Renovar)', async () => {
    await admin.admin.createToken({ publisher_name: 'Dos' });
    const err = await failure(admin.admin.createToken({ publisher_name: 'dos' }));
    expect(err.status).toBe(409);
  });

  test('renewing replaces the token; the old one is no longer recognised', async () => {
    const first = await admin.admin.createToken({ publisher_name: 'Tres' });
    const renewed = await admin.admin.renewToken({ publisher_name: 'Tres' });
    expect(renewed.token).not.toBe(first.token);
    expect(renewed.publisher_name).toBe('Tres');
    const tokens = await admin.admin.listTokens();
    expect(tokens.filter((x) => x.publisher_name === 'Tres').map((x) => x.token)).toEqual([renewed.token]);
    expect(await s.app.services.tokens.resolve(first.token)).toBeNull();
    expect(await s.app.services.tokens.resolve(renewed.token)).toBe('Tres');
  });

  test('renewing an unknown publisher is a 404 with the spec text', async () => {
    const err = await failure(admin.admin.renewToken({ publisher_name: 'Nadie' }));
    expect(err.status).toBe(404);
    expect(err.detail).toBe('Publisher no válido para renovar.');
  });

  test('deleting by id removes it; an unknown id is a 404; the token itself in the path is a 410 and deletes nothing', async () => {
    const t = await admin.admin.createToken({ publisher_name: 'Cuatro' });
    const old = await failure(admin.admin.deleteToken({ id: t.token }));
    expect(old.status).toBe(410);
    expect(old.detail).toMatch(/usa su id/);
    expect((await admin.admin.listTokens()).some((x) => x.publisher_name === 'Cuatro')).toBe(true);
    await admin.admin.deleteToken({ id: t.id });
    expect((await admin.admin.listTokens()).some((x) => x.publisher_name === 'Cuatro')).toBe(false);
    expect((await failure(admin.admin.deleteToken({ id: t.id }))).status).toBe(404);
    expect((await failure(admin.admin.deleteToken({ id: t.token }))).status).toBe(404);
    expect((await failure(admin.admin.deleteToken({ id: "' OR 1=1 --" }))).status).toBe(404);
  });

  test('tokens survive a restart and still open (keys kept once: in the data directory with mode 0600, or in the shared store)', async () => {
    const t = await admin.admin.createToken({ publisher_name: 'Cinco' });
    const { stat } = await import('node:fs/promises');
    if (s.store === 'lowdb') expect((await stat(path.join(s.dataDir, 'secrets.json'))).mode & 0o777).toBe(0o600);
    else await expect(stat(path.join(s.dataDir, 'secrets.json'))).rejects.toThrow(/ENOENT/);
    const again = await startTestServer({}, s.dataDir);
    try {
      const a = await again.admin();
      expect((await a.admin.listTokens()).find((x) => x.publisher_name === 'Cinco')!.token).toBe(t.token);
    } finally {
      await again.close();
    }
  });
});

describe('non-admins', () => {
  test('get 403 "No autorizado" on every admin route and change nothing', async () => {
    await admin.admin.createUser({ first_name: 'Reg', email: 'reg@example.com', password: 'reg-pass-1' });
    const reg = await s.as('reg@example.com', 'reg-pass-1');
    const before = await storedFile();
    const calls: Array<() => Promise<unknown>> = [
      () => reg.admin.listUsers(),
      () => reg.admin.createUser({ first_name: 'X', email: 'x2@example.com', password: 'xxxxxxxx' }),
      () => reg.admin.updateUser({ id: 'whatever', first_name: 'X' }),
      () => reg.admin.deleteUser({ id: 'whatever' }),
      () => reg.admin.listTokens(),
      () => reg.admin.createToken({ publisher_name: 'X' }),
      () => reg.admin.renewToken({ publisher_name: 'X' }),
      () => reg.admin.updateToken({ id: 'x', rate_limit: 5 }),
      () => reg.admin.deleteToken({ id: 'x' }),
    ];
    for (const call of calls) {
      const err = await failure(call());
      expect(err.status).toBe(403);
      expect(err.detail).toBe('No autorizado');
    }
    expect(await storedFile()).toBe(before);
  });

  test('without a session every admin route is a 401', async () => {
    for (const [method, p] of [
      ['GET', '/api/admin/users'],
      ['POST', '/api/admin/users'],
      ['DELETE', '/api/admin/users/x'],
      ['GET', '/api/admin/publisher-tokens'],
    ] as const) {
      const res = await s.fetch(p, { method });
      expect(res.status).toBe(401);
    }
  });
});

describe('publisher tokens as generated', () => {
  test('are 43 base64url characters that never start with - or _ (a command line would read them as an option)', async () => {
    const { newPublisherToken } = await import('../src/services/tokens.js');
    const tokens = Array.from({ length: 5000 }, () => newPublisherToken());
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{42}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});
