// Health, sign-in, the signed-in user and password change.
import type Router from '@koa/router';
import { contract } from '@adops/core';
import { actorOf, bind, type Ctx, type HttpServices } from '../http.js';
import { httpError } from '../errors.js';
import { auditTarget } from '../services/audit.js';
import type { ClientInfo } from '../services/auth.js';
import { DEVICE_COOKIE, DEVICE_TTL_DAYS, cookieWith } from '../services/devices.js';
import { VERSION } from '../version.js';

export function authRoutes(router: Router, s: HttpServices): void {
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
      currency: s.config.currency,
      live: { backend: live.backend, ok: live.ok },
      store: { backend: s.store.engine, ok: storeOk },
      warehouse: { backend: s.warehouse.engine, ok: warehouseOk },
    };
  });

  bind(router, s.guards, r.auth.login, async ({ email, password, totp, device_token }, ctx) => {
    // A terminal sends its device token in the body; a browser keeps its own in a cookie.
    const cookie = ctx.cookies.get(DEVICE_COOKIE);
    const known = device_token || s.devices.fromCookie(cookie, email);
    const signedIn = await s.auth.login(email, password, clientOf(ctx), totp || undefined, known);
    ctx.cookies.set(DEVICE_COOKIE, cookieWith(cookie, signedIn.deviceToken), {
      httpOnly: true,
      sameSite: 'strict',
      secure: ctx.secure,
      path: '/api/login',
      maxAge: DEVICE_TTL_DAYS * 86_400_000,
      overwrite: true,
    });
    return {
      access_token: signedIn.token,
      token_type: 'bearer' as const,
      ...(device_token !== undefined ? { device_token: signedIn.deviceToken } : {}),
    };
  });

  bind(router, s.guards, r.auth.logout, async (_input, ctx) => {
    await s.auth.logout(ctx.state.user!.session_id);
  });

  bind(router, s.guards, r.auth.me, async (_input, ctx) => {
    // The guard has just read the user's record to check the session: answer from it.
    const user = ctx.state.account!;
    return { email: user.email, first_name: user.first_name, last_name: user.last_name, is_admin: user.is_admin, exp: ctx.state.user!.exp };
  });

  totpRoutes(router, s);

  bind(router, s.guards, r.auth.mySessions, async (_input, ctx) => s.auth.sessionsOf(ctx.state.user!.id, ctx.state.user!.session_id));

  bind(router, s.guards, r.auth.changePassword, async ({ current_password, new_password }, ctx) => {
    const session = ctx.state.user!;
    const user = await s.users.changePassword(session.id, new_password, (u) =>
      s.auth.checkCurrentPassword(u, current_password, ctx.ip, session.session_id),
    );
    // Every session of the user ends, this one too; the answer carries this client's new one.
    const sessionsEnded = await s.auth.endAll(user.id);
    await s.audit.record(actorOf(ctx), {
      action: 'user.password_change',
      target: { kind: 'user', id: user.id, label: user.email },
      after: { password_changed: true, sessions_ended: sessionsEnded },
    });
    return { detail: 'Contraseña actualizada', access_token: await s.auth.open(user, clientOf(ctx)), token_type: 'bearer' as const };
  });
}

/** Two-factor sign-in of the caller: state, enrolment (QR secret, then the first code), turning it off. */
function totpRoutes(router: Router, s: HttpServices): void {
  const r = contract.auth;
  const caller = async (ctx: Ctx) => {
    const user = await s.store.users.byId(ctx.state.user!.id);
    if (!user) throw httpError(401, 'No autenticado');
    return user;
  };
  bind(router, s.guards, r.totpStatus, async (_input, ctx) => s.totp.status(await caller(ctx)));
  // The current password first: a borrowed session cannot bind its own authenticator.
  bind(router, s.guards, r.totpBegin, async ({ password }, ctx) => {
    const user = await caller(ctx);
    await s.auth.checkCurrentPassword(user, password, ctx.ip, ctx.state.user!.session_id);
    return s.totp.begin(user);
  });
  bind(router, s.guards, r.totpConfirm, async ({ code }, ctx) => {
    const user = await caller(ctx);
    const recovery_codes = await s.totp.confirm(user, code);
    // On from now: any other session (one opened without the code) ends.
    const sessionsEnded = await s.auth.endAll(user.id, ctx.state.user!.session_id);
    await s.audit.record(actorOf(ctx), {
      action: 'user.2fa_enable',
      target: auditTarget.user(user),
      before: { two_factor: false },
      after: { two_factor: true, sessions_ended: sessionsEnded },
    });
    return { recovery_codes };
  });
  bind(router, s.guards, r.totpDisable, async ({ password }, ctx) => {
    const user = await caller(ctx);
    await s.auth.checkCurrentPassword(user, password, ctx.ip, ctx.state.user!.session_id);
    await s.totp.disable(user.id);
    await s.audit.record(actorOf(ctx), {
      action: 'user.2fa_disable',
      target: auditTarget.user(user),
      before: { two_factor: true },
      after: { two_factor: false },
    });
    return { detail: 'Verificación en dos pasos desactivada' };
  });
}

/** The client a session is opened for: its address (as trusted proxies saw it) and browser. */
export const clientOf = (ctx: Ctx): ClientInfo => ({ ip: ctx.ip, userAgent: ctx.get('user-agent') });
