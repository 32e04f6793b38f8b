// `adops backup DIR` (admins, password and 2FA code asked again): the running server takes a
// consistent copy of its embedded stores, its secrets encrypted with a passphrase the admin gives,
// and streams it; it is unpacked into DIR, checked file by file against its manifest and its
// counts printed. `adops restore DIR --data-dir PATH`: with the server stopped, rebuilds a data
// dir from such a copy with its passphrase (no server involved). The format lives in the server package.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Command } from 'commander';
import { ApiError, BACKUP_PASSPHRASE_MIN, routes, formatInt } from '@adops/core/lite';
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

/** The first line of a file holding a secret (a passphrase for scripts); a clear error when it cannot be read. */
async function secretFromFile(file: string, what: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path.resolve(file), 'utf8');
  } catch {
    throw new CliError(`No se puede leer ${what} de ${path.resolve(file)}`, EXIT.usage);
  }
  const line = text.split(/\r?\n/)[0] ?? '';
  if (!line) throw new CliError(`${path.resolve(file)} está vacío: su primera línea debe ser ${what}`, EXIT.usage);
  return line;
}

/** The passphrase: from --passphrase-file, else typed (twice at a terminal when it encrypts a new copy). */
async function passphraseOf(cli: Cli, file: string | undefined, confirm: boolean): Promise<string> {
  if (file !== undefined) return secretFromFile(file, 'la frase de paso');
  const label = confirm ? 'Frase de paso para cifrar los secretos de la copia: ' : 'Frase de paso de la copia: ';
  const first = await cli.prompt.secret(label, 'la frase de paso');
  if (!first) throw new CliError('La frase de paso es obligatoria', EXIT.usage);
  if (confirm && cli.prompt.interactive) {
    if (first.length < BACKUP_PASSPHRASE_MIN)
      throw new CliError(`La frase de paso debe tener al menos ${BACKUP_PASSPHRASE_MIN} caracteres`, EXIT.usage);
    if ((await cli.prompt.secret('Repite la frase de paso: ', 'la frase de paso')) !== first)
      throw new CliError('Las frases de paso no coinciden', EXIT.usage);
  }
  return first;
}

/** Whether the copy in `dir` says its secrets are encrypted (what restore will ask a passphrase for). */
async function encryptedCopy(dir: string): Promise<boolean> {
  try {
    return Boolean((JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as { encryption?: unknown }).encryption);
  } catch {
    return false;
  }
}

export function registerBackup(program: Command, cli: Cli): void {
  program
    .command('backup')
    .description('Copia de seguridad del servidor en marcha (entidades y almacén de datos) en DIR (admin), con sus secretos cifrados')
    .argument('<dir>', 'directorio nuevo o vacío donde guardarla')
    .option('--passphrase-file <file>', 'lee la frase de paso de la primera línea de este archivo (si no, se pregunta)')
    .option('--code <código>', 'código de verificación en dos pasos (si no, se pregunta cuando la cuenta lo pide)')
    .option('--json', 'el manifiesto en JSON')
    .addHelpText(
      'after',
      '\nPide tu contraseña (sin terminal, la primera línea de stdin) y, con la verificación en dos pasos, tu código.\n' +
        `Los secretos de la copia (claves de secrets.json, semillas TOTP, tokens sellados, hashes de contraseñas, el registro\n` +
        `de auditoría) van cifrados con la frase de paso (al menos ${BACKUP_PASSPHRASE_MIN} caracteres): sin ella no se puede restaurar.\n` +
        'El servidor sigue atendiendo mientras tanto.',
    )
    .action(async (dir: string, opts: { json?: boolean; passphraseFile?: string; code?: string }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      const target = path.resolve(dir);
      const { checkBackupTarget, saveBackup } = await backups();
      // Before asking the server for a copy that could not be saved.
      await asCliError(() => checkBackupTarget(target));
      // Staff are told before being asked for anything.
      if (!(await api.auth.me()).is_admin) throw new CliError('No autorizado: solo un administrador puede hacer copias de seguridad', EXIT.forbidden);
      const password = await cli.prompt.secret('Tu contraseña (para confirmar que eres tú): ', 'tu contraseña');
      if (!password) throw new CliError('La contraseña es obligatoria', EXIT.usage);
      const passphrase = await passphraseOf(cli, opts.passphraseFile, true);
      const ask = (code?: string) =>
        api.open(routes.admin.backup, { password, passphrase, ...(code ? { code } : {}) }, { headers: { accept: 'application/x-tar' } });
      let res: Response;
      try {
        res = await ask(opts.code?.trim());
      } catch (e) {
        // The password was right and the account has 2FA on: ask for the code (once).
        if (!(e instanceof ApiError && e.body.totp_required === true && !opts.code)) throw e;
        const code = (await cli.prompt.ask('Código de verificación (o de recuperación): ', 'el código de verificación')).trim();
        if (!code) throw new CliError('El código de verificación es obligatorio', EXIT.usage);
        res = await ask(code);
      }
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
    .option('--passphrase-file <file>', 'lee la frase de paso de la copia de la primera línea de este archivo (si no, se pregunta)')
    .option('--json', 'el resultado en JSON')
    .action(async (dir: string, opts: { dataDir?: string; force?: boolean; json?: boolean; passphraseFile?: string }) => {
      const dataDir = opts.dataDir ?? (cli.io.env.ADOPS_DATA_DIR || undefined);
      if (!dataDir) throw new CliError('Falta --data-dir (o ADOPS_DATA_DIR): el directorio de datos a restaurar', EXIT.usage);
      const { restoreBackup } = await backups();
      // A copy whose secrets are encrypted needs its passphrase (copies of earlier versions have none).
      const passphrase =
        opts.passphraseFile !== undefined || (await encryptedCopy(path.resolve(dir)))
          ? await passphraseOf(cli, opts.passphraseFile, false)
          : undefined;
      const { manifest, previous } = await asCliError(() =>
        restoreBackup(path.resolve(dir), path.resolve(dataDir), { force: opts.force, passphrase }),
      );
      if (cli.machine(opts.json)) return cli.json({ data_dir: path.resolve(dataDir), previous, manifest });
      cli.say(`Restaurada la copia del ${manifest.created_at} en ${path.resolve(dataDir)}`);
      if (previous) cli.say(`  Lo que había en el directorio de datos está en ${previous}`);
      describe(cli, manifest);
      cli.say('Arranca el servidor con ese directorio de datos (ADOPS_DATA_DIR) para usarla.');
    });
}
