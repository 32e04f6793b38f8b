// What the backup tests share (backup.test.ts takes backups, backup-restore.test.ts restores
// them): the imports they write, the passphrase and a backup request saved into a dir.
import { Readable } from 'node:stream';
import { expect } from 'vitest';
import { saveBackup, type BackupManifest } from '../src/backup/index.js';
import { ADMIN, type TestServer } from './helpers.js';

export const HEADER = 'date,advertiser,publisher,zone_id,geo,source,domain,impressions,clicks,revenue';

/** Import `i`: 12 rows of its own advertiser over four days (all of them stored, or none). */
export const importCsv = (i: number) =>
  [
    HEADER,
    ...Array.from(
      { length: 12 },
      (_, r) => `2026-03-0${1 + (r % 4)},Adv-${i},PubA,Z-${i}-${r},ES,search,a.com,${100 + r},${r},${(i + 1) * 1.25 + r / 8}`,
    ),
  ].join('\n');

/** The passphrase the tests' backups are encrypted with. */
export const PASSPHRASE = 'una frase de paso larga';

/** A backup request as `token`: the admin's password again and the passphrase (or `body` as given). */
export const backupRequest = (s: TestServer, token: string, body: object = { password: ADMIN.password, passphrase: PASSPHRASE }) =>
  s.fetch('/api/admin/backup', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** POSTs the backup as `token` and saves it into `dir`; the manifest. */
export async function backupInto(s: TestServer, token: string, dir: string): Promise<BackupManifest> {
  const res = await backupRequest(s, token);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/x-tar');
  return saveBackup(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), dir);
}
