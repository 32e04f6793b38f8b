// Takes a backup of a running server's embedded stores into an empty directory: at one moment —
// between two warehouse writes, after the entity store's pending changes — the entity store is
// copied from memory, the data dir's other files are copied, and a DuckDB read transaction is
// pinned; the warehouse is then exported (EXPORT DATABASE, parquet) from that transaction while
// writers carry on. Every table and collection is taken, whatever they are, so ones added later
// are in the copy too. What holds secrets — the entity store (password hashes, TOTP seeds, sealed
// publisher tokens, webhook keys, sessions) and the data dir's files (secrets.json's keys, the
// audit trail) — is encrypted with the admin's passphrase (crypto.ts); the facts are not.
import { copyFile, mkdir, open, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EntityStore } from '../store/types.js';
import { Db } from '../warehouse/duckdb/db.js';
import type { Warehouse } from '../warehouse/types.js';
import { VERSION } from '../version.js';
import { encryptBuffer, encryptFile, newBackupKeys } from './crypto.js';
import { tableFigures } from './figures.js';
import {
  BACKUP_FORMAT,
  BACKUP_PATH,
  type BackupFile,
  type BackupManifest,
  collectionCounts,
  ENCRYPTED_SUFFIX,
  ENTITIES_FILE,
  FILES_DIR,
  listFiles,
  MANIFEST_FILE,
  sha256File,
  STORE_FILES,
  WAREHOUSE_DIR,
} from './manifest.js';

export interface BackupSources {
  dataDir: string;
  store: EntityStore;
  warehouse: Warehouse;
}

/** Why these stores cannot be backed up by the server (null when they can). */
export function backupUnsupported(s: BackupSources): string | null {
  const embedded = s.store.engine === 'lowdb' && typeof s.store.snapshot === 'function';
  const duck = (s.warehouse as { db?: unknown }).db instanceof Db;
  if (embedded && duck) return null;
  return 'adops backup copia el almacenamiento integrado (lowdb y DuckDB en el directorio de datos). Con PostgreSQL usa pg_dump y con ClickHouse clickhouse-backup (ver docs/deploy.md)';
}

/** SQL text literal. */
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * Copies the data dir's top-level files but the stores' own (secrets, the audit trail …) into
 * `dir`. An append-only NDJSON file keeps whole lines only: a line being appended right now was
 * not acknowledged yet.
 */
async function copyOtherFiles(dataDir: string, dir: string): Promise<void> {
  for (const entry of await readdir(dataDir, { withFileTypes: true })) {
    if (!entry.isFile() || STORE_FILES.test(entry.name) || !BACKUP_PATH.test(`${FILES_DIR}/${entry.name}`)) continue;
    const target = path.join(dir, entry.name);
    await copyFile(path.join(dataDir, entry.name), target);
    if (entry.name.endsWith('.ndjson')) await keepWholeLines(target);
  }
}

async function keepWholeLines(file: string): Promise<void> {
  const { size } = await stat(file);
  if (size === 0) return;
  const handle = await open(file, 'r');
  try {
    // Look back for the last line feed, a block at a time.
    let end = size;
    const block = Buffer.alloc(64 * 1024);
    while (end > 0) {
      const start = Math.max(0, end - block.length);
      const { bytesRead } = await handle.read(block, 0, end - start, start);
      const at = block.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (at >= 0) {
        const keep = start + at + 1;
        if (keep < size) await truncate(file, keep);
        return;
      }
      end = start;
    }
    await truncate(file, 0);
  } finally {
    await handle.close();
  }
}

/** The passphrase that encrypts a backup's secrets, and scrypt's cost (log2 N) for its key. */
export interface BackupSecrecy {
  passphrase: string;
  logN: number;
}

/** Writes a consistent backup of `s` into the empty directory `dir`, its secrets encrypted, and answers its manifest. */
export async function takeBackup(s: BackupSources, dir: string, secrecy: BackupSecrecy, now: () => Date = () => new Date()): Promise<BackupManifest> {
  const unsupported = backupUnsupported(s);
  if (unsupported) throw new Error(unsupported);
  // The key first (scrypt takes a moment): the moment of the copy does not wait for it.
  const { keys, encryption } = await newBackupKeys(secrecy.passphrase, secrecy.logN);
  const db = (s.warehouse as unknown as { db: Db }).db;
  const warehouseDir = path.join(dir, WAREHOUSE_DIR);
  await mkdir(path.join(dir, path.dirname(ENTITIES_FILE)), { recursive: true, mode: 0o700 });
  await mkdir(path.join(dir, FILES_DIR), { recursive: true, mode: 0o700 });
  let createdAt = '';
  const { entities, warehouse } = await db.readSnapshot(
    async () => {
      createdAt = now().toISOString();
      const [data] = await Promise.all([s.store.snapshot!(), copyOtherFiles(s.dataDir, path.join(dir, FILES_DIR))]);
      return data;
    },
    async (conn, entities) => {
      await conn.run(`EXPORT DATABASE ${literal(warehouseDir)} (FORMAT parquet, COMPRESSION zstd)`);
      const tables = await tableFigures(conn);
      const version = String((await conn.runAndReadAll('SELECT version()')).getRows()[0][0]);
      const hasMeta =
        (await conn.runAndReadAll(`SELECT 1 FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = 'warehouse_meta'`)).getRows().length > 0;
      const meta = hasMeta
        ? ((await conn.runAndReadAll('SELECT name, value FROM warehouse_meta ORDER BY name')).getRows() as Array<[string, string]>)
        : [];
      return { entities, warehouse: { tables, version, meta: Object.fromEntries(meta) } };
    },
  );
  await writeFile(
    path.join(dir, `${ENTITIES_FILE}${ENCRYPTED_SUFFIX}`),
    encryptBuffer(keys, ENTITIES_FILE, Buffer.from(JSON.stringify(entities, null, 2))),
    { mode: 0o600 },
  );
  encryption.files.push(ENTITIES_FILE);
  // The data dir's files, copied at the moment, are encrypted now (the copies in the clear go).
  for (const name of (await readdir(path.join(dir, FILES_DIR))).sort()) {
    const plain = path.join(dir, FILES_DIR, name);
    await encryptFile(keys, `${FILES_DIR}/${name}`, plain, `${plain}${ENCRYPTED_SUFFIX}`);
    await rm(plain);
    encryption.files.push(`${FILES_DIR}/${name}`);
  }

  const files: BackupFile[] = [];
  for (const file of (await listFiles(dir)).sort()) {
    if (!BACKUP_PATH.test(file)) throw new Error(`backup: unexpected file name ${file}`);
    const full = path.join(dir, file);
    files.push({ path: file, bytes: (await stat(full)).size, sha256: await sha256File(full) });
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    format_version: 2,
    app_version: VERSION,
    created_at: createdAt,
    store: {
      engine: 'lowdb',
      version: Number((entities as { version?: unknown }).version ?? 1),
      collections: collectionCounts(entities),
    },
    warehouse: { engine: 'duckdb', duckdb_version: warehouse.version, meta: warehouse.meta, tables: warehouse.tables },
    files,
    encryption,
  };
  await writeFile(path.join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return manifest;
}
