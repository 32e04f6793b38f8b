// Restoring backups of the embedded stores (`adops restore DIR`): a server started on the restored
// data dir serves exactly the state the backup held; a restore needs the admin's passphrase, and
// tampered or hostile backups are refused. Taking them is in backup.test.ts.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { restoreBackup, type BackupManifest } from '../src/backup/index.js';
import { decryptBuffer, encryptBuffer, openBackupKeys } from '../src/backup/crypto.js';
import { startTestServer, type TestServer } from './helpers.js';
import { PASSPHRASE, backupInto, importCsv } from './backup-fixture.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'adops-backup-test-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('restore', () => {
  let s: TestServer;
  let backup: string;
  /** The entity store as the backup took it (nothing changes it afterwards in these tests). */
  let atBackup: unknown;
  beforeAll(async () => {
    s = await startTestServer();
    const admin = await s.admin();
    await admin.ingest.zoneReport(undefined, { rawBody: importCsv(0), headers: { 'content-type': 'text/csv' } });
    backup = path.join(work, 'restore-source');
    await backupInto(s, admin.token, backup);
    atBackup = await s.app.services.store.snapshot!();
  });
  afterAll(() => s.close());

  /** A copy of the backup to spoil. */
  async function copyOfBackup(name: string): Promise<string> {
    const dir = path.join(work, name);
    for (const f of await readdir(backup, { recursive: true, withFileTypes: true })) {
      if (!f.isFile()) continue;
      const rel = path.relative(backup, path.join(f.parentPath, f.name));
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), await readFile(path.join(backup, rel)));
    }
    return dir;
  }

  test('a tampered file is refused by its checksum, one re-checksummed by its encryption; no data dir is created', async () => {
    const dir = await copyOfBackup('tampered');
    const entities = path.join(dir, 'entities/adops.json.enc');
    const bytes = await readFile(entities);
    bytes[bytes.length - 40] ^= 1;
    await writeFile(entities, bytes);
    const target = path.join(work, 'tampered-data');
    await expect(restoreBackup(dir, target, { passphrase: PASSPHRASE })).rejects.toThrow(/suma de control de entities\/adops.json.enc no coincide/);
    // The manifest's checksum made to match: the encryption's own check refuses it.
    const file = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(file, 'utf8')) as BackupManifest;
    manifest.files.find((f) => f.path === 'entities/adops.json.enc')!.sha256 = createHash('sha256').update(bytes).digest('hex');
    await writeFile(file, JSON.stringify(manifest));
    await expect(restoreBackup(dir, target, { passphrase: PASSPHRASE })).rejects.toThrow(
      /entities\/adops.json no se puede descifrar: la copia está dañada o fue modificada/,
    );
    await expect(stat(target)).rejects.toThrow();
    expect((await readdir(work)).filter((n) => n.startsWith('tampered-data.'))).toEqual([]);
  });

  test('an encrypted copy needs its passphrase: none or a wrong one is refused in words and nothing is restored', async () => {
    const target = path.join(work, 'no-passphrase-data');
    await expect(restoreBackup(backup, target)).rejects.toThrow(
      'Esta copia tiene sus secretos cifrados: hace falta la frase de paso con la que se hizo',
    );
    await expect(restoreBackup(backup, target, { passphrase: 'una frase de paso largA' })).rejects.toThrow(
      /^La frase de paso no es la de esta copia: no se ha restaurado nada/,
    );
    await expect(stat(target)).rejects.toThrow();
    expect((await readdir(work)).filter((n) => n.startsWith('no-passphrase-data.'))).toEqual([]);
  });

  test('with its passphrase it restores exactly: secrets.json and the audit trail byte for byte, the entity store as taken', async () => {
    const target = path.join(work, 'exact-data');
    await restoreBackup(backup, target, { passphrase: PASSPHRASE });
    expect(await readFile(path.join(target, 'secrets.json'))).toEqual(await readFile(path.join(s.dataDir, 'secrets.json')));
    const audit = (await readdir(target)).find((n) => n.endsWith('.ndjson'))!;
    expect(audit).toBeDefined();
    const source = await readFile(path.join(s.dataDir, audit));
    const restored = await readFile(path.join(target, audit));
    expect(restored.length).toBeGreaterThan(0);
    expect(source.subarray(0, restored.length)).toEqual(restored);
    expect(JSON.parse(await readFile(path.join(target, 'adops.json'), 'utf8'))).toEqual(atBackup);
  });

  test('a copy of the earlier format (nothing encrypted) still restores without a passphrase', async () => {
    const dir = await copyOfBackup('format-1');
    const file = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(file, 'utf8')) as BackupManifest;
    const keys = await openBackupKeys(PASSPHRASE, manifest.encryption!);
    for (const name of manifest.encryption!.files) {
      const plain = decryptBuffer(keys, name, await readFile(path.join(dir, `${name}.enc`)));
      await rm(path.join(dir, `${name}.enc`));
      await writeFile(path.join(dir, name), plain);
      const entry = manifest.files.find((f) => f.path === `${name}.enc`)!;
      Object.assign(entry, { path: name, bytes: plain.length, sha256: createHash('sha256').update(plain).digest('hex') });
    }
    delete manifest.encryption;
    manifest.format_version = 1;
    await writeFile(file, JSON.stringify(manifest));
    const target = path.join(work, 'format-1-data');
    await restoreBackup(dir, target);
    expect(await readFile(path.join(target, 'secrets.json'))).toEqual(await readFile(path.join(s.dataDir, 'secrets.json')));
  });

  test('a manifest whose counts do not match the data is refused', async () => {
    const dir = await copyOfBackup('miscounted');
    const file = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(file, 'utf8')) as BackupManifest;
    manifest.warehouse.tables.zone_report.rows += 1;
    await writeFile(file, JSON.stringify(manifest));
    await expect(restoreBackup(dir, path.join(work, 'miscounted-data'), { passphrase: PASSPHRASE })).rejects.toThrow(
      /no coincide con el manifiesto: zone_report/,
    );
  });

  test('an unlisted file, a missing file or a hostile manifest path is refused', async () => {
    const extra = await copyOfBackup('extra');
    await writeFile(path.join(extra, 'warehouse', 'evil.sql'), "COPY (SELECT 1) TO '/tmp/x.csv';");
    await expect(restoreBackup(extra, path.join(work, 'extra-data'), { passphrase: PASSPHRASE })).rejects.toThrow(/no listado/);

    const missing = await copyOfBackup('missing');
    await rm(path.join(missing, 'warehouse', 'zone_report.parquet'));
    await expect(restoreBackup(missing, path.join(work, 'missing-data'), { passphrase: PASSPHRASE })).rejects.toThrow(
      /Falta warehouse\/zone_report.parquet/,
    );

    const climbing = await copyOfBackup('climbing');
    const file = path.join(climbing, 'manifest.json');
    const manifest = JSON.parse(await readFile(file, 'utf8')) as BackupManifest;
    manifest.files[0].path = '../../etc/passwd';
    await writeFile(file, JSON.stringify(manifest));
    await expect(restoreBackup(climbing, path.join(work, 'climbing-data'))).rejects.toThrow(/manifest.json no es válido/);

    await expect(restoreBackup(path.join(work, 'nothing-here'), path.join(work, 'nothing-data'))).rejects.toThrow(/falta manifest.json/);

    // A file listed with a valid checksum that would replace a store on restore (encrypted as the copy's are, or not).
    const smuggled = await copyOfBackup('smuggled');
    const body = Buffer.from('{"version":1,"users":[]}');
    const list = JSON.parse(await readFile(path.join(smuggled, 'manifest.json'), 'utf8')) as BackupManifest;
    const sealed = encryptBuffer(await openBackupKeys(PASSPHRASE, list.encryption!), 'files/adops.json', body);
    await writeFile(path.join(smuggled, 'files', 'adops.json.enc'), sealed);
    list.files.push({ path: 'files/adops.json.enc', bytes: sealed.length, sha256: createHash('sha256').update(sealed).digest('hex') });
    list.encryption!.files.push('files/adops.json');
    await writeFile(path.join(smuggled, 'manifest.json'), JSON.stringify(list));
    const target = path.join(work, 'smuggled-data');
    await expect(restoreBackup(smuggled, target, { passphrase: PASSPHRASE })).rejects.toThrow(/files\/adops.json no puede estar en una copia/);
    await expect(stat(target)).rejects.toThrow();
    // In an encrypted copy a secret file in the clear is refused outright.
    const clear = await copyOfBackup('clear');
    await writeFile(path.join(clear, 'files', 'notes.txt'), body);
    const listed = JSON.parse(await readFile(path.join(clear, 'manifest.json'), 'utf8')) as BackupManifest;
    listed.files.push({ path: 'files/notes.txt', bytes: body.length, sha256: createHash('sha256').update(body).digest('hex') });
    await writeFile(path.join(clear, 'manifest.json'), JSON.stringify(listed));
    await expect(restoreBackup(clear, path.join(work, 'clear-data'), { passphrase: PASSPHRASE })).rejects.toThrow(
      /files\/notes.txt no puede ir sin cifrar en una copia cifrada/,
    );
  });

  test('a data dir that is not empty is kept unless --force, which moves it aside', async () => {
    const target = path.join(work, 'occupied-data');
    await mkdir(target, { recursive: true });
    await writeFile(path.join(target, 'adops.json'), '{"version":1,"users":[]}');
    await expect(restoreBackup(backup, target, { passphrase: PASSPHRASE })).rejects.toThrow(/no está vacío: usa --force/);
    expect(await readFile(path.join(target, 'adops.json'), 'utf8')).toBe('{"version":1,"users":[]}');
    const { previous } = await restoreBackup(backup, target, { force: true, passphrase: PASSPHRASE });
    expect(previous).toMatch(/occupied-data\.pre-restore-/);
    expect(await readFile(path.join(previous!, 'adops.json'), 'utf8')).toBe('{"version":1,"users":[]}');
    expect(JSON.parse(await readFile(path.join(target, 'adops.json'), 'utf8'))).toEqual(atBackup);
  });

  test('a data dir held open by a running process is refused, even with --force', async () => {
    const target = path.join(work, 'busy-data');
    await restoreBackup(backup, target, { passphrase: PASSPHRASE });
    const serverDir = fileURLToPath(new URL('..', import.meta.url));
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { DuckDBInstance } from '@duckdb/node-api'; await DuckDBInstance.create(process.argv[1]); console.log('ready'); setInterval(() => {}, 1000);",
        path.join(target, 'warehouse.duckdb'),
      ],
      { cwd: serverDir, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
        holder.once('exit', () => reject(new Error('holder exited')));
      });
      await expect(restoreBackup(backup, target, { force: true, passphrase: PASSPHRASE })).rejects.toThrow(/está en uso/);
      expect((await readdir(work)).filter((n) => n.startsWith('busy-data.'))).toEqual([]);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  test('the data dir and the backup cannot be one inside the other', async () => {
    await expect(restoreBackup(backup, path.join(backup, 'data'))).rejects.toThrow(/uno dentro del otro/);
    await expect(restoreBackup(backup, backup)).rejects.toThrow(/uno dentro del otro/);
  });
});
