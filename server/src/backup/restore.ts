// Brings a data dir back from a backup directory, with the server stopped: the backup is checked
// against its manifest, its passphrase against the manifest's check value (an encrypted copy),
// rebuilt beside the data dir (entity store and other files decrypted, the DuckDB warehouse
// imported from parquet in a sandbox that reads nothing but the backup) and proven equal to the
// manifest's counts and sums; only then does it take the data dir's place. A data dir that is not
// empty is moved aside (with --force), never mixed with the backup.
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { emptyOrMissing, keepPrivate, NotEmptyError } from './archive.js';
import { type BackupKeys, decryptBuffer, decryptFile, openBackupKeys } from './crypto.js';
import { tableFigures } from './figures.js';
import {
  BackupError,
  type BackupManifest,
  collectionCounts,
  ENCRYPTED_SUFFIX,
  ENTITIES_FILE,
  FILES_DIR,
  figuresDiffer,
  STORE_FILES,
  verifyBackupDir,
  WAREHOUSE_DIR,
} from './manifest.js';

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

export interface RestoreResult {
  manifest: BackupManifest;
  /** Where the data dir's earlier contents were moved (with force), or null. */
  previous: string | null;
}

/** Fails when a process holds the data dir's warehouse open (a running server). */
async function ensureNotInUse(dataDir: string): Promise<void> {
  const file = path.join(dataDir, 'warehouse.duckdb');
  try {
    await stat(file);
  } catch {
    return;
  }
  try {
    const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY', threads: '1' });
    instance.closeSync();
  } catch (e) {
    if (/lock/i.test((e as Error).message))
      throw new BackupError(`El directorio de datos ${dataDir} está en uso (un servidor lo tiene abierto): detén el servidor antes de restaurar`);
    // An unreadable warehouse is what a restore is for.
  }
}

async function restoreEntities(backup: string, into: string, manifest: BackupManifest, keys: BackupKeys | null): Promise<void> {
  const bytes = keys
    ? decryptBuffer(keys, ENTITIES_FILE, await readFile(path.join(backup, `${ENTITIES_FILE}${ENCRYPTED_SUFFIX}`)))
    : await readFile(path.join(backup, ENTITIES_FILE));
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BackupError(`${ENTITIES_FILE} no es JSON válido`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new BackupError(`${ENTITIES_FILE} no es un almacén de entidades`);
  const counts = collectionCounts(data);
  for (const [name, n] of Object.entries(manifest.store.collections))
    if (counts[name] !== n) throw new BackupError(`${ENTITIES_FILE}: ${counts[name] ?? 0} registros en ${name} en lugar de ${n}`);
  await writeFile(path.join(into, 'adops.json'), bytes, { mode: 0o600 });
}

/**
 * The keys of an encrypted copy (null for a copy of format 1, which holds nothing encrypted).
 * In an encrypted copy every file of entities/ and files/ must be one of those it encrypted.
 */
async function keysFor(manifest: BackupManifest, passphrase: string | undefined): Promise<BackupKeys | null> {
  const { encryption } = manifest;
  if (!encryption) return null;
  const encrypted = new Set(encryption.files.map((f) => `${f}${ENCRYPTED_SUFFIX}`));
  for (const f of manifest.files)
    if (!f.path.startsWith(`${WAREHOUSE_DIR}/`) && !encrypted.has(f.path))
      throw new BackupError(`${f.path} no puede ir sin cifrar en una copia cifrada: la copia fue modificada`);
  if (passphrase === undefined || passphrase === '')
    throw new BackupError('Esta copia tiene sus secretos cifrados: hace falta la frase de paso con la que se hizo');
  return openBackupKeys(passphrase, encryption);
}

async function restoreWarehouse(backup: string, into: string, manifest: BackupManifest): Promise<void> {
  const source = path.join(backup, WAREHOUSE_DIR);
  const instance = await DuckDBInstance.create(path.join(into, 'warehouse.duckdb'), { threads: '2' });
  try {
    const conn = await instance.connect();
    try {
      // The import's SQL comes from the backup: it may read the backup's own folder and nothing else.
      await conn.run(`SET allowed_directories = [${literal(source + path.sep)}]`);
      await conn.run('SET enable_external_access = false');
      try {
        await conn.run(`IMPORT DATABASE ${literal(source)}`);
      } catch (e) {
        throw new BackupError(`No se pudo importar el almacén de datos de la copia: ${(e as Error).message.split('\n')[0]}`);
      }
      const differs = figuresDiffer(manifest.warehouse.tables, await tableFigures(conn));
      if (differs) throw new BackupError(`El almacén de datos restaurado no coincide con el manifiesto: ${differs}`);
      await conn.run('CHECKPOINT');
    } finally {
      conn.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

/**
 * Restores the backup in `backupDir` as the data dir `dataDir` (missing or empty; with `force`,
 * a non-empty one is moved to `<dataDir>.pre-restore-<time>`). The server must be stopped.
 */
export async function restoreBackup(
  backupDir: string,
  dataDir: string,
  options: { force?: boolean; now?: Date; passphrase?: string } = {},
): Promise<RestoreResult> {
  const backup = path.resolve(backupDir);
  const target = path.resolve(dataDir);
  if (target === backup || target.startsWith(backup + path.sep) || backup.startsWith(target + path.sep))
    throw new BackupError('El directorio de datos y el de la copia no pueden estar uno dentro del otro');
  const manifest = await verifyBackupDir(backup);
  const keys = await keysFor(manifest, options.passphrase);
  let occupied = false;
  try {
    await emptyOrMissing(target, 'El directorio de datos');
  } catch (e) {
    if (!(e instanceof NotEmptyError)) throw e;
    if (!options.force) throw new BackupError(`${e.message}: usa --force para reemplazarlo (su contenido se conserva aparte)`);
    occupied = true;
  }
  await ensureNotInUse(target);
  await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  const staging = await mkdtemp(`${target}.restore-`);
  try {
    await restoreEntities(backup, staging, manifest, keys);
    for (const stored of await readdir(path.join(backup, FILES_DIR)).catch(() => [] as string[])) {
      const name = keys ? stored.slice(0, -ENCRYPTED_SUFFIX.length) : stored;
      if (STORE_FILES.test(name)) throw new BackupError(`${FILES_DIR}/${name} no puede estar en una copia: reemplazaría un almacén`);
      if (keys) await decryptFile(keys, `${FILES_DIR}/${name}`, path.join(backup, FILES_DIR, stored), path.join(staging, name));
      else await copyFile(path.join(backup, FILES_DIR, stored), path.join(staging, name));
    }
    await restoreWarehouse(backup, staging, manifest);
    await keepPrivate(staging);
    let previous: string | null = null;
    if (occupied) {
      previous = `${target}.pre-restore-${(options.now ?? new Date()).toISOString().replace(/[:.]/g, '-')}`;
      await rename(target, previous);
    } else {
      await rmdir(target).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
    }
    await rename(staging, target);
    return { manifest, previous };
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    throw e;
  }
}
