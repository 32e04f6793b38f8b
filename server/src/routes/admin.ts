// Admin area: users and publisher tokens (admins only; 403 "No autorizado" otherwise).
import type Router from '@koa/router';
import { contract } from '@adops/core';
import { httpError } from '../errors.js';
import { bind } from '../http.js';
import type { AppServices } from '../services/index.js';

export function adminRoutes(router: Router, s: AppServices): void {
  const r = contract.admin;
  bind(router, s.guards, r.listUsers, () => s.users.list());
  bind(router, s.guards, r.createUser, async (input, ctx) => {
    const user = await s.users.create(input);
    ctx.status = 201;
    return user;
  });
  bind(router, s.guards, r.updateUser, async ({ id, ...changes }) => {
    const user = await s.users.update(id, changes);
    // A password set by an admin ends every session the user had (role and e-mail changes
    // apply to open sessions on their next request: the user is read on every request).
    if (changes.password) await s.auth.endAll(id);
    return user;
  });
  bind(router, s.guards, r.deleteUser, ({ id }, ctx) => s.users.remove(id, ctx.state.user!.id));

  const userExists = async (id: string) => {
    if (!(await s.store.users.byId(id))) throw httpError(404, 'Usuario no encontrado');
  };
  bind(router, s.guards, r.userSessions, async ({ id }, ctx) => {
    await userExists(id);
    return s.auth.sessionsOf(id, ctx.state.user!.session_id);
  });
  bind(router, s.guards, r.endUserSessions, async ({ id }) => {
    await userExists(id);
    return { ended: await s.auth.endAll(id) };
  });
  bind(router, s.guards, r.endUserSession, async ({ id, session_id }) => {
    await userExists(id);
    if (!(await s.auth.end(id, session_id))) throw httpError(404, 'Sesión no encontrada');
  });

  bind(router, s.guards, r.listTokens, () => s.tokens.list());
  bind(router, s.guards, r.createToken, async ({ publisher_name }, ctx) => {
    const token = await s.tokens.create(publisher_name);
    ctx.status = 201;
    return token;
  });
  bind(router, s.guards, r.renewToken, ({ publisher_name }) => s.tokens.renew(publisher_name));
  bind(router, s.guards, r.deleteToken, ({ token }) => s.tokens.remove(token));
}
