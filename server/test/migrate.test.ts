// `adops migrate`'s copy on real engines: an embedded data directory (lowdb + DuckDB) filled
// through the API, copied into a throwaway PostgreSQL and ClickHouse (chdb, embedded in this
// process through the production adapter); a server started on the copy answers what the
// embedded one answered — two-factor sign-in, the audit trail, bot flags, the spam list, Meta
// spend, the visits' attribution and the exchange rates (Rentabilidad), Alertas' rules, alerts in
// each state, channels, digest and profit-guard records included; a second run
// copies nothing and still verifies; a target holding other data is refused unless forced.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Alert, AlertRule, Api, AuditEntry } from '@adops/core';
import { migrateDataDir, MigrationRefused, type MigrateOptions } from '../src/migrate.js';
import { openClickHouseWarehouse } from '../src/warehouse/clickhouse/index.js';
import { startPgCluster, type PgCluster } from './pg-cluster.js';
import { ADMIN, failure, startTestServer, knownPublishers } from './helpers.js';
import { awayFromStepEdge, totpCode } from './totp-codes.js';
import { INGEST_KEY, postBatch } from './referrers-fixture.js';
import type { AdSpendRecord, Warehouse } from '../src/warehouse/types.js';
import type { EntityStore } from '../src/store/types.js';

let pg: PgCluster;
let chdbDir: string;
let sourceDir: string;
const RANGE = { start_date: '2026-01-01', end_date: '2026-03-31' };
/** Spend on today and on a day of last month (two months, two exchange rates); the visits arrive today. */
const TODAY = new Date().toISOString().slice(0, 10);
const LAST_MONTH_DAY = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 15)).toISOString().slice(0, 10);
const PROFIT_RANGE = { start_date: LAST_MONTH_DAY, end_date: TODAY };
const AD1 = { campaign_id: 'mc-1', adset_id: 'ms-1', ad_id: 'ma-1', placement: 'Facebook_Mobile_Feed' };
const AD2 = { campaign_id: 'mc-2', adset_id: 'ms-2', ad_id: 'ma-2', placement: 'Instagram_Stories' };
const spendRow = (date: string, ad: typeof AD1, spend: number, clicks: number): AdSpendRecord => ({
  date,
  account_id: 'act_mig',
  campaign_id: ad.campaign_id,
  campaign_name: `Campaña ${ad.campaign_id}`,
  adset_id: ad.adset_id,
  adset_name: `Conjunto ${ad.adset_id}`,
  ad_id: ad.ad_id,
  ad_name: `Anuncio ${ad.ad_id}`,
  spend,
  impressions: clicks * 40,
  clicks,
  currency: 'EUR',
});
const SPEND = [spendRow(LAST_MONTH_DAY, AD1, 3.25, 7), spendRow(TODAY, AD1, 4.5, 11), spendRow(TODAY, AD2, 12.75, 30)];
/** Each stored event's attribution, by id. */
const attributionOf = async (w: Warehouse) =>
  (await w.referrers.eventsAfter(0, 1e9, 1000)).map(({ id, campaign_id, adset_id, ad_id, placement, keyword }) => ({
    id,
    campaign_id: campaign_id ?? null,
    adset_id: adset_id ?? null,
    ad_id: ad_id ?? null,
    placement: placement ?? null,
    keyword,
  }));
/** What the embedded server answered before the copy. */
let before: {
  overview: unknown;
  zones: unknown;
  logIds: number[];
  publisherData: unknown;
  token: string;
  /** Bea's authenticator secret (2FA on in the source). */
  beaSecret: string;
  /** Every event's id and flags, bots included, by id. */
  flags: Array<{ id: number; is_bot: boolean; reason: string | null }>;
  spamList: unknown;
  audit: AuditEntry[];
  profit: unknown;
  rates: unknown;
  attribution: Awaited<ReturnType<typeof attributionOf>>;
  alerts: Awaited<ReturnType<typeof alertsOf>>;
  alertRecords: Awaited<ReturnType<typeof alertRecordsOf>>;
};
const BEA = { email: 'bea@test.local', password: 'bea-password-123' };

const target = async (name: string, extra: Partial<MigrateOptions> = {}): Promise<MigrateOptions> => ({
  dataDir: sourceDir,
  databaseUrl: await pg.createDatabase(name),
  clickhouse: { url: `chdb://${chdbDir}`, database: name },
  batchSize: 7,
  ...extra,
});

