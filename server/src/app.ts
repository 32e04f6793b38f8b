// Builds the Koa application (never listens): stores, services, middleware and routes.
// Order: error handler → request id/log → security headers → routes (each: guard → body
// parser → validation → handler) → API 404 → web UI.
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import compress from 'koa-compress';
import { constants as zlib } from 'node:zlib';
import { z } from 'zod';
import { spanishIssue } from '@adops/core';
import type { Config } from './config.js';
import { errorHandler, statusOf } from './errors.js';
import { makeGuards, reportPoolMiddleware, type HttpServices } from './http.js';
import { createLogger, SignInRefusals, type Logger } from './logger.js';
import { secureDataDir } from './data-dir.js';
import { createServices, type AppServices, type SharedStores } from './services/index.js';
import { serveWeb } from './static.js';
import { authRoutes } from './routes/auth.js';
import { adminRoutes } from './routes/admin.js';
import { referrerRoutes } from './routes/referrers.js';
import { startTrafficDemo } from './sandbox/demo/traffic.js';
import { reportRoutes } from './routes/reports.js';
import { startZoneReports } from './sandbox/demo/zone-reports.js';
import { campaignRoutes } from './routes/campaigns.js';
import { docsRoutes } from './routes/docs.js';
import { auditRoutes } from './routes/audit.js';
import { backupRoutes } from './routes/backup.js';
import { profitRoutes } from './routes/profit.js';
import { alertRoutes } from './routes/alerts.js';
import { alertActionRoutes } from './routes/alert-actions.js';
import { seedDemoAlertRules } from './sandbox/demo/alert-rules.js';
import { auditTarget } from './services/audit.js';
import { publicUser } from './services/users.js';
import { VERSION } from './version.js';
import { HSTS, answerHeaders } from './security-headers.js';
import { leanBeacon, proxyView } from './beacon.js';
import { leanReferrerStream, type RequestLine } from './lean-stream.js';

// zod's own words for issues no schema worded: core's Spanish predicates, fields named by label.
z.config({ localeError: spanishIssue });

export { loadConfig, ConfigError, type Config } from './config.js';
export { migrateDataDir, MigrationRefused, type MigrateOptions, type MigrationResult } from './migrate.js';
export { loadDemoZoneReports, demoZoneReportItems, demoPublishers } from './sandbox/demo/zone-reports.js';
export type { AppServices } from './services/index.js';
export { BackupError, checkBackupTarget, restoreBackup, saveBackup, type BackupManifest, type RestoreResult } from './backup/index.js';

export interface AdopsApp {
  koa: Koa;
  /**
   * What an HTTP(S) server serves: a plain GET /api/hit on the beacon's lean path (no Koa
   * context: the hottest route), everything else through Koa.
   */
  listener: http.RequestListener;
  services: AppServices;
  /** Set when the protected admin was created with a generated password (print it once). */
  bootstrap: { email: string; password?: string } | null;
  close(): Promise<void>;
}

