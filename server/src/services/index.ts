// The composition root: opens the stores (entities, and the warehouse engine the configuration
// names) and wires every service to them, once. Routes, the demo and the CLI receive these
// services; nothing else constructs a store or a service.
import type { Config } from '../config.js';
import { openEntityStore, type EntityStore } from '../store/index.js';
import { createWarehouse, type Warehouse } from '../warehouse/index.js';
import { openSecrets, type Secrets } from './secrets.js';
import { UserService } from './users.js';
import { DeviceTokens } from './devices.js';
import { AuthService } from './auth.js';
import { TotpService } from './totp.js';
import { TokenService } from './tokens.js';
import { DEFAULT_REFERRER_OPTIONS, ReferrerService } from './referrers.js';
import { SpamListService } from './spam-list.js';
import { CampaignService } from './campaigns.js';
import { ReportService } from './reports.js';
import { ZoneReportIngest } from './ingest-zone-report.js';
import { RevenueShareService } from './revenue-shares.js';
import { AuditService } from './audit.js';
import { SpendService } from './spend.js';
import { ProfitService } from './profit.js';
import { AlertService } from './alerts.js';
import { AlertDigest } from './alert-digest.js';
import { AlertStream } from './alert-stream.js';
import { AlertGuard } from './alert-guard.js';
import { AlertBacktester } from './alert-backtest.js';
import { ZoneValues } from './zone-values.js';
import { Completeness } from './completeness.js';
import { openLiveBackend, type LiveBackend } from '../live/index.js';
import type { ReferrerEvent } from '../warehouse/index.js';
import { StreamQuota } from '../live/stream-quota.js';
import { ReportPool } from './report-pool.js';

export interface AppServices {
  config: Config;
  /** The entities (users, tokens, campaigns, revenue shares, settings) on the configured engine. */
  store: EntityStore;
  /** The facts (zone reports, referrer events) on the configured engine. */
  warehouse: Warehouse;
  secrets: Secrets;
  users: UserService;
  auth: AuthService;
  /** Known devices' tokens (the sign-in cookie, or the terminal's `device_token`). */
  devices: DeviceTokens;
  /** Two-factor sign-in (TOTP): enrolment, codes, recovery codes, ADOPS_REQUIRE_2FA. */
  totp: TotpService;
  tokens: TokenService;
  /** Revenue reports: every table, card and chart of the reporting screens. */
  reports: ReportService;
  /** Zone-report imports (HTTP ingest, `adops import`, the demo loader). */
  ingest: ZoneReportIngest;
  /** Publishers' revenue shares. */
  shares: RevenueShareService;
  /** Referrer traffic: ingest, queries, live bus and streams. */
  referrers: ReferrerService;
  /** The referrer-spam list (shipped + admins' changes) the bot classification reads. */
  spam: SpamListService;
  /** The live backend (ADOPS_LIVE): in this process, or Redis shared by every instance. */
  live: LiveBackend;
  /** Paid-social campaigns and their providers (Meta, Pixabay, copy; sandboxes by default). */
  campaigns: CampaignService;
  /** The audit trail: `audit.record(actorOf(ctx), {action, target, before, after})` after every change. */
  audit: AuditService;
  /** Meta spend per ad and day: the sync (on demand and scheduled). */
  spend: SpendService;
  /** Rentabilidad: spend joined to the zone revenue its visits earned; the monthly exchange rates. */
  profit: ProfitService;
  /** Which days' spend a sync covered and which zone reports are final or partial. */
  completeness: Completeness;
  /** Alertas: rules, what they fired, channels, and the evaluator (every minute, one instance at a time). */
  alerts: AlertService;
  /** The daily digest e-mail ('Resumen diario') at ADOPS_DIGEST_HOUR. */
  alertDigest: AlertDigest;
  /** Alerts as they fire and resolve, on every instance (SSE: `adops tail --alerts`). */
  alertStream: AlertStream;
  /** The profit guard: campaign rules' actions on Meta (pause, reactivar), their records and undo. */
  guard: AlertGuard;
  /** 'Probar en el pasado': a rule replayed over the last days on the stored data (never calls Meta). */
  backtest: AlertBacktester;
  /** Each user's report queries: a few at once, a few waiting, 429 beyond (ADOPS_REPORT_QUERIES, ADOPS_REPORT_QUEUE). */
  reportPool: ReportPool;
  /** Each user's open live streams, referrer log and alerts together (ADOPS_MAX_STREAMS). */
  streams: StreamQuota;
  log: (line: string) => void;
  /** Work to run when the app closes (flush batches, stop timers, close stores), in reverse order. */
  onClose: Array<() => Promise<void> | void>;
}

/** Stores given from outside instead of opened here (tests: two app instances on one warehouse); their owner closes them. */
/** Stores an in-process test shares between app instances, as instances share PostgreSQL and ClickHouse. */
export interface SharedStores {
  warehouse?: Warehouse;
  store?: EntityStore;
}

