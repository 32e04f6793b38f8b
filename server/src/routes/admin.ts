// Admin area: users and publisher tokens (admins only; 403 "No autorizado" otherwise).
import type Router from '@koa/router';
import { contract } from '@adops/core';
import { httpError } from '../errors.js';
import { actorOf, bind, type Ctx, type HttpServices } from '../http.js';
import { auditTarget, userEditChanges } from '../services/audit.js';
import { publicUser } from '../services/users.js';
import { samePublisherName } from '../store/types.js';
import { knownPublisher } from '../services/known-names.js';

export const PROTECTED_ADMIN_OWN = 'Solo el administrador protegido puede cambiar su verificación en dos pasos y cerrar sus sesiones.';

export function adminRoutes(router: Router, s: HttpServices): void {
  const r = contract.admin;
  bind(router, s.guards, r.listUsers, () => s.users.list());
  bind(router, s.guards, r.createUser, async (input, ctx) => {
    const user = await s.users.create(input);
    await s.audit.record(actorOf(ctx), { action: 'user.create', target: auditTarget.user(user), after: user });
    ctx.status = 201;
    return user;
  });
  bind(router, s.guards, r.updateUser, async ({ id, ...changes }, ctx) => {
    const before = await s.store.users.byId(id);
    const user = await s.users.update(id, changes);
    // A password set by an admin ends every session the user had (role and e-mail changes
    // apply to open sessions on their next request: the user is read on every request).
    const sessionsEnded = changes.password ? await s.auth.endAll(id) : 0;
    if (before)
      for (const change of userEditChanges(before, user, changes.password ? { sessionsEnded } : null)) await s.audit.record(actorOf(ctx), change);
    return user;
  });
  bind(router, s.guards, r.deleteUser, async ({ id }, ctx) => {
    const before = await s.store.users.byId(id);
    await s.users.remove(id, ctx.state.user!.id);
    if (before) await s.audit.record(actorOf(ctx), { action: 'user.delete', target: auditTarget.user(before), before: publicUser(before) });
  });

  const userExists = async (id: string) => {
    const user = await s.store.users.byId(id);
    if (!user) throw httpError(404, 'Usuario no encontrado');
    return user;
  };
  /** A user whose 2FA and sessions the caller may change: anyone's but the protected admin's, which only they change. */
  const changeable = async (id: string, ctx: Ctx) => {
    const user = await userExists(id);
    if (user.protected && user.id !== ctx.state.user!.id) throw httpError(403, PROTECTED_ADMIN_OWN);
    return user;
  };
  // For a user who lost their phone and recovery codes: the password alone signs them in again.
  bind(router, s.guards, r.resetUserTotp, async ({ id }, ctx) => {
    const user = await changeable(id, ctx);
    if (!(await s.totp.enabledFor(id))) throw httpError(409, 'Este usuario no tiene activada la verificación en dos pasos.');
    await s.totp.disable(id);
    await s.audit.record(actorOf(ctx), {
      action: 'user.2fa_reset',
      target: auditTarget.user(user),
      before: { two_factor: true },
      after: { two_factor: false },
    });
  });
  bind(router, s.guards, r.userSessions, async ({ id }, ctx) => {
    await userExists(id);
    return s.auth.sessionsOf(id, ctx.state.user!.session_id);
  });
  bind(router, s.guards, r.endUserSessions, async ({ id }, ctx) => {
    const user = await changeable(id, ctx);
    const ended = await s.auth.endAll(id);
    await s.audit.record(actorOf(ctx), { action: 'session.end_all', target: auditTarget.user(user), after: { sessions_ended: ended } });
    return { ended };
  });
  bind(router, s.guards, r.endUserSession, async ({ id, session_id }, ctx) => {
    const user = await changeable(id, ctx);
    const session = await s.store.sessions.byId(session_id);
    if (!(await s.auth.end(id, session_id))) throw httpError(404, 'Sesión no encontrada');
    const before = session && { created_at: session.created_at, last_seen_at: session.last_seen_at, ip: session.ip, user_agent: session.user_agent };
    await s.audit.record(actorOf(ctx), { action: 'session.end', target: auditTarget.session(id, session_id, user.email), before });
  });

  bind(router, s.guards, r.listTokens, () => s.tokens.list());
  // Entries name a token by its publisher; the token itself is redacted from before/after.
  bind(router, s.guards, r.createToken, async (input, ctx) => {
    await knownPublisher(s.shares, input.publisher_name);
    const token = await s.tokens.create(input);
    await s.audit.record(actorOf(ctx), { action: 'token.create', target: auditTarget.publisherToken(token.publisher_name, token.id), after: token });
    ctx.status = 201;
    return token;
  });
  bind(router, s.guards, r.renewToken, async ({ publisher_name }, ctx) => {
    const before = (await s.tokens.list()).find((t) => samePublisherName(t.publisher_name, publisher_name));
    const token = await s.tokens.renew(publisher_name);
    await s.audit.record(actorOf(ctx), {
      action: 'token.renew',
      target: auditTarget.publisherToken(token.publisher_name, token.id),
      before,
      after: token,
    });
    return token;
  });
  bind(router, s.guards, r.updateToken, async ({ id, ...changes }, ctx) => {
    const before = await s.tokens.byId(id);
    const token = await s.tokens.update(id, changes);
    await s.audit.record(actorOf(ctx), {
      action: 'token.update',
      target: auditTarget.publisherToken(token.publisher_name, token.id),
      before,
      after: token,
    });
    return token;
  });
  bind(router, s.guards, r.deleteToken, async ({ id }, ctx) => {
    const before = (await s.tokens.list()).find((t) => t.id === id);
    await s.tokens.remove(id);
    if (before)
      await s.audit.record(actorOf(ctx), { action: 'token.revoke', target: auditTarget.publisherToken(before.publisher_name, before.id), before });
  });
}
