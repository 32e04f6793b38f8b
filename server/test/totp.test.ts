// Two-factor sign-in (issue 11): TOTP enrolment (secret and otpauth URL, then the app's first
// code turns it on and hands out 10 recovery codes), sign-in with a code, a recovery code used
// once, wrong and replayed codes refused and counted by the sign-in limiter, turning it off with
// the password, ADOPS_REQUIRE_2FA=admins, and hostile input on the new routes.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Api } from '@adops/core';
import { ConfigError, loadConfig } from '../src/config.js';
import { ADMIN, failure, startTestServer, type TestServer } from './helpers.js';
import { awayFromStepEdge, totpCode } from './totp-codes.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());
// Every test makes codes for the previous, current and next time step: none may cross a step's end.
beforeEach(() => awayFromStepEdge());

let n = 0;
async function newUser(server = s, isAdmin = false) {
  const email = `dos-pasos${++n}@test.local`;
  const password = `clave-segura-${n}-ok`;
  // Straight through the service: with ADOPS_REQUIRE_2FA the admin's own session would need 2FA first.
  await server.app.services.users.create({ first_name: 'Dos', last_name: 'Pasos', email, password, is_admin: isAdmin });
  return { email, password, api: await server.as(email, password) };
}

/** Turns 2FA on for `api`'s user with the previous step's code (so this step's and the next are still unused). */
async function enrol({ api, password }: { api: Api; password: string }) {
  const { secret, otpauth_url } = await api.auth.totpBegin({ password });
  const { recovery_codes } = await api.auth.totpConfirm({ code: await totpCode(secret, -1) });
  return { secret, otpauth_url, recovery_codes };
}

const login = (email: string, password: string, totp?: string) => s.anon.auth.login({ email, password, ...(totp === undefined ? {} : { totp }) });

