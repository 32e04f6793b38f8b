// Binds contract routes to Koa: access guard, input validation with the route's zod
// schemas (parsed input handed to the handler), and the response status.
import { timingSafeEqual } from 'node:crypto';
import { finished } from 'node:stream';
import type Koa from 'koa';
import type { AuditActor } from './services/audit.js';
import type Router from '@koa/router';
import type { RouterMiddleware } from '@koa/router';
import { createSecretKey } from 'node:crypto';
import koaJwt from 'koa-jwt';
import jwt from 'jsonwebtoken';
import { bodyParser } from '@koa/bodyparser';
import type { z } from 'zod';
import { TOTP_SETUP_ROUTES, jsonFigures, type Route } from '@adops/core';
import { httpError, zodDetail } from './errors.js';
import type { AuthService } from './services/auth.js';
import type { AppServices } from './services/index.js';
import type { ReportPool } from './services/report-pool.js';
import type { UserRecord } from './store/types.js';

/** What a user the server requires 2FA of hears until they enrol (the routes of 'Mi cuenta' still answer). */
export const TOTP_SETUP_REQUIRED =
  'Tu cuenta debe tener activada la verificación en dos pasos: actívala en el menú de usuario → Cambiar contraseña (o con adops 2fa enable) para continuar.';
const setupPaths = new Set(TOTP_SETUP_ROUTES.map((r) => `${r.method} ${r.path}`));

export interface SessionState {
  /** The user's id (logs name users by it, never by e-mail). */
  id: string;
  email: string;
  is_admin: boolean;
  exp: number;
  /** The session the token names (its `jti`): sign-out ends it. */
  session_id: string;
}

/** `user`: the session as checked; `account`: the user's record as the guard read it (read once per request). */
export type Ctx = Koa.ParameterizedContext<{ user?: SessionState; account?: UserRecord; requestId?: string }>;

type Out<S> = S extends z.ZodType ? z.output<S> : unknown;
export type RouteParsed<R extends Route> = Out<R['params']> & Out<R['query']> & Out<R['body']>;
export type Handler<R extends Route> = (input: RouteParsed<R>, ctx: Ctx) => unknown;

export interface Guards {
  user: Koa.Middleware[];
  admin: Koa.Middleware[];
  ingest: Koa.Middleware[];
  /** The user guard's two steps outside Koa, for a lean path (the live stream's: lean-stream.ts). */
  lean: LeanGuard;
  /** Runs a heavy route (a report) in its user's pool of report queries (report-pool.ts); none: at once. */
  heavy?: Koa.Middleware;
}

/** What routes receive: the services, and the guards the HTTP layer builds on them (app.ts). */
export type HttpServices = AppServices & { guards: Guards };

/**
 * The middleware of every heavy route (after the user guard): the report runs in its user's
 * place of `pool`, held until the answer is sent whole (a streamed export: its last byte, or the client leaving).
 */
export function reportPoolMiddleware(pool: ReportPool): Koa.Middleware {
  return async (ctx, next) => {
    const user = ctx.state.user as { id?: string } | undefined;
    if (!user?.id) return next();
    // The answer's 'close' before it is written: the client went.
    const left = new Promise<void>((resolve) => ctx.res.once('close', () => resolve()));
    const release = await pool.acquire(user.id, left);
    let held = false;
    try {
      await next();
      // Koa writes a stream after the middleware returns: the place is held until it ends.
      const body = ctx.body as { pipe?: unknown } | null | undefined;
      if (body && typeof body.pipe === 'function' && !ctx.res.writableFinished) {
        held = true;
        finished(ctx.res, () => release());
      }
    } finally {
      if (!held) release();
    }
  };
}

/** The user guard as functions: the same key, algorithm and session rules as the middleware. */
export interface LeanGuard {
  /** The token's verified claims, or undefined where koa-jwt would answer 401. */
  verify(token: string): Record<string, unknown> | undefined;
  /** The session the claims name, as the user guard sets it; throws the guard's HttpError (401, 403 for 2FA setup). */
  session(claims: unknown, ip: string, method: string, path: string): Promise<{ user: SessionState; account: UserRecord }>;
}

/** The algorithms a session token may be signed with (koa-jwt and the lean path). */
const TOKEN_ALGORITHMS: jwt.Algorithm[] = ['HS256'];

