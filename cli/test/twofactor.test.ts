// Two-factor sign-in from the terminal against a live test server: `adops 2fa enable` (QR at a
// terminal, URL and secret, the app's first code, the recovery codes), `adops login` asking for
// the code when the account has 2FA on (or taking --totp), `adops 2fa status` and `disable`, and
// an admin's `adops users 2fa-reset` for a user who lost their phone.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ListedUser } from '@adops/core';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { awayFromStepEdge, totpCode } from '../../server/test/totp-codes.js';
import { run } from '../src/main.js';
import { newConfigDir, runCli } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => awayFromStepEdge());

let n = 0;
async function newUser() {
  const email = `cli-2fa${++n}@test.local`;
  const password = `clave-cli-${n}-segura`;
  await server.app.services.users.create({ first_name: 'Cli', last_name: 'Dos', email, password, is_admin: false });
  return { email, password };
}

const login = (dir: string, u: { email: string; password: string }, stdin: string, extra: string[] = []) =>
  runCli(['login', '--email', u.email, ...extra], dir, server.url, { stdin });

/**
 * Runs `adops 2fa enable` the way a person does: types the password, reads the secret it prints,
 * then types the code the app shows for it (`steps` from now) on stdin.
 */
async function enableThroughCli(dir: string, options: { password: string; isTTY: boolean; steps?: number; firstCode?: string }) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.write(`${options.password}\n`);
  let out = '';
  let err = '';
  let secret = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    const m = /Secreto:\s+([A-Z2-7 ]+)\n/.exec(out);
    if (m && !secret) {
      secret = m[1].replaceAll(' ', '');
      void totpCode(secret, options.steps ?? -1).then((code) => stdin.end(`${options.firstCode ?? code}\n`));
    }
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  if (options.isTTY) Object.assign(stdout, { columns: 120 });
  const code = await run(['2fa', 'enable'], {
    stdout,
    stderr,
    stdin,
    env: { ADOPS_CONFIG_DIR: dir, ADOPS_URL: server.url },
    isTTY: options.isTTY,
  });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: out, stderr: err, secret };
}

describe('adops 2fa enable', () => {
  it('at a terminal shows a QR code, the otpauth URL and the secret, takes the first code and prints 10 recovery codes', async () => {
    const u = await newUser();
    const dir = await newConfigDir();
    expect((await login(dir, u, `${u.password}\n`)).code).toBe(0);
    const r = await enableThroughCli(dir, { password: u.password, isTTY: true });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // The terminal QR code: rows of half-block characters.
    expect(r.stdout).toMatch(/[▀▄█]{10,}/);
    expect(r.stdout).toContain(`URL:      otpauth://totp/AdOps%20Console:${encodeURIComponent(u.email)}?secret=${r.secret}`);
    expect(r.stdout).toContain('Verificación en dos pasos activada.');
    const codes = r.stdout.match(/^ {2}[a-z2-7]{5}-[a-z2-7]{5}$/gm) ?? [];
    expect(codes).toHaveLength(10);
    // The server agrees: on, 10 codes left.
    const status = JSON.parse((await runCli(['2fa', 'status', '--json'], dir, server.url)).stdout) as Record<string, unknown>;
    expect(status).toMatchObject({ enabled: true, recovery_codes_left: 10, required: false });
  });

  it('asks for the password first: a wrong one fails with the server detail and starts nothing; other sessions end once it is on', async () => {
    const u = await newUser();
    const dir = await newConfigDir();
    await login(dir, u, `${u.password}\n`);
    const elsewhere = await newConfigDir();
    await login(elsewhere, u, `${u.password}\n`);
    const wrong = await runCli(['2fa', 'enable'], dir, server.url, { stdin: 'not-the-password\n123456\n' });
    expect([wrong.code, wrong.stderr.trim()]).toEqual([1, 'La contraseña actual no es correcta']);
    expect(wrong.stdout).not.toContain('Secreto');
    const status = JSON.parse((await runCli(['2fa', 'status', '--json'], dir, server.url)).stdout) as Record<string, unknown>;
    expect(status).toMatchObject({ enabled: false, pending: false });
    const missing = await runCli(['2fa', 'enable'], dir, server.url, { stdin: '' });
    expect([missing.code, missing.stderr.trim()]).toEqual([2, 'Falta la contraseña en la entrada estándar']);

    expect((await enableThroughCli(dir, { password: u.password, isTTY: false })).code).toBe(0);
    expect((await runCli(['whoami'], dir, server.url)).code).toBe(0);
    expect((await runCli(['whoami'], elsewhere, server.url)).code).toBe(3);
  });

  it('without a terminal prints no QR, reads the code from stdin, and a wrong code fails with the server detail leaving 2FA off', async () => {
    const u = await newUser();
    const dir = await newConfigDir();
    await login(dir, u, `${u.password}\n`);
    const wrong = await enableThroughCli(dir, { password: u.password, isTTY: false, firstCode: '12345' });
    expect(wrong.stdout).not.toMatch(/[▀▄█]/);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe('El código debe tener 6 dígitos');
    const status = await runCli(['2fa', 'status'], dir, server.url, { isTTY: true });
    expect(status.stdout).toMatch(/Activada:\s+no/);
  });
});