describe('enrolment', () => {
  test('starts with a secret and its otpauth URL, is not active until the first code, then answers 10 recovery codes once', async () => {
    const u = await newUser();
    expect(await u.api.auth.totpStatus()).toEqual({ enabled: false, pending: false, enabled_at: null, recovery_codes_left: 0, required: false });
    const { secret, otpauth_url } = await u.api.auth.totpBegin({ password: u.password });
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const [label, query] = otpauth_url.split('?');
    expect(decodeURIComponent(label)).toBe(`otpauth://totp/AdOps Console:${u.email}`);
    const params = new URLSearchParams(query);
    expect(params.get('secret')).toBe(secret);
    expect(params.get('issuer')).toBe('AdOps Console');
    expect(await u.api.auth.totpStatus()).toMatchObject({ enabled: false, pending: true });
    // Pending: sign-in still needs only the password.
    expect((await login(u.email, u.password)).access_token).toBeTruthy();

    const wrong = await failure(u.api.auth.totpConfirm({ code: '000000' === (await totpCode(secret)) ? '111111' : '000000' }));
    expect(wrong.status).toBe(400);
    expect(wrong.detail).toMatch(/^El código no es correcto/);
    expect(await u.api.auth.totpStatus()).toMatchObject({ enabled: false, pending: true });

    const { recovery_codes } = await u.api.auth.totpConfirm({ code: await totpCode(secret) });
    expect(recovery_codes).toHaveLength(10);
    for (const code of recovery_codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(new Set(recovery_codes).size).toBe(10);
    const status = await u.api.auth.totpStatus();
    expect(status).toMatchObject({ enabled: true, pending: false, recovery_codes_left: 10, required: false });
    expect(Date.parse(status.enabled_at!)).toBeGreaterThan(Date.now() - 60_000);

    // Neither the secret nor a recovery code is stored in clear.
    const stored = await s.storedEntities();
    expect(stored).not.toContain(secret);
    for (const code of recovery_codes) expect(stored).not.toContain(code.replace('-', ''));
    // A second enrolment while it is on is refused, and the codes already confirmed still work.
    const again = await failure(u.api.auth.totpBegin({ password: u.password }));
    expect([again.status, again.detail]).toEqual([409, 'La verificación en dos pasos ya está activada. Desactívala antes de configurarla de nuevo.']);
    expect((await login(u.email, u.password, await totpCode(secret, 1))).access_token).toBeTruthy();
  });

  test('restarting an enrolment replaces the secret: a code of the first one no longer confirms', async () => {
    const u = await newUser();
    const first = await u.api.auth.totpBegin({ password: u.password });
    const second = await u.api.auth.totpBegin({ password: u.password });
    expect(second.secret).not.toBe(first.secret);
    expect((await failure(u.api.auth.totpConfirm({ code: await totpCode(first.secret) }))).status).toBe(400);
    expect((await u.api.auth.totpConfirm({ code: await totpCode(second.secret) })).recovery_codes).toHaveLength(10);
  });

  test('asks for the current password: without it, or with a wrong one, a 400 that starts nothing; wrong ones are judged like sign-ins', async () => {
    const u = await newUser();
    const before = await s.storedEntities();
    const begin = (body: string) =>
      s.fetch('/api/me/totp', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${u.api.token}` }, body });
    for (const [body, detail] of [
      ['', /^Contraseña: /],
      ['{}', /^Contraseña: /],
      ['{"password": ""}', /^Contraseña: /],
      ['{"password": 12}', /^Contraseña: /],
      [JSON.stringify({ password: 'x'.repeat(5000) }), /^Contraseña: /],
      [JSON.stringify({ password: 'not-the-password' }), /^La contraseña actual no es correcta$/],
    ] as const) {
      const res = await begin(body);
      expect(res.status, body.slice(0, 30)).toBe(400);
      expect(((await res.json()) as { detail: string }).detail, body.slice(0, 30)).toMatch(detail);
    }
    expect(await s.storedEntities()).toBe(before);
    expect(await u.api.auth.totpStatus()).toMatchObject({ enabled: false, pending: false });
    // Four more wrong ones in this session (five in all): the sixth, even right, is a 429.
    for (let i = 0; i < 4; i++) expect((await begin(JSON.stringify({ password: `wrong-${i}` }))).status).toBe(400);
    expect((await begin(JSON.stringify({ password: u.password }))).status).toBe(429);
    expect(await u.api.auth.totpStatus()).toMatchObject({ enabled: false, pending: false });
  });

  test("once confirmed, the user's other sessions end (opened without a code); this one goes on", async () => {
    const u = await newUser();
    const other = await s.as(u.email, u.password);
    const { secret } = await u.api.auth.totpBegin({ password: u.password });
    // Pending: nothing ends yet.
    expect((await other.auth.me()).email).toBe(u.email);
    await u.api.auth.totpConfirm({ code: await totpCode(secret, -1) });
    expect((await failure(other.auth.me())).status).toBe(401);
    expect((await u.api.auth.me()).email).toBe(u.email);
    const { rows } = await s.app.services.store.audit.query({ action: 'user.2fa_enable', actor: u.email }, 'asc', 0, 10);
    expect(rows[0]?.after).toEqual({ two_factor: true, sessions_ended: 1 });
  });

  test('confirming without an enrolment under way is a 409', async () => {
    const u = await newUser();
    const refused = await failure(u.api.auth.totpConfirm({ code: '123456' }));
    expect(refused.status).toBe(409);
    expect(refused.detail).toMatch(/No hay ninguna configuración en curso/);
  });
});

describe('sign-in with 2FA on', () => {
  test('the password alone answers 401 with totp_required; with the app code it signs in', async () => {
    const u = await newUser();
    const { secret } = await enrol(u);
    const refused = await failure(login(u.email, u.password));
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      detail: 'Introduce el código de verificación de tu app de autenticación (o un código de recuperación).',
      totp_required: true,
    });
    // An empty code is no code.
    expect((await failure(login(u.email, u.password, ''))).body.totp_required).toBe(true);
    const { access_token } = await login(u.email, u.password, await totpCode(secret));
    const me = await s.fetch('/api/me', { headers: { authorization: `Bearer ${access_token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(u.email);
  });

  test('a wrong password says nothing of 2FA: the same answer as an unknown e-mail, with or without a code', async () => {
    const u = await newUser();
    const { secret } = await enrol(u);
    const wrong = await failure(login(u.email, 'not-the-password', await totpCode(secret)));
    const bare = await failure(login(u.email, 'not-the-password'));
    const unknown = await failure(login('ghost-2fa@test.local', 'not-the-password'));
    for (const answer of [wrong, bare, unknown]) expect([answer.status, answer.body]).toEqual([401, { detail: 'Email o contraseña incorrectos' }]);
  });

  test('a code is accepted once: replayed, or the one that confirmed the enrolment, it is refused', async () => {
    const u = await newUser();
    const { secret } = await enrol(u);
    // The enrolment's own code (previous step) cannot sign in.
    const confirmCode = await totpCode(secret, -1);
    const replayedConfirm = await failure(login(u.email, u.password, confirmCode));
    expect([replayedConfirm.status, replayedConfirm.detail, replayedConfirm.body.totp_required]).toEqual([
      401,
      'El código de verificación no es correcto o ya se usó.',
      true,
    ]);
    const now = await totpCode(secret);
    expect((await login(u.email, u.password, now)).access_token).toBeTruthy();
    expect((await failure(login(u.email, u.password, now))).status).toBe(401);
    // The next step's code still works once, and after it this step's is too old.
    expect((await login(u.email, u.password, await totpCode(secret, 1))).access_token).toBeTruthy();
    expect((await failure(login(u.email, u.password, await totpCode(secret, 1)))).status).toBe(401);
  });

  test('the same code sent twice at once signs in exactly once', async () => {
    const u = await newUser();
    const { secret } = await enrol(u);
    const code = await totpCode(secret);
    const answers = await Promise.allSettled(Array.from({ length: 4 }, () => login(u.email, u.password, code)));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
  });

  test('codes from outside the ±30 s window and malformed ones are refused', async () => {
    const u = await newUser();
    const { secret } = await enrol(u);
    for (const code of [await totpCode(secret, 3), await totpCode(secret, -3), '12345', 'abcdef', '１２３４５６']) {
      const refused = await failure(login(u.email, u.password, code));
      expect([refused.status, refused.body.totp_required], code).toEqual([401, true]);
    }
  });

  test('a recovery code signs in once (any case, with or without its dash), and the count of codes left drops', async () => {
    const u = await newUser();
    const { recovery_codes } = await enrol(u);
    const [first, second] = recovery_codes;
    expect((await login(u.email, u.password, first)).access_token).toBeTruthy();
    const again = await failure(login(u.email, u.password, first));
    expect([again.status, again.body.totp_required]).toEqual([401, true]);
    expect((await login(u.email, u.password, ` ${second.replace('-', '').toUpperCase()} `)).access_token).toBeTruthy();
    expect((await u.api.auth.totpStatus()).recovery_codes_left).toBe(8);
  });

  test('wrong codes count like wrong passwords: after five the right code is refused with 429 and Retry-After', async () => {
    const u = await newUser();
    const { secret } = await enrol(u);
    const right = await totpCode(secret);
    const wrong = right === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) expect((await failure(login(u.email, u.password, wrong))).status).toBe(401);
    const res = await s.fetch('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: u.email, password: u.password, totp: right }),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await res.json()) as { detail: string }).detail).toBe('Demasiados intentos fallidos. Espera unos minutos e inténtalo de nuevo.');
  });

  test('asking for the code (right password, no code) counts nothing: a user may ask as often as needed', async () => {
    const u = await newUser();
    const { secret } = await enrol(u);
    for (let i = 0; i < 8; i++) expect((await failure(login(u.email, u.password))).body.totp_required).toBe(true);
    expect((await login(u.email, u.password, await totpCode(secret))).access_token).toBeTruthy();
  });
});

describe('turning it off', () => {
  test('needs the current password: a wrong one is a 400 that keeps 2FA on; then sign-in needs the password only', async () => {
    const u = await newUser();
    await enrol(u);
    const wrong = await failure(u.api.auth.totpDisable({ password: 'not-the-password' }));
    expect([wrong.status, wrong.detail]).toEqual([400, 'La contraseña actual no es correcta']);
    expect((await u.api.auth.totpStatus()).enabled).toBe(true);
    expect(await u.api.auth.totpDisable({ password: u.password })).toEqual({ detail: 'Verificación en dos pasos desactivada' });
    expect(await u.api.auth.totpStatus()).toMatchObject({ enabled: false, pending: false, recovery_codes_left: 0 });
    expect((await login(u.email, u.password)).access_token).toBeTruthy();
    const twice = await failure(u.api.auth.totpDisable({ password: u.password }));
    expect([twice.status, twice.detail]).toEqual([409, 'La verificación en dos pasos no está activada.']);
    // It can be turned on again with a new secret.
    expect((await enrol(u)).recovery_codes).toHaveLength(10);
  });

  test('turning it on and off is in the audit trail', async () => {
    const u = await newUser();
    await enrol(u);
    await u.api.auth.totpDisable({ password: u.password });
    const { rows } = await s.app.services.store.audit.query({ actor: u.email, action: 'user' }, 'asc', 0, 10);
    expect(rows.map((r) => r.action)).toEqual(['user.2fa_enable', 'user.2fa_disable']);
    expect(rows[0]).toMatchObject({ actor_email: u.email, target_kind: 'user', target_label: u.email, after: { two_factor: true } });
  });
});

describe('an admin turning it off for a user who lost their phone and recovery codes', () => {
  const reset = (token: string | undefined, id: string) =>
    s.fetch(`/api/admin/users/${encodeURIComponent(id)}/totp`, { method: 'DELETE', headers: token ? { authorization: `Bearer ${token}` } : {} });
  const listed = async (id: string) => (await (await s.admin()).admin.listUsers()).find((x) => x.id === id);
  const idOf = async (email: string) => (await s.app.services.store.users.byEmail(email))!.id;

  test('the users list says who has it on; after the reset the password alone signs in, and it is in the audit trail', async () => {
    const u = await newUser();
    const id = await idOf(u.email);
    expect((await listed(id))?.two_factor).toBe(false);
    await enrol(u);
    expect((await listed(id))?.two_factor).toBe(true);
    expect((await failure(login(u.email, u.password))).body.totp_required).toBe(true);

    const admin = await s.admin();
    await admin.admin.resetUserTotp({ id });
    expect((await listed(id))?.two_factor).toBe(false);
    expect((await login(u.email, u.password)).access_token).toBeTruthy();
    expect(await u.api.auth.totpStatus()).toMatchObject({ enabled: false, pending: false });
    const { rows } = await s.app.services.store.audit.query({ action: 'user.2fa_reset', target_id: id }, 'asc', 0, 10);
    expect(rows).toEqual([
      expect.objectContaining({ actor_email: ADMIN.email, target_label: u.email, before: { two_factor: true }, after: { two_factor: false } }),
    ]);
    // Off already: a 409 that writes nothing; the user can turn it on again themselves.
    const twice = await failure(admin.admin.resetUserTotp({ id }));
    expect([twice.status, twice.detail]).toEqual([409, 'Este usuario no tiene activada la verificación en dos pasos.']);
    expect((await enrol(u)).recovery_codes).toHaveLength(10);
  });

  test('a pending enrolment is not 2FA on (409); an unknown or hostile id is a 404 or 400 {detail} that turns nothing off', async () => {
    const pending = await newUser();
    await pending.api.auth.totpBegin({ password: pending.password });
    const pendingId = await idOf(pending.email);
    const on = await newUser();
    await enrol(on);
    const onId = await idOf(on.email);
    const admin = await s.admin();
    const before = await s.storedEntities();
    const refused = await failure(admin.admin.resetUserTotp({ id: pendingId }));
    expect([refused.status, refused.detail]).toEqual([409, 'Este usuario no tiene activada la verificación en dos pasos.']);
    for (const id of ['no-such-user', "' OR 1=1 --", '%', '*', '../totp', onId.toUpperCase(), `${onId} `, '\u0000']) {
      const res = await reset(admin.token, id);
      expect(res.status, id).toBe(404);
      expect(((await res.json()) as { detail: string }).detail, id).toBe('Usuario no encontrado');
    }
    const long = await reset(admin.token, 'x'.repeat(65));
    expect(long.status).toBe(400);
    expect(((await long.json()) as { detail: string }).detail).toMatch(/^Identificador: /);
    expect(await s.storedEntities()).toBe(before);
    expect((await on.api.auth.totpStatus()).enabled).toBe(true);
  });

  test('staff get 403 and the anonymous 401: 2FA stays on', async () => {
    const on = await newUser();
    await enrol(on);
    const onId = await idOf(on.email);
    const staff = await newUser();
    const forbidden = await reset(staff.api.token, onId);
    expect([forbidden.status, ((await forbidden.json()) as { detail: string }).detail]).toEqual([403, 'No autorizado']);
    expect((await failure(on.api.admin.resetUserTotp({ id: onId }))).status).toBe(403); // not even their own
    expect((await reset(undefined, onId)).status).toBe(401);
    expect((await on.api.auth.totpStatus()).enabled).toBe(true);
  });
});

describe("the protected admin's 2FA and sessions are its own", () => {
  test('another admin gets 403 removing its 2FA or ending its sessions, and nothing changes; the protected admin ends its own', async () => {
    const own = await startTestServer();
    try {
      const protectedAdmin = { api: await own.admin(), password: ADMIN.password };
      await enrol(protectedAdmin);
      const protectedId = (await own.app.services.store.users.byEmail(ADMIN.email))!.id;
      const other = await newUser(own, true);
      const [session] = await other.api.admin.userSessions({ id: protectedId });
      const call = (method: string, path: string) => own.fetch(path, { method, headers: { authorization: `Bearer ${other.api.token}` } });
      for (const path of [
        `/api/admin/users/${protectedId}/totp`,
        `/api/admin/users/${protectedId}/sessions`,
        `/api/admin/users/${protectedId}/sessions/${session.id}`,
      ]) {
        const res = await call('DELETE', path);
        expect(res.status, path).toBe(403);
        expect(((await res.json()) as { detail: string }).detail).toBe(
          'Solo el administrador protegido puede cambiar su verificación en dos pasos y cerrar sus sesiones.',
        );
      }
      expect((await protectedAdmin.api.auth.totpStatus()).enabled).toBe(true);
      expect((await protectedAdmin.api.auth.me()).email).toBe(ADMIN.email);
      const { rows } = await own.app.services.store.audit.query({ target_id: protectedId }, 'asc', 0, 50);
      expect(rows.map((r) => r.action)).not.toContain('session.end_all');
      // The other admin still manages everyone else: its own sessions, a staff user's.
      const staff = await newUser(own);
      expect((await other.api.admin.endUserSessions({ id: (await own.app.services.store.users.byEmail(staff.email))!.id })).ended).toBe(1);
      // The protected admin ends its own sessions (this one included).
      expect((await protectedAdmin.api.admin.endUserSessions({ id: protectedId })).ended).toBeGreaterThan(0);
      expect((await failure(protectedAdmin.api.auth.me())).status).toBe(401);
    } finally {
      await own.close();
    }
  });
});

describe('hostile input on the 2FA routes', () => {
  const post = (path: string, token: string, body: string) =>
    s.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body });

  test('missing, malformed, oversized and hostile codes are 400 {detail} in Spanish and store nothing', async () => {
    const u = await newUser();
    await u.api.auth.totpBegin({ password: u.password });
    const before = await s.storedEntities();
    const cases: Array<[string, number, RegExp]> = [
      ['{}', 400, /^Código: /],
      ['{"code": 123456}', 400, /^Código: /],
      ['{"code": "12345"}', 400, /^El código debe tener 6 dígitos$/],
      ['{"code": "1234567"}', 400, /^El código debe tener 6 dígitos$/],
      ['{"code": "abcdef"}', 400, /^El código debe tener 6 dígitos$/],
      [JSON.stringify({ code: "' OR 1=1 --" }), 400, /^El código debe tener 6 dígitos$/],
      [JSON.stringify({ code: { $gt: '' } }), 400, /^Código: /],
      [JSON.stringify({ code: '1'.repeat(10_000) }), 400, /^Código: /],
      ['{"code": "12', 400, /^JSON mal formado$/],
      [JSON.stringify({ code: 'x'.repeat(2_000_000) }), 413, /^El cuerpo de la petición es demasiado grande$/],
    ];
    for (const [body, status, detail] of cases) {
      const res = await post('/api/me/totp/confirm', u.api.token, body);
      expect(res.status, body.slice(0, 40)).toBe(status);
      expect(((await res.json()) as { detail: string }).detail, body.slice(0, 40)).toMatch(detail);
    }
    for (const body of ['{}', '{"password": ""}', '{"password": 12}', JSON.stringify({ password: 'x'.repeat(5000) })]) {
      const res = await post('/api/me/totp/disable', u.api.token, body);
      expect(res.status, body.slice(0, 40)).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^Contraseña: /);
    }
    expect(await s.storedEntities()).toBe(before);
    expect(await u.api.auth.totpStatus()).toMatchObject({ enabled: false, pending: true });
  });

  test('a sign-in code longer than 64 characters is a 400; the new routes need a session', async () => {
    const res = await s.fetch('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password, totp: '1'.repeat(65) }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/^Código de verificación: /);
    for (const [method, path] of [
      ['GET', '/api/me/totp'],
      ['POST', '/api/me/totp'],
      ['POST', '/api/me/totp/confirm'],
      ['POST', '/api/me/totp/disable'],
    ]) {
      const anon = await s.fetch(path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'POST' ? '{"code":"123456"}' : undefined,
      });
      expect(anon.status, path).toBe(401);
    }
  });
});

