// Admin area: users and publisher tokens (admins only; 403 "No autorizado" otherwise).
import type Router from '@koa/router';
import { contract } from '@adops/core';
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
  bind(router, s.guards, r.updateUser, ({ id, ...changes }) => s.users.update(id, changes));
  bind(router, s.guards, r.deleteUser, ({ id }, ctx) => s.users.remove(id, ctx.state.user!.email));

  bind(router, s.guards, r.listTokens, () => s.tokens.list());
  bind(router, s.guards, r.createToken, async ({ publisher_name }, ctx) => {
    const token = await s.tokens.create(publisher_name);
    ctx.status = 201;
    return token;
  });
  bind(router, s.guards, r.renewToken, ({ publisher_name }) => s.tokens.renew(publisher_name));
  bind(router, s.guards, r.deleteToken, ({ token }) => s.tokens.remove(token));
}
