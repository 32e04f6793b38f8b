// `adops migrate`: copies an embedded data directory (lowdb entities, DuckDB facts, the
// generated secrets, two-factor enrolments, the audit trail) into PostgreSQL + ClickHouse, through
// the stores' own interfaces (whatever fields their records carry travel whole; uniqueness stays
// the target's job), in batches — entities record by record (the exchange rates among the
// settings; Alertas' rules, the alerts they fired in their state, users' channels, the daily
// digests' records, the profit guard's actions and daily-cap counters), zone reports a month per import, Meta spend a month at a time, referrer events a
// window of ids at a time, flags and attribution included — and then compares counts and sums.
// Running it again copies only what is missing (records by key, audit entries by id, months whose
// counts and sums differ, events by id), so an interrupted run is simply run again. It refuses a
// target that holds data the source does not, unless forced.
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Config } from './config.js';
import { LIMITS_FILE } from './live/index.js';
import { openLowdbStore } from './store/lowdb/index.js';
import { openPostgresStore } from './store/postgres/index.js';
import { AUDIT_FILE } from './store/lowdb/audit.js';
import { publisherKey, StoreConflictError } from './store/types.js';
import { openDuckDbWarehouse } from './warehouse/duckdb/index.js';
import { openClickHouseWarehouse } from './warehouse/clickhouse/index.js';
import type { Warehouse } from './warehouse/types.js';
import {
  allActions,
  allAlerts,
  auditTrail,
  digestsOn,
  monthRange,
  monthSums,
  readJson,
  sameSpend,
  sameSum,
  sessionsOf,
  sourceAlertas,
} from './migrate/read.js';
import { type MigrationCheck, verifyMigration } from './migrate/verify.js';

export interface MigrateOptions {
  /** The embedded data directory to copy from (adops.json, warehouse.duckdb, secrets.json). */
  dataDir: string;
  /** PostgreSQL URL of the entity store to copy into. */
  databaseUrl: string;
  /** ClickHouse to copy the facts into (http(s):// or chdb:). */
  clickhouse: NonNullable<Config['clickhouse']>;
  /** Write into a target that holds data the source does not (copied records are added; nothing is deleted). */
  force?: boolean;
  /** Referrer events per batch (a window of this many ids); default 50,000. */
  batchSize?: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

export type { MigrationCheck } from './migrate/verify.js';

export interface MigrationResult {
  /** Records and rows written by this run (0 everywhere when run again). */
  copied: Record<string, number>;
  checks: MigrationCheck[];
  /** What was not copied and why (kinds of data this version does not know, conflicts under --force). */
  warnings: string[];
  ok: boolean;
  ms: number;
}

/** The target holds data the source does not: refused unless forced. */
export class MigrationRefused extends Error {
  constructor(readonly found: string[]) {
    super(`the target is not empty and holds data the source does not (${found.join('; ')}): use --force to add the source's data to it anyway`);
    this.name = 'MigrationRefused';
  }
}

/** Collections of adops.json this version copies (anything else is reported, not copied). */
const KNOWN_COLLECTIONS = new Set([
  'version',
  'users',
  'publisherTokens',
  'campaigns',
  'publishers',
  'settings',
  'sessions',
  'totp',
  'alertRules',
  'alerts',
  'alertSubscriptions',
  'alertDigests',
  'alertMutes',
  'alertActions',
  'alertActionDays',
  // The evaluator's lock (an expiry of a minute): the target's instances take their own.
  'locks',
]);

/** Files of the data dir this version copies (the audit trail through the store), and what it leaves on purpose. */
const COPIED_FILES = new Set(['adops.json', 'secrets.json', AUDIT_FILE, 'warehouse.duckdb', 'warehouse.duckdb.wal']);
const LEFT_FILES: Record<string, string> = {
  [LIMITS_FILE]:
    "the sign-in and publisher-token limiters' counts of the last hour at most: instances on PostgreSQL share theirs through Redis (ADOPS_LIVE=redis) and start from zero",
  'alert-evaluations.json':
    "the rules' evaluation log ('Historial de evaluación': 30 days of why each evaluation acted or not): the target's log starts with its first evaluation",
};

export async function migrateDataDir(options: MigrateOptions): Promise<MigrationResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const batch = Math.max(1, options.batchSize ?? 50_000);
  const dataDir = path.resolve(options.dataDir);
  const storeFile = path.join(dataDir, 'adops.json');
  const duckFile = path.join(dataDir, 'warehouse.duckdb');
  if (!existsSync(storeFile) && !existsSync(duckFile))
    throw new Error(`${dataDir} is not an AdOps data directory (neither adops.json nor warehouse.duckdb is there)`);
  const raw = (await readJson(storeFile)) ?? {};
  const secrets = await readJson(path.join(dataDir, 'secrets.json'));
  const warnings: string[] = [];
  // Files of the data dir this version does not copy, when not empty: named, with the reason when it is on purpose.
  for (const entry of await readdir(dataDir, { withFileTypes: true })) {
    if (!entry.isFile() || COPIED_FILES.has(entry.name) || (await stat(path.join(dataDir, entry.name))).size === 0) continue;
    if (LEFT_FILES[entry.name]) log(`${entry.name} is not copied: ${LEFT_FILES[entry.name]}`);
    else warnings.push(`${entry.name} in the data directory is not copied: this version of adops migrate does not know it`);
  }
  // An empty collection loses nothing; a filled one this version does not know is named.
  const filled = (v: unknown) => (Array.isArray(v) ? v.length > 0 : v && typeof v === 'object' ? Object.keys(v).length > 0 : v !== undefined);
  for (const [key, value] of Object.entries(raw))
    if (!KNOWN_COLLECTIONS.has(key) && filled(value))
      warnings.push(`adops.json's "${key}" is not copied: this version of adops migrate does not know it`);

