// New passwords are checked against the shipped list of common passwords wherever one is set —
// an admin creating a user or resetting a password, a user changing their own, the protected
// admin's ADOPS_ADMIN_PASSWORD on the first start — and refused with a Spanish 400 that changes
// nothing. A changed ADOPS_ADMIN_PASSWORD after the first start is said in the log, never applied.
import { PassThrough } from 'node:stream';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError } from '../src/app.js';
import { COMMON_PASSWORD, commonPasswords, isCommonPassword } from '../src/services/common-passwords.js';
import { ADMIN, startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let adminToken: string;

beforeAll(async () => {
  s = await startTestServer();
  adminToken = (await s.admin()).token;
});
afterAll(() => s.close());

const send = (method: string, pathname: string, token: string, body?: unknown) =>
  s.fetch(pathname, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const canSignIn = async (email: string, password: string) =>
  (await s.fetch('/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) }))
    .status === 200;

describe('the list', () => {
  test('holds more than 10,000 common passwords and matches them whatever the case', () => {
    expect(commonPasswords().size).toBeGreaterThan(10_000);
    for (const p of ['password', 'PassWord1', 'iloveyou', 'qwertyuiop', 'sunshine1', ' 12345678 ']) expect(isCommonPassword(p)).toBe(true);
    for (const p of ['admin-pass-123', 'Tr3s-Tristes-Tigres', 'correct horse battery staple']) expect(isCommonPassword(p)).toBe(false);
  });
});

describe('setting a common password is refused with a 400 and nothing changes', () => {
  test.each(['password', 'Password1', 'iloveyou'])('an admin creating a user with "%s"', async (password) => {
    const before = await s.storedEntities();
    const res = await send('POST', '/api/admin/users', adminToken, { first_name: 'Ana', email: 'ana@test.local', password });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: COMMON_PASSWORD });
    expect(await s.storedEntities()).toBe(before);
    expect(await canSignIn('ana@test.local', password)).toBe(false);
  });

  test('an admin resetting a user\u2019s password to a common one; the old password keeps working', async () => {
    const created = await send('POST', '/api/admin/users', adminToken, { first_name: 'Quim', email: 'quim@test.local', password: 'quim-pass-1' });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const before = await s.storedEntities();
    const res = await send('PATCH', `/api/admin/users/${id}`, adminToken, { password: 'football1' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: COMMON_PASSWORD });
    expect(await s.storedEntities()).toBe(before);
    expect(await canSignIn('quim@test.local', 'quim-pass-1')).toBe(true);
    expect(await canSignIn('quim@test.local', 'football1')).toBe(false);
  });

  test('a user changing their own password to a common one; the current one stays', async () => {
    await send('POST', '/api/admin/users', adminToken, { first_name: 'Rita', email: 'rita@test.local', password: 'rita-pass-1' });
    const rita = await s.as('rita@test.local', 'rita-pass-1');
    const before = await s.storedEntities();
    const res = await send('POST', '/api/change-password', rita.token, { current_password: 'rita-pass-1', new_password: 'sunshine1' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: COMMON_PASSWORD });
    expect(await s.storedEntities()).toBe(before);
    expect(await canSignIn('rita@test.local', 'rita-pass-1')).toBe(true);
  });

  test('an uncommon password is still accepted everywhere', async () => {
    const res = await send('POST', '/api/admin/users', adminToken, { first_name: 'Lu', email: 'lu@test.local', password: 'Tr3s-Tristes-Tigres' });
    expect(res.status).toBe(201);
    expect(await canSignIn('lu@test.local', 'Tr3s-Tristes-Tigres')).toBe(true);
  });
});

describe('ADOPS_ADMIN_PASSWORD', () => {
  /** A log stream and the JSON lines written to it. */
  function capture() {
    const stream = new PassThrough();
    const lines: Array<Record<string, unknown>> = [];
    const raw: string[] = [];
    let rest = '';
    stream.on('data', (chunk: Buffer) => {
      const parts = (rest + chunk.toString('utf8')).split('\n');
      rest = parts.pop() ?? '';
      for (const p of parts.filter(Boolean)) {
        raw.push(p);
        lines.push(JSON.parse(p) as Record<string, unknown>);
      }
    });
    return { stream, lines, raw };
  }
  const CHANGED = /ADOPS_ADMIN_PASSWORD differs from the protected admin's stored password and is not applied/;

  test('a common one is refused on the first start, and the data dir can be used again with another', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'adops-test-'));
    try {
      const refused = startTestServer({ adminPassword: 'iloveyou' }, dir);
      await expect(refused).rejects.toBeInstanceOf(ConfigError);
      await expect(refused).rejects.toThrow('ADOPS_ADMIN_PASSWORD is one of the most common passwords: choose another');
      // Everything was closed on the refusal: the same data dir opens (its DuckDB file is free).
      const t = await startTestServer({}, dir);
      expect(await t.app.services.users.adminPasswordMatches(ADMIN.password)).toBe(true);
      await t.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('changed after the first start: a warning in the log without the password, and the stored password stays', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'adops-test-'));
    try {
      const first = capture();
      await (await startTestServer({ log: 'info', logStream: first.stream }, dir)).close();
      expect(first.raw.join('\n')).not.toMatch(CHANGED);

      const same = capture();
      await (await startTestServer({ log: 'info', logStream: same.stream }, dir)).close();
      expect(same.raw.join('\n')).not.toMatch(CHANGED);

      const changed = capture();
      const NEW = 'Una-Clave-Nueva-En-El-Entorno-42';
      const t = await startTestServer({ log: 'info', logStream: changed.stream, adminPassword: NEW }, dir);
      try {
        const warning = changed.lines.find((l) => CHANGED.test(String(l.msg)));
        expect(warning).toMatchObject({ level: 'warn', env: 'ADOPS_ADMIN_PASSWORD' });
        expect(changed.raw.join('\n')).not.toContain(NEW);
        expect(changed.raw.join('\n')).not.toContain(ADMIN.password);
        const login = (password: string) =>
          t.fetch('/api/login', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: ADMIN.email, password }),
          });
        expect((await login(ADMIN.password)).status).toBe(200);
        expect((await login(NEW)).status).toBe(401);
      } finally {
        await t.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
