// A backup in transit: the server streams its backup directory as a tar (manifest first); the
// receiver (`adops backup DIR`) unpacks it beside DIR, checks every file against the manifest and
// only then gives it DIR's name, so DIR is either a whole, verified backup or absent.
import { chmod, mkdir, mkdtemp, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import * as tar from 'tar';
import { BACKUP_PATH, BackupError, type BackupManifest, MANIFEST_FILE, verifyBackupDir } from './manifest.js';

/** The backup directory as a tar stream: the manifest, then every file it lists. */
export function packBackup(dir: string, manifest: BackupManifest): Readable {
  const pack = tar.c({ cwd: dir, portable: true }, [MANIFEST_FILE, ...manifest.files.map((f) => f.path)]);
  const out = new PassThrough();
  pack.on('error', (e: unknown) => out.destroy(e as Error));
  pack.pipe(out);
  return out;
}

/** Directories 0700 and files 0600: a backup holds password hashes and the server's secrets. */
export async function keepPrivate(dir: string): Promise<void> {
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await keepPrivate(full);
    else if (entry.isFile()) await chmod(full, 0o600);
  }
}

/** A directory that must be empty holds something. */
export class NotEmptyError extends BackupError {}

/** Fails unless `dir` is missing or an empty directory; true when it exists (empty). */
export async function emptyOrMissing(dir: string, what: string): Promise<boolean> {
  let s: Awaited<ReturnType<typeof stat>>;
  try {
    s = await stat(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
  if (!s.isDirectory()) throw new BackupError(`${dir} existe y no es un directorio`);
  if ((await readdir(dir)).length > 0) throw new NotEmptyError(`${what} ${dir} no está vacío`);
  return true;
}

/** Fails unless `dir` can receive a backup (missing or an empty directory); true when it exists. */
export async function checkBackupTarget(dir: string): Promise<boolean> {
  try {
    return await emptyOrMissing(path.resolve(dir), 'El directorio de la copia');
  } catch (e) {
    throw e instanceof NotEmptyError ? new BackupError(`${e.message}: elige uno nuevo (p. ej. con la fecha en el nombre)`) : e;
  }
}

/**
 * Unpacks a backup archive into `dir` (missing or empty): only the manifest and files in the
 * backup's folders are accepted, every file is checked against the manifest, and `dir` appears
 * only once all is well. Answers the manifest.
 */
export async function saveBackup(archive: Readable, dir: string): Promise<BackupManifest> {
  const target = path.resolve(dir);
  const existed = await checkBackupTarget(target);
  await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  const partial = await mkdtemp(`${target}.partial-`);
  let unpacking: Promise<void> | undefined;
  try {
    const unexpected: string[] = [];
    const extract = tar.x({
      cwd: partial,
      strict: true,
      filter: (name, entry) => {
        const ok = 'type' in entry && entry.type === 'File' && (name === MANIFEST_FILE || BACKUP_PATH.test(name));
        if (!ok) unexpected.push(name);
        return ok;
      },
    });
    // Done once every entry is on disk ('close'), not merely when the input has ended. Errors
    // are listened to for good (`on`, not `once`): after the first, entries still being written
    // may fail too, and an unheard 'error' would bring the process down.
    unpacking = new Promise<void>((resolve) => extract.once('close', resolve));
    const failed = new Promise<never>((_, reject) => {
      extract.on('error', reject);
      archive.on('error', reject);
    });
    archive.pipe(extract as unknown as NodeJS.WritableStream);
    try {
      await Promise.race([unpacking, failed]);
    } catch (e) {
      if (e instanceof BackupError) throw e;
      throw new BackupError(`La copia llegó incompleta o dañada: ${(e as Error).message}`);
    }
    if (unexpected.length > 0) throw new BackupError(`El archivo de la copia contiene una entrada no permitida: ${unexpected[0].slice(0, 200)}`);
    const manifest = await verifyBackupDir(partial);
    await keepPrivate(partial);
    if (existed) await rmdir(target);
    await rename(partial, target);
    return manifest;
  } catch (e) {
    archive.destroy();
    // Entries may still be being written after a failure: let the unpacker settle (a second at
    // most), then remove the folder, retrying while it still fills.
    if (unpacking) await Promise.race([unpacking, new Promise((r) => setTimeout(r, 1000).unref())]);
    await rm(partial, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
    throw e;
  }
}