/** A server on a migrated target (its own empty data dir: everything comes from PostgreSQL and ClickHouse). */
const serverOn = (o: MigrateOptions) =>
  startTestServer({
    ingestKey: INGEST_KEY,
    botFilter: true,
    store: 'postgres',
    databaseUrl: o.databaseUrl,
    warehouse: 'clickhouse',
    clickhouse: o.clickhouse,
  });

/** Numbers to a millionth: engines sum doubles in their own order, the cents must agree. */
const rounded = (x: unknown): unknown =>
  typeof x === 'number'
    ? Math.round(x * 1e6) / 1e6
    : Array.isArray(x)
      ? x.map(rounded)
      : x && typeof x === 'object'
        ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, rounded(v)]))
        : x;

async function reportsOf(api: Api) {
  return {
    overview: rounded(await api.dashboard.overview(RANGE)),
    zones: rounded(await api.adReport.zoneDetails({ ...RANGE, sort: 'revenue:desc', page_size: 500 })),
    logIds: (await api.referrers.logs({ zoneId: 'mig', page_size: 500 })).rows.map((r) => r.id),
    flags: (await api.referrers.logs({ include_bots: true, page_size: 500 })).rows
      .map(({ id, is_bot, reason }) => ({ id, is_bot, reason }))
      .sort((a, b) => a.id - b.id),
    spamList: await api.referrers.spamList(),
    // Rentabilidad per ad: Meta spend, attributed visits, and money converted at the copied rates.
    profit: rounded(await api.profit.table({ ...PROFIT_RANGE, by: 'ad' })),
    rates: await api.profit.rates(),
  };
}

/** Alertas as a user sees them: rules, what fired (every state), the bell. */
const alertsOf = async (api: Api) => ({
  rules: (await api.alerts.rules()) as AlertRule[],
  alerts: (await api.alerts.list({ state: 'all', page_size: 500 })).rows as Alert[],
  unread: (await api.alerts.unread()).unread,
});
/** Alertas' records no screen lists whole: channels (webhook secrets, read marks), deliveries, digests, guard actions and counters. */
const alertRecordsOf = async (store: EntityStore) => ({
  subscriptions: await Promise.all(
    (await store.users.list())
      .map((u) => u.id)
      .sort()
      .map((id) => store.alerts.subscription(id)),
  ),
  deliveries: (await store.alerts.list({}, 0, 500)).rows.map((a) => [a.id, a.deliveries]),
  mutes: await store.alerts.mutes({}),
  digests: await store.alerts.digests(TODAY),
  actions: (await store.alertActions.list({}, 0, 500)).rows,
  slots: await store.alertActions.slotsUsed('act_mig', TODAY),
});

/** The whole audit trail, oldest first. */
const auditOf = async (api: Api) => (await api.audit.list({ sort: 'at:asc', page_size: 500 })).rows;

