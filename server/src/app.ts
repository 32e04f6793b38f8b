// Builds the Koa application (never listens): stores, services, middleware and routes.
// Order: error handler → request id/log → security headers → routes (each: guard → body
// parser → validation → handler) → API 404 → web UI.
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import Router from '@koa/router';
import { z } from 'zod';
import type { Config } from './config.js';
import { errorHandler } from './errors.js';
import { Store } from './store/store.js';
import { Db } from './warehouse/db.js';
import { loadSecrets, type Secrets } from './services/secrets.js';
import { UserService } from './services/users.js';
import { AuthService } from './services/auth.js';
import { TokenService } from './services/tokens.js';
import { makeGuards, type Guards } from './http.js';
import { serveWeb } from './static.js';
import { authRoutes } from './routes/auth.js';
import { adminRoutes } from './routes/admin.js';
import { ReferrerService } from './services/referrers.js';
import { referrerRoutes } from './routes/referrers.js';
import { startTrafficDemo } from './demo/traffic.js';
import { reportRoutes } from './routes/reports.js';
import { startZoneReports } from './demo/zone-reports.js';
import { CampaignService } from './services/campaigns.js';
import { campaignRoutes } from './routes/campaigns.js';

z.config(z.locales.es());

export { loadConfig, ConfigError, type Config } from './config.js';
export { loadDemoZoneReports, demoZoneReportItems, demoPublishers } from './demo/zone-reports.js';

export interface AppServices {
  config: Config;
  store: Store;
  /** DuckDB: the facts (zone reports, referrer events). */
  db: Db;
  secrets: Secrets;
  users: UserService;
  auth: AuthService;
  tokens: TokenService;
  /** Referrer traffic: ingest, queries, live bus and streams. */
  referrers: ReferrerService;
  /** Paid-social campaigns and their providers (Meta, Pixabay, copy; sandboxes by default). */
  campaigns: CampaignService;
  guards: Guards;
  log: (line: string) => void;
  /** Work to run when the app closes (flush batches, stop timers, close stores). */
  onClose: Array<() => Promise<void> | void>;
}

export interface AdopsApp {
  koa: Koa;
  services: AppServices;
  /** Set when the protected admin was created with a generated password (print it once). */
  bootstrap: { email: string; password?: string } | null;
  close(): Promise<void>;
}

export async function createApp(config: Config): Promise<AdopsApp> {
  const log = config.log === 'silent' ? () => {} : (line: string) => console.log(line);
  const store = await Store.open(config.dataDir);
  const db = await Db.open(config.dataDir);
  const secrets = await loadSecrets(config.dataDir, config.jwtSecret);
  const users = new UserService(store, config.scryptLogN);
  const bootstrap = await users.bootstrapAdmin(config.adminEmail, config.adminPassword);
  const auth = new AuthService(users, secrets.jwtSecret, config.jwtTtlSeconds, config.loginMaxFailures, config.loginWindowMs, config.scryptLogN);
  const tokens = new TokenService(store, secrets);
  const guards = makeGuards({ secret: secrets.jwtSecret, users, ingestKey: config.ingestKey });
  const referrers = await ReferrerService.open(db, config, log);
  const campaigns = await CampaignService.start(config, store, log);
  const services: AppServices = { config, store, db, secrets, users, auth, tokens, referrers, campaigns, guards, log, onClose: [() => db.close(), () => referrers.close(), () => campaigns.close()] };
  await startZoneReports(services);
  if (config.demo) startTrafficDemo(services);

  const koa = new Koa();
  koa.proxy = config.trustProxy;
  koa.use(errorHandler(log));
  koa.use(async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const id = /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    const started = performance.now();
    try {
      await next();
    } finally {
      if (ctx.path.startsWith('/api/') && ctx.path !== '/api/hit')
        log(`${ctx.method} ${ctx.path} ${ctx.status} ${(performance.now() - started).toFixed(1)}ms ${id}`);
    }
  });
  koa.use(async (ctx, next) => {
    ctx.set({
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'same-origin',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Content-Security-Policy':
        "default-src 'self'; img-src 'self' data: blob: https:; style-src 'self' 'unsafe-inline'; " +
        "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
    });
    await next();
  });

  const router = new Router();
  authRoutes(router, services);
  adminRoutes(router, services);
  referrerRoutes(router, services);
  reportRoutes(router, services);
  campaignRoutes(router, services);
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

  koa.on('error', (err: Error & { status?: number }) => {
    if (!err.status || err.status >= 500) log(`server error: ${err.stack ?? err.message}`);
  });

  return {
    koa,
    services,
    bootstrap,
    async close() {
      for (const fn of services.onClose.reverse()) await fn();
    },
  };
}
