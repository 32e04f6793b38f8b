// POST /api/admin/backup (admins only, password and 2FA code asked again): a consistent copy of
// the embedded stores, its secrets encrypted with the admin's passphrase, streamed as a tar
// archive while the server keeps serving; recorded in the audit trail.
import type Router from '@koa/router';
import { contract } from '@adops/core';
import { httpError } from '../errors.js';
import { actorOf, bind, type HttpServices } from '../http.js';
import { BackupService } from '../services/backup.js';

export function backupRoutes(router: Router, s: HttpServices): void {
  const backups = new BackupService({ dataDir: s.config.dataDir, store: s.store, warehouse: s.warehouse });
  bind(router, s.guards, contract.admin.backup, async ({ password, code, passphrase }, ctx) => {
    // It takes no parameters in its address (a client's mistake, refused before any work).
    const stray = Object.keys(ctx.query).map((k) => `"${k}"`);
    if (stray.length > 0) throw httpError(400, `La copia de seguridad no admite parámetros en la dirección: ${stray.join(', ')}`);
    // Every secret of the server leaves in it: the admin proves it is them again first.
    const user = await s.store.users.byId(ctx.state.user!.id);
    if (!user) throw httpError(401, 'No autenticado');
    await s.auth.confirmIdentity(user, password, code, ctx.ip, ctx.state.user!.session_id);
    const { manifest, archive } = await backups.create({ passphrase, logN: s.config.scryptLogN });
    await s.audit.record(actorOf(ctx), {
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
