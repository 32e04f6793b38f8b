// Server configuration from environment variables, validated at start with clear messages.
import path from 'node:path';
import { webhookAllowEntryProblem } from './services/webhook-address.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  adminEmail: string;
  /** When unset on first start a password is generated and printed once. */
  adminPassword?: string;
  jwtSecret?: string;
  jwtTtlSeconds: number;
  demo: boolean;
  tz: string;
  ingestKey?: string;
  /**
   * ADOPS_TRUST_PROXY: the proxy hops in front of the server (0: none). The client's IP is the
   * N-th entry from the right of X-Forwarded-For (those entries are the ones our proxies wrote),
   * and only then are CDN country headers believed.
   */
  trustProxy: number;
  /** Built web UI to serve at / (null: API only). */
  webDist: string | null;
  publicSiteUrl: string;
  eventRetentionDays: number;
  /** Bot and spam traffic apart (ADOPS_BOT_FILTER, default on): beacon hits and batch events are classified and flagged (is_bot, reason). */
  botFilter: boolean;
  /** ADOPS_BOT_IP_RATE: hits one IP may send in a minute before the rest are flagged `ip_rate` (0: never). */
  botIpRatePerMinute: number;
  /** ADOPS_BEACON_RATE: beacon hits per second one IP may sustain (a token bucket; 0: no limit); beyond, 429. */
  beaconRatePerSecond: number;
  /** ADOPS_BEACON_BURST: the bucket's size, the hits one IP may send at once. */
  beaconBurst: number;
  /** log2 of scrypt's N for new password hashes (OWASP: 17). */
  scryptLogN: number;
  loginMaxFailures: number;
  loginWindowMs: number;
  /** Failed sign-ins (and wrong current passwords) per account, from any address, in loginWindowMs. */
  loginAccountMaxFailures: number;
  /** Failed sign-ins per client address, whatever the accounts, in loginWindowMs. */
  loginIpMaxFailures: number;
  /** ADOPS_PUBLISHER_RATE_LIMIT: requests per hour a publisher token may make unless it has its own limit (default 600). */
  publisherRateLimit: number;
  /**
   * ADOPS_REQUIRE_2FA: who must sign in with two factors (TOTP). `admins` (or `all`): until they
   * enrol, only 'Mi cuenta' answers them (403 with totp_setup_required elsewhere). Default off.
   */
  require2fa: 'off' | 'admins' | 'all';
  /** ADOPS_LOG: JSON lines (info, the default), pretty for people, or silent. */
  log: 'info' | 'pretty' | 'silent';
  /** A request must arrive whole (headers and body) within this (ADOPS_REQUEST_TIMEOUT_SECONDS). */
  requestTimeoutMs: number;
  /** A body on a public route (sign-in) must arrive within this: slow-body clients are cut off. */
  publicBodyTimeoutMs: number;
  /** How often an open live stream (referrers, alerts) checks that its session still lives (ms). */
  streamAliveCheckMs: number;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: import('pino').DestinationStream;
  meta: { accessToken?: string; adAccountId?: string; pageId?: string; apiBase?: string; apiVersion: string };
  pixabay: { key?: string; apiBase?: string };
  copy: { apiBase?: string; apiKey?: string; model?: string };
  /** ADOPS_WAREHOUSE: facts in embedded DuckDB (the data dir) or ClickHouse (shared by every instance). */
  warehouse: 'duckdb' | 'clickhouse';
  /** ADOPS_CLICKHOUSE_URL (required with ADOPS_WAREHOUSE=clickhouse: http(s)://host:8123, or chdb:<path> for the embedded engine), _USER, _PASSWORD, _DATABASE. */
  clickhouse?: { url: string; username?: string; password?: string; database: string };
  /**
   * The embedded engine's memory (DuckDB): ADOPS_WAREHOUSE_MEMORY_LIMIT caps its buffers (default
   * 128MB, was 256MB and before that a fixed 1GB; the process takes more: Node, the engine's own allocations); sorts, joins and
   * groups larger than that spill to ADOPS_WAREHOUSE_TEMP_DIR (unset: `warehouse.duckdb.tmp` in
   * the data dir) instead of growing the process. ClickHouse embedded (chdb:) takes it as each
   * query's max_memory_usage, spilling sorts and groups from half of it; a ClickHouse server keeps
   * its own profile's settings.
   */
  warehouseMemory: { limit: string; tempDir?: string };
  /** ADOPS_LIVE: the live bus (and login limiter) in this process, or shared through Redis. */
  live: 'memory' | 'redis';
  /** ADOPS_REDIS_URL (required with ADOPS_LIVE=redis); ADOPS_REDIS_PREFIX namespaces the keys. */
  redis?: { url: string; prefix: string };
  /** ADOPS_STORE: entities in lowdb (the data dir, one instance) or PostgreSQL (shared by every instance). */
  store: 'lowdb' | 'postgres';
  /** ADOPS_DATABASE_URL (required with ADOPS_STORE=postgres): a postgres:// URL. */
  databaseUrl?: string;
  /** ADOPS_CURRENCY: the network's currency (revenue's), ISO 4217; Meta spend is converted to it with the monthly rates. */
  currency: string;
  /**
   * The campaign creator's daily budget, in units of the Meta ad account's currency: the most a
   * campaign may be given (ADOPS_MAX_DAILY_BUDGET, default 1000) and the amount above which people
   * confirm it first (ADOPS_CONFIRM_DAILY_BUDGET, default a tenth of the most).
   */
  dailyBudget: { max: number; confirmAbove: number };
  /**
   * The Meta spend sync's schedule: every `everyMinutes` the last `recentDays` days (today
   * included), and once a night after `nightlyHour` (reporting time zone) the last `nightlyDays`.
   * ADOPS_SPEND_SYNC_MINUTES=0 turns it off; it runs only against a real ad account or with demo data.
   */
  spendSync: { everyMinutes: number; recentDays: number; nightlyDays: number; nightlyHour: number };
  /**
   * Alertas: the evaluator runs every `everySeconds` (ADOPS_ALERTS_EVERY_SECONDS, default 60; 0 off),
   * e-mail through ADOPS_SMTP_URL (smtp:// or smtps://; none: no e-mail) from ADOPS_MAIL_FROM,
   * webhooks tried `webhookAttempts` times with backoff from `webhookBackoffMs`; links to ADOPS_APP_URL.
   * The daily digest ('Resumen diario') goes at `digestHour` (ADOPS_DIGEST_HOUR, 0–23, default 8) in ADOPS_TZ.
   */
  quotas: Quotas;
  alerts: {
    everySeconds: number;
    smtpUrl?: string;
    mailFrom: string;
    webhookAttempts: number;
    webhookBackoffMs: number;
    /**
     * ADOPS_WEBHOOK_ALLOW: hosts, IP addresses and CIDR ranges a webhook may reach although they
     * are loopback, private, link-local … (webhook-address.ts). Absent: none.
     */
    webhookAllow?: readonly string[];
    /** One webhook try, connection to answer (default 5 s); the connection alone (default 3 s). */
    webhookTimeoutMs?: number;
    webhookConnectTimeoutMs?: number;
    /** How webhook hosts are resolved (default: the system's; tests give a hosts table). */
    webhookResolve?: import('./services/webhook-address.js').Resolve;
    appUrl: string | null;
    digestHour: number;
  };
}