export async function createApp(config: Config, shared: SharedStores = {}): Promise<AdopsApp> {
  const logger = createLogger(config.log, config.logStream);
  const log = (line: string) => logger.info(line);
  await secureDataDir(config, logger);
  const services = await createServices(config, log, shared);
  let bootstrap: AdopsApp['bootstrap'];
  try {
    bootstrap = await services.users.bootstrapAdmin(config.adminEmail, config.adminPassword);
    if (bootstrap) await auditBootstrap(services, bootstrap.email);
    if (!bootstrap && config.adminPassword) await reportChangedAdminPassword(services, config.adminPassword, logger);
  } catch (e) {
    for (const fn of services.onClose.reverse()) await fn();
    throw e;
  }
  await startZoneReports(services);
  if (config.demo) startTrafficDemo(services);
  if (config.demo) await seedDemoAlertRules(services);

  const koa = new Koa();
  // Trusted hops only: a client can prepend any X-Forwarded-For entries it likes, never the ones
  // our proxies append, so the IP is the N-th entry from the right.
  koa.proxy = config.trustProxy > 0;
  koa.maxIpsCount = config.trustProxy;
  // Outermost: the request id, and one log line per API request written after the error
  // handler has answered, so it carries the status the client got (401, 429, 400 …).
  const refusals = new SignInRefusals(logger);
  services.onClose.push(() => refusals.close());
  koa.use(requestLog(logger, refusals));
  koa.use(errorHandler((line) => logger.error(line)));
  koa.use(publicBodyDeadline(config.publicBodyTimeoutMs));
  koa.use(compression());
  const headers = answerHeaders(config);
  koa.use(async (ctx, next) => {
    // Over HTTPS (the socket's own, or X-Forwarded-Proto from a trusted proxy: koa.proxy above)
    // the browser is told to keep to HTTPS; over plain HTTP the header would be ignored anyway.
    if (ctx.secure) ctx.set('Strict-Transport-Security', HSTS);
    // Every answer names the reporting time zone and the network's currency, so a client notices when they change.
    ctx.set(headers);
    await next();
  });

  // The routes' guards, built here on the services (which know nothing of HTTP).
  const s: HttpServices = {
    ...services,
    guards: {
      ...makeGuards({
        secret: services.secrets.jwtSecret,
        auth: services.auth,
        ingestKey: config.ingestKey,
        mustEnrol: config.require2fa === 'off' ? undefined : (user) => services.totp.mustEnrol(user),
      }),
      heavy: reportPoolMiddleware(services.reportPool),
    },
  };
  const router = new Router();
  authRoutes(router, s);
  adminRoutes(router, s);
  referrerRoutes(router, s);
  reportRoutes(router, s);
  campaignRoutes(router, s);
  docsRoutes(router, VERSION);
  auditRoutes(router, s);
  backupRoutes(router, s);
  profitRoutes(router, s);
  alertRoutes(router, s);
  alertActionRoutes(router, s);
  koa.use(router.routes());
  koa.use(router.allowedMethods());
  koa.use(async (ctx, next) => {
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) {
      ctx.status = 404;
      ctx.body = { detail: 'No encontrado' };
      return;
    }
    await next();
  });
  if (config.webDist) koa.use(serveWeb(config.webDist));

  koa.on('error', appErrors(logger));

  return {
    koa,
    listener: leanListener(s, koa, logger),
    services,
    bootstrap,
    async close() {
      for (const fn of services.onClose.reverse()) await fn();
    },
  };
}

/**
 * What the server serves: the beacon and the live referrer stream on their lean paths when they
 * can take a request whole (beacon.ts, lean-stream.ts), everything else through Koa.
 */
function leanListener(services: HttpServices, koa: Koa, logger: Logger): http.RequestListener {
  const proxy = proxyView({ trusted: koa.proxy, maxIpsCount: koa.maxIpsCount });
  const logError = (line: string) => logger.error(line);
  const stream = leanReferrerStream(services, proxy, { request: (line) => logRequest(logger, line), error: logError }, koa.callback());
  return leanBeacon(services, proxy, logError, stream);
}

/** The protected admin's creation, by the system, is the trail's first entry. */
async function auditBootstrap(services: AppServices, email: string): Promise<void> {
  const admin = await services.users.byEmail(email);
  if (admin) await services.audit.system({ action: 'user.create', target: auditTarget.user(admin), after: publicUser(admin) });
}

export { HSTS } from './security-headers.js';

/**
 * ADOPS_ADMIN_PASSWORD is applied on the first start only: afterwards the protected admin's
 * password is the one set from the web or `adops` (applying the variable again would undo that
 * change on every restart). A variable that no longer matches is said in the log — never its value.
 */
