// Backups taken by the running server (POST /api/admin/backup, `adops backup`): one at a time, in
// a temporary folder of the data dir that goes once its archive has been sent or abandoned, its
// secrets encrypted with the passphrase the admin gave.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DomainError } from '../domain-errors.js';
import { packBackup } from '../backup/archive.js';
import type { BackupManifest } from '../backup/manifest.js';
import { type BackupSecrecy, backupUnsupported, type BackupSources, takeBackup } from '../backup/snapshot.js';

/** Temporary folders of backups under way (a crash may leave one: the next backup removes it). */
const WORK_PREFIX = '.backup-';

export class BackupService {
  private running = false;

  constructor(private readonly sources: BackupSources) {}

  /** Takes a backup; its archive stream removes the temporary copy when it closes. 409 when unsupported or one is under way. */
  async create(secrecy: BackupSecrecy): Promise<{ manifest: BackupManifest; archive: Readable }> {
    const unsupported = backupUnsupported(this.sources);
    if (unsupported) throw new DomainError('conflict', unsupported);
    if (this.running) throw new DomainError('conflict', 'Ya hay una copia de seguridad en curso: espera a que termine');
    this.running = true;
    let dir: string | undefined;
    const done = async () => {
      this.running = false;
      if (dir) await rm(dir, { recursive: true, force: true });
    };
    try {
      const { dataDir } = this.sources;
      for (const name of await readdir(dataDir))
        if (name.startsWith(WORK_PREFIX)) await rm(path.join(dataDir, name), { recursive: true, force: true });
      dir = await mkdtemp(path.join(dataDir, WORK_PREFIX));
      const manifest = await takeBackup(this.sources, dir, secrecy);
      const archive = packBackup(dir, manifest);
      archive.once('close', () => void done());
      return { manifest, archive };
    } catch (e) {
      await done();
      throw e;
    }
  }
}