/** What one account may hold or run at once, so a single user (or a leaked token) cannot swamp the server for everyone. */
export interface Quotas {
  /** ADOPS_MAX_ALERT_RULES: alert rules one user may have created (admins too); default 50. */
  alertRules: number;
  /** ADOPS_MAX_STREAMS: live streams (referrer log and alerts together) one user may hold open on an instance; default 20. */
  streams: number;
  /** ADOPS_REPORT_QUERIES: report queries of one user run at once; default 2. */
  reportQueries: number;
  /** ADOPS_REPORT_QUEUE: a user's report queries waiting (in arrival order) behind those; beyond, 429. Default 8 (a dashboard asks 5 at once). */
  reportQueue: number;
  /** ADOPS_ALERT_NOTICES_PER_RULE: notices one rule sends each receiver in one evaluation; the rest go as one summary ('y 312 más'). Default 10. */
  alertNoticesPerRule: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be 1 or 0 (got "${env[name]}")`);
}

function url(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    return raw.replace(/\/$/, '');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL (got "${raw}")`);
  }
}

function timeZone(env: Env): string {
  const tz = env.ADOPS_TZ || 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    throw new ConfigError(`ADOPS_TZ must be an IANA time zone such as Europe/Madrid (got "${tz}")`);
  }
  return tz;
}

function logMode(env: Env): Config['log'] {
  const raw = (env.ADOPS_LOG || 'info').trim().toLowerCase();
  if (raw === 'info' || raw === 'json') return 'info';
  if (raw === 'pretty' || raw === 'silent') return raw;
  throw new ConfigError(`ADOPS_LOG must be info, pretty or silent (got "${env.ADOPS_LOG}")`);
}

