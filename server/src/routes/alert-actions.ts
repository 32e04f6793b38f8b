// The profit guard's records: what campaign rules' actions did on Meta (every user reads them)
// and undoing a standing pause (admins: resume on Meta, audited with who and why).
import type Router from '@koa/router';
import { contract } from '@adops/core';
import { actorOf, bind, type HttpServices } from '../http.js';
import { alertActionTarget } from '../services/alert-guard.js';

export function alertActionRoutes(router: Router, s: HttpServices): void {
  const r = contract.alerts;

  bind(router, s.guards, r.actions, (q) => s.guard.list(q));

  bind(router, s.guards, r.undoAction, async ({ id }, ctx) => {
    const u = ctx.state.user!;
    const { before, after } = await s.guard.undo({ email: u.email, is_admin: u.is_admin }, id);
    await s.audit.record(actorOf(ctx), {
      action: 'alert_action.undo',
      target: alertActionTarget(after),
      before: { status: 'PAUSED', undone_at: before.undone_at, reason: before.reason, figures: before.figures },
      after: { status: 'ACTIVE', undone_at: after.undone_at, undone_by: after.undone_by, action_id: after.id },
    });
    return after;
  });
}