export function makeGuards(opts: {
  secret: string;
  auth: AuthService;
  ingestKey?: string;
  /** Whether the user must enrol in 2FA before anything but 'Mi cuenta' (ADOPS_REQUIRE_2FA). */
  mustEnrol?: (user: UserRecord) => Promise<boolean>;
}): Guards {
  // A key object made once: given the secret as text, jsonwebtoken first tries it as a public
  // key (createPublicKey) on every request before it settles on HMAC — ~6 % of a busy server's CPU.
  const key = createSecretKey(Buffer.from(opts.secret, 'utf8'));
  const verify = koaJwt({
    secret: (async () => key) as unknown as string,
    algorithms: TOKEN_ALGORITHMS,
    key: 'jwt',
    // Browsers' EventSource cannot send headers: the live stream also takes ?access_token=.
    getToken: (ctx) => (ctx.path.endsWith('/stream') && typeof ctx.query.access_token === 'string' ? ctx.query.access_token : null),
  }) as unknown as Koa.Middleware;
  const resolveSession = async (claims: unknown, ip: string): Promise<{ user: SessionState; account: UserRecord }> => {
    // The token must name a live session of an existing user (read now: role and e-mail as stored).
    const { user, session } = await opts.auth.resolve(claims as Parameters<AuthService['resolve']>[0], ip);
    const state: SessionState = {
      id: user.id,
      email: user.email,
      is_admin: user.is_admin,
      exp: Math.floor(Date.parse(session.expires_at) / 1000),
      session_id: session.id,
    };
    return { user: state, account: user };
  };
  const checkEnrolled = async (account: UserRecord, method: string, path: string): Promise<void> => {
    if (opts.mustEnrol && !setupPaths.has(`${method} ${path}`) && (await opts.mustEnrol(account)))
      throw httpError(403, TOTP_SETUP_REQUIRED, undefined, { totp_setup_required: true });
  };
  const session: Koa.Middleware = async (ctx, next) => {
    const { user, account } = await resolveSession(ctx.state.jwt, ctx.ip);
    ctx.state.user = user;
    ctx.state.account = account;
    await checkEnrolled(account, ctx.method, ctx.path);
    await next();
  };
  const admin: Koa.Middleware = async (ctx, next) => {
    if (!(ctx.state.user as SessionState).is_admin) throw httpError(403, 'No autorizado');
    await next();
  };
  const keyMatches = (given: string | undefined): boolean => {
    if (!opts.ingestKey || !given) return false;
    const a = Buffer.from(given);
    const b = Buffer.from(opts.ingestKey);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  const ingest: Koa.Middleware = async (ctx, next) => {
    const header = ctx.get('x-ingest-key') || ctx.get('authorization').replace(/^Bearer\s+/i, '');
    if (keyMatches(header)) return next();
    // Otherwise an admin's session token.
    return verify(ctx, () => session(ctx, () => admin(ctx, next)));
  };
  const lean: LeanGuard = {
    verify: (token) => {
      try {
        const claims = jwt.verify(token, key, { algorithms: TOKEN_ALGORITHMS });
        return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : undefined;
      } catch {
        return undefined;
      }
    },
    session: async (claims, ip, method, path) => {
      const resolved = await resolveSession(claims, ip);
      await checkEnrolled(resolved.account, method, path);
      return resolved;
    },
  };
  return { user: [verify, session], admin: [verify, session, admin], ingest: [ingest], lean };
}

function parse<R extends Route>(r: R, ctx: Ctx): RouteParsed<R> {
  const parts: Array<[z.ZodType | undefined, unknown]> = [
    [r.params, ctx.params ?? {}],
    [r.query, ctx.query],
    [r.body, (ctx.request as { body?: unknown }).body],
  ];
  const merged: Record<string, unknown> = {};
  for (const [schema, value] of parts) {
    if (!schema) continue;
    const result = schema.safeParse(value);
    if (!result.success) throw httpError(400, zodDetail(result.error));
    Object.assign(merged, result.data);
  }
  return merged as RouteParsed<R>;
}

/** JSON bodies up to 1 MB, parsed only after the caller is authenticated. */
const jsonBody = bodyParser({
  enableTypes: ['json'],
  jsonLimit: '1mb',
  encoding: 'utf-8',
  onError: (err) => {
    const e = err as Error & { status?: number; type?: string };
    if (e.status === 413 || e.type === 'entity.too.large') throw httpError(413, 'El cuerpo de la petición es demasiado grande');
    throw httpError(e.status && e.status < 500 && e.status !== 400 ? e.status : 400, 'JSON mal formado');
  },
}) as unknown as Koa.Middleware;

export const koaPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Registers a contract route: guard by its access, a heavy route's place in its user's pool of
 * report queries, validate, call the handler, answer. A JSON
 * answer carries its figures as core's jsonFigures rounds them (4 decimals at most, never across
 * a half cent), whatever the route: the one place JSON figures are rounded.
 */
export function bind<R extends Route>(router: Router, guards: Guards, r: R, handler: Handler<R>): void {
  const guard: Koa.Middleware[] =
    r.access === 'user' ? guards.user : r.access === 'admin' ? guards.admin : r.access === 'ingest' ? guards.ingest : [];
  const parsed = r.body ? [...guard, jsonBody] : guard;
  const chain = r.heavy && guards.heavy ? [...parsed, guards.heavy] : parsed;
  const method = r.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
  const run: RouterMiddleware = async (raw) => {
    const ctx = raw as unknown as Ctx;
    const result = await handler(parse(r, ctx), ctx);
    if (r.responseType === 'none') ctx.status = 204;
    else if (result !== undefined && ctx.body === undefined) ctx.body = r.responseType === 'text' ? result : jsonFigures(result);
  };
  router[method](koaPath(r.path), ...(chain as RouterMiddleware[]), run);
}

/** The request's caller: the signed-in user (e-mail as stored now), else the ingest key. */
export function actorOf(ctx: Ctx): AuditActor {
  const user = ctx.state.user;
  return {
    type: user ? 'user' : 'ingest_key',
    id: user?.id ?? null,
    email: user?.email ?? null,
    ip: ctx.ip || null,
    requestId: ctx.state.requestId ?? null,
  };
}