beforeAll(async () => {
  pg = await startPgCluster();
  chdbDir = await mkdtemp(path.join(tmpdir(), 'adops-migrate-chdb-'));
  sourceDir = await mkdtemp(path.join(tmpdir(), 'adops-migrate-source-'));
  // The embedded install to move: users, a publisher token, a revenue share, zone reports of three months, events.
  const s = await startTestServer({ ingestKey: INGEST_KEY, botFilter: true }, sourceDir);
  try {
    const admin = await s.admin();
    await admin.admin.createUser({ first_name: 'Bea', ...BEA });
    // Bea turns two-factor sign-in on (with the previous step's code: this one and the next stay unused).
    await awayFromStepEdge(10);
    const bea = await s.as(BEA.email, BEA.password);
    const { secret: beaSecret } = await bea.auth.totpBegin({ password: BEA.password });
    await bea.auth.totpConfirm({ code: await totpCode(beaSecret, -1) });
    // An admin's addition to the referrer-spam list (a setting), and a failed sign-in (limits.json).
    await admin.referrers.updateSpamList({ add: ['spam-mig.example'], remove: [] });
    expect((await failure(s.anon.auth.login({ email: ADMIN.email, password: 'not-the-password' }))).status).toBe(401);
    await admin.publishers.set({ name: 'Pub 1', revenue_share: 0.6 });
    await knownPublishers(admin, 'Pub 1');
    const token = (await admin.admin.createToken({ publisher_name: 'Pub 1' })).token;
    const rows = Array.from({ length: 45 }, (_, i) => ({
      date: `2026-0${1 + (i % 3)}-${String(1 + (i % 28)).padStart(2, '0')}`,
      advertiser: `Adv ${i % 2}`,
      publisher: `Pub ${i % 3}`,
      zone_id: `mig-${i % 5}`,
      geo: 'ES',
      source: 'web',
      domain: 'a.com',
      impressions: 100 + i,
      clicks: i,
      revenue: 0.1 + i * 1.13,
    }));
    const res = await s.fetch('/api/ingest/zone-report', {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'x-ingest-key': INGEST_KEY },
      body: rows.map((r) => JSON.stringify(r)).join('\n'),
    });
    expect(res.status).toBe(200);
    await s.app.services.referrers.refreshZones();
    // Visits from Meta ads carry their attribution (the first batch: 4 from ad 1, 3 from ad 2, with keywords).
    const from = (i: number, j: number) => (i > 0 ? {} : j < 4 ? { ...AD1, keyword: 'seguros' } : j < 7 ? { ...AD2, keyword: 'vuelos' } : {});
    for (let i = 0; i < 3; i++)
      expect(
        (
          await postBatch(
            s,
            Array.from({ length: 10 }, (_, j) => ({ zone_id: 'mig-1', referrer: `https://r.example/${i}/${j}`, ...from(i, j) })),
          )
        ).status,
      ).toBe(200);
    // Meta spend (ad_spend) and the admins' exchange rates for its two months (settings).
    await s.app.services.warehouse.spend.upsert(SPEND);
    await admin.profit.setRates({
      rates: [
        { month: TODAY.slice(0, 7), currency: 'EUR', rate: 1.1 },
        { month: LAST_MONTH_DAY.slice(0, 7), currency: 'EUR', rate: 1.05 },
      ],
    });
    // Flagged traffic: a crawler, a referrer on the admins' spam list, a zone no report names.
    const flagged = await postBatch(s, [
      { zone_id: 'mig-1', referrer: 'https://r.example/crawler', user_agent: 'curl/8.5.0' },
      { zone_id: 'mig-1', referrer: 'https://www.spam-mig.example/offer' },
      { zone_id: 'nadie-9', referrer: 'https://r.example/unknown' },
    ]);
    expect(flagged.status).toBe(200);
    // Alertas: a rule whose alert resolved (then switched off), one with an open alert (Bea muted it for
    // herself), one with an alert muted for everyone; the admin's webhook (with its secret) and Bea's e-mail and digest, a notice, a digest sent, a guard's pause.
    const at = Date.now();
    const burst = { kind: 'referrer_burst' as const, params: { visits: 5, minutes: 60 } };
    const gone = await admin.alerts.createRule({ name: 'Resuelta', ...burst });
    await s.app.services.alerts.evaluate(at);
    await s.app.services.alerts.evaluate(at + 3 * 3_600_000);
    await admin.alerts.updateRule({ id: gone.id, enabled: false });
    const open = await admin.alerts.createRule({ name: 'Abierta', ...burst, cooldown_minutes: 15 });
    const muted = await admin.alerts.createRule({ name: 'Silenciada', kind: 'referrer_burst', params: { new_only: true, visits: 5, minutes: 60 } });
    await s.app.services.alerts.evaluate(at);
    const fired = (await admin.alerts.list({ state: 'all' })).rows;
    expect(fired.map((a) => [a.rule_name, a.state, a.subject]).sort()).toEqual([
      ['Abierta', 'open', 'r.example'],
      ['Resuelta', 'resolved', 'r.example'],
      ['Silenciada', 'open', 'r.example'],
    ]);
    await admin.alerts.mute({ id: fired.find((a) => a.rule_id === muted.id)!.id, minutes: 120, for_everyone: true });
    // Bea's own mute of the open alert (hers alone).
    await bea.alerts.mute({ id: fired.find((a) => a.rule_id === open.id)!.id });
    const users = await s.app.services.store.users.list();
    const beaUser = users.find((u) => u.email === BEA.email)!;
    const adminUser = users.find((u) => u.email === ADMIN.email)!;
    await admin.alerts.setSubscription({ in_app: true, email: false, webhook_url: 'https://hooks.example/adops', rule_ids: [open.id] });
    await bea.alerts.setSubscription({ in_app: true, email: true, webhook_url: null, rule_ids: null, digest: true });
    const store = s.app.services.store;
    await store.alerts.addDelivery(fired.find((a) => a.rule_id === open.id)!.id, {
      channel: 'webhook',
      user_id: adminUser.id,
      to: 'https://hooks.example/adops',
      status: 'failed',
      attempts: 4,
      detail: 'HTTP 502',
      at: new Date(at).toISOString(),
    });
    expect(await store.alerts.claimDigest(TODAY, beaUser.id, new Date(at).toISOString(), new Date(at).toISOString(), 3)).toBe(true);
    await store.alerts.finishDigest(TODAY, beaUser.id, 'sent', '', new Date(at + 1000).toISOString());
    await store.alertActions.create({
      id: 'act-1',
      rule_id: open.id,
      rule_name: 'Abierta',
      subject: 'mc-2',
      level: 'campaign',
      account: 'act_mig',
      action: 'pause',
      trigger: 'rule',
      status: 'done',
      detail: null,
      reason: 'ROI −40 %',
      figures: { spend: 12.75, roi: -40 },
      at: new Date(at).toISOString(),
      undone_at: null,
      undone_by: null,
      undone_by_rule: false,
    });
    expect(await store.alertActions.takeSlot('act_mig', TODAY, 3)).toBe(true);
    expect(await store.alertActions.takeSlot('act_mig', TODAY, 3)).toBe(true);
    const publisherData = await (
      await s.fetch(`/api/publisher/data?token=${token}&start_date=${RANGE.start_date}&end_date=${RANGE.end_date}`)
    ).json();
    before = {
      ...(await reportsOf(admin)),
      publisherData,
      token,
      beaSecret,
      audit: await auditOf(admin),
      attribution: await attributionOf(s.app.services.warehouse),
      alerts: await alertsOf(admin),
      alertRecords: await alertRecordsOf(store),
    };
    expect(before.alerts.alerts.map((a) => a.state).sort()).toEqual(['muted', 'open', 'resolved']);
    expect(before.flags.filter((f) => f.is_bot).map((f) => f.reason)).toEqual(['user_agent', 'spam_referrer', 'unknown_zone']);
    // The fixture's Rentabilidad has something to lose: both ads' spend and visits, every rate known.
    const profit = await admin.profit.table({ ...PROFIT_RANGE, by: 'ad' });
    expect(profit.rows.map((r) => [r.key, r.visits])).toEqual(
      expect.arrayContaining([
        ['ma-1', 4],
        ['ma-2', 3],
      ]),
    );
    expect(profit.totals.missing_rates).toEqual([]);
    expect(profit.totals.spend).toBeCloseTo((3.25 * 1.05 + (4.5 + 12.75) * 1.1) as number, 9);
  } finally {
    await s.close();
  }
}, 60_000);

