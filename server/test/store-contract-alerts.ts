// Alertas' part of the entity-store contract: rules, one unresolved alert per rule and subject
// (also when two stores race), state-guarded updates, channels, and the evaluator's lock with
// its expiry; run by describeStoreContract on every engine.
import { expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import { type AlertRecord, type AlertRuleRecord, type EntityStore, StoreConflictError, type UserRecord } from '../src/store/types.js';

export const alertRule = (over: Partial<AlertRuleRecord> = {}): AlertRuleRecord => ({
  id: randomUUID(),
  name: 'TQ bajo en zonas',
  kind: 'tq_low',
  params: { scope: 'zone', target: null, threshold: 0.5, hours: 6, min_impressions: 1000 },
  enabled: true,
  cooldown_minutes: 60,
  created_by: 'u-1',
  created_by_email: 'ana@example.com',
  created_at: '2026-03-01T10:00:00.000Z',
  updated_at: '2026-03-01T10:00:00.000Z',
  ...over,
});

export const alert = (ruleId: string, over: Partial<AlertRecord> = {}): AlertRecord => ({
  id: randomUUID(),
  rule_id: ruleId,
  subject: 'Z-1',
  state: 'open',
  message: 'TQ de la zona Z-1: 0,31 (umbral 0,50)',
  value: 0.31,
  threshold: 0.5,
  figures: { impressions: 5000, tq: 0.31, revenue: null },
  opened_at: '2026-03-01T10:00:00.000Z',
  fired_at: '2026-03-01T10:00:00.000Z',
  resolved_at: null,
  muted_until: null,
  muted_by: null,
  fire_count: 1,
  deliveries: [],
  ...over,
});

type Fresh = () => Promise<{ store: EntityStore; open: () => Promise<EntityStore> }>;

export function describeAlertContract(fresh: Fresh, shared: boolean, newUser: () => UserRecord): void {
  test('a rule reads back as stored, changes field by field, and takes its alerts with it when removed', async () => {
    const { store, open } = await fresh();
    const rule = alertRule();
    await store.alerts.rules.create(rule);
    expect(await store.alerts.rules.list()).toEqual([rule]);
    const changed = await store.alerts.rules.update(rule.id, {
      enabled: false,
      params: { ...rule.params, threshold: 0.4 },
      updated_at: '2026-03-02T00:00:00.000Z',
    });
    expect(changed).toEqual({ ...rule, enabled: false, params: { ...rule.params, threshold: 0.4 }, updated_at: '2026-03-02T00:00:00.000Z' });
    expect(await store.alerts.rules.update('nope', { enabled: true })).toBeUndefined();
    expect(await store.alerts.open(alert(rule.id))).toBe(true);
    expect((await (await open()).alerts.rules.byId(rule.id))?.enabled).toBe(false);
    expect(await store.alerts.rules.remove(rule.id)).toBe(true);
    expect(await store.alerts.rules.remove(rule.id)).toBe(false);
    expect(await store.alerts.list({}, 0, 10)).toEqual({ rows: [], total: 0 });
  });

  test('one unresolved alert per rule and subject: a second open is refused until the first resolves', async () => {
    const { store } = await fresh();
    const rule = alertRule();
    await store.alerts.rules.create(rule);
    const first = alert(rule.id);
    expect(await store.alerts.open(first)).toBe(true);
    expect(await store.alerts.open(alert(rule.id))).toBe(false);
    expect(await store.alerts.open(alert(rule.id, { subject: 'Z-2' }))).toBe(true);
    // Muted is still unresolved.
    expect(await store.alerts.update(first.id, { state: 'muted', muted_by: 'ana@example.com' }, ['open'])).toMatchObject({ state: 'muted' });
    expect(await store.alerts.open(alert(rule.id))).toBe(false);
    expect(await store.alerts.update(first.id, { state: 'resolved', resolved_at: '2026-03-01T11:00:00.000Z' })).toMatchObject({ state: 'resolved' });
    const second = alert(rule.id, { opened_at: '2026-03-01T12:00:00.000Z', fired_at: '2026-03-01T12:00:00.000Z' });
    expect(await store.alerts.open(second)).toBe(true);
    // Reopening the first would make two unresolved: refused.
    expect(await store.alerts.update(first.id, { state: 'open', resolved_at: null })).toBeUndefined();
    expect((await store.alerts.history(rule.id, 'Z-1', 10)).map((a) => a.id)).toEqual([second.id, first.id]);
    expect((await store.alerts.unresolved(rule.id)).map((a) => a.subject).sort()).toEqual(['Z-1', 'Z-2']);
    // An alert of a rule that is gone is not opened.
    expect(await store.alerts.open(alert('no-such-rule'))).toBe(false);
  });

  test('two stores opening the same alert at once store one of them', async () => {
    const { store, open } = await fresh();
    const other = shared ? await open() : store;
    const rule = alertRule();
    await store.alerts.rules.create(rule);
    const results = await Promise.all([store.alerts.open(alert(rule.id)), other.alerts.open(alert(rule.id)), store.alerts.open(alert(rule.id))]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await store.alerts.list({}, 0, 10)).total).toBe(1);
  });

  test('a batch opens as `open` would, in order: refused where the subject has an unresolved alert, stored or earlier in the batch, or the rule is gone', async () => {
    const { store, open } = await fresh();
    const rule = alertRule();
    await store.alerts.rules.create(rule);
    const held = alert(rule.id, { subject: 'Z-1' });
    expect(await store.alerts.open(held)).toBe(true);
    expect(await store.alerts.openMany([])).toEqual([]);
    const at = '2026-03-01T10:05:00.000Z';
    const batch = [
      alert(rule.id, { subject: 'Z-1' }), // Z-1 has an unresolved alert
      alert(rule.id, { subject: 'Z-2', value: -12.5, threshold: null, figures: { spend: 40.25, roi: null }, opened_at: at, fired_at: at }),
      alert(rule.id, { subject: 'Z-2' }), // the batch's Z-2 is earlier
      alert('no-such-rule', { subject: 'Z-4' }),
      alert(rule.id, { subject: 'Z-3', state: 'resolved', resolved_at: at }), // a resolved alert holds nothing
      alert(rule.id, { subject: 'Z-3', state: 'muted', muted_until: null, muted_by: 'ana@example.com' }),
      alert(rule.id, { subject: 'Z-3' }),
      alert(rule.id, { subject: "Z-5' OR 1=1 --" }),
    ];
    expect(await store.alerts.openMany(batch)).toEqual([false, true, false, false, true, true, false, true]);
    for (const i of [1, 4, 5, 7]) expect(await store.alerts.byId(batch[i].id)).toEqual(batch[i]);
    for (const i of [0, 2, 3, 6]) expect(await store.alerts.byId(batch[i].id)).toBeUndefined();
    const again = await open();
    expect((await again.alerts.unresolved(rule.id)).map((a) => a.subject).sort()).toEqual(['Z-1', 'Z-2', 'Z-3', "Z-5' OR 1=1 --"]);
    expect((await again.alerts.list({}, 0, 20)).total).toBe(5);
    // Every one refused: nothing changes.
    expect(await store.alerts.openMany([alert(rule.id, { subject: 'Z-1' }), alert(rule.id, { subject: 'Z-2' })])).toEqual([false, false]);
    // An id already taken (stored, or twice in the batch): nothing of the batch is stored.
    const fresh1 = alert(rule.id, { subject: 'Z-6' });
    await expect(store.alerts.openMany([fresh1, { ...alert(rule.id, { subject: 'Z-7' }), id: held.id }])).rejects.toBeInstanceOf(StoreConflictError);
    await expect(store.alerts.openMany([fresh1, { ...alert(rule.id, { subject: 'Z-7' }), id: fresh1.id }])).rejects.toBeInstanceOf(
      StoreConflictError,
    );
    expect(await store.alerts.byId(fresh1.id)).toBeUndefined();
    expect((await store.alerts.list({}, 0, 20)).total).toBe(5);
  });

  test('two stores opening overlapping batches at once (in opposite orders) store one alert per subject', async () => {
    const { store, open } = await fresh();
    const other = shared ? await open() : store;
    const [r1, r2] = [alertRule(), alertRule({ name: 'Otra' })];
    await store.alerts.rules.create(r1);
    await store.alerts.rules.create(r2);
    const subjects = Array.from({ length: 40 }, (_, i) => `Z-${i}`);
    const batchOf = (list: string[]) => list.flatMap((subject) => [alert(r1.id, { subject }), alert(r2.id, { subject })]);
    const results = await Promise.all([
      store.alerts.openMany(batchOf(subjects.slice(0, 30))),
      other.alerts.openMany(batchOf(subjects.slice(10).reverse())),
      store.alerts.openMany(batchOf(subjects.slice(5, 15))),
    ]);
    expect(results.flat().filter(Boolean)).toHaveLength(80);
    for (const r of [r1, r2]) expect((await store.alerts.unresolved(r.id)).map((a) => a.subject).sort()).toEqual([...subjects].sort());
  });

  test('a batch of updates applies each as `update` would, in order: guarded by state, refusing a reopening that would make two unresolved', async () => {
    const { store, open } = await fresh();
    const rule = alertRule();
    await store.alerts.rules.create(rule);
    const at = (m: number) => new Date(Date.parse('2026-03-01T10:00:00Z') + m * 60_000).toISOString();
    const a = alert(rule.id, { subject: 'Z-1' });
    const b = alert(rule.id, { subject: 'Z-2' });
    const c = alert(rule.id, { subject: 'Z-3', state: 'resolved', resolved_at: at(1) });
    const d = alert(rule.id, { subject: 'Z-3', opened_at: at(2), fired_at: at(2) });
    const e = alert(rule.id, { subject: 'Z-4', state: 'resolved', resolved_at: at(1) });
    expect(await store.alerts.openMany([a, b, c, d, e])).toEqual([true, true, true, true, true]);
    await store.alerts.addDelivery(a.id, {
      channel: 'webhook',
      user_id: 'u-1',
      to: 'ana@example.com',
      status: 'sent',
      attempts: 1,
      detail: '200',
      at: at(0),
    });
    const a1 = await store.alerts.byId(a.id);
    expect(await store.alerts.updateMany([])).toEqual([]);
    const first = await store.alerts.updateMany([
      { id: a.id, change: { state: 'resolved', resolved_at: at(3) }, states: ['open', 'muted'] },
      { id: b.id, change: { state: 'open' }, states: ['resolved'] }, // b is open
      { id: 'nope', change: { state: 'resolved' } },
      { id: d.id, change: { value: 0.12, message: 'otra vez', figures: { tq: 0.12, impressions: 9000 }, fired_at: at(3), threshold: undefined } },
      { id: e.id, change: { state: 'open', resolved_at: null, fire_count: 2 }, states: ['resolved'] },
    ]);
    const expected = [
      { ...a1, state: 'resolved', resolved_at: at(3) },
      undefined,
      undefined,
      { ...d, value: 0.12, message: 'otra vez', figures: { tq: 0.12, impressions: 9000 }, fired_at: at(3) },
      { ...e, state: 'open', resolved_at: null, fire_count: 2 },
    ];
    expect(first).toEqual(expected);
    const again = await open();
    for (const x of [expected[0], expected[3], expected[4]]) expect(await again.alerts.byId(x!.id)).toEqual(x);
    expect(await again.alerts.byId(b.id)).toEqual(b);
    // Reopening c would make two unresolved on Z-3 (d): only that one is refused.
    const second = await store.alerts.updateMany([
      { id: c.id, change: { state: 'open', resolved_at: null } },
      { id: a.id, change: { state: 'open', resolved_at: null }, states: ['resolved'] },
    ]);
    expect(second).toEqual([undefined, { ...expected[0], state: 'open', resolved_at: null }]);
    expect(await store.alerts.byId(c.id)).toEqual(c);
    // The same alert twice: in order.
    const third = await store.alerts.updateMany([
      { id: b.id, change: { state: 'muted', muted_by: 'ana@example.com' }, states: ['open'] },
      { id: b.id, change: { state: 'open', muted_by: null }, states: ['muted'] },
      { id: b.id, change: { state: 'resolved', resolved_at: at(4) }, states: ['muted'] },
    ]);
    expect(third.map((x) => x?.state)).toEqual(['muted', 'open', undefined]);
    expect(await store.alerts.byId(b.id)).toEqual(b);
    // Nothing fits: nothing changes.
    expect(await store.alerts.updateMany([{ id: c.id, change: { state: 'muted' }, states: ['open'] }])).toEqual([undefined]);
  });

  test('an update guarded by state changes nothing when the alert is in another state; fields left out keep their value', async () => {
    const { store } = await fresh();
    const rule = alertRule();
    await store.alerts.rules.create(rule);
    const a = alert(rule.id);
    await store.alerts.open(a);
    expect(await store.alerts.update(a.id, { state: 'resolved' }, ['muted'])).toBeUndefined();
    const muted = await store.alerts.update(a.id, { state: 'muted', muted_until: '2026-03-01T13:00:00.000Z', muted_by: 'ana@example.com' });
    expect(muted).toEqual({ ...a, state: 'muted', muted_until: '2026-03-01T13:00:00.000Z', muted_by: 'ana@example.com' });
    expect(await store.alerts.update('nope', { state: 'open' })).toBeUndefined();
    expect(await store.alerts.byId(a.id)).toEqual(muted);
  });

  test('the list filters by state, rule, rules and firing instant, latest fired first, paged with its total', async () => {
    const { store } = await fresh();
    const [r1, r2] = [alertRule(), alertRule({ name: 'Otra' })];
    await store.alerts.rules.create(r1);
    await store.alerts.rules.create(r2);
    const at = (h: number) => `2026-03-01T${String(h).padStart(2, '0')}:00:00.000Z`;
    const a = alert(r1.id, { subject: 'A', fired_at: at(9), opened_at: at(9) });
    const b = alert(r1.id, { subject: 'B', fired_at: at(11), opened_at: at(11), state: 'resolved', resolved_at: at(12) });
    const c = alert(r2.id, { subject: 'C', fired_at: at(10), opened_at: at(10) });
    for (const x of [a, b, c]) await store.alerts.open(x);
    expect((await store.alerts.list({}, 0, 10)).rows.map((x) => x.subject)).toEqual(['B', 'C', 'A']);
    expect(await store.alerts.list({ state: 'open' }, 0, 10)).toMatchObject({ total: 2 });
    expect((await store.alerts.list({ rule_id: r2.id }, 0, 10)).rows.map((x) => x.subject)).toEqual(['C']);
    expect((await store.alerts.list({ rule_ids: [r1.id] }, 0, 10)).rows.map((x) => x.subject)).toEqual(['B', 'A']);
    expect((await store.alerts.list({ rule_ids: [] }, 0, 10)).total).toBe(0);
    expect((await store.alerts.list({ fired_after: at(9) }, 0, 10)).rows.map((x) => x.subject)).toEqual(['B', 'C']);
    expect(await store.alerts.list({}, 1, 1)).toMatchObject({ rows: [expect.objectContaining({ subject: 'C' })], total: 3 });
    expect(await store.alerts.list({ rule_id: "' OR 1=1 --" }, 0, 10)).toEqual({ rows: [], total: 0 });
  });

  test("a user's channels are created, replaced and read back; they go with the user", async () => {
    const { store } = await fresh();
    const u = newUser();
    await store.users.create(u);
    expect(await store.alerts.subscription(u.id)).toBeUndefined();
    const sub = {
      user_id: u.id,
      in_app: true,
      email: true,
      webhook_url: 'https://hooks.example.com/x?a=1',
      webhook_secret: 's3cr3t',
      rule_ids: null,
      read_at: null,
      digest: false,
    };
    await store.alerts.setSubscription(sub);
    await store.alerts.setSubscription({ ...sub, email: false, rule_ids: ['r1', 'r2'], read_at: '2026-03-01T10:00:00.000Z', digest: true });
    expect(await store.alerts.subscription(u.id)).toEqual({
      ...sub,
      email: false,
      rule_ids: ['r1', 'r2'],
      read_at: '2026-03-01T10:00:00.000Z',
      digest: true,
    });
    expect(await store.alerts.subscriptions()).toHaveLength(1);
    await store.users.remove(u.id);
    expect(await store.alerts.subscription(u.id)).toBeUndefined();
  });

  test("a user's mute hides the alert from them only, while it holds: until its time, until the alert resolves or fires again", async () => {
    const { store, open } = await fresh();
    const [ana, bea] = [newUser(), newUser()];
    for (const u of [ana, bea]) await store.users.create(u);
    const rule = alertRule();
    await store.alerts.rules.create(rule);
    const at = (h: number) => `2026-03-01T${String(h).padStart(2, '0')}:00:00.000Z`;
    const a = alert(rule.id, { subject: 'A', fired_at: at(9), opened_at: at(9) });
    const b = alert(rule.id, { subject: 'B', fired_at: at(8), opened_at: at(8) });
    for (const x of [a, b]) await store.alerts.open(x);
    const seen = async (user: UserRecord, state: 'open' | 'muted', when = at(10)) =>
      (await store.alerts.list({ state, viewer: { user_id: user.id, at: when } }, 0, 10)).rows.map((x) => x.subject);

    const mine = await store.alerts.mute({ alert_id: a.id, user_id: ana.id, by: ana.email, until: at(12), at: at(10) });
    expect(mine).toEqual({ alert_id: a.id, user_id: ana.id, by: ana.email, until: at(12), fire_count: 1, at: at(10) });
    // The alert itself is unchanged: open for everyone else, muted for Ana until 12:00.
    expect((await store.alerts.byId(a.id))?.state).toBe('open');
    expect(await seen(ana, 'open')).toEqual(['B']);
    expect(await seen(ana, 'muted')).toEqual(['A']);
    expect(await seen(bea, 'open')).toEqual(['A', 'B']);
    expect(await seen(bea, 'muted')).toEqual([]);
    expect(await seen(ana, 'open', at(12))).toEqual(['A', 'B']);
    expect((await store.alerts.list({ state: 'open' }, 0, 10)).total).toBe(2);
    // Muted again (until it resolves): replaced, one per user and alert; read back from another handle.
    await store.alerts.mute({ alert_id: a.id, user_id: ana.id, by: ana.email, until: null, at: at(11) });
    expect(await (await open()).alerts.mutes({ user_id: ana.id })).toEqual([{ ...mine, until: null, at: at(11) }]);
    expect(await store.alerts.mutes({ alert_ids: [b.id] })).toEqual([]);
    expect(await seen(ana, 'muted', at(23))).toEqual(['A']);
    // An admin's mute for everyone (the alert's state) is muted for every viewer.
    await store.alerts.update(b.id, { state: 'muted', muted_by: 'admin@example.com' });
    expect(await seen(bea, 'muted')).toEqual(['B']);
    expect(await seen(ana, 'muted')).toEqual(['A', 'B']);
    // Resolved, then reopened (fired again): Ana's mute was for the firing she saw, and no longer hides it.
    await store.alerts.update(a.id, { state: 'resolved', resolved_at: at(13) });
    expect(await seen(ana, 'muted', at(13))).toEqual(['B']);
    expect(await store.alerts.mute({ alert_id: a.id, user_id: bea.id, by: bea.email, until: null, at: at(13) })).toBeUndefined();
    await store.alerts.update(a.id, { state: 'open', resolved_at: null, fire_count: 2 });
    expect(await seen(ana, 'open', at(14))).toEqual(['A']);
    // Unmuted: gone; twice: nothing to remove. Hostile ids find nothing.
    await store.alerts.mute({ alert_id: a.id, user_id: ana.id, by: ana.email, until: null, at: at(14) });
    expect(await store.alerts.unmute(a.id, ana.id)).toBe(true);
    expect(await store.alerts.unmute(a.id, ana.id)).toBe(false);
    expect(await store.alerts.mute({ alert_id: "' OR 1=1 --", user_id: ana.id, by: ana.email, until: null, at: at(14) })).toBeUndefined();
    expect(await seen(ana, 'muted', at(14))).toEqual(['B']);
  });

  test("mutes go with their alert's rule and with their user", async () => {
    const { store } = await fresh();
    const [ana, bea] = [newUser(), newUser()];
    for (const u of [ana, bea]) await store.users.create(u);
    const [r1, r2] = [alertRule(), alertRule({ name: 'Otra' })];
    for (const r of [r1, r2]) await store.alerts.rules.create(r);
    const [a, b] = [alert(r1.id), alert(r2.id)];
    for (const x of [a, b]) await store.alerts.open(x);
    for (const u of [ana, bea])
      for (const x of [a, b]) await store.alerts.mute({ alert_id: x.id, user_id: u.id, by: u.email, until: null, at: '2026-03-01T10:00:00.000Z' });
    expect(await store.alerts.mutes({})).toHaveLength(4);
    await store.alerts.rules.remove(r1.id);
    expect((await store.alerts.mutes({})).map((m) => m.alert_id)).toEqual([b.id, b.id]);
    await store.users.remove(bea.id);
    expect((await store.alerts.mutes({})).map((m) => [m.alert_id, m.user_id])).toEqual([[b.id, ana.id]]);
  });

  test('a lock has one owner until it expires or is released; its owner may renew it', async () => {
    const { store, open } = await fresh();
    const other = shared ? await open() : store;
    const t = (m: number) => new Date(Date.parse('2026-03-01T10:00:00Z') + m * 60_000).toISOString();
    expect(await store.alerts.acquireLock('alerts', 'a', t(0), t(2))).toBe(true);
    expect(await other.alerts.acquireLock('alerts', 'b', t(1), t(3))).toBe(false);
    expect(await store.alerts.acquireLock('alerts', 'a', t(1), t(3))).toBe(true);
    expect(await other.alerts.acquireLock('alerts', 'b', t(2), t(4))).toBe(false);
    // Expired: another owner takes it.
    expect(await other.alerts.acquireLock('alerts', 'b', t(3), t(5))).toBe(true);
    expect(await store.alerts.acquireLock('alerts', 'a', t(4), t(6))).toBe(false);
    await store.alerts.releaseLock('alerts', 'a'); // not a's: nothing happens
    expect(await store.alerts.acquireLock('alerts', 'a', t(4), t(6))).toBe(false);
    await other.alerts.releaseLock('alerts', 'b');
    expect(await store.alerts.acquireLock('alerts', 'a', t(4), t(6))).toBe(true);
    // Racing for a free lock: one wins.
    const races = await Promise.all(['x', 'y', 'z'].map((o, i) => (i % 2 ? other : store).alerts.acquireLock('race', o, t(0), t(1))));
    expect(races.filter(Boolean)).toHaveLength(1);
  });

  test("an alert's notices are appended in order, also when two finish at once; an update leaves them", async () => {
    const { store, open } = await fresh();
    const other = shared ? await open() : store;
    const rule = alertRule();
    await store.alerts.rules.create(rule);
    const a = alert(rule.id);
    await store.alerts.open(a);
    const notice = (channel: 'email' | 'webhook', status: 'sent' | 'failed', detail: string) => ({
      channel,
      user_id: 'u-1',
      to: 'ana@example.com',
      status,
      attempts: status === 'sent' ? 1 : 4,
      detail,
      at: '2026-03-01T10:00:01.000Z',
    });
    await store.alerts.addDelivery(a.id, notice('webhook', 'failed', 'HTTP 503'));
    await Promise.all([
      store.alerts.addDelivery(a.id, notice('email', 'sent', '250 OK')),
      other.alerts.addDelivery(a.id, notice('email', 'sent', '250 OK otra')),
    ]);
    await store.alerts.addDelivery('no-such-alert', notice('email', 'sent', '250'));
    const stored = (await store.alerts.byId(a.id))!.deliveries;
    expect(stored).toHaveLength(3);
    expect(stored[0]).toEqual(notice('webhook', 'failed', 'HTTP 503'));
    expect(
      stored
        .slice(1)
        .map((d) => d.detail)
        .sort(),
    ).toEqual(['250 OK', '250 OK otra']);
    await store.alerts.update(a.id, { state: 'resolved', resolved_at: '2026-03-01T11:00:00.000Z' });
    expect((await store.alerts.byId(a.id))!.deliveries).toEqual(stored);
  });

  test('many notices finishing at once, on many alerts, are all kept', async () => {
    const { store } = await fresh();
    const rule = alertRule();
    await store.alerts.rules.create(rule);
    const list = Array.from({ length: 30 }, (_, i) => alert(rule.id, { subject: `Z-${i}` }));
    expect(await store.alerts.openMany(list)).toEqual(list.map(() => true));
    const notice = (detail: string) => ({
      channel: 'email' as const,
      user_id: 'u-1',
      to: 'ana@example.com',
      status: 'sent' as const,
      attempts: 1,
      detail,
      at: '2026-03-01T10:00:01.000Z',
    });
    await Promise.all(list.flatMap((a) => [0, 1, 2].map((n) => store.alerts.addDelivery(a.id, notice(`${a.subject}/${n}`)))));
    for (const a of list)
      expect(((await store.alerts.byId(a.id))?.deliveries ?? []).map((d) => d.detail).sort()).toEqual([0, 1, 2].map((n) => `${a.subject}/${n}`));
  });

  test("a day's digest is claimed by one store for each user; a failed one again after the retry wait, up to the tries allowed", async () => {
    const { store, open } = await fresh();
    const other = shared ? await open() : store;
    const [u, v] = [newUser(), newUser()];
    await store.users.create(u);
    await store.users.create(v);
    const t = (m: number) => new Date(Date.parse('2026-03-10T07:00:00Z') + m * 60_000).toISOString();
    const claim = (s: EntityStore, userId: string, m: number) => s.alerts.claimDigest('2026-03-10', userId, t(m), t(m - 10), 3);
    const races = await Promise.all([claim(store, u.id, 0), claim(other, u.id, 0), claim(store, u.id, 0), claim(other, v.id, 0)]);
    expect(races.slice(0, 3).filter(Boolean)).toHaveLength(1);
    expect(races[3]).toBe(true);
    await store.alerts.finishDigest('2026-03-10', v.id, 'sent', '250 OK', t(1));
    expect(await claim(store, v.id, 60)).toBe(false); // sent: never again that day
    await store.alerts.finishDigest('2026-03-10', u.id, 'failed', '550 Buzón no disponible', t(1));
    expect(await claim(other, u.id, 5)).toBe(false); // too soon
    expect(await claim(other, u.id, 10)).toBe(true);
    await store.alerts.finishDigest('2026-03-10', u.id, 'failed', '550', t(11));
    expect(await claim(store, u.id, 20)).toBe(true);
    await store.alerts.finishDigest('2026-03-10', u.id, 'failed', '550', t(21));
    expect(await claim(store, u.id, 60)).toBe(false); // 3 tries: no more
    const day = await store.alerts.digests('2026-03-10');
    expect(day.find((d) => d.user_id === u.id)).toMatchObject({
      status: 'failed',
      attempts: 3,
      detail: '550',
      claimed_at: t(20),
      finished_at: t(21),
    });
    expect(day.find((d) => d.user_id === v.id)).toMatchObject({ status: 'sent', attempts: 1, detail: '250 OK' });
    // Another day is another digest.
    expect(await store.alerts.claimDigest('2026-03-11', u.id, t(1440), t(1430), 3)).toBe(true);
    expect(await store.alerts.digests('2026-03-09')).toEqual([]);
  });
}
