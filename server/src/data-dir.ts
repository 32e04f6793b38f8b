// The data directory holds password hashes, the secrets and every fact, so only the server's own
// user may read it: the directory is 0700 and its files 0600. The process's umask becomes 077, so
// whatever lowdb, DuckDB or the secrets write later is born that way; on start, anything looser
// (a data dir from an older version, a copy restored by hand) is tightened and said in the log.
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config.js';
import type { Logger } from './logger.js';

/** Permission bits of the group and others: none may be set on anything in the data dir. */
const OTHERS = 0o077;

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** Whether this configuration keeps anything in the data directory (lowdb entities, DuckDB facts, secrets). */
export const usesDataDir = (config: Pick<Config, 'store' | 'warehouse'>) => config.store === 'lowdb' || config.warehouse === 'duckdb';

/**
 * Sets the umask to 077, creates the data dir 0700 and removes group and other bits from it and
 * from everything under it (symbolic links are left alone). Returns the paths it tightened.
 * A path the server may not change (another owner) is logged, never fatal.
 */
export async function secureDataDir(config: Pick<Config, 'dataDir' | 'store' | 'warehouse'>, logger: Logger): Promise<string[]> {
  try {
    process.umask(0o077);
  } catch {
    // Worker threads cannot change the umask; the walk below still tightens what exists.
  }
  if (!usesDataDir(config)) return [];
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const tightened: string[] = [];
  const tighten = async (target: string): Promise<void> => {
    const stat = await lstat(target);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & OTHERS) {
      const mode = stat.mode & 0o777 & ~OTHERS;
      try {
        await chmod(target, mode);
        tightened.push(target);
        logger.warn({ path: target, was: octal(stat.mode), now: octal(mode) }, 'data dir permissions tightened');
      } catch (e) {
        logger.warn({ path: target, mode: octal(stat.mode), err: (e as Error).message }, 'data dir permissions could not be tightened');
      }
    }
    if (stat.isDirectory()) for (const name of await readdir(target)) await tighten(path.join(target, name));
  };
  await tighten(config.dataDir);
  return tightened;
}