function require2fa(env: Env): Config['require2fa'] {
  const raw = (env.ADOPS_REQUIRE_2FA || 'off').trim().toLowerCase();
  if (['off', 'none', 'no', '0', 'false'].includes(raw)) return 'off';
  if (raw === 'admins' || raw === 'all') return raw;
  throw new ConfigError(`ADOPS_REQUIRE_2FA must be off, admins or all (got "${env.ADOPS_REQUIRE_2FA}")`);
}

function liveConfig(env: Env): Pick<Config, 'live' | 'redis'> {
  const live = (env.ADOPS_LIVE || 'memory').trim().toLowerCase();
  if (live !== 'memory' && live !== 'redis') throw new ConfigError(`ADOPS_LIVE must be memory or redis (got "${env.ADOPS_LIVE}")`);
  if (live === 'memory') return { live };
  const raw = env.ADOPS_REDIS_URL;
  if (!raw) throw new ConfigError('ADOPS_REDIS_URL must be set when ADOPS_LIVE=redis (e.g. redis://localhost:6379)');
  if (!/^rediss?:\/\/[^/\s]/i.test(raw))
    throw new ConfigError(`ADOPS_REDIS_URL must be a redis:// or rediss:// URL (got "${raw.replace(/\/\/[^@/]*@/, '//***@')}")`);
  return { live, redis: { url: raw, prefix: env.ADOPS_REDIS_PREFIX || 'adops:' } };
}

function storeConfig(env: Env): Pick<Config, 'store' | 'databaseUrl'> {
  const store = (env.ADOPS_STORE || 'lowdb').trim().toLowerCase();
  if (store !== 'lowdb' && store !== 'postgres') throw new ConfigError(`ADOPS_STORE must be lowdb or postgres (got "${env.ADOPS_STORE}")`);
  if (store === 'lowdb') return { store };
  const raw = env.ADOPS_DATABASE_URL;
  if (!raw) throw new ConfigError('ADOPS_DATABASE_URL must be set when ADOPS_STORE=postgres (e.g. postgres://adops@localhost:5432/adops)');
  if (!/^postgres(ql)?:\/\/\S*$/i.test(raw))
    throw new ConfigError(`ADOPS_DATABASE_URL must be a postgres:// URL (got "${raw.replace(/\/\/[^@/]*@/, '//***@')}")`);
  return { store, databaseUrl: raw };
}

function warehouseConfig(env: Env): Pick<Config, 'warehouse' | 'clickhouse'> {
  const warehouse = (env.ADOPS_WAREHOUSE || 'duckdb').trim().toLowerCase();
  if (warehouse !== 'duckdb' && warehouse !== 'clickhouse')
    throw new ConfigError(`ADOPS_WAREHOUSE must be duckdb or clickhouse (got "${env.ADOPS_WAREHOUSE}")`);
  if (warehouse === 'duckdb') return { warehouse };
  const raw = env.ADOPS_CLICKHOUSE_URL;
  if (!raw)
    throw new ConfigError(
      'ADOPS_CLICKHOUSE_URL must be set when ADOPS_WAREHOUSE=clickhouse (e.g. http://localhost:8123, or chdb:///var/lib/adops/clickhouse)',
    );
  if (!/^(https?:\/\/[^/\s]|chdb:\S)/i.test(raw))
    throw new ConfigError(`ADOPS_CLICKHOUSE_URL must be an http(s):// or chdb: URL (got "${raw.replace(/\/\/[^@/]*@/, '//***@')}")`);
  const database = env.ADOPS_CLICKHOUSE_DATABASE || 'adops';
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(database))
    throw new ConfigError(`ADOPS_CLICKHOUSE_DATABASE must be a plain name (letters, digits, _) (got "${database}")`);
  const username = env.ADOPS_CLICKHOUSE_USER || undefined;
  const password = env.ADOPS_CLICKHOUSE_PASSWORD || undefined;
  return { warehouse, clickhouse: { url: raw, username, password, database } };
}

/** A size DuckDB reads ('256MB', '1.5GB', '512MiB'). */
const ENGINE_SIZE = /^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i;

const SIZE_UNITS: Record<string, number> = { kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };

/** Bytes of a size as DuckDB reads it ('256MB' = 256,000,000; '1GiB' = 2^30): what ClickHouse's settings take. */
export function engineBytes(size: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(size.trim());
  if (!m || !SIZE_UNITS[m[2].toLowerCase()]) throw new ConfigError(`not a size: ${size}`);
  return Math.floor(Number(m[1]) * SIZE_UNITS[m[2].toLowerCase()]);
}

