// POST /api/admin/backup (admins only): a consistent copy of the embedded stores, streamed as a
// tar archive while the server keeps serving; recorded in the audit trail.
import type { IncomingMessage } from 'node:http';
import type Router from '@koa/router';
import { contract } from '@adops/core';
import { httpError } from '../errors.js';
import { bind } from '../http.js';
import { BackupService } from '../services/backup.js';
import type { AppServices } from '../services/index.js';

/**
 * Whether a request's body is empty or `{}` (what the typed client sends). At most 64 bytes are
 * kept; the rest is read and dropped, so the connection stays usable for the client's next request.
 */
function emptyBody(req: IncomingMessage): Promise<boolean> {
  if (!req.headers['content-length'] && !req.headers['transfer-encoding']) return Promise.resolve(true);
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk: Buffer) => {
      if (text.length <= 64) text += chunk.toString('utf8');
      if (text.length > 64) resolve(false);
    });
    req.once('end', () => resolve(/^\s*(\{\s*\})?\s*$/.test(text)));
    req.once('error', () => resolve(false));
  });
}

export function backupRoutes(router: Router, s: AppServices): void {
  const backups = new BackupService({ dataDir: s.config.dataDir, store: s.store, warehouse: s.warehouse });
  bind(router, s.guards, contract.admin.backup, async (_input, ctx) => {
    // It takes no input: anything else is a client's mistake, refused before any work.
    if (!(await emptyBody(ctx.req))) throw httpError(400, 'La copia de seguridad no lleva cuerpo: envía la petición vacía');
    const { manifest, archive } = await backups.create();
    await s.audit.record(ctx, {
      action: 'backup.create',
      target: { kind: 'backup', id: manifest.created_at, label: `copia de seguridad ${manifest.created_at}` },
      after: {
        created_at: manifest.created_at,
        collections: manifest.store.collections,
        tables: Object.fromEntries(Object.entries(manifest.warehouse.tables).map(([name, t]) => [name, t.rows])),
      },
    });
    const stamp = manifest.created_at.replace(/[:.]/g, '-');
    ctx.set('Content-Disposition', `attachment; filename="adops-backup-${stamp}.tar"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'application/x-tar';
    ctx.body = archive;
  });
}