describe('ADOPS_REQUIRE_2FA', () => {
  test('is off by default, takes admins or all, and a bad value names the variable', () => {
    expect(loadConfig({}).require2fa).toBe('off');
    expect(loadConfig({ ADOPS_REQUIRE_2FA: 'Admins' }).require2fa).toBe('admins');
    expect(loadConfig({ ADOPS_REQUIRE_2FA: 'all' }).require2fa).toBe('all');
    expect(loadConfig({ ADOPS_REQUIRE_2FA: 'off' }).require2fa).toBe('off');
    expect(() => loadConfig({ ADOPS_REQUIRE_2FA: 'everyone' })).toThrow(ConfigError);
    expect(() => loadConfig({ ADOPS_REQUIRE_2FA: 'everyone' })).toThrow(/ADOPS_REQUIRE_2FA must be off, admins or all/);
  });

  test('=admins: an admin without 2FA signs in but only Mi cuenta answers (403 totp_setup_required) until they enrol; staff are not affected', async () => {
    const strict = await startTestServer({ require2fa: 'admins' });
    try {
      // The protected admin too: on the first start they enrol before anything else.
      const first = await failure((await strict.admin()).admin.listUsers());
      expect([first.status, first.body.totp_setup_required]).toEqual([403, true]);
      const staff = await newUser(strict, false);
      await expect(staff.api.dashboard.rawOptions()).resolves.toBeDefined();
      const boss = await newUser(strict, true);
      const blocked = await failure(boss.api.admin.listUsers());
      expect(blocked.status).toBe(403);
      expect(blocked.body).toEqual({
        detail:
          'Tu cuenta debe tener activada la verificación en dos pasos: actívala en el menú de usuario → Cambiar contraseña (o con adops 2fa enable) para continuar.',
        totp_setup_required: true,
      });
      expect((await failure(boss.api.dashboard.rawOptions())).body.totp_setup_required).toBe(true);
      // Mi cuenta still answers: who am I, the 2FA state and enrolment.
      expect((await boss.api.auth.me()).email).toBe(boss.email);
      expect(await boss.api.auth.totpStatus()).toMatchObject({ enabled: false, required: true });
      const { secret } = await boss.api.auth.totpBegin({ password: boss.password });
      await boss.api.auth.totpConfirm({ code: await totpCode(secret) });
      expect((await boss.api.admin.listUsers()).length).toBeGreaterThan(1);
      // From now on signing in takes the code.
      const refused = await failure(strict.anon.auth.login({ email: boss.email, password: boss.password }));
      expect(refused.body.totp_required).toBe(true);
      const fresh = await strict.anon.auth.login({ email: boss.email, password: boss.password, totp: await totpCode(secret, 1) });
      const ok = await strict.fetch('/api/admin/users', { headers: { authorization: `Bearer ${fresh.access_token}` } });
      expect(ok.status).toBe(200);
      // Turning it off puts the admin back behind the wall.
      await boss.api.auth.totpDisable({ password: boss.password });
      expect((await failure(boss.api.admin.listUsers())).body.totp_setup_required).toBe(true);
      // Signing out still works.
      await boss.api.auth.logout();
    } finally {
      await strict.close();
    }
  });
});
