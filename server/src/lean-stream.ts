// The live referrer stream's lean path: a plain GET of the stream with a valid session token is
// opened before the Koa app (no context, router, koa-jwt or middleware: about 20 KB less garbage
// per stream request, most of a fresh server's memory growth per idle stream). The same rules
// and pieces as the route: the user guard's key, algorithm and session checks (Guards.lean), the
// contract's query schema, the route's stream request (referrerStream), the same head (request id,
// security headers, HSTS) and hub, and the same access log line. Whatever it does not take
// whole — HEAD, another spelling of the path, no token or a bad one, an Authorization header
// koa-jwt would refuse, a query the schema refuses, an ended session, a 2FA-setup user, an error
// — goes on to the Koa route untouched, so every refusal is the route's own answer.
import type { IncomingMessage, RequestListener } from 'node:http';
import { contract } from '@adops/core';
import { parseQuery, requestIdOf, type ProxyView } from './beacon.js';
import { HSTS, answerHeaders } from './security-headers.js';
import { HttpError, toHttpError } from './errors.js';
import { referrerStream } from './routes/referrers.js';
import type { HttpServices } from './http.js';

const route = contract.referrers.stream;
const PATH = route.path;
const isStreamUrl = (url: string) => url === PATH || (url.startsWith(`${PATH}?`) && !url.includes('#'));

/** The access log line of a request (app.ts writes it as the request log middleware does). */
export interface RequestLine {
  req_id: string;
  method: string;
  route: string | null;
  status: number;
  ms: number;
  user: string | null;
}

/**
 * The token as koa-jwt finds it for the stream: ?access_token= (a single, non-empty value),
 * else a well-formed `Authorization: Bearer` header; undefined (on to Koa) otherwise.
 */
function tokenOf(req: IncomingMessage, query: Record<string, unknown>): string | undefined {
  const fromQuery = query.access_token;
  if (typeof fromQuery === 'string' && fromQuery) return fromQuery;
  const header = req.headers.authorization;
  if (!header) return undefined;
  const parts = header.trim().split(' ');
  return parts.length === 2 && /^Bearer$/i.test(parts[0]) && parts[1] ? parts[1] : undefined;
}

/** Wraps the app's request listener: a plain, authorised GET of the referrer stream opens here. */
export function leanReferrerStream(
  s: HttpServices,
  proxy: ProxyView,
  log: { request(line: RequestLine): void; error(line: string): void },
  next: RequestListener,
): RequestListener {
  const schema = route.query;
  const headers = answerHeaders(s.config);
  return (req, res) => {
    const url = req.url ?? '';
    if (req.method !== 'GET' || !isStreamUrl(url)) return next(req, res);
    const started = performance.now();
    const query = parseQuery(url.length > PATH.length + 1 ? url.slice(PATH.length + 1) : '');
    const token = tokenOf(req, query);
    const claims = token === undefined ? undefined : s.guards.lean.verify(token);
    if (!claims) return next(req, res);
    const parsed = schema.safeParse(query);
    if (!parsed.success) return next(req, res);
    const lastEventId = req.headers['last-event-id'];
    const secure = proxy.secure(req);
    s.guards.lean
      .session(claims, proxy.clientIp(req), 'GET', PATH)
      .then(async ({ user }) => ({ user, request: await referrerStream(s, parsed.data, typeof lastEventId === 'string' ? lastEventId : '', user) }))
      .then(
        ({ user, request }) => {
          // The client left meanwhile: the route answers it as it always has.
          if (res.headersSent || req.socket.destroyed) return next(req, res);
          const id = requestIdOf(req);
          // As the route's head: the request id, koa-compress's Vary, HSTS, the security headers,
          // the zone and currency (handed to writeHead in one object: no per-header bookkeeping).
          const head: Record<string, string> = { 'X-Request-Id': id, Vary: 'Accept-Encoding' };
          if (secure) head['Strict-Transport-Security'] = HSTS;
          Object.assign(head, headers);
          try {
            s.referrers.hub.open({ req, res, head }, request);
          } catch (e) {
            // Refused (the user's streams are at their quota): the route answers, as it would have.
            if (toHttpError(e) instanceof HttpError) return next(req, res);
            log.error(`error ${id} GET ${PATH}: ${(e as Error)?.stack ?? String(e)}`);
            req.socket.destroy();
            return;
          }
          log.request({
            req_id: id,
            method: 'GET',
            route: PATH,
            status: 200,
            ms: Math.round((performance.now() - started) * 10) / 10,
            user: user.id,
          });
        },
        // Refused (401, 403) or failed: the route answers, as it would have.
        () => next(req, res),
      );
  };
}
