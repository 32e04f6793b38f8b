// Alertas' rules on a fixture with an injected clock: each kind fires on the subject whose
// condition holds (human traffic only), stays one alert while it holds, resolves when it clears;
// the cooldown reopens a re-fire silently; mutes hold notices; rules are their creator's or an
// admin's to change; the bell counts what fired since it was read. The schedule is off here
// (ADOPS_ALERTS_EVERY_SECONDS=0): each evaluation is called with its instant.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { REGISTRY, addDays, formatDateDMY, formatPercent, type Alert, type Api, type CreateAlertRule } from '@adops/core';
import { startTestServer, failure, zoneReportRow, type TestServer } from './helpers.js';
import { event, importRows } from './warehouse-contract.js';
import type { AdSpendRecord, ReferrerEvent } from '../src/warehouse/index.js';

// The evaluations' clock: 06:00 UTC two days ago, reporting in UTC. Events stay inside the retention
// period; every evaluation (the last at T + 1000 min, 22:40 that day) is before the server's own clock,
// which stamps reads and mutes; and the day-bound tests (the ROI window, T + 3 h back 6 h) stay on
// TODAY, whatever the hour the suite runs at.
const TODAY = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
const T = Date.parse(`${TODAY}T06:00:00Z`);
const YESTERDAY = addDays(TODAY, -1);
const MIN = 60_000;

let s: TestServer;
let admin: Api & { token: string };
let ana: Api & { token: string };
let nextId = 1;

const zoneRow = zoneReportRow;

const events = (n: number, at: number, e: Partial<ReferrerEvent> & Pick<ReferrerEvent, 'zone_id'>): ReferrerEvent[] =>
  Array.from({ length: n }, (_, i) => event(nextId++, at + i * 1000, e));

const evaluate = (at: number) => s.app.services.alerts.evaluate(at);
const alertsOf = async (ruleId: string, state?: Alert['state']) => (await admin.alerts.list({ rule_id: ruleId, state: state ?? 'all' })).rows;
const rule = (body: CreateAlertRule) => admin.alerts.createRule(body);

beforeAll(async () => {
  s = await startTestServer({ alerts: { everySeconds: 0, mailFrom: 'a@b.c', webhookAttempts: 1, webhookBackoffMs: 1, appUrl: null } });
  admin = await s.admin();
  await admin.admin.createUser({ first_name: 'Ana', last_name: 'Gómez', email: 'ana@example.com', password: 'una-clave-larga-1' });
  ana = await s.as('ana@example.com', 'una-clave-larga-1');
  const w = s.app.services.warehouse;
  await importRows(w, [
    // TQ today: Z-BAD is poor, Z-SMALL poorer but with too few impressions, Z-GOOD fine.
    zoneRow(TODAY, 'Z-BAD', { tq: 0.2 }),
    zoneRow(TODAY, 'Z-SMALL', { tq: 0.1, impressions: 10, monetized_impressions: 10 }),
    zoneRow(TODAY, 'Z-GOOD', { tq: 0.9 }),
    // Revenue: yesterday against the same weekday last week; Z-BAD fell 60 %, Z-GOOD held.
    zoneRow(YESTERDAY, 'Z-BAD', { revenue: 40 }),
    zoneRow(addDays(YESTERDAY, -7), 'Z-BAD', { revenue: 100 }),
    zoneRow(YESTERDAY, 'Z-GOOD', { revenue: 95 }),
    zoneRow(addDays(YESTERDAY, -7), 'Z-GOOD', { revenue: 100 }),
  ]);
});
afterAll(() => s?.close());