function warehouseMemory(env: Env): Config['warehouseMemory'] {
  const limit = (env.ADOPS_WAREHOUSE_MEMORY_LIMIT || '128MB').trim();
  if (!ENGINE_SIZE.test(limit))
    throw new ConfigError(`ADOPS_WAREHOUSE_MEMORY_LIMIT must be a size such as 256MB or 2GB (got "${env.ADOPS_WAREHOUSE_MEMORY_LIMIT}")`);
  const tempDir = env.ADOPS_WAREHOUSE_TEMP_DIR ? path.resolve(env.ADOPS_WAREHOUSE_TEMP_DIR) : undefined;
  return { limit, tempDir };
}

function currency(env: Env): string {
  const raw = (env.ADOPS_CURRENCY || 'USD').trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(raw))
    throw new ConfigError(`ADOPS_CURRENCY must be a 3-letter ISO 4217 code such as USD or EUR (got "${env.ADOPS_CURRENCY}")`);
  return raw;
}

/** A plain amount setting ("1000", "250.50"): up to 2 decimals, from `min` to `max`; undefined when unset. */
function amount(env: Env, name: string, min: number, max: number): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!/^\d+(\.\d{1,2})?$/.test(raw) || n < min || n > max)
    throw new ConfigError(`${name} must be an amount from ${min} to ${max} with at most 2 decimals, such as 1000 or 250.50 (got "${env[name]}")`);
  return n;
}

function dailyBudget(env: Env): Config['dailyBudget'] {
  const max = amount(env, 'ADOPS_MAX_DAILY_BUDGET', 0.01, 100_000_000) ?? 1000;
  const confirmAbove = amount(env, 'ADOPS_CONFIRM_DAILY_BUDGET', 0, 100_000_000) ?? Math.round(max * 10) / 100;
  if (confirmAbove > max)
    throw new ConfigError(
      `ADOPS_CONFIRM_DAILY_BUDGET (${confirmAbove}) must not exceed ADOPS_MAX_DAILY_BUDGET (${max}): above the most nothing is created`,
    );
  return { max, confirmAbove };
}

function proxyHops(env: Env): number {
  const raw = env.ADOPS_TRUST_PROXY?.trim().toLowerCase();
  if (raw === undefined || raw === '' || ['false', 'no', 'off'].includes(raw)) return 0;
  if (['true', 'yes', 'on'].includes(raw)) return 1;
  return int(env, 'ADOPS_TRUST_PROXY', 0, 0, 10);
}

function alertsConfig(env: Env): Config['alerts'] {
  const smtpUrl = env.ADOPS_SMTP_URL || undefined;
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/\s]/i.test(smtpUrl))
    throw new ConfigError(`ADOPS_SMTP_URL must be an smtp:// or smtps:// URL (got "${smtpUrl.replace(/\/\/[^@/]*@/, '//***@')}")`);
  const mailFrom = env.ADOPS_MAIL_FROM || 'AdOps Console <alertas@adops.local>';
  if (!/@/.test(mailFrom) || /[\r\n]/.test(mailFrom)) throw new ConfigError(`ADOPS_MAIL_FROM must be an e-mail address (got "${mailFrom}")`);
  const everySeconds = int(env, 'ADOPS_ALERTS_EVERY_SECONDS', 60, 0, 86_400);
  if (everySeconds > 0 && everySeconds < 10) throw new ConfigError('ADOPS_ALERTS_EVERY_SECONDS must be 0 (off) or at least 10');
  const webhookAllow = (env.ADOPS_WEBHOOK_ALLOW ?? '')
    .split(/[\s,]+/)
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of webhookAllow) {
    const problem = webhookAllowEntryProblem(entry);
    if (problem) throw new ConfigError(`ADOPS_WEBHOOK_ALLOW: ${problem} (a comma-separated list such as "hooks.internal, 10.20.0.0/16")`);
  }
  return {
    everySeconds,
    smtpUrl,
    mailFrom,
    webhookAttempts: 4,
    webhookBackoffMs: 2_000,
    webhookAllow,
    webhookTimeoutMs: 5_000,
    webhookConnectTimeoutMs: 3_000,
    appUrl: url(env, 'ADOPS_APP_URL') ?? null,
    digestHour: int(env, 'ADOPS_DIGEST_HOUR', 8, 0, 23),
  };
}

