// Session commands against a live test server: login (piped and at a terminal), whoami,
// logout, passwd, and the messages for refused, expired and unreachable sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { fakeTerminal, newConfigDir, runCli } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const login = (dir: string, email = ADMIN.email, password = ADMIN.password) =>
  runCli(['login', '--email', email], dir, server.url, { stdin: `${password}\n` });

/** A JWT-shaped token the server never signed (claims readable, signature wrong). */
function forgedToken(expSeconds: number): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: ADMIN.email, is_admin: true, exp: expSeconds })}.c2lnbmF0dXJl`;
}

async function unusedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('adops login / whoami / logout', () => {
  it('login with a piped password stores the session in a file only its owner can read', async () => {
    const dir = await newConfigDir();
    const result = await login(dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Sesión iniciada como ${ADMIN.email} en ${server.url}`);
    const file = path.join(dir, 'credentials.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { server: string; token: string };
    expect(saved.server).toBe(server.url);
    // The stored token is a working session.
    const me = await fetch(`${server.url}/api/me`, { headers: { authorization: `Bearer ${saved.token}` } });
    expect(me.status).toBe(200);
  });

  it('whoami shows the signed-in admin, as text at a terminal and as JSON otherwise', async () => {
    const dir = await newConfigDir();
    await login(dir);
    const text = await runCli(['whoami'], dir, server.url, { isTTY: true });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`Email:\\s+${ADMIN.email.replace('.', '\\.')}`));
    expect(text.stdout).toMatch(/Admin:\s+sí/);
    expect(text.stdout).toMatch(/Expira:\s+\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} \(en 1[12] h/);

    const json = await runCli(['whoami'], dir, server.url);
    expect(json.code).toBe(0);
    const me = JSON.parse(json.stdout) as { email: string; is_admin: boolean; expires_at: string; server: string };
    expect(me).toMatchObject({ email: ADMIN.email, is_admin: true, server: server.url });
    const hoursLeft = (Date.parse(me.expires_at) - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(11.9);
    expect(hoursLeft).toBeLessThanOrEqual(12);
  });

  it('a wrong password fails with the server detail and stores nothing', async () => {
    const dir = await newConfigDir();
    const result = await login(dir, ADMIN.email, 'not-the-password');
    expect(result.code).toBe(3);
    expect(result.stderr.trim()).toBe('Email o contraseña incorrectos');
    await expect(stat(path.join(dir, 'credentials.json'))).rejects.toThrow();
  });

  it('without --email and without a terminal, reads the email then the password from stdin', async () => {
    const dir = await newConfigDir();
    const result = await runCli(['login'], dir, server.url, { stdin: `${ADMIN.email}\n${ADMIN.password}\n` });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Sesión iniciada como ${ADMIN.email}`);
    const empty = await runCli(['login', '--email', ADMIN.email], await newConfigDir(), server.url, { stdin: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('Falta la contraseña en la entrada estándar');
  });

  it('at a terminal the password is typed in raw mode and never echoed', async () => {
    const dir = await newConfigDir();
    const tty = fakeTerminal();
    const pending = runCli(['login', '--email', ADMIN.email], dir, server.url, { stdinStream: tty });
    // Typed with a slip corrected by Backspace, and an arrow key that must be ignored.
    await tty.answer(`${ADMIN.password.slice(0, -1)}X\u007f\u001b[D${ADMIN.password.slice(-1)}`);
    tty.write('\r');
    const result = await pending;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Contraseña: ');
    expect(result.stderr + result.stdout).not.toContain(ADMIN.password);
    expect(result.stderr).not.toContain('*');
    expect(tty.rawModes).toEqual([true, false]);
  });

  it('Ctrl-C at the password prompt cancels without storing anything', async () => {
    const dir = await newConfigDir();
    const tty = fakeTerminal();
    const pending = runCli(['login', '--email', ADMIN.email], dir, server.url, { stdinStream: tty });
    await tty.answer('half-typed\u0003');
    const result = await pending;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('Cancelado');
    expect(tty.rawModes).toEqual([true, false]);
    await expect(stat(path.join(dir, 'credentials.json'))).rejects.toThrow();
  });

  it('logout ends the session on the server and removes the credentials; whoami then tells to run adops login', async () => {
    const dir = await newConfigDir();
    await login(dir);
    const { token } = JSON.parse(await readFile(path.join(dir, 'credentials.json'), 'utf8')) as { token: string };
    const bearer = { headers: { authorization: `Bearer ${token}` } };
    expect((await server.fetch('/api/me', bearer)).status).toBe(200);
    const out = await runCli(['logout'], dir, server.url);
    expect(out.code).toBe(0);
    expect(out.stdout.trim()).toBe('Sesión cerrada');
    expect(out.stderr).toBe('');
    // A copy of the token kept elsewhere is worthless now.
    expect((await server.fetch('/api/me', bearer)).status).toBe(401);
    await expect(stat(path.join(dir, 'credentials.json'))).rejects.toThrow();
    const who = await runCli(['whoami'], dir, server.url);
    expect(who.code).toBe(3);
    expect(who.stderr).toContain('adops login');
    expect(who.stdout).toBe('');
    expect((await runCli(['logout'], dir, server.url)).stdout.trim()).toBe('No había ninguna sesión iniciada');
  });

  it('logout with the server unreachable still forgets the token, and says it may still be valid', async () => {
    const dir = await newConfigDir();
    await login(dir);
    const file = path.join(dir, 'credentials.json');
    const stored = JSON.parse(await readFile(file, 'utf8')) as { server: string; token: string };
    await writeFile(file, JSON.stringify({ ...stored, server: 'http://127.0.0.1:9' }));
    const out = await runCli(['logout'], dir, 'http://127.0.0.1:9');
    expect(out.code).toBe(0);
    expect(out.stdout.trim()).toBe('Sesión cerrada');
    expect(out.stderr).toContain('no se pudo avisar a http://127.0.0.1:9');
    expect(out.stderr).toContain('el token sigue valiendo hasta que expire');
    await expect(stat(file)).rejects.toThrow();
  });

  it('a session the server rejects reads "Sesión no válida o expirada"', async () => {
    const dir = await newConfigDir();
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, 'credentials.json');
    await writeFile(file, JSON.stringify({ server: server.url, token: forgedToken(Math.floor(Date.now() / 1000) + 3600) }));
    const forged = await runCli(['whoami'], dir, server.url);
    expect(forged.code).toBe(3);
    expect(forged.stderr.trim()).toBe('Sesión no válida o expirada: ejecuta `adops login`');

    await writeFile(file, JSON.stringify({ server: server.url, token: forgedToken(Math.floor(Date.now() / 1000) - 60) }));
    const expired = await runCli(['users', 'list'], dir, server.url);
    expect(expired.code).toBe(3);
    expect(expired.stderr.trim()).toBe('Sesión no válida o expirada: ejecuta `adops login`');
  });

  it('an unreachable server is named in a one-line error', async () => {
    const port = await unusedPort();
    const down = `http://127.0.0.1:${port}`;
    const result = await runCli(['login', '--email', ADMIN.email], await newConfigDir(), down, { stdin: 'whatever\n' });
    expect(result.code).toBe(5);
    expect(result.stderr.trim()).toBe(`No se pudo conectar con ${down}`);
  });

  it('never sends a stored token to a different server', async () => {
    const dir = await newConfigDir();
    await login(dir);
    let requests = 0;
    const other = http.createServer((_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherUrl = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
    try {
      const result = await runCli(['--server', otherUrl, 'whoami'], dir, server.url);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`No has iniciado sesión en ${otherUrl}`);
      expect(requests).toBe(0);
      // ADOPS_URL pointing elsewhere is honoured the same way; --server wins over it.
      const viaEnv = await runCli(['whoami'], dir, otherUrl);
      expect(viaEnv.code).toBe(3);
      expect((await runCli(['whoami', '--server', server.url], dir, otherUrl)).code).toBe(0);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('a server URL that is not http(s) is a usage error', async () => {
    const result = await runCli(['whoami', '--server', 'ftp://example.com'], await newConfigDir(), server.url);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('URL de servidor no válida');
  });
});

describe('this terminal as a known device', () => {
  it('keeps its device token (0600) past logout: after eleven wrong passwords from eleven addresses it still signs in; a new terminal gets 429', async () => {
    const email = 'conocido@test.local';
    const password = 'conocido-pass-1';
    await server.app.services.users.create({ first_name: 'Co', last_name: 'Nocido', email, password, is_admin: false });
    const dir = await newConfigDir();
    expect((await login(dir, email, password)).code).toBe(0);
    const file = path.join(dir, 'devices.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Object.values(JSON.parse(await readFile(file, 'utf8')) as Record<string, string>)).toEqual([expect.stringMatching(/^d1\./)]);
    expect((await runCli(['logout'], dir, server.url)).code).toBe(0);

    // Someone guesses from eleven addresses: the account is closed to unknown devices.
    const guess = (i: number) =>
      server.app.services.auth.login(email, `guess-${i}`, { ip: `192.0.2.${i + 1}`, userAgent: 'x' }).catch((e: { status: number }) => e.status);
    for (let i = 0; i < 11; i++) await guess(i);
    const fresh = await login(await newConfigDir(), email, password);
    expect([fresh.code, fresh.stderr.trim()]).toEqual([1, 'Demasiados intentos fallidos. Espera unos minutos e inténtalo de nuevo.']);
    const known = await login(dir, email, password);
    expect(known.stderr).toBe('');
    expect(known.code).toBe(0);
  });
});

describe('adops passwd', () => {
  it('changes the password with the current one and refuses a wrong current one', async () => {
    const admin = await server.admin();
    await admin.admin.createUser({ first_name: 'Marta', email: 'marta@test.local', password: 'marta-old-pass' });
    const dir = await newConfigDir();
    expect((await login(dir, 'marta@test.local', 'marta-old-pass')).code).toBe(0);

    const wrong = await runCli(['passwd'], dir, server.url, { stdin: 'not-current\nmarta-new-pass\n' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe('La contraseña actual no es correcta');

    const short = await runCli(['passwd'], dir, server.url, { stdin: 'marta-old-pass\nshort\n' });
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('al menos 8 caracteres');

    const ok = await runCli(['passwd'], dir, server.url, { stdin: 'marta-old-pass\nmarta-new-pass\n' });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim()).toBe('Contraseña actualizada');
    expect((await login(await newConfigDir(), 'marta@test.local', 'marta-new-pass')).code).toBe(0);
    expect((await login(await newConfigDir(), 'marta@test.local', 'marta-old-pass')).code).toBe(3);
  });

  it('keeps this terminal signed in on the fresh token while older sessions end', async () => {
    const admin = await server.admin();
    await admin.admin.createUser({ first_name: 'Nil', email: 'nil@test.local', password: 'nil-old-pass' });
    const here = await newConfigDir();
    const elsewhere = await newConfigDir();
    expect((await login(here, 'nil@test.local', 'nil-old-pass')).code).toBe(0);
    expect((await login(elsewhere, 'nil@test.local', 'nil-old-pass')).code).toBe(0);
    expect((await runCli(['passwd'], here, server.url, { stdin: 'nil-old-pass\nnil-new-pass\n' })).code).toBe(0);
    const whoHere = await runCli(['whoami', '--json'], here, server.url);
    expect(whoHere.code).toBe(0);
    expect(JSON.parse(whoHere.stdout)).toMatchObject({ email: 'nil@test.local' });
    const whoElsewhere = await runCli(['whoami'], elsewhere, server.url);
    expect(whoElsewhere.code).toBe(3);
  });
});