describe('adops login with 2FA on', () => {
  it('asks for the code after the password (piped: the next line) and signs in; a wrong or reused code is refused', async () => {
    const u = await newUser();
    const dir = await newConfigDir();
    await login(dir, u, `${u.password}\n`);
    const { secret, stdout } = await enableThroughCli(dir, { password: u.password, isTTY: false });
    const recovery = (stdout.match(/^ {2}([a-z2-7]{5}-[a-z2-7]{5})$/gm) ?? []).map((c) => c.trim());

    const code = await totpCode(secret);
    const ok = await login(await newConfigDir(), u, `${u.password}\n${code}\n`);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`Sesión iniciada como ${u.email}`);

    const replayed = await login(await newConfigDir(), u, `${u.password}\n${code}\n`);
    expect(replayed.code).toBe(3);
    expect(replayed.stderr.trim()).toBe('El código de verificación no es correcto o ya se usó.');

    const missing = await login(await newConfigDir(), u, `${u.password}\n`);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe('Falta el código de verificación en la entrada estándar');

    const withRecovery = await login(await newConfigDir(), u, `${u.password}\n${recovery[0]}\n`);
    expect(withRecovery.code).toBe(0);
  });

  it('takes the code from --totp for scripts, and the saved session works', async () => {
    const u = await newUser();
    const dir = await newConfigDir();
    await login(dir, u, `${u.password}\n`);
    const { secret } = await enableThroughCli(dir, { password: u.password, isTTY: false });
    const fresh = await newConfigDir();
    const r = await login(fresh, u, `${u.password}\n`, ['--totp', await totpCode(secret)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const whoami = JSON.parse((await runCli(['whoami'], fresh, server.url)).stdout) as { email: string };
    expect(whoami.email).toBe(u.email);
    const wrong = await login(await newConfigDir(), u, `${u.password}\n`, ['--totp', '000000' === (await totpCode(secret, 1)) ? '111111' : '000000']);
    expect(wrong.code).toBe(3);
  });
});

describe('adops 2fa disable', () => {
  it('asks for the password; a wrong one changes nothing, the right one turns 2FA off', async () => {
    const u = await newUser();
    const dir = await newConfigDir();
    await login(dir, u, `${u.password}\n`);
    await enableThroughCli(dir, { password: u.password, isTTY: false });
    const wrong = await runCli(['2fa', 'disable'], dir, server.url, { stdin: 'not-the-password\n' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe('La contraseña actual no es correcta');
    const ok = await runCli(['2fa', 'disable'], dir, server.url, { stdin: `${u.password}\n` });
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim()).toBe('Verificación en dos pasos desactivada');
    expect((await login(await newConfigDir(), u, `${u.password}\n`)).code).toBe(0);
  });
});

describe('adops users 2fa-reset', () => {
  it('an admin turns a user’s 2FA off by e-mail: the list shows who has it, then the password alone signs in', async () => {
    const u = await newUser();
    const userDir = await newConfigDir();
    await login(userDir, u, `${u.password}\n`);
    expect((await enableThroughCli(userDir, { password: u.password, isTTY: false })).code).toBe(0);
    const adminDir = await newConfigDir();
    expect((await login(adminDir, ADMIN, `${ADMIN.password}\n`)).code).toBe(0);
    const listed = async () =>
      (JSON.parse((await runCli(['users', 'list', '--json'], adminDir, server.url)).stdout) as ListedUser[]).find((x) => x.email === u.email);
    expect((await listed())?.two_factor).toBe(true);
    const table = await runCli(['users', 'list'], adminDir, server.url, { isTTY: true });
    expect(table.stdout).toMatch(/Protegido\s+2FA\s+Alta/);

    // Staff may not (403), an unknown e-mail is named; nothing changes.
    const staff = await runCli(['users', '2fa-reset', u.email, '--yes'], userDir, server.url);
    expect([staff.code, staff.stderr.trim()]).toEqual([4, 'No autorizado']);
    const unknown = await runCli(['users', '2fa-reset', 'nadie@test.local', '--yes'], adminDir, server.url);
    expect([unknown.code, unknown.stderr.trim()]).toEqual([1, 'Usuario no encontrado: nadie@test.local']);
    expect((await listed())?.two_factor).toBe(true);

    const reset = await runCli(['users', '2fa-reset', u.email, '--yes'], adminDir, server.url);
    expect(reset.code).toBe(0);
    expect(reset.stdout.trim()).toBe(
      `Verificación en dos pasos desactivada: Cli Dos <${u.email}>. Puede volver a activarla con adops 2fa enable o en «Cambiar contraseña».`,
    );
    expect((await listed())?.two_factor).toBe(false);
    const signIn = await login(await newConfigDir(), u, `${u.password}\n`);
    expect(signIn.code).toBe(0);
    expect(signIn.stderr).not.toMatch(/código/i);
    const again = await runCli(['users', '2fa-reset', u.email, '--yes'], adminDir, server.url);
    expect([again.code, again.stderr.trim()]).toEqual([1, `Cli Dos <${u.email}> no tiene activada la verificación en dos pasos`]);
  });
});
