// Backups of the embedded stores: taken by the running server (snapshot.ts), carried as a tar
// (archive.ts), checked against their manifest and restored into a stopped data dir (restore.ts).
// `adops backup` and `adops restore` load this module from the server package.
export { BackupError, BackupManifest, verifyBackupDir } from './manifest.js';
export { checkBackupTarget, packBackup, saveBackup } from './archive.js';
export { backupUnsupported, takeBackup, type BackupSources } from './snapshot.js';
export { restoreBackup, type RestoreResult } from './restore.js';
