// The backup's format: a directory (or the tar the server streams) holding manifest.json, the
// entity store (entities/adops.json), the warehouse exported by DuckDB (warehouse/: schema.sql,
// load.sql, one parquet file per table) and the data dir's other files (files/: secrets, audit
// trail …). The manifest names every file with its size and SHA-256, and counts every
// collection and every table (rows and the sum of each numeric column), so a copy can be
// checked before it is trusted and a restore proven exact.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

export const BACKUP_FORMAT = 'adops-backup';
export const MANIFEST_FILE = 'manifest.json';
/** The entity store's document inside a backup (the data dir's adops.json). */
export const ENTITIES_FILE = 'entities/adops.json';
export const WAREHOUSE_DIR = 'warehouse';
export const FILES_DIR = 'files';

/** The data dir's files a backup takes otherwise (the store from memory, the warehouse by export) or never (temporary files); never under files/. */
export const STORE_FILES = /^(adops\.json|warehouse\.duckdb(\.wal)?|.*\.tmp)$/;

/** Encrypted files end so: `entities/adops.json` travels as `entities/adops.json.enc`. */
export const ENCRYPTED_SUFFIX = '.enc';

/** A path inside a backup: one of its three folders and a plain file name (no '..', no '/', no hidden file). */
export const BACKUP_PATH = /^(entities|warehouse|files)\/[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}$/;

const Count = z.number().int().nonnegative();

/** A table's row count and the sum of each numeric column. */
export const TableFigures = z.object({ rows: Count, sums: z.record(z.string(), z.number()) });
export type TableFigures = z.infer<typeof TableFigures>;

/**
 * What the manifest says of the encryption of the copy's secrets (format 2; backup/crypto.ts):
 * scrypt's cost and salt, a check value of the passphrase, and which files are encrypted.
 */
export const BackupEncryption = z.object({
  cipher: z.literal('aes-256-gcm'),
  kdf: z.literal('scrypt'),
  /** log2 of scrypt's N; r and p. Bounded so a hostile manifest cannot make a restore spin. */
  log_n: z.number().int().min(10).max(20),
  r: z.literal(8),
  p: z.literal(1),
  salt: z.string().regex(/^[A-Za-z0-9+/]{22}==$/),
  /** HMAC-SHA-256 of a fixed label with the derived check key (hex): tells a wrong passphrase at once. */
  check: z.string().regex(/^[0-9a-f]{64}$/),
  /** The backup's paths (without `.enc`) whose content is encrypted. */
  files: z.array(z.string()).max(10_000),
});
export type BackupEncryption = z.infer<typeof BackupEncryption>;

export const BackupManifest = z
  .object({
    format: z.literal(BACKUP_FORMAT),
    /** 1: nothing encrypted (copies of earlier versions); 2: the secrets encrypted, `encryption` says how. */
    format_version: z.union([z.literal(1), z.literal(2)]),
    /** The server version that wrote it. */
    app_version: z.string().max(50),
    created_at: z.iso.datetime(),
    store: z.object({
      engine: z.literal('lowdb'),
      /** adops.json's own `version` (its schema). */
      version: z.number().int(),
      /** Records per collection (keys of an object collection such as settings). */
      collections: z.record(z.string(), Count),
    }),
    warehouse: z.object({
      engine: z.literal('duckdb'),
      duckdb_version: z.string().max(50),
      /** warehouse_meta's rows (schema versions of derived tables). */
      meta: z.record(z.string(), z.string()),
      tables: z.record(z.string(), TableFigures),
    }),
    files: z.array(z.object({ path: z.string().regex(BACKUP_PATH), bytes: Count, sha256: z.string().regex(/^[0-9a-f]{64}$/) })).max(10_000),
    encryption: BackupEncryption.optional(),
  })
  .refine((m) => (m.format_version === 2) === (m.encryption !== undefined), {
    path: ['encryption'],
    message: 'una copia de formato 2 dice cómo está cifrada, una de formato 1 no lo está',
  });
export type BackupManifest = z.infer<typeof BackupManifest>;
export type BackupFile = BackupManifest['files'][number];

/** A backup refused (unreadable, tampered, incomplete) or a restore that may not go ahead; the message is for people. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every regular file under `dir`, as paths relative to it with '/' separators. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    out.push(path.relative(dir, full).split(path.sep).join('/') + (entry.isDirectory() ? '/' : ''));
  }
  return out.filter((p) => !p.endsWith('/'));
}

/**
 * Reads a backup directory's manifest and checks every file against it (size and SHA-256), and
 * that no file is missing or unlisted. Throws BackupError saying which file is wrong.
 */
export async function verifyBackupDir(dir: string): Promise<BackupManifest> {
  let raw: string;
  try {
    raw = await readFile(path.join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    throw new BackupError(`${dir} no es una copia de seguridad de adops: falta ${MANIFEST_FILE}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new BackupError(`${MANIFEST_FILE} está dañado (no es JSON)`);
  }
  const result = BackupManifest.safeParse(parsed);
  if (!result.success)
    throw new BackupError(
      `${MANIFEST_FILE} no es válido: ${result.error.issues[0]?.path.join('.') || ''} ${result.error.issues[0]?.message ?? ''}`.trim(),
    );
  const manifest = result.data;
  const listed = new Set(manifest.files.map((f) => f.path));
  if (!listed.has(ENTITIES_FILE) && !(manifest.encryption && listed.has(`${ENTITIES_FILE}${ENCRYPTED_SUFFIX}`)))
    throw new BackupError(`La copia no contiene ${ENTITIES_FILE}`);
  for (const file of await listFiles(dir)) {
    if (file !== MANIFEST_FILE && !listed.has(file)) throw new BackupError(`Archivo no listado en el manifiesto: ${file}`);
  }
  for (const f of manifest.files) {
    const full = path.join(dir, f.path);
    let bytes: number;
    try {
      const s = await stat(full);
      if (!s.isFile()) throw new Error('not a file');
      bytes = s.size;
    } catch {
      throw new BackupError(`Falta ${f.path} en la copia`);
    }
    if (bytes !== f.bytes || (await sha256File(full)) !== f.sha256)
      throw new BackupError(`La suma de control de ${f.path} no coincide: la copia está dañada o fue modificada`);
  }
  return manifest;
}

/** Records per collection of an entity-store document: arrays by length, objects by keys. */
export function collectionCounts(data: object): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(data)) {
    if (Array.isArray(value)) out[key] = value.length;
    else if (value && typeof value === 'object') out[key] = Object.keys(value).length;
  }
  return out;
}

/** Where two sets of table figures differ (integers exactly, floating sums to 1e-9 relative), or null. */
export function figuresDiffer(expected: Record<string, TableFigures>, actual: Record<string, TableFigures>): string | null {
  const names = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  for (const name of names) {
    const e = expected[name];
    const a = actual[name];
    if (!e || !a) return `la tabla ${name} ${e ? 'falta' : 'sobra'}`;
    if (e.rows !== a.rows) return `${name}: ${a.rows} filas en lugar de ${e.rows}`;
    for (const column of new Set([...Object.keys(e.sums), ...Object.keys(a.sums)])) {
      const x = e.sums[column];
      const y = a.sums[column];
      if (x === undefined || y === undefined || Math.abs(x - y) > 1e-9 * Math.max(1, Math.abs(x), Math.abs(y)))
        return `${name}.${column}: suma ${y} en lugar de ${x}`;
    }
  }
  return null;
}
