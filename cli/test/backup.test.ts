// `adops backup DIR` against a live test server and `adops restore DIR --data-dir PATH` with
// no server: the admin's password (and 2FA code) is asked again, the copy's secrets encrypted with
// a passphrase (from a file or typed), saved and verified, its counts printed; a restored data dir
// serves the same data; staff are refused, a wrong passphrase, a tampered copy and a missing
// --data-dir are refused.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/helpers.js';
import { awayFromStepEdge, totpCode } from '../../server/test/totp-codes.js';
import { newConfigDir, runCli } from './helpers.js';

let server: TestServer;
let adminDir: string;
let work: string;
/** A file holding the passphrase, as a scheduled job keeps it. */
let passphraseFile: string;
const PASSPHRASE = 'la frase de paso de las copias';
const cli = (args: string[], options?: Parameters<typeof runCli>[3]) => runCli(args, adminDir, server.url, options);
/** `adops backup DIR …` as a script runs it: the password on stdin, the passphrase from its file. */
const backup = (dir: string, extra: string[] = [], options: Parameters<typeof runCli>[3] = {}) =>
  cli(['backup', dir, '--passphrase-file', passphraseFile, ...extra], { stdin: `${ADMIN.password}\n`, ...options });

beforeAll(async () => {
  server = await startTestServer();
  work = await mkdtemp(path.join(tmpdir(), 'adops-cli-backup-'));
  passphraseFile = path.join(work, 'backup-passphrase');
  await writeFile(passphraseFile, `${PASSPHRASE}\n`, { mode: 0o600 });
  adminDir = await newConfigDir();
  expect((await runCli(['login', '--email', ADMIN.email], adminDir, server.url, { stdin: `${ADMIN.password}\n` })).code).toBe(0);
  const admin = await server.admin();
  await admin.admin.createUser({ first_name: 'Ana', email: 'ana@test.local', password: 'x9-backup-Pass' });
  await admin.ingest.zoneReport(undefined, {
    rawBody:
      'date,advertiser,publisher,zone_id,impressions,clicks,revenue\n2026-03-01,AdNova,PubA,Z-1,1000,10,12.5\n2026-03-02,AdNova,PubA,Z-2,500,5,7.25',
    headers: { 'content-type': 'text/csv' },
  });
});
afterAll(async () => {
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

describe('adops backup and adops restore', () => {
  it('saves a verified copy, prints its counts, and restores it into a data dir a server then serves', async () => {
    const dir = path.join(work, 'copia');
    const saved = await backup(dir, [], { isTTY: true });
    expect(saved.stderr).toBe('');
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain(`Copia guardada en ${dir}`);
    expect(saved.stdout).toContain('Entidades: users 2 · ');
    expect(saved.stdout).toMatch(/zone_report\s+2\n/);
    expect(saved.stdout).toContain('sumas de control SHA-256 comprobadas');

    const dataDir = path.join(work, 'data');
    const restored = await runCli(
      ['restore', dir, '--data-dir', dataDir, '--json', '--passphrase-file', passphraseFile],
      adminDir,
      'http://127.0.0.1:9',
    );
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const result = JSON.parse(restored.stdout) as {
      data_dir: string;
      previous: string | null;
      manifest: { store: { collections: Record<string, number> } };
    };
    expect(result).toMatchObject({ data_dir: dataDir, previous: null });
    expect(result.manifest.store.collections.users).toBe(2);

    const again = await startTestServer({}, dataDir);
    try {
      const admin = await again.admin();
      expect((await admin.admin.listUsers()).map((u) => u.email).sort()).toEqual([ADMIN.email, 'ana@test.local']);
      expect((await admin.dashboard.overview({ start_date: '2026-03-01', end_date: '2026-03-02' })).summary.revenue).toBeCloseTo(19.75, 9);
    } finally {
      await again.close();
    }
  });

  it('--json prints the manifest for scripts', async () => {
    const dir = path.join(work, 'json');
    const saved = await backup(dir, ['--json']);
    expect(saved.code).toBe(0);
    const out = JSON.parse(saved.stdout) as { dir: string; manifest: { warehouse: { tables: Record<string, { rows: number }> } } };
    expect(out.dir).toBe(dir);
    expect(out.manifest.warehouse.tables.zone_report.rows).toBe(2);
  });

  it('refuses a directory that is not empty or a file, leaving them as they were', async () => {
    const dir = path.join(work, 'ocupado');
    await backup(dir);
    const before = await readdir(dir);
    const second = await backup(dir);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/no está vacío: elige uno nuevo/);
    expect(await readdir(dir)).toEqual(before);

    const file = path.join(work, 'un-archivo');
    await writeFile(file, 'mío');
    const onFile = await backup(file);
    expect(onFile.code).toBe(1);
    expect(onFile.stderr).toBe(`${file} existe y no es un directorio\n`);
    expect(await readFile(file, 'utf8')).toBe('mío');
    const restoreOnFile = await runCli(['restore', dir, '--data-dir', file, '--passphrase-file', passphraseFile], adminDir, server.url);
    expect(restoreOnFile.code).toBe(1);
    expect(restoreOnFile.stderr).toBe(`${file} existe y no es un directorio\n`);
  });

  it('a staff member is told they are not allowed (exit code 4)', async () => {
    const staffDir = await newConfigDir();
    expect((await runCli(['login', '--email', 'ana@test.local'], staffDir, server.url, { stdin: 'x9-backup-Pass\n' })).code).toBe(0);
    const dir = path.join(work, 'staff');
    const refused = await runCli(['backup', dir], staffDir, server.url);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toBe('No autorizado: solo un administrador puede hacer copias de seguridad\n');
    await expect(readdir(dir)).rejects.toThrow();
  });

  it('restore refuses a tampered copy (checksum) and a missing --data-dir', async () => {
    const dir = path.join(work, 'manipulada');
    expect((await backup(dir)).code).toBe(0);
    const secrets = path.join(dir, 'files', 'secrets.json.enc');
    const bytes = await readFile(secrets);
    bytes[20] ^= 0xff;
    await writeFile(secrets, bytes);
    const target = path.join(work, 'manipulada-data');
    const refused = await runCli(['restore', dir, '--data-dir', target, '--passphrase-file', passphraseFile], adminDir, server.url);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('La suma de control de files/secrets.json.enc no coincide: la copia está dañada o fue modificada\n');
    await expect(readdir(target)).rejects.toThrow();

    const missing = await runCli(['restore', dir], adminDir, server.url, { env: { ADOPS_DATA_DIR: '' } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Falta --data-dir/);
  });

  it('asks the password again: a wrong one is refused in words and nothing is saved; no passphrase file and no terminal is a usage error', async () => {
    const dir = path.join(work, 'mala-clave');
    const wrong = await cli(['backup', dir, '--passphrase-file', passphraseFile], { stdin: 'no-es-la-mía\n' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe('La contraseña actual no es correcta\n');
    await expect(readdir(dir)).rejects.toThrow();
    const noPassphrase = await cli(['backup', dir], { stdin: `${ADMIN.password}\n` });
    expect(noPassphrase.code).toBe(2);
    expect(noPassphrase.stderr).toBe('Falta la frase de paso en la entrada estándar\n');
    const short = await cli(['backup', dir], { stdin: `${ADMIN.password}\ncorta\n` });
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/La frase de paso debe tener al menos 12 caracteres/);
    await expect(readdir(dir)).rejects.toThrow();
  });

  it('restore needs the passphrase: a wrong one is refused in words; typed (here piped), it restores exactly', async () => {
    const dir = path.join(work, 'con-frase');
    expect((await backup(dir)).code).toBe(0);
    const target = path.join(work, 'con-frase-data');
    const wrong = await runCli(['restore', dir, '--data-dir', target], adminDir, server.url, { stdin: 'otra frase de paso cualquiera\n' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe('La frase de paso no es la de esta copia: no se ha restaurado nada (escríbela tal como se dio al hacer la copia)\n');
    await expect(readdir(target)).rejects.toThrow();
    const right = await runCli(['restore', dir, '--data-dir', target], adminDir, server.url, { stdin: `${PASSPHRASE}\n` });
    expect(right.code, right.stderr).toBe(0);
    expect(await readFile(path.join(target, 'secrets.json'))).toEqual(await readFile(path.join(server.dataDir, 'secrets.json')));
  });

  it('with 2FA on, the code is asked after the password (or given with --code)', async () => {
    const admin = await server.admin();
    await awayFromStepEdge();
    const { secret } = await admin.auth.totpBegin({ password: ADMIN.password });
    const { recovery_codes } = await admin.auth.totpConfirm({ code: await totpCode(secret, -1) });
    // Turning 2FA on ends the account's other sessions, this terminal's too: it signs in again (a recovery code as its second factor).
    const again = await runCli(['login', '--email', ADMIN.email, '--totp', recovery_codes[0]], adminDir, server.url, {
      stdin: `${ADMIN.password}\n`,
    });
    expect(again.code, again.stderr).toBe(0);
    try {
      const asked = await backup(path.join(work, 'con-codigo'), [], { stdin: `${ADMIN.password}\n${await totpCode(secret, 0)}\n` });
      expect(asked.code, asked.stderr).toBe(0);
      const flag = await backup(path.join(work, 'con-codigo-2'), ['--code', await totpCode(secret, 1)]);
      expect(flag.code, flag.stderr).toBe(0);
      const none = await backup(path.join(work, 'sin-codigo'));
      expect(none.code).toBe(2);
      expect(none.stderr).toBe('Falta el código de verificación en la entrada estándar\n');
    } finally {
      await admin.auth.totpDisable({ password: ADMIN.password });
    }
  });
});