/** Reads and validates the configuration; throws ConfigError naming the bad variable. */
export function loadConfig(env: Env = process.env, defaults: Partial<Config> = {}): Config {
  const adminEmail = (env.ADOPS_ADMIN_EMAIL || 'admin@adops.local').trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail)) throw new ConfigError(`ADOPS_ADMIN_EMAIL must be an e-mail address (got "${adminEmail}")`);
  const adminPassword = env.ADOPS_ADMIN_PASSWORD || undefined;
  if (adminPassword !== undefined && adminPassword.length < 8) throw new ConfigError('ADOPS_ADMIN_PASSWORD must have at least 8 characters');
  const jwtSecret = env.ADOPS_JWT_SECRET || undefined;
  if (jwtSecret !== undefined && jwtSecret.length < 32) throw new ConfigError('ADOPS_JWT_SECRET must have at least 32 characters');
  const ingestKey = env.ADOPS_INGEST_KEY || undefined;
  if (ingestKey !== undefined && ingestKey.length < 16) throw new ConfigError('ADOPS_INGEST_KEY must have at least 16 characters');
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.ADOPS_DATA_DIR || './data'),
    adminEmail,
    adminPassword,
    jwtSecret,
    jwtTtlSeconds: int(env, 'ADOPS_JWT_TTL_HOURS', 12, 1, 24 * 30) * 3600,
    demo: bool(env, 'ADOPS_DEMO', true),
    tz: timeZone(env),
    ingestKey,
    trustProxy: proxyHops(env),
    webDist: defaults.webDist ?? null,
    publicSiteUrl: url(env, 'ADOPS_PUBLIC_SITE_URL') ?? 'https://example.com',
    eventRetentionDays: int(env, 'ADOPS_EVENT_RETENTION_DAYS', 90, 1, 3650),
    botFilter: bool(env, 'ADOPS_BOT_FILTER', true),
    botIpRatePerMinute: int(env, 'ADOPS_BOT_IP_RATE', 300, 0, 1_000_000),
    beaconRatePerSecond: int(env, 'ADOPS_BEACON_RATE', 20, 0, 1_000_000),
    beaconBurst: int(env, 'ADOPS_BEACON_BURST', 200, 1, 1_000_000),
    scryptLogN: 17,
    loginMaxFailures: 5,
    loginWindowMs: 15 * 60_000,
    loginAccountMaxFailures: 10,
    loginIpMaxFailures: 30,
    publisherRateLimit: int(env, 'ADOPS_PUBLISHER_RATE_LIMIT', 600, 1, 1_000_000),
    require2fa: require2fa(env),
    log: logMode(env),
    requestTimeoutMs: int(env, 'ADOPS_REQUEST_TIMEOUT_SECONDS', 300, 10, 3600) * 1000,
    publicBodyTimeoutMs: 10_000,
    streamAliveCheckMs: 3000,
    meta: {
      accessToken: env.META_ACCESS_TOKEN || undefined,
      adAccountId: env.META_AD_ACCOUNT_ID || undefined,
      pageId: env.META_PAGE_ID || undefined,
      apiBase: url(env, 'META_API_BASE'),
      apiVersion: env.META_API_VERSION || 'v24.0',
    },
    pixabay: { key: env.PIXABAY_KEY || undefined, apiBase: url(env, 'PIXABAY_API_BASE') },
    copy: {
      apiBase: url(env, 'ADOPS_COPY_API_BASE'),
      apiKey: env.ADOPS_COPY_API_KEY || undefined,
      model: env.ADOPS_COPY_MODEL || undefined,
    },
    currency: currency(env),
    dailyBudget: dailyBudget(env),
    spendSync: {
      everyMinutes: int(env, 'ADOPS_SPEND_SYNC_MINUTES', 15, 0, 24 * 60),
      recentDays: int(env, 'ADOPS_SPEND_SYNC_DAYS', 2, 1, 31),
      nightlyDays: int(env, 'ADOPS_SPEND_SYNC_NIGHTLY_DAYS', 7, 1, 90),
      nightlyHour: int(env, 'ADOPS_SPEND_SYNC_NIGHTLY_HOUR', 3, 0, 23),
    },
    quotas: {
      alertRules: int(env, 'ADOPS_MAX_ALERT_RULES', 50, 1, 100_000),
      streams: int(env, 'ADOPS_MAX_STREAMS', 20, 1, 100_000),
      reportQueries: int(env, 'ADOPS_REPORT_QUERIES', 2, 1, 64),
      reportQueue: int(env, 'ADOPS_REPORT_QUEUE', 8, 0, 1000),
      alertNoticesPerRule: int(env, 'ADOPS_ALERT_NOTICES_PER_RULE', 10, 1, 10_000),
    },
    alerts: alertsConfig(env),
    ...liveConfig(env),
    ...storeConfig(env),
    ...warehouseConfig(env),
    warehouseMemory: warehouseMemory(env),
    ...defaults,
  };
}
