// Admin commands against a live test server: users and publisher tokens, their machine
// and terminal output, and the server's refusals (protected admin, non-admins).
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublisherToken, User } from '@adops/core';
import { ADMIN, knownPublishers, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { fakeTerminal, newConfigDir, runCli } from './helpers.js';

let server: TestServer;
let adminDir: string;
const cli = (args: string[], options?: Parameters<typeof runCli>[3]) => runCli(args, adminDir, server.url, options);

beforeAll(async () => {
  server = await startTestServer();
  // Tokens are made only for publishers the network knows (reported, or given a revenue share).
  await knownPublishers(await server.admin(), 'Diario Ñandú', 'acme', 'Limitado', 'Otro', 'dup');
  adminDir = await newConfigDir();
  const login = await runCli(['login', '--email', ADMIN.email], adminDir, server.url, { stdin: `${ADMIN.password}\n` });
  expect(login.code).toBe(0);
});
afterAll(async () => {
  await server?.close();
});

const storedUsers = () => server.app.services.users.list();

describe('adops users', () => {
  it('creates, lists, updates and deletes a user (JSON output parses)', async () => {
    const created = await cli(
      ['users', 'create', '--first-name', 'Lucía', '--last-name', 'Pérez', '--email', 'Lucia@Example.com', '--password-stdin'],
      { stdin: 'lucia-pass-123\n' },
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const user = JSON.parse(created.stdout) as User;
    expect(user).toMatchObject({ first_name: 'Lucía', last_name: 'Pérez', email: 'lucia@example.com', is_admin: false });

    const listed = await cli(['users', 'list', '--json']);
    expect(listed.code).toBe(0);
    const users = JSON.parse(listed.stdout) as User[];
    expect(users.map((u) => u.email).sort()).toEqual([ADMIN.email, 'lucia@example.com']);

    const updated = await cli(['users', 'update', user.id, '--last-name', 'Pérez Gil', '--admin', '--json']);
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({ id: user.id, last_name: 'Pérez Gil', is_admin: true, first_name: 'Lucía' });

    // By email too, and --no-admin takes the role away.
    const demoted = await cli(['users', 'update', 'lucia@example.com', '--no-admin']);
    expect(demoted.code).toBe(0);
    expect((await storedUsers()).find((u) => u.id === user.id)?.is_admin).toBe(false);

    const deleted = await cli(['users', 'delete', user.id, '--yes']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain('Usuario eliminado: Lucía Pérez Gil <lucia@example.com>');
    expect((await storedUsers()).some((u) => u.id === user.id)).toBe(false);
  });

  it('a new password set with --password-prompt is the one that signs in', async () => {
    const created = await cli(['users', 'create', '--first-name', 'Tomás', '--email', 'tomas@test.local'], { stdin: 'tomas-pass-1\n' });
    expect(created.code).toBe(0);
    const changed = await cli(['users', 'update', 'tomas@test.local', '--password-prompt'], { stdin: 'tomas-pass-2\n' });
    expect(changed.code).toBe(0);
    await expect(server.as('tomas@test.local', 'tomas-pass-2')).resolves.toHaveProperty('token');
    await expect(server.as('tomas@test.local', 'tomas-pass-1')).rejects.toMatchObject({ status: 401 });
  });

  it('at a terminal, users list draws an aligned table with headers', async () => {
    const result = await cli(['users', 'list'], { isTTY: true });
    expect(result.code).toBe(0);
    const lines = stripVTControlCharacters(result.stdout).split('\n');
    const header = lines.find((l) => l.startsWith('Email'))!;
    expect(header).toMatch(/^Email\s+Nombre\s+Apellido\s+Admin\s+Protegido\s+2FA\s+Alta\s+ID/);
    const adminRow = lines.find((l) => l.startsWith(ADMIN.email))!;
    expect(adminRow).toBeDefined();
    // Each column starts at the same position in the header and in the row.
    expect(adminRow.indexOf('sí')).toBe(header.indexOf('Admin'));
    expect(() => JSON.parse(result.stdout)).toThrow();
  });

  it('refuses to delete the protected admin with the server detail, and keeps it', async () => {
    const protectedAdmin = (await storedUsers()).find((u) => u.protected)!;
    const result = await cli(['users', 'delete', protectedAdmin.id, '--yes']);
    expect(result.code).toBe(4);
    expect(result.stderr.trim()).toBe('El administrador protegido no se puede eliminar');
    const edit = await cli(['users', 'update', ADMIN.email, '--first-name', 'Otro']);
    expect(edit.code).toBe(4);
    expect(edit.stderr.trim()).toBe('El administrador protegido no se puede modificar');
    expect((await storedUsers()).find((u) => u.id === protectedAdmin.id)).toMatchObject({ email: ADMIN.email, protected: true });
  });

  it('without a terminal, delete needs --yes and deletes nothing otherwise', async () => {
    await cli(['users', 'create', '--first-name', 'Ana', '--email', 'ana@test.local'], { stdin: 'ana-pass-123\n' });
    const result = await cli(['users', 'delete', 'ana@test.local']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--yes');
    expect((await storedUsers()).some((u) => u.email === 'ana@test.local')).toBe(true);
  });

  it('at a terminal, delete asks first: "n" keeps the user, "s" deletes it', async () => {
    await cli(['users', 'create', '--first-name', 'Eva', '--email', 'eva@test.local'], { stdin: 'eva-pass-1234\n' });
    const answer = async (key: string) => {
      const tty = fakeTerminal();
      const pending = cli(['users', 'delete', 'eva@test.local'], { stdinStream: tty });
      await tty.answer(`${key}\r`);
      return pending;
    };
    const kept = await answer('n');
    expect(kept.code).toBe(130);
    expect(kept.stderr).toContain('¿Eliminar el usuario Eva <eva@test.local>? [s/N]');
    expect((await storedUsers()).some((u) => u.email === 'eva@test.local')).toBe(true);
    const gone = await answer('s');
    expect(gone.code).toBe(0);
    expect((await storedUsers()).some((u) => u.email === 'eva@test.local')).toBe(false);
  });

  it('at a terminal, create asks for the password twice without echo and refuses a mismatch', async () => {
    const tty = fakeTerminal();
    const pending = cli(['users', 'create', '--first-name', 'Leo', '--email', 'leo@test.local'], { stdinStream: tty });
    await tty.answer('leo-pass-1234\r');
    await tty.answer('leo-pass-9999\r');
    const result = await pending;
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Repite la contraseña: ');
    expect(result.stderr).toContain('Las contraseñas no coinciden');
    expect(result.stderr).not.toContain('leo-pass');
    expect((await storedUsers()).some((u) => u.email === 'leo@test.local')).toBe(false);
  });

  it('reports bad input with the server detail: duplicate email, short password, unknown user, nothing to change', async () => {
    const dup = await cli(['users', 'create', '--first-name', 'X', '--email', ADMIN.email], { stdin: 'long-enough-1\n' });
    expect(dup.code).toBe(1);
    expect(dup.stderr.trim()).toBe('Ya existe un usuario con ese email');
    const short = await cli(['users', 'create', '--first-name', 'X', '--email', 'x@test.local'], { stdin: 'short\n' });
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('al menos 8 caracteres');
    const missing = await cli(['users', 'create', '--email', 'y@test.local'], { stdin: 'long-enough-1\n' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--first-name');
    const unknown = await cli(['users', 'delete', 'no-such-id', '--yes']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('Usuario no encontrado');
    const nothing = await cli(['users', 'update', 'no-such-id']);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('Nada que cambiar');
    expect((await storedUsers()).some((u) => u.email === 'x@test.local' || u.email === 'y@test.local')).toBe(false);
  });

  it('a non-admin is told "No autorizado"', async () => {
    await cli(['users', 'create', '--first-name', 'Raúl', '--email', 'raul@test.local'], { stdin: 'raul-pass-123\n' });
    const dir = await newConfigDir();
    expect((await runCli(['login', '--email', 'raul@test.local'], dir, server.url, { stdin: 'raul-pass-123\n' })).code).toBe(0);
    for (const args of [
      ['users', 'list'],
      ['tokens', 'list'],
      ['tokens', 'create', 'sneaky'],
    ]) {
      const result = await runCli(args, dir, server.url);
      expect(result.code).toBe(4);
      expect(result.stderr.trim()).toBe('No autorizado');
    }
    expect((await runCli(['whoami', '--json'], dir, server.url)).stdout).toContain('"is_admin": false');
  });
});

describe('adops users sessions | end-sessions', () => {
  it('lists a user’s open sessions and ends one, then all; their tokens stop working at once', async () => {
    const email = 'sesiones@example.com';
    expect((await cli(['users', 'create', '--first-name', 'Ses', '--email', email, '--password-stdin'], { stdin: 'sesiones-pass-1\n' })).code).toBe(
      0,
    );
    const a = await server.as(email, 'sesiones-pass-1');
    const b = await server.as(email, 'sesiones-pass-1');
    const listed = await cli(['users', 'sessions', email, '--json']);
    expect(listed.code).toBe(0);
    const sessions = JSON.parse(listed.stdout) as Array<{ id: string; ip: string; current: boolean }>;
    expect(sessions).toHaveLength(2);
    expect(sessions.every((x) => x.ip.includes('127.0.0.1') && !x.current)).toBe(true);

    // On an 80-column terminal: the short id, the device, the address and when, each line whole.
    const screen = stripVTControlCharacters((await cli(['users', 'sessions', email], { isTTY: true, columns: 80 })).stdout);
    for (const header of ['Sesión', 'Dispositivo', 'IP', 'Último uso', 'Expira']) expect(screen).toContain(header);
    for (const x of sessions) expect(screen).toContain(x.id.slice(0, 8));
    expect(screen).toContain('Script (Node.js)');
    for (const line of screen.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(screen).not.toContain('…');

    // The session of a's token (the newest is listed first; find it by the token's jti).
    const jti = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).jti as string;
    // The short id the table shows is enough.
    const one = await cli(['users', 'end-sessions', email, '--session', jti(a.token).slice(0, 8), '--yes'], { isTTY: true });
    expect(one.code).toBe(0);
    expect(one.stdout.trim()).toBe(`1 sesión cerrada: Ses <${email}>`);
    expect((await server.fetch('/api/me', { headers: { authorization: `Bearer ${a.token}` } })).status).toBe(401);
    expect((await server.fetch('/api/me', { headers: { authorization: `Bearer ${b.token}` } })).status).toBe(200);

    const all = await cli(['users', 'end-sessions', email, '--yes', '--json']);
    expect(JSON.parse(all.stdout)).toEqual({ ended: 1 });
    expect((await server.fetch('/api/me', { headers: { authorization: `Bearer ${b.token}` } })).status).toBe(401);
    expect((await cli(['users', 'sessions', email], { isTTY: true })).stdout.trim()).toBe('No tiene sesiones abiertas');
  });

  it('an unknown session is the server’s 404 in Spanish, exit 1, nothing ended', async () => {
    const sessions = async () => JSON.parse((await cli(['users', 'sessions', ADMIN.email, '--json'])).stdout) as Array<{ current: boolean }>;
    const before = await sessions();
    expect(before.filter((x) => x.current)).toHaveLength(1); // this command's own session, opened by adops login
    expect(before.find((x) => x.current)?.user_agent).toBe('adops-cli');
    const r = await cli(['users', 'end-sessions', ADMIN.email, '--session', 'no-such-session', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('Sesión no encontrada');
    expect((await sessions()).map((x) => x.id)).toEqual(before.map((x) => x.id));
  });
});

describe('adops tokens', () => {
  const yesterdayUtc = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

  it('creates, lists, renews, prints the URL of and deletes a publisher token', async () => {
    const created = await cli(['tokens', 'create', 'Diario Ñandú']);
    expect(created.code).toBe(0);
    const token = JSON.parse(created.stdout) as PublisherToken & { url: string };
    expect(token.publisher_name).toBe('Diario Ñandú');
    expect(token.token.length).toBeGreaterThan(30);

    // Lists mask the token unless --reveal.
    const listed = JSON.parse((await cli(['tokens', 'list'])).stdout) as PublisherToken[];
    expect(listed.map((t) => [t.id, t.publisher_name, t.token])).toEqual([
      [token.id, 'Diario Ñandú', `${token.token.slice(0, 4)}…${token.token.slice(-4)}`],
    ]);
    const revealed = JSON.parse((await cli(['tokens', 'list', '--reveal'])).stdout) as PublisherToken[];
    expect(revealed.map((t) => t.token)).toEqual([token.token]);

    const url = await cli(['tokens', 'url', 'diario ñandú']);
    expect(url.code).toBe(0);
    const parsed = new URL(url.stdout.trim());
    expect(parsed.origin + parsed.pathname).toBe(`${server.url}/api/publisher/data`);
    expect(parsed.searchParams.get('token')).toBe(token.token);
    expect(parsed.searchParams.get('start_date')).toBe(yesterdayUtc());
    expect(parsed.searchParams.get('end_date')).toBe(yesterdayUtc());

    const ranged = await cli(['tokens', 'url', 'Diario Ñandú', '--from', '01/03/2026', '--to', '2026-03-31', '--json']);
    expect(JSON.parse(ranged.stdout)).toMatchObject({ start_date: '2026-03-01', end_date: '2026-03-31' });
    expect(JSON.parse(ranged.stdout).url).toContain('start_date=2026-03-01&end_date=2026-03-31');

    const renewed = JSON.parse((await cli(['tokens', 'renew', 'Diario Ñandú'])).stdout) as PublisherToken;
    expect(renewed.token).not.toBe(token.token);
    const afterRenew = JSON.parse((await cli(['tokens', 'list', '--reveal'])).stdout) as PublisherToken[];
    expect(afterRenew.map((t) => [t.id, t.token])).toEqual([[token.id, renewed.token]]);

    // Never by the token itself (it would stay in the shell's history): by id or publisher.
    const byToken = await cli(['tokens', 'delete', renewed.token, '--yes']);
    expect(byToken.code).toBe(2);
    expect(byToken.stderr.trim()).toBe('Nombra el token por su id o su publisher, no por el token (adops tokens list)');
    const deleted = await cli(['tokens', 'revoke', renewed.id, '--yes']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout.trim()).toBe('Token de Diario Ñandú eliminado');
    expect(JSON.parse((await cli(['tokens', 'list'])).stdout)).toEqual([]);
  });

  it('at a terminal, tokens list draws a table', async () => {
    const created = JSON.parse((await cli(['tokens', 'create', 'acme'])).stdout) as PublisherToken;
    try {
      const result = await cli(['tokens', 'list'], { isTTY: true });
      const lines = stripVTControlCharacters(result.stdout).split('\n');
      const header = lines.find((l) => l.startsWith('Id'))!;
      expect(header).toMatch(/^Id\s+Publisher\s+Token\s+Caduca\s+IPs permitidas\s+Límite\/h\s+Peticiones\s+Último uso\s+Creado/);
      const row = lines.find((l) => l.startsWith(created.id))!;
      expect(row).not.toContain(created.token);
      expect(row.indexOf(`${created.token.slice(0, 4)}…`)).toBe(header.indexOf('Token'));
      expect(row).toMatch(/nunca\s+todas\s+600 \(por defecto\)\s+0\s+/);
      // A narrow terminal cuts rows at its edge instead of wrapping them.
      const narrow = await cli(['tokens', 'list'], { isTTY: true, columns: 40 });
      const narrowLines = stripVTControlCharacters(narrow.stdout).split('\n').filter(Boolean);
      expect(narrowLines).toHaveLength(4);
      for (const line of narrowLines) expect(line.length).toBeLessThanOrEqual(40);
      // Under the table, the zone its times are in (the test server's: UTC).
      expect(narrowLines.at(-1)).toBe('Horas en UTC');
    } finally {
      await cli(['tokens', 'delete', created.id, '--yes']);
    }
  });

  it('creates and updates a token with an expiry, allowed addresses and a limit; the publisher feels them', async () => {
    const created = await cli([
      'tokens',
      'create',
      'Limitado',
      '--expires',
      '15/03/2099',
      '--allow-ip',
      '127.0.0.1,10.0.0.0/8',
      '--allow-ip',
      '::1',
      '--limit',
      '2',
    ]);
    expect(created.code).toBe(0);
    const t = JSON.parse(created.stdout) as PublisherToken;
    expect(t).toMatchObject({
      expires_at: '2099-03-15T00:00:00.000Z',
      allowed_ips: ['127.0.0.1', '10.0.0.0/8', '::1'],
      rate_limit: 2,
      effective_rate_limit: 2,
    });
    const pull = () =>
      fetch(`${server.url}/api/publisher/data?start_date=2026-03-01&end_date=2026-03-01`, { headers: { authorization: `Bearer ${t.token}` } });
    expect((await pull()).status).toBe(200);
    expect((await pull()).status).toBe(200);
    const limited = await pull();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const listed = (JSON.parse((await cli(['tokens', 'list'])).stdout) as PublisherToken[]).find((x) => x.id === t.id)!;
    expect(listed).toMatchObject({ request_count: 2, last_used_at: expect.any(String) });

    const updated = await cli(['tokens', 'update', 'limitado', '--limit', 'default', '--expires', 'never', '--allow-ip', 'any']);
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({ id: t.id, expires_at: null, allowed_ips: [], rate_limit: null, effective_rate_limit: 600 });
    const atTerminal = await cli(['tokens', 'update', t.id, '--limit', '600'], { isTTY: true });
    expect(atTerminal.stdout.trim()).toBe('Token de Limitado actualizado');
    const after = (JSON.parse((await cli(['tokens', 'list'])).stdout) as PublisherToken[]).find((x) => x.id === t.id)!;
    expect(after).toMatchObject({ expires_at: null, allowed_ips: [], rate_limit: 600, effective_rate_limit: 600 });
    expect((await pull()).status).toBe(200);
    const outside = await cli(['tokens', 'update', t.id, '--allow-ip', '203.0.113.0/24', '--json']);
    expect(JSON.parse(outside.stdout)).toMatchObject({ allowed_ips: ['203.0.113.0/24'], token: `${t.token.slice(0, 4)}…${t.token.slice(-4)}` });
    expect((await pull()).status).toBe(403);

    // Refusals: the server's Spanish detail (exit 1) or a usage error (exit 2); nothing changes.
    const badIp = await cli(['tokens', 'update', t.id, '--allow-ip', '10.0.0.0/33']);
    expect([badIp.code, badIp.stderr.trim()]).toEqual([
      1,
      'IPs permitidas (1.ª): «10.0.0.0/33» no es una dirección IP ni un rango CIDR (IPv4 o IPv6)',
    ]);
    const badLimit = await cli(['tokens', 'create', 'Otro', '--limit', 'mucho']);
    expect([badLimit.code, badLimit.stderr.trim()]).toEqual([2, '--limit debe ser un número entero de peticiones por hora (o default): mucho']);
    const past = await cli(['tokens', 'create', 'Otro', '--expires', '2020-01-01']);
    expect([past.code, past.stderr.trim()]).toEqual([1, 'Caduca el: la fecha ya pasó']);
    const badDay = await cli(['tokens', 'create', 'Otro', '--expires', '31/02/2099']);
    expect(badDay.code).toBe(2);
    const nothing = await cli(['tokens', 'update', t.id]);
    expect([nothing.code, nothing.stderr.trim()]).toEqual([2, 'Nada que cambiar: usa --expires, --allow-ip o --limit']);
    expect((JSON.parse((await cli(['tokens', 'list'])).stdout) as PublisherToken[]).map((x) => x.publisher_name)).not.toContain('Otro');
    expect((await cli(['tokens', 'delete', 'Limitado', '--yes'])).code).toBe(0);
  });

  it('reports refusals: duplicate, blank name, unknown publisher, bad range, unknown token', async () => {
    await cli(['tokens', 'create', 'dup']);
    const dup = await cli(['tokens', 'create', 'DUP']);
    expect(dup.code).toBe(1);
    expect(dup.stderr.trim()).toBe('Ya existe un token para ese publisher; usa Renovar');
    const blank = await cli(['tokens', 'create', '   ']);
    expect(blank.code).toBe(1);
    expect(blank.stderr).toContain('El nombre del publisher no puede estar vacío');
    const renewUnknown = await cli(['tokens', 'renew', 'nobody']);
    expect(renewUnknown.code).toBe(1);
    expect(renewUnknown.stderr.trim()).toBe('Publisher no válido para renovar.');
    const urlUnknown = await cli(['tokens', 'url', 'nobody']);
    expect(urlUnknown.code).toBe(1);
    expect(urlUnknown.stderr).toContain('No hay token para el publisher "nobody"');
    const badRange = await cli(['tokens', 'url', 'dup', '--from', '2026-03-10', '--to', '2026-03-01']);
    expect(badRange.code).toBe(2);
    expect(badRange.stderr.trim()).toBe('❌ Rango de fechas no válido.');
    const badDate = await cli(['tokens', 'url', 'dup', '--from', '31/02/2026']);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain('Fecha no válida en --from');
    const unknownToken = await cli(['tokens', 'delete', 'not-a-token', '--yes']);
    expect(unknownToken.code).toBe(1);
    expect(unknownToken.stderr.trim()).toBe('Token no encontrado');
    expect((JSON.parse((await cli(['tokens', 'list'])).stdout) as PublisherToken[]).map((t) => t.publisher_name)).toEqual(['dup']);
  });
});