async function reportChangedAdminPassword(services: AppServices, password: string, logger: Logger): Promise<void> {
  if ((await services.users.adminPasswordMatches(password)) !== false) return;
  logger.warn(
    { env: 'ADOPS_ADMIN_PASSWORD' },
    "ADOPS_ADMIN_PASSWORD differs from the protected admin's stored password and is not applied (it sets the password on the first start only); change the password from the web or adops, or remove the variable",
  );
}

/**
 * The request id (a well-formed X-Request-Id is kept, else a new one) and, for /api/ routes
 * but the beacon, one line: method, route pattern (never the path's values or the query
 * string: tokens travel there), status, latency in ms and the signed-in user. Refused sign-ins
 * beyond a few a minute are only counted (a flood's minute is one summary line).
 */
function requestLog(logger: Logger, refusals: SignInRefusals): Koa.Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const id = /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    const started = performance.now();
    try {
      await next();
    } finally {
      const refusedSignIn = ctx.path === '/api/login' && ctx.status >= 400;
      if (ctx.path.startsWith('/api/') && ctx.path !== '/api/hit' && (!refusedSignIn || refusals.note(ctx.status))) {
        const user = ctx.state.user as { id?: string } | undefined;
        logRequest(logger, {
          req_id: id,
          method: ctx.method,
          route: (ctx as { _matchedRoute?: string })._matchedRoute ?? null,
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          user: user?.id ?? null,
        });
      }
    }
  };
}

/**
 * JSON, CSV exports and the web's assets travel compressed when the client accepts it; the live
 * stream (text/event-stream) never is, so its events are not held back in a buffer. Streamed
 * exports (hundreds of MB) take the fastest level: most of the gain at a third of the CPU.
 */
export function compression(): Koa.Middleware {
  const isExport = (type: string) => /csv|ndjson/.test(type);
  return compress({
    threshold: 1024,
    filter: (type) => !/event-stream/.test(type) && /json|text|javascript|svg|ndjson|csv/.test(type),
    gzip: (type) => ({ flush: zlib.Z_SYNC_FLUSH, level: isExport(type) ? 1 : 6 }),
    br: (type) => ({ params: { [zlib.BROTLI_PARAM_QUALITY]: isExport(type) ? 1 : 4 } }),
    deflate: false,
  });
}

/** One access log line, at the level its status calls for. */
function logRequest(logger: Logger, line: RequestLine): void {
  const level = line.status >= 500 ? 'error' : line.status >= 400 ? 'warn' : 'info';
  logger[level](line, 'request');
}

/** Public routes that read a body: anyone can reach them, so a slow body is cut off early. */
const PUBLIC_BODIES = new Set(['/api/login']);

/**
 * A body sent to a public route must arrive within `ms`: a client trickling bytes into
 * /api/login gets 408 and the connection closes, instead of holding it for the full request
 * timeout.
 */
function publicBodyDeadline(ms: number): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'POST' || !PUBLIC_BODIES.has(ctx.path)) return next();
    const timer = setTimeout(() => {
      if (ctx.res.headersSent) return;
      ctx.res.writeHead(408, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
      ctx.res.end(JSON.stringify({ detail: 'La petición tardó demasiado en llegar' }));
      ctx.req.destroy();
    }, ms);
    ctx.req.once('end', () => clearTimeout(timer));
    try {
      await next();
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * What the app's error listener logs: a failure of the server at error level, with its stack. A
 * client that closed the connection before its answer ended (a download cancelled, a tab closed)
 * is not one: Koa reports it as a premature close, logged at info in a line without a stack (after a
 * failed export, which the server closed, the failure itself is the error line before it).
 */
export function appErrors(logger: Logger): (err: Error & { code?: string }, ctx?: { state?: { requestId?: string } }) => void {
  return (err, ctx) => {
    if (err.code === 'ERR_STREAM_PREMATURE_CLOSE') {
      logger.info({ req_id: ctx?.state?.requestId }, 'the connection closed before the answer ended');
      return;
    }
    const status = statusOf(err);
    if (!status || status >= 500) logger.error({ err }, 'server error');
  };
}