afterAll(async () => {
  await pg?.stop();
  await rm(chdbDir, { recursive: true, force: true });
  await rm(sourceDir, { recursive: true, force: true });
});

describe('adops migrate: an embedded data directory into PostgreSQL + ClickHouse', () => {
  let first: MigrateOptions;

  test('copies every entity and fact and verifies counts and sums', async () => {
    first = await target('first');
    const lines: string[] = [];
    const result = await migrateDataDir({ ...first, log: (l) => lines.push(l) });
    // Nothing the data directory holds is lost; the limiters' counts are left on purpose, and said why.
    expect(result.warnings).toEqual([]);
    expect(lines.find((l) => l.startsWith('limits.json is not copied:'))).toMatch(/Redis/);
    expect(result.ok).toBe(true);
    expect(result.copied).toMatchObject({
      users: 2,
      publisher_tokens: 1,
      publishers: 1,
      two_factor: 1,
      audit_log: before.audit.length,
      zone_report: 45,
      ad_spend: 3,
      referrer_event: 33,
      alert_rules: 3,
      alerts: 3,
      alert_subscriptions: 2,
      alert_digests: 1,
      alert_actions: 1,
    });
    const byName = Object.fromEntries(result.checks.map((c) => [c.name, c]));
    expect(byName.users).toEqual({ name: 'users', source: 2, target: 2, ok: true });
    expect(byName['two-factor sign-in (on)']).toEqual({ name: 'two-factor sign-in (on)', source: 1, target: 1, ok: true });
    expect(byName['audit entries']).toMatchObject({ source: before.audit.length, target: before.audit.length, ok: true });
    expect(byName['zone_report rows']).toMatchObject({ source: 45, target: 45, ok: true });
    expect(byName['zone_report Σ revenue'].target).toBeCloseTo(byName['zone_report Σ revenue'].source, 9);
    expect(byName['referrer events']).toMatchObject({ source: 33, target: 33, ok: true });
    expect(byName['referrer events flagged as bots']).toMatchObject({ source: 3, target: 3, ok: true });
    expect(byName['referrer events attributed to Meta']).toMatchObject({ source: 7, target: 7, ok: true });
    expect(byName['ad_spend rows']).toMatchObject({ source: 3, target: 3, ok: true });
    expect(byName['ad_spend Σ spend']).toMatchObject({ source: 20.5, ok: true });
    expect(byName['ad_spend Σ spend'].target).toBeCloseTo(20.5, 9);
    expect(byName['ad_spend Σ clicks']).toMatchObject({ source: 48, target: 48, ok: true });
    expect(byName['alert rules']).toMatchObject({ source: 3, target: 3, ok: true });
    for (const state of ['open', 'muted', 'resolved']) expect(byName[`alerts (${state})`]).toMatchObject({ source: 1, target: 1, ok: true });
    expect(byName['alert deliveries']).toMatchObject({ source: 1, target: 1, ok: true });
    expect(byName['alert subscriptions']).toMatchObject({ source: 2, target: 2, ok: true });
    expect(byName["users' own alert mutes"]).toMatchObject({ source: 1, target: 1, ok: true });
    expect(byName['alert digest records']).toMatchObject({ source: 1, target: 1, ok: true });
    expect(byName['profit-guard actions']).toMatchObject({ source: 1, target: 1, ok: true });
    expect(byName['profit-guard actions per account and day']).toMatchObject({ source: 2, target: 2, ok: true });
    expect(result.checks.every((c) => c.ok)).toBe(true);
    // Batches: a month per import, seven event ids per window.
    expect(lines.filter((l) => l.startsWith('zone_report 2026-'))).toHaveLength(3);
    expect(lines.filter((l) => l.startsWith('ad_spend '))).toEqual([
      `ad_spend ${LAST_MONTH_DAY.slice(0, 7)}: 1 ad-days`,
      `ad_spend ${TODAY.slice(0, 7)}: 2 ad-days`,
    ]);
    expect(lines.filter((l) => l.startsWith('referrer_event ids')).length).toBeGreaterThanOrEqual(5);
  });

  test('a server on the copy signs the same people in and answers the same reports, log ids and publisher URL', async () => {
    const s = await serverOn(first);
    try {
      expect(s.app.services.warehouse.engine).toBe('clickhouse');
      expect(s.store).toBe('postgres');
      const admin = await s.admin();
      // The audit trail as it was, entry for entry (ids, actors, before/after), in the same order.
      expect(await auditOf(admin)).toEqual(before.audit);
      // Bea still needs her second factor: the password alone is not enough; her app's code is.
      await awayFromStepEdge();
      const passwordOnly = await failure(s.anon.auth.login(BEA));
      expect([passwordOnly.status, passwordOnly.body.totp_required]).toEqual([401, true]);
      expect((await s.anon.auth.login({ ...BEA, totp: await totpCode(before.beaSecret) })).access_token).toBeTruthy();
      const after = await reportsOf(admin);
      expect(after.overview).toEqual(before.overview);
      expect(after.zones).toEqual(before.zones);
      expect(after.logIds).toEqual(before.logIds);
      // Bot flags and reasons survive the copy; the admins' spam list too, and it still flags.
      expect(after.flags).toEqual(before.flags);
      expect(after.spamList).toEqual(before.spamList);
      // Rentabilidad as it was: spend per ad, visits by their attribution, money at the copied exchange rates.
      expect(after.rates).toEqual(before.rates);
      expect(after.profit).toEqual(before.profit);
      expect(await attributionOf(s.app.services.warehouse)).toEqual(before.attribution);
      expect(before.attribution.filter((e) => e.placement === 'Instagram_Stories')).toHaveLength(3);
      await postBatch(s, [{ zone_id: 'mig-2', referrer: 'https://spam-mig.example/again' }]);
      const [newest] = (await admin.referrers.logs({ include_bots: true, page_size: 1 })).rows;
      expect(newest).toMatchObject({ referrer: 'https://spam-mig.example/again', is_bot: true, reason: 'spam_referrer' });
      const res = await s.fetch(`/api/publisher/data?token=${before.token}&start_date=${RANGE.start_date}&end_date=${RANGE.end_date}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(before.publisherData);
      // Alertas as they were: the same rules, alerts (states, mutes, fire counts), bell, channels and records.
      expect(await alertsOf(admin)).toEqual(before.alerts);
      expect(await alertRecordsOf(s.app.services.store)).toEqual(before.alertRecords);
      // New events continue the id sequence after the copied ones.
      const next = await postBatch(s, [{ zone_id: 'mig-1', referrer: 'https://r.example/new' }]);
      expect((await next.json()).first_id).toBeGreaterThan(Math.max(...before.flags.map((f) => f.id)));
    } finally {
      await s.close();
    }
  });

  test('run again, it copies nothing and verifies the same', async () => {
    // The server above added one event to the target: a second copy must neither duplicate nor mind it… under --force.
    const again = await migrateDataDir({ ...first, force: true });
    expect(Object.values(again.copied).every((n) => n === 0)).toBe(true);
    expect(again.ok).toBe(true);
    const fresh = await target('twice');
    await migrateDataDir(fresh);
    const lines: string[] = [];
    const twice = await migrateDataDir({ ...fresh, log: (l) => lines.push(l) });
    expect(Object.values(twice.copied).every((n) => n === 0)).toBe(true);
    // Every window of event ids already holds what the source's does: none is read again.
    expect(lines.find((l) => l.startsWith('referrer events:'))).toMatch(/^referrer events: 0 of [1-9]\d* windows of 7 ids read/);
    expect(twice.ok).toBe(true);
    expect(twice.checks.find((c) => c.name === 'zone_report rows')).toMatchObject({ source: 45, target: 45 });
    expect(twice.checks.find((c) => c.name === 'ad_spend rows')).toMatchObject({ source: 3, target: 3, ok: true });
  });

  test('run after an interrupted copy, it reads and copies only the windows of events the target lacks', async () => {
    const partial = await target('partial');
    await migrateDataDir(partial);
    // As a copy interrupted in the window of ids 8–14: two of its events never reached the target.
    const w = await openClickHouseWarehouse({ url: partial.clickhouse.url }, { database: partial.clickhouse.database });
    try {
      await w.db.command(`ALTER TABLE ${w.db.t('referrer_event')} DELETE WHERE id IN (9, 12) SETTINGS mutations_sync = 2`);
      expect(await w.referrers.countEvents()).toBe(31);
    } finally {
      await w.close();
    }
    const lines: string[] = [];
    const resumed = await migrateDataDir({ ...partial, log: (l) => lines.push(l) });
    expect(resumed.copied.referrer_event).toBe(2);
    expect(lines.filter((l) => l.startsWith('referrer_event ids'))).toEqual(['referrer_event ids 8–14: 2 events']);
    expect(lines.find((l) => l.startsWith('referrer events:'))).toMatch(/^referrer events: 1 of [1-9]\d* windows of 7 ids read/);
    expect(resumed.checks.find((c) => c.name === 'referrer events')).toMatchObject({ source: 33, target: 33, ok: true });
  });

  test('a target holding other data is refused, unchanged, unless --force', async () => {
    const other = await target('other');
    const s = await serverOn(other); // its own protected admin and secrets
    await s.close();
    const refused = await migrateDataDir(other).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(MigrationRefused);
    expect((refused as MigrationRefused).found.join('; ')).toMatch(/1 users.*other secrets.*1 audit entries/);
    const unchanged = await serverOn(other);
    try {
      expect((await (await unchanged.admin()).admin.listUsers()).map((u) => u.email)).toEqual([ADMIN.email]);
    } finally {
      await unchanged.close();
    }
    const forced = await migrateDataDir({ ...other, force: true });
    expect(forced.warnings.join('\n')).toMatch(/--force/);
    expect(forced.warnings.join('\n')).toMatch(/own secrets/);
    expect(forced.checks.find((c) => c.name === 'zone_report rows')).toMatchObject({ source: 45, target: 45, ok: true });
  });
});