export async function createServices(config: Config, log: (line: string) => void, shared: SharedStores = {}): Promise<AppServices> {
  const store = shared.store ?? (await openEntityStore(config, log));
  const onClose: AppServices['onClose'] = [() => (shared.store ? undefined : store.close())];
  try {
    const warehouse = shared.warehouse ?? (await createWarehouse(config));
    onClose.push(() => (shared.warehouse ? undefined : warehouse.close()));
    const live = await openLiveBackend(config, log);
    onClose.push(() => live.close());
    const secrets = await openSecrets(store, config.dataDir, config.jwtSecret);
    const audit = new AuditService(store, log);
    const users = new UserService(store, config.scryptLogN);
    const totp = new TotpService(store, secrets, config.require2fa);
    const devices = new DeviceTokens(secrets.hashKey);
    const auth = new AuthService(
      users,
      store,
      secrets.jwtSecret,
      config.jwtTtlSeconds,
      config.scryptLogN,
      {
        pair: live.limiter('login', config.loginMaxFailures, config.loginWindowMs),
        account: live.limiter('login-account', config.loginAccountMaxFailures, config.loginWindowMs),
        ip: live.limiter('login-ip', config.loginIpMaxFailures, config.loginWindowMs),
        // A known device or a session has the limit of an address with one e-mail.
        device: live.limiter('login-device', config.loginMaxFailures, config.loginWindowMs),
      },
      devices,
      totp,
    );
    const tokens = new TokenService(store, secrets, {
      tz: config.tz,
      defaultRateLimit: config.publisherRateLimit,
      // One counter per token id, shared by every instance through the live backend.
      limiter: (max, windowMs) => live.limiter('publisher-token', max, windowMs),
      log,
    });
    onClose.push(() => tokens.close());
    const reportPool = new ReportPool(config.quotas.reportQueries, config.quotas.reportQueue);
    const streams = new StreamQuota(config.quotas.streams);
    const reports = new ReportService(warehouse.zoneReports, config.tz);
    const shares = new RevenueShareService(store, async () => (await reports.rawOptions()).publishers);
    const referrerBus = live.bus<ReferrerEvent>({ ringSize: DEFAULT_REFERRER_OPTIONS.ringSize });
    const spam = await SpamListService.open(store, log);
    onClose.push(() => spam.close());
    const beaconBucket = config.beaconRatePerSecond > 0 ? live.tokenBucket('beacon', config.beaconRatePerSecond, config.beaconBurst) : undefined;
    // The ad account whose syncs are recorded is Meta's client's (known once the providers start, below).
    let metaAccount = '';
    const completeness = new Completeness(store.settings, warehouse, config, () => metaAccount);
    const zoneValues = new ZoneValues(warehouse.profit, config.tz, log, undefined, undefined, (from, to) => completeness.partialDays(from, to));
    zoneValues.warm();
    const referrers = await ReferrerService.open(
      warehouse.referrers,
      (since) => warehouse.zoneReports.zoneOwners(since),
      config,
      log,
      { aliveCheckMs: config.streamAliveCheckMs },
      referrerBus,
      {
        spam,
        beaconBucket,
        values: zoneValues,
      },
    );
    onClose.push(() => referrers.close());
    // After an import: filter lists are stale, and new zones may now have owners for their hits
    // (read from the import's first day on: only the days it touched and later).
    const ingest = new ZoneReportIngest(
      warehouse.zoneReports,
      () => shares.snapshot(),
      (firstDay) => {
        reports.invalidate();
        zoneValues.clear();
        void referrers.refreshZones(firstDay);
      },
      completeness,
    );
    const profit = new ProfitService(warehouse.profit, store.settings, config, completeness);
    const campaigns = await CampaignService.start(config, store, log, profit);
    onClose.push(() => campaigns.close());
    metaAccount = campaigns.providers.meta.account;
    const spend = new SpendService(campaigns.providers.meta, warehouse.spend, config, log, (change) => audit.system(change), completeness);
    onClose.push(() => spend.close());
    // Scheduled against a real ad account, or the sandbox's demo one (tests: neither, so off).
    if (!campaigns.providers.metaSandbox || config.demo) spend.start();
    const guard = new AlertGuard({ store, meta: campaigns.providers.meta, audit: (change) => audit.system(change), config, log });
    const alertStream = new AlertStream(live, log, { heartbeatMs: 15_000, aliveCheckMs: config.streamAliveCheckMs });
    await alertStream.start();
    onClose.push(() => alertStream.close());
    const alerts = new AlertService(store, warehouse, profit, config, log, { guard, onChange: (changes) => alertStream.publish(changes) });
    onClose.push(() => alerts.close());
    alerts.start();
    const backtest = new AlertBacktester(store, {
      warehouse,
      profit,
      completeness,
      config,
      account: () => campaigns.providers.meta.account,
    });
    const alertDigest = new AlertDigest(store, reports, config, log, { completeness });
    onClose.push(() => alertDigest.close());
    alertDigest.start();
    return {
      config,
      store,
      warehouse,
      secrets,
      users,
      auth,
      devices,
      tokens,
      reports,
      ingest,
      shares,
      referrers,
      spam,
      live,
      campaigns,
      spend,
      profit,
      completeness,
      alerts,
      alertDigest,
      alertStream,
      guard,
      backtest,
      reportPool,
      streams,
      totp,
      audit,
      log,
      onClose,
    };
  } catch (e) {
    for (const close of onClose.reverse()) await close();
    throw e;
  }
}
