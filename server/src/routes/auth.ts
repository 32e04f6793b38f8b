// Health, sign-in, the signed-in user and password change.
import type Router from '@koa/router';
import { contract } from '@adops/core';
import { bind, type Ctx } from '../http.js';
import type { ClientInfo } from '../services/auth.js';
import type { AppServices } from '../services/index.js';
import { VERSION } from '../version.js';

export function authRoutes(router: Router, s: AppServices): void {
  const r = contract;
  bind(router, s.guards, r.health.check, async () => {
    // Each backend asked at once, none allowed to hold the answer past 2 s (a load balancer is waiting).
    const answers = async (probe: () => Promise<void>) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 2000);
      });
      try {
        return await Promise.race([
          probe().then(
            () => true,
            () => false,
          ),
          late,
        ]);
      } finally {
        clearTimeout(timer);
      }
    };
    const [live, storeOk, warehouseOk] = await Promise.all([s.live.health(), answers(() => s.store.ping()), answers(() => s.warehouse.ping())]);
    return {
      status: 'ok' as const,
      version: VERSION,
      time: new Date().toISOString(),
      public_site_url: s.config.publicSiteUrl,
      tz: s.config.tz,
      live: { backend: live.backend, ok: live.ok },
      store: { backend: s.store.engine, ok: storeOk },
      warehouse: { backend: s.warehouse.engine, ok: warehouseOk },
    };
  });

  bind(router, s.guards, r.auth.login, async ({ email, password }, ctx) => ({
    access_token: await s.auth.login(email, password, clientOf(ctx)),
    token_type: 'bearer' as const,
  }));

  bind(router, s.guards, r.auth.logout, async (_input, ctx) => {
    await s.auth.logout(ctx.state.user!.session_id);
  });

  bind(router, s.guards, r.auth.me, async (_input, ctx) => {
    const session = ctx.state.user!;
    const user = (await s.store.users.byId(session.id))!;
    return { email: user.email, first_name: user.first_name, last_name: user.last_name, is_admin: user.is_admin, exp: session.exp };
  });

  bind(router, s.guards, r.auth.mySessions, async (_input, ctx) => s.auth.sessionsOf(ctx.state.user!.id, ctx.state.user!.session_id));

  bind(router, s.guards, r.auth.changePassword, async ({ current_password, new_password }, ctx) => {
    const session = ctx.state.user!;
    const user = await s.users.changePassword(session.id, new_password, (u) => s.auth.checkCurrentPassword(u, current_password, ctx.ip));
    // Every session of the user ends, this one too; the answer carries this client's new one.
    await s.auth.endAll(user.id);
    return { detail: 'Contraseña actualizada', access_token: await s.auth.open(user, clientOf(ctx)), token_type: 'bearer' as const };
  });
}

/** The client a session is opened for: its address (as trusted proxies saw it) and browser. */
export const clientOf = (ctx: Ctx): ClientInfo => ({ ip: ctx.ip, userAgent: ctx.get('user-agent') });