describe('each rule kind fires on its subject and resolves when the condition clears', () => {
  test('TQ below the threshold (with enough impressions) fires for that zone only, once, and resolves when the report improves', async () => {
    const r = await rule({ name: 'TQ zonas', kind: 'tq_low', params: { scope: 'zone', threshold: 0.5, hours: 6, min_impressions: 1000 } });
    expect(await evaluate(T)).toMatchObject({ ran: true, fired: 1, resolved: 0, errors: [] });
    const [a] = await alertsOf(r.id);
    expect(a).toMatchObject({ subject: 'Z-BAD', state: 'open', kind: 'tq_low', rule_name: 'TQ zonas', value: 0.2, threshold: 0.5, fire_count: 1 });
    expect(a.message).toContain('Z-BAD');
    expect(a.figures).toMatchObject({ impressions: 5000 });
    // Still true a minute later: the same alert, not a second one.
    expect(await evaluate(T + MIN)).toMatchObject({ fired: 0, resolved: 0 });
    expect(await alertsOf(r.id)).toHaveLength(1);
    await importRows(s.app.services.warehouse, [zoneRow(TODAY, 'Z-BAD', { tq: 0.8 })]);
    expect(await evaluate(T + 2 * MIN)).toMatchObject({ fired: 0, resolved: 1 });
    expect(await alertsOf(r.id)).toEqual([
      expect.objectContaining({ subject: 'Z-BAD', state: 'resolved', resolved_at: new Date(T + 2 * MIN).toISOString() }),
    ]);
    await admin.alerts.deleteRule({ id: r.id });
  });

  test('revenue down ≥ X % against the same weekday last week fires for the zone that fell and resolves when its revenue is corrected', async () => {
    const r = await rule({ name: 'Caída', kind: 'revenue_drop', params: { scope: 'zone', drop_percent: 30, hours: 24, min_revenue: 10 } });
    await evaluate(T);
    const [a] = await alertsOf(r.id);
    expect(await alertsOf(r.id)).toHaveLength(1);
    expect(a).toMatchObject({ subject: 'Z-BAD', state: 'open', value: -60, threshold: 30 });
    expect(a.figures).toMatchObject({ revenue: 40, revenue_last_week: 100 });
    // The day is written as people read it, never as the ISO key.
    expect(a.message).toContain(`Revenue de zona Z-BAD: $40,00 el ${formatDateDMY(YESTERDAY)} frente a $100,00 una semana antes`);
    expect(a.message).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    // The change and its threshold as the alert's 'Cambio' figure writes them, one format on one screen.
    expect(a.message).toContain(
      `(${formatPercent(-60, REGISTRY.alert.change_percent.decimals)}; umbral ${formatPercent(-30, REGISTRY.alert.change_percent.decimals)})`,
    );
    await importRows(s.app.services.warehouse, [zoneRow(YESTERDAY, 'Z-BAD', { revenue: 90 })]);
    expect(await evaluate(T + MIN)).toMatchObject({ resolved: 1 });
    expect((await alertsOf(r.id))[0].state).toBe('resolved');
    await admin.alerts.deleteRule({ id: r.id });
  });

  test('a referrer host over N human visits in M minutes fires (bots do not count), and resolves once the window has passed', async () => {
    const w = s.app.services.warehouse;
    await w.referrers.append([
      ...events(30, T - 5 * MIN, { zone_id: 'Z-GOOD', parent_domain: 'burst.example.com' }),
      ...events(50, T - 5 * MIN, { zone_id: 'Z-GOOD', parent_domain: 'bots.example.com', is_bot: true, reason: 'user_agent' }),
      ...events(5, T - 5 * MIN, { zone_id: 'Z-GOOD', parent_domain: 'calm.example.com' }),
    ]);
    const r = await rule({ name: 'Referrers', kind: 'referrer_burst', params: { visits: 20, minutes: 10 } });
    const one = await rule({ name: 'Solo calm', kind: 'referrer_burst', params: { target: 'calm.example.com', visits: 3, minutes: 10 } });
    await evaluate(T);
    expect((await alertsOf(r.id)).map((a) => [a.subject, a.value])).toEqual([['burst.example.com', 30]]);
    expect((await alertsOf(one.id)).map((a) => a.subject)).toEqual(['calm.example.com']);
    await evaluate(T + 20 * MIN);
    expect((await alertsOf(r.id)).map((a) => a.state)).toEqual(['resolved']);
    await admin.alerts.deleteRule({ id: r.id });
    await admin.alerts.deleteRule({ id: one.id });
  });

  test('a never-seen referrer fires; a host seen two days before does not', async () => {
    const w = s.app.services.warehouse;
    const at = T + 60 * MIN;
    await w.referrers.append([
      ...events(1, at - 2 * 1440 * MIN, { zone_id: 'Z-GOOD', parent_domain: 'old.example.com' }),
      ...events(30, at - 5 * MIN, { zone_id: 'Z-GOOD', parent_domain: 'old.example.com' }),
      ...events(30, at - 5 * MIN, { zone_id: 'Z-GOOD', parent_domain: 'brand-new.example.com' }),
    ]);
    const r = await rule({ name: 'Nuevos', kind: 'referrer_burst', params: { new_only: true, visits: 20, minutes: 10 } });
    await evaluate(at);
    expect((await alertsOf(r.id)).map((a) => a.subject)).toEqual(['brand-new.example.com']);
    await evaluate(at + 20 * MIN);
    expect((await alertsOf(r.id)).map((a) => a.state)).toEqual(['resolved']);
    await admin.alerts.deleteRule({ id: r.id });
  });

  test('one IP over N human visits in M minutes fires; a bot IP over it does not; it resolves once the window has passed', async () => {
    const w = s.app.services.warehouse;
    const at = T + 120 * MIN;
    await w.referrers.append([
      ...events(25, at - 3 * MIN, { zone_id: 'Z-GOOD', ip: '10.9.9.9' }),
      ...events(40, at - 3 * MIN, { zone_id: 'Z-GOOD', ip: '10.8.8.8', is_bot: true, reason: 'ip_rate' }),
      ...events(3, at - 3 * MIN, { zone_id: 'Z-GOOD', ip: '10.7.7.7' }),
    ]);
    const r = await rule({ name: 'IPs', kind: 'ip_burst', params: { visits: 20, minutes: 10 } });
    await evaluate(at);
    expect((await alertsOf(r.id)).map((a) => [a.subject, a.value])).toEqual([['10.9.9.9', 25]]);
    await evaluate(at + 15 * MIN);
    expect((await alertsOf(r.id)).map((a) => a.state)).toEqual(['resolved']);
    await admin.alerts.deleteRule({ id: r.id });
  });

  test('a campaign whose ROI is below X % with enough spend fires (through the profit figures) and resolves when its spend falls', async () => {
    const w = s.app.services.warehouse;
    const at = T + 180 * MIN;
    const LOSE = { campaign_id: 'C-LOSE', adset_id: 'S-LOSE', ad_id: 'A-LOSE' };
    const WIN = { campaign_id: 'C-WIN', adset_id: 'S-WIN', ad_id: 'A-WIN' };
    // Zone Z-ROI today: revenue 20 over 20 human visits (RPV 1.00); 10 visits each campaign.
    await importRows(w, [zoneRow(TODAY, 'Z-ROI', { revenue: 20 })]);
    await w.referrers.append([
      ...events(10, at - 60 * MIN, { zone_id: 'Z-ROI', ...LOSE }),
      ...events(10, at - 60 * MIN, { zone_id: 'Z-ROI', ...WIN }),
    ]);
    const spend = (c: typeof LOSE, amount: number): AdSpendRecord => ({
      date: TODAY,
      account_id: 'act_1',
      ...c,
      campaign_name: c.campaign_id,
      adset_name: c.adset_id,
      ad_name: c.ad_id,
      spend: amount,
      impressions: 1000,
      clicks: 20,
      currency: 'USD',
    });
    // C-LOSE: revenue 10 on 50 spent (ROI −80 %); C-WIN: 10 on 5 (ROI +100 %).
    await w.spend.upsert([spend(LOSE, 50), spend(WIN, 5)]);
    const r = await rule({ name: 'ROI', kind: 'campaign_roi', params: { level: 'campaign', metric: 'roi', threshold: 0, hours: 6, min_spend: 1 } });
    const cpc = await rule({ name: 'CPC', kind: 'campaign_roi', params: { level: 'campaign', metric: 'cpc', hours: 6, min_spend: 1 } });
    await evaluate(at);
    const [a] = await alertsOf(r.id);
    expect(await alertsOf(r.id)).toHaveLength(1);
    expect(a).toMatchObject({ subject: 'C-LOSE', state: 'open', threshold: 0 });
    expect(a.value).toBeCloseTo(-80, 6);
    expect(a.figures).toMatchObject({ spend: 50, revenue: 10 });
    // Amounts in the network's currency, with its symbol, as on every screen.
    expect(a.message).toContain('gasto $50,00, revenue $10,00');
    // CPC 50 / 20 = 2.50 over its break-even 10 / 20 = 0.50.
    expect((await alertsOf(cpc.id)).map((x) => [x.subject, x.value, x.threshold])).toEqual([['C-LOSE', 2.5, 0.5]]);
    await w.spend.upsert([spend(LOSE, 4)]);
    expect(await evaluate(at + MIN)).toMatchObject({ resolved: 2 });
    expect((await alertsOf(r.id))[0].state).toBe('resolved');
    await admin.alerts.deleteRule({ id: r.id });
    await admin.alerts.deleteRule({ id: cpc.id });
  });
});

