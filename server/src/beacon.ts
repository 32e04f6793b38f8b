// The beacon (GET /api/hit): one hit taken the same way wherever it arrives (per-IP bucket,
// validation, classification and idempotency in the service), and its lean path: a plain GET of
// /api/hit is answered before the Koa app (no context, router or middleware; the same headers,
// request id and { detail } errors), everything else goes on to the app.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { HitQuery } from '@adops/core';
import { HttpError, httpError, toHttpError, zodDetail } from './errors.js';
import { HSTS, SECURITY_HEADERS } from './security-headers.js';
import type { AppServices } from './services/index.js';
import { normalizeIp } from './services/referrers.js';

/** A transparent 1×1 GIF (the beacon's answer with format=gif). */
export const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A successful hit's headers beside the security headers: never cached, readable from any origin (the ad tag's page). */
export const BEACON_HEADERS = { 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' } as const;

/** A beacon request as either path sees it. */
export interface BeaconRequest {
  /** The client's address (a trusted proxy's X-Forwarded-For entry, else the socket's). */
  ip: string;
  socketAddress: string | undefined;
  /** The query string parsed as Koa parses it (a repeated name is an array). */
  query: Record<string, unknown>;
  /** A request header's value ('' when absent). */
  header(name: string): string;
}

/** Takes one hit: answers whether the pixel is asked for; HttpError 429, 400 (Spanish detail) or 503. */
export function takeHit(s: AppServices, r: BeaconRequest): Promise<{ gif: boolean }> {
  return new Promise((resolve, reject) => takeHitNow(s, r, (e, gif) => (e === undefined ? resolve({ gif: gif === true }) : reject(e))));
}

/**
 * takeHit() without a promise (the lean path's): with the bucket in this process, the hit is
 * counted, validated, classified and queued for the next commit before this returns, and `done`
 * hears after that commit — never before this returns. A Redis bucket is asked first.
 */
export function takeHitNow(s: AppServices, r: BeaconRequest, done: (error: unknown, gif?: boolean) => void): void {
  const ip = normalizeIp(r.ip) ?? r.socketAddress;
  const now = Date.now();
  const waitMs = s.referrers.beaconWaitNow(ip, now);
  if (waitMs === undefined) {
    s.referrers.beaconWait(ip, now).then(
      (ms) => afterWait(s, r, ip, ms, done),
      (e: unknown) => done(e),
    );
  } else afterWait(s, r, ip, waitMs, done);
}

/** The hit once its bucket answered; `done` hears after this returns (a refusal on the next microtask). */
function afterWait(s: AppServices, r: BeaconRequest, ip: string | undefined, waitMs: number, done: (error: unknown, gif?: boolean) => void): void {
  try {
    if (waitMs > 0) throw httpError(429, 'Demasiadas visitas desde esta dirección; inténtalo más tarde', waitMs / 1000);
    const parsed = HitQuery.safeParse(r.query);
    if (!parsed.success) throw httpError(400, zodDetail(parsed.error));
    const gif = parsed.data.format === 'gif';
    s.referrers.hitNow(
      parsed.data,
      {
        ip,
        userAgent: r.header('user-agent') || undefined,
        // A CDN's country header, only from behind trusted proxies (a client can send any header).
        country: s.config.trustProxy > 0 ? r.header('cf-ipcountry') || r.header('x-country-code') || undefined : undefined,
        referer: r.header('referer') || undefined,
      },
      (e) => done(e, gif),
    );
  } catch (e) {
    queueMicrotask(() => done(e));
  }
}

/** The query string parsed as Koa 3 does (URLSearchParams; a name given twice is an array of its values). */
export function parseQuery(search: string): Record<string, unknown> {
  // Printable ASCII (every tag's query) is read here, without URLSearchParams and its iterators;
  // anything else, or a percent sign decodeURIComponent refuses, as URLSearchParams reads it.
  const len = search.length;
  for (let i = 0; i < len; i++) {
    const c = search.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return parseQueryStandard(search);
  }
  const out: Record<string, unknown> = {};
  let start = search.charCodeAt(0) === 0x3f ? 1 : 0; // URLSearchParams drops one leading '?'
  while (start < len) {
    let end = search.indexOf('&', start);
    if (end === -1) end = len;
    if (end > start) {
      const eq = search.indexOf('=', start);
      const split = eq === -1 || eq > end ? end : eq;
      const name = formDecode(search.slice(start, split));
      const value = split === end ? '' : formDecode(search.slice(split + 1, end));
      if (name === undefined || value === undefined) return parseQueryStandard(search);
      addParam(out, name, value);
    }
    start = end + 1;
  }
  return out;
}

/** A form-encoded part ('+' a space, %XX a byte of UTF-8); undefined when decodeURIComponent refuses it. */
function formDecode(part: string): string | undefined {
  const plus = part.indexOf('+') !== -1;
  if (!plus && part.indexOf('%') === -1) return part;
  const spaced = plus ? part.replaceAll('+', ' ') : part;
  if (spaced.indexOf('%') === -1) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}

/** Adds a value under its name: the second value makes an array (own properties only, even for '__proto__'). */
function addParam(out: Record<string, unknown>, name: string, value: string): void {
  if (!Object.hasOwn(out, name)) {
    if (name === '__proto__') Object.defineProperty(out, name, { value, writable: true, enumerable: true, configurable: true });
    else out[name] = value;
    return;
  }
  const prev = out[name];
  if (Array.isArray(prev)) prev.push(value);
  else out[name] = [prev, value];
}

/** The query as URLSearchParams reads it (the reference; any text). */
export function parseQueryStandard(search: string): Record<string, unknown> {
  const params = new URLSearchParams(search);
  const out: Record<string, unknown> = {};
  for (const key of params.keys()) {
    if (Object.hasOwn(out, key)) continue;
    const values = params.getAll(key);
    Object.defineProperty(out, key, { value: values.length <= 1 ? values[0] : values, writable: true, enumerable: true, configurable: true });
  }
  return out;
}

const REQUEST_ID = /^[\w-]{8,64}$/;
/** The request id as the request log middleware takes it: a well-formed X-Request-Id, else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** A plain beacon URL: the path exactly, then a query without a fragment. */
const isBeaconUrl = (url: string) => url === '/api/hit' || (url.startsWith('/api/hit?') && !url.includes('#'));

/** How Koa (with koa.proxy and koa.maxIpsCount) sees a request's client: ctx.ip and ctx.secure. */
export interface ProxyView {
  clientIp(req: IncomingMessage): string;
  secure(req: IncomingMessage): boolean;
}

export function proxyView(proxy: { trusted: boolean; maxIpsCount: number }): ProxyView {
  return {
    clientIp: (req) => {
      // As Koa's ctx.ip: the first of the last `maxIpsCount` X-Forwarded-For entries, else the socket.
      const forwarded = proxy.trusted ? req.headers['x-forwarded-for'] : undefined;
      if (typeof forwarded === 'string' && forwarded) {
        let ips = forwarded.split(',').map((v) => v.trim());
        if (proxy.maxIpsCount > 0) ips = ips.slice(-proxy.maxIpsCount);
        if (ips[0]) return ips[0];
      }
      return req.socket.remoteAddress || '';
    },
    secure: (req) => {
      if ((req.socket as TLSSocket).encrypted) return true;
      if (!proxy.trusted) return false;
      const proto = req.headers['x-forwarded-proto'];
      return typeof proto === 'string' && proto.split(',', 1)[0].trim().toLowerCase() === 'https';
    },
  };
}

/**
 * Wraps the app's request listener: GET /api/hit is answered here as the Koa route would answer
 * it (the route stays for HEAD and the path's other spellings); like the route, no access log line.
 */
export function leanBeacon(s: AppServices, proxy: ProxyView, logError: (line: string) => void, next: RequestListener): RequestListener {
  const { clientIp, secure } = proxy;
  // A hit's head, built once per scheme as a flat [name, value, …] list in the order the headers
  // always had (request id, Vary, HSTS over HTTPS, security headers, then the answer's own): a hit
  // copies it and sets its request id — no header objects assembled and walked per hit.
  const base = (https: boolean) => [
    'X-Request-Id',
    '',
    'Vary',
    'Accept-Encoding',
    ...(https ? ['Strict-Transport-Security', HSTS] : []),
    ...Object.entries(SECURITY_HEADERS).flat(),
  ];
  const heads = [false, true].map((https) => ({
    base: base(https),
    noContent: [...base(https), ...Object.entries(BEACON_HEADERS).flat()],
    pixel: [...base(https), ...Object.entries(BEACON_HEADERS).flat(), 'Content-Type', 'image/gif', 'Content-Length', String(PIXEL.length)],
  }));
  return (req, res) => {
    const url = req.url ?? '';
    if (req.method !== 'GET' || !isBeaconUrl(url)) return next(req, res);
    const id = requestIdOf(req);
    const head = heads[secure(req) ? 1 : 0];
    const request: BeaconRequest = {
      ip: clientIp(req),
      socketAddress: req.socket.remoteAddress,
      query: parseQuery(url.length > 9 ? url.slice(9) : ''),
      header: (name) => {
        const v = req.headers[name];
        return typeof v === 'string' ? v : '';
      },
    };
    // No promise per hit: the answer is written when the hit's batch has committed (or at once
    // for a refusal), from the writer's own loop over its batch.
    takeHitNow(s, request, (raw, gif) => {
      if (raw === undefined) {
        const headers = (gif ? head.pixel : head.noContent).slice();
        headers[1] = id;
        if (gif) res.writeHead(200, headers).end(PIXEL);
        else res.writeHead(204, headers).end();
        return;
      }
      // As the error middleware: 4xx and 503 say why; anything else is logged and a 500.
      const known = toHttpError(raw);
      const e = known instanceof HttpError ? known : undefined;
      const status = e && e.status >= 400 ? e.status : 500;
      const detail = status < 500 || status === 502 || status === 503 ? (e?.message ?? '') : 'Error interno del servidor';
      if (status >= 500 && !(e && status === 503)) logError(`error ${id} GET /api/hit: ${(raw as Error)?.stack ?? String(raw)}`);
      const body = JSON.stringify({ detail });
      const headers = head.base.slice();
      headers[1] = id;
      headers.push('Content-Type', 'application/json; charset=utf-8');
      if (e?.retryAfterSeconds !== undefined) headers.push('Retry-After', String(Math.max(1, Math.ceil(e.retryAfterSeconds))));
      headers.push('Content-Length', String(Buffer.byteLength(body)));
      if (!res.headersSent) res.writeHead(status, headers).end(body);
    });
  };
}