  const opened: Array<{ close(): Promise<void> }> = [];
  try {
    const source = await openLowdbStore(dataDir);
    opened.push(source);
    let facts: Warehouse;
    try {
      facts = await openDuckDbWarehouse(dataDir);
    } catch (e) {
      throw new Error(`cannot open ${duckFile} (stop the server using this data directory first): ${(e as Error).message}`);
    }
    opened.push(facts);
    const target = await openPostgresStore(options.databaseUrl);
    opened.push(target);
    const { database, ...connection } = options.clickhouse;
    const warehouse = await openClickHouseWarehouse(connection, { database });
    opened.push(warehouse);

    // What each side holds, by key.
    const now = new Date().toISOString();
    const src = {
      users: await source.users.list(),
      tokens: await source.tokens.list(),
      campaigns: await source.campaigns.list(),
      publishers: await source.publishers.list(),
    };
    const srcSessions = await sessionsOf(
      source,
      src.users.map((u) => u.id),
      now,
    );
    const settingKeys = Object.keys((raw.settings as Record<string, unknown> | undefined) ?? {});
    const srcTotp = await source.totp.list();
    const srcAudit = await auditTrail(source);
    // Alertas: rules, their alerts, users' channels; the digests' records and the guard's daily-cap counters from the file (no listing of them).
    const srcAlerts = await sourceAlertas(source, raw);
    const tgtUsers = await target.users.list();
    const tgtTotp = new Map((await target.totp.list()).map((t) => [t.user_id, t]));
    const tgtAuditIds = new Set((await auditTrail(target)).map((e) => e.id));
    const tgtAlerts = {
      rules: new Set((await target.alerts.rules.list()).map((r) => r.id)),
      alerts: new Set((await allAlerts(target)).map((a) => a.id)),
      subscriptions: new Set((await target.alerts.subscriptions()).map((x) => x.user_id)),
      actions: new Set((await allActions(target)).map((a) => a.id)),
    };
    const tgt = {
      users: new Set(tgtUsers.map((u) => u.id)),
      tokens: new Set((await target.tokens.list()).map((t) => t.token_hash)),
      campaigns: new Set((await target.campaigns.list()).map((c) => c.campaign_id)),
      publishers: new Set((await target.publishers.list()).map((p) => publisherKey(p.name))),
    };
    const srcMonths = await monthSums(facts);
    const tgtMonths = await monthSums(warehouse);
    const srcSpend = await facts.spend.months();
    const tgtSpend = new Map((await warehouse.spend.months()).map((m) => [m.month, m]));
    const [srcMaxId, tgtMaxId, srcEvents, tgtEvents] = await Promise.all([
      facts.referrers.maxEventId(),
      warehouse.referrers.maxEventId(),
      facts.referrers.countEvents(),
      warehouse.referrers.countEvents(),
    ]);

    // A target holding anything the source does not is someone else's data.
    const found: string[] = [];
    const foreign = (what: string, keys: Iterable<string>, known: Set<string>) => {
      const n = [...keys].filter((k) => !known.has(k)).length;
      if (n > 0) found.push(`${n} ${what}`);
    };
    foreign('users', tgt.users, new Set(src.users.map((u) => u.id)));
    foreign('publisher tokens', tgt.tokens, new Set(src.tokens.map((t) => t.token_hash)));
    foreign('campaigns', tgt.campaigns, new Set(src.campaigns.map((c) => c.campaign_id)));
    foreign('publishers', tgt.publishers, new Set(src.publishers.map((p) => publisherKey(p.name))));
    const storedSecrets = await target.settings.get('secrets');
    if (storedSecrets !== undefined && secrets && !isDeepStrictEqual(storedSecrets, secrets)) found.push('other secrets');
    foreign('two-factor enrolments', tgtTotp.keys(), new Set(srcTotp.map((t) => t.user_id)));
    foreign('audit entries', tgtAuditIds, new Set(srcAudit.map((e) => e.id)));
    foreign('alert rules', tgtAlerts.rules, new Set(srcAlerts.rules.map((r) => r.id)));
    foreign('alerts', tgtAlerts.alerts, new Set(srcAlerts.alerts.map((a) => a.id)));
    foreign('alert subscriptions', tgtAlerts.subscriptions, new Set(srcAlerts.subscriptions.map((x) => x.user_id)));
    foreign('profit-guard actions', tgtAlerts.actions, new Set(srcAlerts.actions.map((a) => a.id)));
    const extraMonths = [...tgtMonths].filter(([m, t]) => t.rows > (srcMonths.get(m)?.rows ?? 0)).map(([m]) => m);
    if (extraMonths.length)
      found.push(`zone_report rows in ${extraMonths.length} months beyond the source's (${extraMonths.slice(0, 3).join(', ')}…)`);
    const srcSpendMonths = new Map(srcSpend.map((m) => [m.month, m]));
    const extraSpend = [...tgtSpend.values()].filter((t) => t.rows > (srcSpendMonths.get(t.month)?.rows ?? 0)).map((t) => t.month);
    if (extraSpend.length) found.push(`ad_spend rows in ${extraSpend.length} months beyond the source's (${extraSpend.slice(0, 3).join(', ')}…)`);
    if (tgtMaxId > srcMaxId || tgtEvents > srcEvents) found.push(`referrer events the source does not have (ids up to ${tgtMaxId})`);
    if (found.length && !options.force) throw new MigrationRefused(found);
    if (found.length) warnings.push(`--force: the target already held ${found.join('; ')}; the source's data was added to it`);

    const copied: Record<string, number> = {
      users: 0,
      sessions: 0,
      publisher_tokens: 0,
      campaigns: 0,
      publishers: 0,
      settings: 0,
      two_factor: 0,
      audit_log: 0,
      alert_rules: 0,
      alerts: 0,
      alert_subscriptions: 0,
      alert_digests: 0,
      alert_mutes: 0,
      alert_actions: 0,
      zone_report: 0,
      ad_spend: 0,
      referrer_event: 0,
    };

    // Entities: secrets first (publisher tokens are sealed and hashed with them), users before their sessions.
    if (secrets) {
      const stored = await target.settings.putIfAbsent('secrets', secrets);
      if (isDeepStrictEqual(stored, secrets)) copied.settings += storedSecrets === undefined ? 1 : 0;
      else warnings.push("the target keeps its own secrets: the copied publisher tokens' URLs and open sessions will not work there");
    }
    for (const u of src.users) {
      if (tgt.users.has(u.id)) continue;
      try {
        await target.users.create(u);
        copied.users++;
      } catch (e) {
        warnings.push(`user ${u.email} not copied: ${(e as Error).message}`);
      }
    }
    for (const s of srcSessions) {
      if (await target.sessions.byId(s.id)) continue;
      try {
        await target.sessions.create(s);
        copied.sessions++;
      } catch (e) {
        warnings.push(`session ${s.id} not copied: ${(e as Error).message}`);
      }
    }
    for (const t of src.tokens) {
      if (tgt.tokens.has(t.token_hash)) continue;
      try {
        await target.tokens.create(t);
        copied.publisher_tokens++;
      } catch (e) {
        warnings.push(`token of ${t.publisher_name} not copied: ${(e as Error).message}`);
      }
    }
    for (const c of src.campaigns) {
      if (tgt.campaigns.has(c.campaign_id)) continue;
      await target.campaigns.add(c);
      copied.campaigns++;
    }
    const newPublishers = src.publishers.filter((p) => !tgt.publishers.has(publisherKey(p.name)));
    await target.publishers.addMissing(newPublishers);
    copied.publishers = newPublishers.length;
    for (const key of settingKeys) {
      const value = await source.settings.get(key);
      if ((await target.settings.get(key)) === undefined) copied.settings++;
      const stored = await target.settings.putIfAbsent(key, value);
      if (!isDeepStrictEqual(stored, value)) warnings.push(`setting "${key}" differs in the target; the target's was kept`);
    }
    // Two-factor enrolments, after their users, whole: their secrets are sealed with the secrets copied first.
    const emailOf = new Map(src.users.map((u) => [u.id, u.email]));
    for (const t of srcTotp) {
      const have = tgtTotp.get(t.user_id);
      if (isDeepStrictEqual(have, t)) continue;
      const who = emailOf.get(t.user_id) ?? t.user_id;
      if (have?.enabled_at) {
        warnings.push(`two-factor sign-in of ${who} differs in the target; the target's was kept`);
        continue;
      }
      try {
        const begun = await target.totp.begin(t.user_id, t.secret_sealed, t.created_at);
        const on =
          begun && (!t.enabled_at || (await target.totp.enable(t.user_id, t.secret_sealed, t.last_step ?? 0, t.recovery_hashes, t.enabled_at)));
        if (on) copied.two_factor++;
        else warnings.push(`two-factor sign-in of ${who} not copied: the target changed it meanwhile`);
      } catch (e) {
        warnings.push(`two-factor sign-in of ${who} not copied: ${(e as Error).message}`);
      }
    }
    // The audit trail, oldest first, ids kept: an entry the target holds is never written twice.
    for (const e of srcAudit) {
      if (tgtAuditIds.has(e.id)) continue;
      try {
        await target.audit.append(e);
        copied.audit_log++;
      } catch (err) {
        if (!(err instanceof StoreConflictError)) warnings.push(`audit entry ${e.id} (${e.action}) not copied: ${(err as Error).message}`);
      }
    }
    // Alertas: rules before their alerts (each alert whole: state, mutes, fire count, deliveries), channels after their users.
    for (const r of srcAlerts.rules) {
      if (tgtAlerts.rules.has(r.id)) continue;
      try {
        await target.alerts.rules.create(r);
        copied.alert_rules++;
      } catch (e) {
        warnings.push(`alert rule "${r.name}" not copied: ${(e as Error).message}`);
      }
    }
    for (const a of srcAlerts.alerts) {
      if (tgtAlerts.alerts.has(a.id)) continue;
      try {
        if (await target.alerts.open(a)) copied.alerts++;
        else
          warnings.push(
            `alert ${a.id} (${a.subject}) not copied: the target holds another unresolved alert of its rule on that subject, or not its rule`,
          );
      } catch (e) {
        warnings.push(`alert ${a.id} (${a.subject}) not copied: ${(e as Error).message}`);
      }
    }
    for (const sub of srcAlerts.subscriptions) {
      const have = await target.alerts.subscription(sub.user_id);
      if (have) {
        if (!isDeepStrictEqual(have, sub))
          warnings.push(`alert channels of ${emailOf.get(sub.user_id) ?? sub.user_id} differ in the target; the target's were kept`);
        continue;
      }
      try {
        await target.alerts.setSubscription(sub);
        copied.alert_subscriptions++;
      } catch (e) {
        warnings.push(`alert channels of ${emailOf.get(sub.user_id) ?? sub.user_id} not copied: ${(e as Error).message}`);
      }
    }
    // Users' own mutes of alerts still unresolved at the firing they were muted on (the others hide nothing any more).
    const alertById = new Map(srcAlerts.alerts.map((a) => [a.id, a]));
    const liveMutes = srcAlerts.mutes.filter((m) => {
      const a = alertById.get(m.alert_id);
      return a !== undefined && a.state !== 'resolved' && a.fire_count === m.fire_count;
    });
    const tgtMutes = new Set((await target.alerts.mutes({})).map((m) => `${m.alert_id}|${m.user_id}`));
    for (const m of liveMutes) {
      if (tgtMutes.has(`${m.alert_id}|${m.user_id}`)) continue;
      try {
        if (await target.alerts.mute({ alert_id: m.alert_id, user_id: m.user_id, by: m.by, until: m.until, at: m.at })) copied.alert_mutes++;
        else warnings.push(`the mute of alert ${m.alert_id} by ${m.by} not copied: the alert is not in the target, or resolved there`);
      } catch (e) {
        warnings.push(`the mute of alert ${m.alert_id} by ${m.by} not copied: ${(e as Error).message}`);
      }
    }
    // A digest record is what stops a second send of its day: replayed as its claims (each failed try, then the last), oldest day first.
    const tgtDigests = await digestsOn(
      target,
      srcAlerts.digests.map((d) => d.date),
    );
    for (const d of srcAlerts.digests) {
      if (tgtDigests.has(`${d.date}|${d.user_id}`)) continue;
      try {
        for (let i = 1; i <= d.attempts; i++) {
          if (!(await target.alerts.claimDigest(d.date, d.user_id, d.claimed_at, d.claimed_at, d.attempts)))
            throw new Error('the target refused the claim');
          if (i < d.attempts) await target.alerts.finishDigest(d.date, d.user_id, 'failed', d.detail, d.finished_at ?? d.claimed_at);
          else if (d.status !== 'sending') await target.alerts.finishDigest(d.date, d.user_id, d.status, d.detail, d.finished_at ?? d.claimed_at);
        }
        copied.alert_digests++;
      } catch (e) {
        warnings.push(`digest of ${d.date} for ${emailOf.get(d.user_id) ?? d.user_id} not copied: ${(e as Error).message}`);
      }
    }
    // The profit guard: its records (undo state included), oldest first, and each account's actions taken per day (the daily cap).
    for (const a of srcAlerts.actions) {
      if (tgtAlerts.actions.has(a.id)) continue;
      try {
        await target.alertActions.create(a);
        copied.alert_actions++;
      } catch (e) {
        warnings.push(`profit-guard action ${a.id} (${a.action} ${a.subject}) not copied: ${(e as Error).message}`);
      }
    }
    for (const { account, day, used } of srcAlerts.actionDays)
      for (let n = await target.alertActions.slotsUsed(account, day); n < used; n++) await target.alertActions.takeSlot(account, day, used);
    log(
      `entities: ${copied.users} users, ${copied.sessions} sessions, ${copied.publisher_tokens} tokens, ${copied.campaigns} campaigns, ${copied.publishers} publishers, ${copied.two_factor} two-factor enrolments, ${copied.audit_log} audit entries copied`,
    );
    log(
      `alertas: ${copied.alert_rules} rules, ${copied.alerts} alerts, ${copied.alert_subscriptions} users' channels, ${copied.alert_mutes} users' mutes, ${copied.alert_digests} digest records, ${copied.alert_actions} profit-guard actions copied`,
    );

    // Zone reports: one import (an upsert on the natural key) per month whose counts or sums differ.
    for (const [month, s] of srcMonths) {
      const t = tgtMonths.get(month);
      if (t && t.rows === s.rows && sameSum(t.revenue, s.revenue) && t.impressions === s.impressions) continue;
      const imp = await warehouse.zoneReports.beginImport();
      try {
        let seq = 0;
        for await (const rows of facts.zoneReports.streamRows({ filters: monthRange(month), order: [] }))
          for (const r of rows) {
            const full = imp.add(r, ++seq);
            if (full) await full; // the target holds as many rows as it may until it took some
          }
        await imp.commit();
        copied.zone_report += seq;
      } finally {
        await imp.close();
      }
      log(`zone_report ${month}: ${s.rows} rows`);
    }

    // Meta spend: per month whose counts or sums differ, its ad-days in batches (an upsert on (date, ad_id): nothing doubles).
    for (const s of srcSpend) {
      if (sameSpend(s, tgtSpend.get(s.month))) continue;
      const { start_date: from, end_date: to } = monthRange(s.month);
      const rows = await facts.spend.rows({ from, to });
      for (let i = 0; i < rows.length; i += batch) await warehouse.spend.upsert(rows.slice(i, i + batch));
      copied.ad_spend += rows.length;
      log(`ad_spend ${s.month}: ${rows.length} ad-days`);
    }

    // Referrer events: windows of ids; in each, the ids the target lacks (their ids kept: streams resume by them).
    // Each side counts its windows first: a window holding as many events with the same sum of ids
    // on both is not read again (a run after an interrupted one reads only what is left). Under
    // --force the target may hold ids of its own in the source's range, so every window is read.
    const srcWindows = await facts.referrers.countEventWindows(batch);
    const tgtWindows = await warehouse.referrers.countEventWindows(batch);
    let windowsRead = 0;
    for (const [k, src] of [...srcWindows].sort((a, b) => a[0] - b[0])) {
      const tgt = tgtWindows.get(k);
      if (!options.force && tgt?.events === src.events && tgt.id_sum === src.id_sum) continue;
      windowsRead++;
      const after = k * batch;
      const before = after + batch + 1;
      const events = await facts.referrers.eventsAfter(after, before, batch);
      const have = new Set(tgt ? (await warehouse.referrers.eventsAfter(after, before, batch)).map((e) => e.id) : []);
      const missing = events.filter((e) => !have.has(e.id));
      if (missing.length) await warehouse.referrers.append(missing);
      copied.referrer_event += missing.length;
      if (missing.length) log(`referrer_event ids ${after + 1}–${after + batch}: ${missing.length} events`);
    }
    log(`referrer events: ${windowsRead} of ${srcWindows.size} windows of ${batch} ids read, the others already copied`);
    const rolledUp = await (facts as Warehouse & { db: { one<T>(sql: string): Promise<T | undefined> } }).db
      .one<{ n: number }>('SELECT count(*) AS n FROM referrer_daily')
      .then((r) => Number(r?.n ?? 0));
    if (rolledUp > 0)
      warnings.push(`${rolledUp} daily rows of referrer history rolled up by retention are not copied (the raw events before it are gone)`);

    // Verification: the same figures read back from both sides.
    const seen = { src, srcSessions, settingKeys, secrets, srcTotp, srcAudit, srcAlerts, liveMutes, srcSpend, srcMaxId, srcEvents };
    const checks = await verifyMigration(facts, target, warehouse, seen, now, options.force ?? false);
    return { copied, checks, warnings, ok: checks.every((c) => c.ok), ms: performance.now() - started };
  } finally {
    for (const store of opened.reverse()) await store.close().catch(() => undefined);
  }
}
