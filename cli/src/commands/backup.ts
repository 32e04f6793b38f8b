// `adops backup DIR` (admins): the running server takes a consistent copy of its embedded stores
// and streams it; it is unpacked into DIR, checked file by file against its manifest and its
// counts printed. `adops restore DIR --data-dir PATH`: with the server stopped, rebuilds a data
// dir from such a copy (no server involved). The backup format lives in the server package.
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Command } from 'commander';
import { contract, formatInt } from '@adops/core';
import type { BackupManifest } from '@adops/server';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../io.js';

/** The server package's backup functions (loaded only by these commands: it brings DuckDB). */
async function backups() {
  const server = await import('@adops/server');
  return {
    checkBackupTarget: server.checkBackupTarget,
    saveBackup: server.saveBackup,
    restoreBackup: server.restoreBackup,
    BackupError: server.BackupError,
  };
}

/** A backup refused locally (tampered, incomplete, a data dir in use …) → exit code 1 with its message. */
async function asCliError<T>(work: () => Promise<T>): Promise<T> {
  const { BackupError } = await backups();
  try {
    return await work();
  } catch (e) {
    if (e instanceof BackupError) throw new CliError(e.message, EXIT.error);
    throw e;
  }
}

const bytes = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`);

/** The manifest's counts for people: collections, tables (rows) and files. */
function describe(cli: Cli, manifest: BackupManifest): void {
  const collections = Object.entries(manifest.store.collections)
    .map(([name, n]) => `${name} ${formatInt(n)}`)
    .join(' · ');
  cli.say(`  Entidades: ${collections}`);
  cli.say('  Almacén de datos (filas):');
  const tables = Object.entries(manifest.warehouse.tables).sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(...tables.map(([name]) => name.length));
  for (const [name, t] of tables) cli.say(`    ${name.padEnd(width)}  ${formatInt(t.rows).padStart(12)}`);
  const total = manifest.files.reduce((sum, f) => sum + f.bytes, 0);
  cli.say(`  Archivos: ${manifest.files.length + 1} (${bytes(total)}), sumas de control SHA-256 comprobadas`);
}

export function registerBackup(program: Command, cli: Cli): void {
  program
    .command('backup')
    .description('Copia de seguridad del servidor en marcha (entidades y almacén de datos) en DIR (admin)')
    .argument('<dir>', 'directorio nuevo o vacío donde guardarla')
    .option('--json', 'el manifiesto en JSON')
    .addHelpText(
      'after',
      '\nEl servidor sigue atendiendo mientras tanto. La copia contiene los secretos del servidor y los hashes de las contraseñas: guárdala con el mismo cuidado que el directorio de datos.',
    )
    .action(async (dir: string, opts: { json?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const target = path.resolve(dir);
      const { checkBackupTarget, saveBackup } = await backups();
      // Before asking the server for a copy that could not be saved.
      await asCliError(() => checkBackupTarget(target));
      const res = await api.open(contract.admin.backup, {}, { headers: { accept: 'application/x-tar' } });
      if (!res.body) throw new CliError('El servidor no envió la copia', EXIT.error);
      const manifest = await asCliError(() => saveBackup(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), target));
      if (cli.machine(opts.json)) return cli.json({ dir: target, manifest });
      cli.say(`Copia guardada en ${target} (${manifest.created_at}, servidor ${manifest.app_version})`);
      describe(cli, manifest);
    });

  program
    .command('restore')
    .description('Restaura una copia de adops backup en un directorio de datos, con el servidor detenido')
    .argument('<dir>', 'la copia (un directorio de adops backup)')
    .option('--data-dir <path>', 'directorio de datos a restaurar (por defecto ADOPS_DATA_DIR)')
    .option('--force', 'reemplaza un directorio de datos que no está vacío (lo que tenía se conserva aparte)')
    .option('--json', 'el resultado en JSON')
    .action(async (dir: string, opts: { dataDir?: string; force?: boolean; json?: boolean }) => {
      const dataDir = opts.dataDir ?? (cli.io.env.ADOPS_DATA_DIR || undefined);
      if (!dataDir) throw new CliError('Falta --data-dir (o ADOPS_DATA_DIR): el directorio de datos a restaurar', EXIT.usage);
      const { restoreBackup } = await backups();
      const { manifest, previous } = await asCliError(() => restoreBackup(path.resolve(dir), path.resolve(dataDir), { force: opts.force }));
      if (cli.machine(opts.json)) return cli.json({ data_dir: path.resolve(dataDir), previous, manifest });
      cli.say(`Restaurada la copia del ${manifest.created_at} en ${path.resolve(dataDir)}`);
      if (previous) cli.say(`  Lo que había en el directorio de datos está en ${previous}`);
      describe(cli, manifest);
      cli.say('Arranca el servidor con ese directorio de datos (ADOPS_DATA_DIR) para usarla.');
    });
}