describe('cooldown, de-duplication and muting', () => {
  const at = T + 300 * MIN;
  const burst = (from: number, ip: string) => s.app.services.warehouse.referrers.append(events(25, from, { zone_id: 'Z-GOOD', ip }));

  test('a re-fire within the cooldown reopens the same alert (no new notice); after the cooldown it is a new alert', async () => {
    const r = await rule({ name: 'IP cooldown', kind: 'ip_burst', cooldown_minutes: 60, params: { visits: 20, minutes: 5 } });
    await burst(at - 2 * MIN, '10.1.1.1');
    await evaluate(at);
    await evaluate(at + 10 * MIN); // window passed: resolved
    await burst(at + 18 * MIN, '10.1.1.1');
    const again = await evaluate(at + 20 * MIN);
    expect(again).toMatchObject({ fired: 1, notified: 0 });
    let list = await alertsOf(r.id);
    expect(list.map((a) => [a.state, a.fire_count])).toEqual([['open', 2]]);
    expect(list[0].fired_at).toBe(new Date(at).toISOString());
    await evaluate(at + 30 * MIN); // resolved again
    await burst(at + 88 * MIN, '10.1.1.1');
    await evaluate(at + 90 * MIN); // 90 min after the first notice: a new alert
    list = await alertsOf(r.id);
    expect(list.map((a) => [a.state, a.fire_count])).toEqual([
      ['open', 1],
      ['resolved', 2],
    ]);
    await admin.alerts.deleteRule({ id: r.id });
  });

  test('an alert muted for everyone stays muted while the condition holds, is lifted when its time ends, and resolves when the condition clears', async () => {
    const start = at + 200 * MIN;
    const r = await rule({ name: 'IP mute', kind: 'ip_burst', params: { visits: 20, minutes: 30 } });
    await burst(start - MIN, '10.2.2.2');
    await evaluate(start);
    const [a] = await alertsOf(r.id);
    const muted = await admin.alerts.mute({ id: a.id, minutes: 5, for_everyone: true });
    expect(muted).toMatchObject({ state: 'muted', muted_by: 'admin@test.local', muted_for: 'everyone' });
    await evaluate(start + 2 * MIN);
    expect((await alertsOf(r.id))[0].state).toBe('muted');
    expect((await ana.alerts.list({ rule_id: r.id, state: 'muted' })).rows.map((x) => [x.id, x.muted_for])).toEqual([[a.id, 'everyone']]);
    expect(Date.parse(muted.muted_until!)).toBeGreaterThan(Date.now());
    // The mute's end is measured by the server's clock; unmuting by hand does the same.
    expect(await admin.alerts.unmute({ id: a.id, for_everyone: true })).toMatchObject({ state: 'open', muted_until: null, muted_for: null });
    const e = await failure(admin.alerts.unmute({ id: a.id, for_everyone: true }));
    expect(e).toMatchObject({ status: 409, detail: 'La alerta no está silenciada para todos' });
    await admin.alerts.mute({ id: a.id, for_everyone: true });
    await evaluate(start + 40 * MIN);
    expect((await alertsOf(r.id)).map((x) => x.state)).toEqual(['resolved']);
    expect(await failure(ana.alerts.mute({ id: a.id }))).toMatchObject({ status: 409, detail: 'La alerta ya está resuelta' });
    expect(await failure(admin.alerts.mute({ id: a.id, for_everyone: true }))).toMatchObject({ status: 409, detail: 'La alerta ya está resuelta' });
    await admin.alerts.deleteRule({ id: r.id });
  });

  test("a staff user's mute hides the alert from them only (list, bell, digest); only an admin mutes or unmutes for everyone", async () => {
    const start = at + 300 * MIN;
    const r = await rule({ name: 'IP de Ana', kind: 'ip_burst', params: { visits: 20, minutes: 30 } });
    await burst(start - MIN, '10.2.9.9');
    const anaId = (await admin.admin.listUsers()).find((u) => u.email === 'ana@example.com')!.id;
    await s.app.services.store.alerts.setSubscription({
      ...((await s.app.services.store.alerts.subscription(anaId)) ?? {
        user_id: anaId,
        in_app: true,
        email: false,
        webhook_url: null,
        webhook_secret: null,
        rule_ids: null,
        digest: false,
      }),
      read_at: new Date(start - 10 * MIN).toISOString(),
    });
    await evaluate(start);
    const [a] = await alertsOf(r.id);
    const open = (api: Api) => api.alerts.list({ rule_id: r.id, state: 'open' }).then((l) => l.rows.map((x) => x.id));
    expect(await ana.alerts.unread()).toEqual({ unread: 1 });

    // Ana (staff) may not mute it for everyone: refused in words, nothing changes.
    expect(await failure(ana.alerts.mute({ id: a.id, minutes: 60, for_everyone: true }))).toMatchObject({
      status: 403,
      detail: 'Solo un administrador puede silenciar una alerta para todos; puedes silenciarla para ti',
    });
    expect(await open(ana)).toEqual([a.id]);

    // Her own mute: muted for her (list, bell, digest), still open for the admin.
    const mine = await ana.alerts.mute({ id: a.id, minutes: 60 });
    expect(mine).toMatchObject({ id: a.id, state: 'muted', muted_for: 'me', muted_by: 'ana@example.com' });
    expect(Date.parse(mine.muted_until!)).toBeGreaterThan(Date.now() + 59 * MIN);
    expect(await open(ana)).toEqual([]);
    expect((await ana.alerts.list({ rule_id: r.id, state: 'muted' })).rows.map((x) => x.id)).toEqual([a.id]);
    expect(await ana.alerts.unread()).toEqual({ unread: 0 });
    expect((await s.app.services.alertDigest.message(anaId)).text).not.toContain('10.2.9.9');
    expect(await open(admin)).toEqual([a.id]);
    expect((await alertsOf(r.id))[0]).toMatchObject({ state: 'open', muted_for: null, muted_by: null });
    expect((await s.app.services.alertDigest.message((await admin.admin.listUsers()).find((u) => u.is_admin)!.id)).text).toContain('10.2.9.9');

    // The admin mutes it for everyone: muted for both; Ana cannot lift that one.
    await admin.alerts.mute({ id: a.id, minutes: null, for_everyone: true });
    expect((await ana.alerts.list({ rule_id: r.id, state: 'muted' })).rows[0]).toMatchObject({ muted_for: 'everyone', muted_by: 'admin@test.local' });
    expect(await failure(ana.alerts.unmute({ id: a.id, for_everyone: true }))).toMatchObject({
      status: 403,
      detail: 'Solo un administrador puede quitar un silencio para todos',
    });
    // Lifted for everyone: Ana's own mute still hides it from her.
    await admin.alerts.unmute({ id: a.id, for_everyone: true });
    expect(await open(admin)).toEqual([a.id]);
    expect(await open(ana)).toEqual([]);
    // Her own mute lifted: open for her again; a second time there is nothing of hers to lift.
    expect(await ana.alerts.unmute({ id: a.id })).toMatchObject({ state: 'open', muted_for: null });
    expect(await open(ana)).toEqual([a.id]);
    expect(await failure(ana.alerts.unmute({ id: a.id }))).toMatchObject({ status: 409, detail: 'No tienes esta alerta silenciada' });
    await admin.alerts.deleteRule({ id: r.id });
  });

  test('two evaluations at once (another instance) open each alert once: the lock lets one run, the store refuses a duplicate', async () => {
    const start = at + 400 * MIN;
    const r = await rule({ name: 'IP carrera', kind: 'ip_burst', params: { visits: 20, minutes: 30 } });
    await burst(start - MIN, '10.3.3.3');
    const store = s.app.services.store;
    // Another instance holds the evaluator's lock: this one does nothing.
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(await store.alerts.acquireLock('alerts-evaluator', 'other-instance', iso(start), iso(start + MIN))).toBe(true);
    expect(await evaluate(start)).toMatchObject({ ran: false, fired: 0 });
    expect(await alertsOf(r.id)).toEqual([]);
    // Its lock expired (that instance stopped): this one takes over.
    const runs = await Promise.all([evaluate(start + 2 * MIN), evaluate(start + 2 * MIN)]);
    expect(runs.reduce((n, x) => n + x.fired, 0)).toBe(1);
    expect(await alertsOf(r.id)).toHaveLength(1);
    await admin.alerts.deleteRule({ id: r.id });
  });

  test('a round stores what it opens and resolves in batches: one store call (one write on lowdb) for 40 alerts at once', async () => {
    const start = at + 600 * MIN;
    const r = await rule({ name: 'IP lote', kind: 'ip_burst', params: { visits: 20, minutes: 10 } });
    const ips = Array.from({ length: 40 }, (_, i) => `10.50.0.${i}`);
    await s.app.services.warehouse.referrers.append(ips.flatMap((ip) => events(25, start - 2 * MIN, { zone_id: 'Z-GOOD', ip })));
    const repository = s.app.services.store.alerts;
    const spies = [
      vi.spyOn(repository, 'open'),
      vi.spyOn(repository, 'openMany'),
      vi.spyOn(repository, 'update'),
      vi.spyOn(repository, 'updateMany'),
    ];
    const [open, openMany, update, updateMany] = spies;
    try {
      expect(await evaluate(start)).toMatchObject({ fired: 40, resolved: 0, errors: [] });
      expect(openMany.mock.calls.map(([batch]) => batch.length)).toEqual([40]);
      expect((await alertsOf(r.id, 'open')).map((a) => a.subject).sort()).toEqual([...ips].sort());
      expect(await evaluate(start + MIN)).toMatchObject({ fired: 0, resolved: 0 });
      expect(await evaluate(start + 15 * MIN)).toMatchObject({ fired: 0, resolved: 40 });
      expect(updateMany.mock.calls.map(([batch]) => batch.length)).toEqual([40]);
      expect(await alertsOf(r.id, 'resolved')).toHaveLength(40);
      expect([open, update].map((spy) => spy.mock.calls.length)).toEqual([0, 0]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    await admin.alerts.deleteRule({ id: r.id });
  });
});

describe('rules, the bell and who may change what', () => {
  test('the bell counts alerts fired since the user marked them read; a user subscribed to some rules counts those only', async () => {
    const at = T + 1000 * MIN;
    await ana.alerts.markRead();
    expect(await ana.alerts.unread()).toEqual({ unread: 0 });
    const r = await rule({ name: 'IP campana', kind: 'ip_burst', params: { visits: 20, minutes: 30 } });
    await s.app.services.warehouse.referrers.append(events(25, at - MIN, { zone_id: 'Z-GOOD', ip: '10.4.4.4' }));
    // Read up to just before the evaluation's clock: what fires then counts.
    const anaId = (await admin.admin.listUsers()).find((u) => u.email === 'ana@example.com')!.id;
    const readAt = async (ms: number) =>
      s.app.services.store.alerts.setSubscription({
        ...(await s.app.services.store.alerts.subscription(anaId))!,
        read_at: new Date(ms).toISOString(),
      });
    await readAt(at - 10 * MIN);
    expect(await evaluate(at)).toMatchObject({ fired: 1 });
    expect(await ana.alerts.unread()).toEqual({ unread: 1 });
    expect((await ana.alerts.list({})).totals.unread).toBe(1);
    await ana.alerts.setSubscription({ in_app: true, rule_ids: ['otra-regla'] });
    expect(await ana.alerts.unread()).toEqual({ unread: 0 });
    await ana.alerts.setSubscription({ in_app: true });
    expect(await ana.alerts.unread()).toEqual({ unread: 1 });
    await ana.alerts.markRead();
    expect(await ana.alerts.unread()).toEqual({ unread: 0 });
    await admin.alerts.deleteRule({ id: r.id });
  });

  test("a rule is its creator's or an admin's to change or delete (403 for others, 404 when gone); its alerts go with it", async () => {
    const mine = await ana.alerts.createRule({ name: 'De Ana', kind: 'ip_burst', params: { visits: 100, minutes: 5 } });
    expect(mine).toMatchObject({ created_by: 'ana@example.com', enabled: true, cooldown_minutes: 60 });
    const adminRule = await rule({ name: 'Del admin', kind: 'ip_burst', params: { visits: 100, minutes: 5 } });
    expect(await failure(ana.alerts.updateRule({ id: adminRule.id, enabled: false }))).toMatchObject({
      status: 403,
      detail: 'Solo quien creó la regla o un administrador puede cambiarla',
    });
    expect(await failure(ana.alerts.deleteRule({ id: adminRule.id }))).toMatchObject({ status: 403 });
    expect(await ana.alerts.updateRule({ id: mine.id, name: 'De Ana (2)', kind: 'ip_burst', params: { visits: 50, minutes: 5 } })).toMatchObject({
      name: 'De Ana (2)',
      params: { visits: 50, minutes: 5 },
    });
    expect(await admin.alerts.updateRule({ id: mine.id, enabled: false })).toMatchObject({ enabled: false });
    await ana.alerts.deleteRule({ id: mine.id });
    expect(await failure(ana.alerts.deleteRule({ id: mine.id }))).toMatchObject({ status: 404, detail: 'Regla no encontrada' });
    await admin.alerts.deleteRule({ id: adminRule.id });
  });

  test('bad rules are refused with a Spanish 400 {detail} and nothing is stored', async () => {
    const before = await s.storedEntities();
    const bad: unknown[] = [
      {},
      { name: 'x', kind: 'nope', params: {} },
      { name: 'x', kind: 'tq_low', params: { scope: 'zone', threshold: 'bajo', hours: 6 } },
      { name: 'x', kind: 'ip_burst', params: { visits: -1, minutes: 5 } },
      { name: '', kind: 'ip_burst', params: { visits: 1, minutes: 5 } },
      { name: 'x'.repeat(121), kind: 'ip_burst', params: { visits: 1, minutes: 5 } },
      { name: 'x', kind: 'referrer_burst', params: { target: 'a\u0000b', visits: 1, minutes: 5 } },
      { name: 'x', kind: 'campaign_roi', params: { level: 'account', hours: 6 } },
      { name: 'x', kind: 'ip_burst', cooldown_minutes: 1e9, params: { visits: 1, minutes: 5 } },
    ];
    for (const body of bad) {
      const res = await s.fetch('/api/alerts/rules', {
        method: 'POST',
        headers: { authorization: `Bearer ${ana.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).detail, JSON.stringify(body)).toMatch(/[a-záéíóúñ]/i);
    }
    const sub = await s.fetch('/api/alerts/subscription', {
      method: 'PUT',
      headers: { authorization: `Bearer ${ana.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ webhook_url: 'javascript:alert(1)' }),
    });
    expect(sub.status).toBe(400);
    expect(await sub.json()).toEqual({ detail: expect.stringContaining('Webhook: debe ser una URL http(s)') });
    expect(await s.storedEntities()).toBe(before);
  });
});
