// The profit guard's part of the entity-store contract: action records (newest first, kept
// when their rule goes), a pause undone once (also when two stores race), the daily cap's
// counter per ad account and day (shared by every instance on a shared engine), and a rule's
// action stored with it; run by describeStoreContract on every engine.
import { expect, test } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { AlertActionRecord, EntityStore } from '../src/store/types.js';
import { alertRule } from './store-contract-alerts.js';

export const actionRecord = (over: Partial<AlertActionRecord> = {}): AlertActionRecord => ({
  id: randomUUID(),
  rule_id: 'rule-1',
  rule_name: 'Campañas que pierden',
  subject: '120200000000001',
  level: 'campaign',
  account: 'act_1',
  action: 'pause',
  trigger: 'rule',
  status: 'done',
  detail: null,
  reason: 'Campaña 120200000000001: ROI −80,0 % (umbral 0,0 %)',
  figures: { spend: 50, revenue: 10, profit: -40, roi: -80, cpc: 2.5, break_even_cpc: null },
  at: '2026-03-01T10:00:00.000Z',
  undone_at: null,
  undone_by: null,
  undone_by_rule: false,
  ...over,
});

type Fresh = () => Promise<{ store: EntityStore; open: () => Promise<EntityStore> }>;

export function describeAlertActionContract(fresh: Fresh, shared: boolean): void {
  test('records read back as stored, newest first, by rule, and outlive their rule', async () => {
    const { store, open } = await fresh();
    const rule = alertRule({ kind: 'campaign_roi', params: { level: 'campaign' } });
    await store.alerts.rules.create(rule);
    const a = actionRecord({ rule_id: rule.id });
    const b = actionRecord({ rule_id: rule.id, subject: '120200000000002', at: '2026-03-01T10:05:00.000Z', status: 'failed', detail: 'Sin permiso' });
    const c = actionRecord({ rule_id: 'other', at: '2026-03-01T10:01:00.000Z' });
    for (const x of [a, b, c]) await store.alertActions.create(x);
    await expect(store.alertActions.create(a)).rejects.toMatchObject({ field: 'id' });
    expect(await store.alertActions.list({}, 0, 10)).toEqual({ rows: [b, c, a], total: 3 });
    expect(await store.alertActions.list({ rule_id: rule.id }, 1, 1)).toEqual({ rows: [a], total: 2 });
    expect(await store.alertActions.byId(b.id)).toEqual(b);
    expect(await store.alertActions.latest(rule.id, a.subject)).toEqual(a);
    expect(await store.alertActions.latest(rule.id, 'nope')).toBeUndefined();
    expect(await store.alertActions.standing(rule.id)).toEqual([a]);
    await store.alerts.rules.remove(rule.id);
    expect((await (await open()).alertActions.list({ rule_id: rule.id }, 0, 10)).total).toBe(2);
  });

  test('a standing pause is undone once (two at once: one wins); failed ones and resumes are not; unmarking makes it stand again', async () => {
    const { store, open } = await fresh();
    const pause = actionRecord();
    await store.alertActions.create(pause);
    await store.alertActions.create(actionRecord({ id: 'failed', status: 'failed' }));
    await store.alertActions.create(actionRecord({ id: 'resume', action: 'resume', trigger: 'recovery' }));
    const other = shared ? await open() : store;
    const [x, y] = await Promise.all([
      store.alertActions.markUndone(pause.id, 'ana@example.com', '2026-03-01T11:00:00.000Z', false),
      other.alertActions.markUndone(pause.id, 'bea@example.com', '2026-03-01T11:00:00.000Z', false),
    ]);
    expect([x, y].filter(Boolean)).toHaveLength(1);
    expect((x ?? y)?.undone_at).toBe('2026-03-01T11:00:00.000Z');
    expect(await store.alertActions.standing(pause.rule_id)).toEqual([]);
    expect(await store.alertActions.markUndone('failed', 'a', '2026-03-01T11:00:00.000Z', false)).toBeUndefined();
    expect(await store.alertActions.markUndone('resume', 'a', '2026-03-01T11:00:00.000Z', false)).toBeUndefined();
    expect(await store.alertActions.markUndone('nope', 'a', '2026-03-01T11:00:00.000Z', false)).toBeUndefined();
    await store.alertActions.unmarkUndone(pause.id);
    expect(await store.alertActions.byId(pause.id)).toEqual(pause);
    expect(await store.alertActions.markUndone(pause.id, 'Regla «X» (reactivar)', '2026-03-01T12:00:00.000Z', true)).toMatchObject({
      undone_by: 'Regla «X» (reactivar)',
      undone_by_rule: true,
    });
  });

  test('the daily cap: at most `cap` slots per account and day, also when instances race; a returned slot can be taken again', async () => {
    const { store, open } = await fresh();
    const other = shared ? await open() : store;
    const takes = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? other : store).alertActions.takeSlot('act_1', '2026-03-01', 4)));
    expect(takes.filter(Boolean)).toHaveLength(4);
    expect(await store.alertActions.slotsUsed('act_1', '2026-03-01')).toBe(4);
    // Another day, another account: their own slots.
    expect(await store.alertActions.takeSlot('act_1', '2026-03-02', 4)).toBe(true);
    expect(await store.alertActions.takeSlot('act_2', '2026-03-01', 1)).toBe(true);
    expect(await store.alertActions.takeSlot('act_2', '2026-03-01', 1)).toBe(false);
    await store.alertActions.returnSlot('act_1', '2026-03-01');
    expect(await store.alertActions.slotsUsed('act_1', '2026-03-01')).toBe(3);
    expect(await other.alertActions.takeSlot('act_1', '2026-03-01', 4)).toBe(true);
    expect(await other.alertActions.takeSlot('act_1', '2026-03-01', 4)).toBe(false);
    // A lower cap than what was used: nothing more.
    expect(await store.alertActions.takeSlot('act_1', '2026-03-02', 1)).toBe(false);
    await store.alertActions.returnSlot('act_9', '2026-03-01');
    expect(await store.alertActions.slotsUsed('act_9', '2026-03-01')).toBe(0);
  });

  test("a rule's action is stored with it, changed and removed", async () => {
    const { store, open } = await fresh();
    const action = { mode: 'pause' as const, reactivate: true, cooldown_minutes: 30, daily_cap: 3 };
    const rule = alertRule({ kind: 'campaign_roi', params: { level: 'campaign' }, action });
    await store.alerts.rules.create(rule);
    expect((await (await open()).alerts.rules.byId(rule.id))?.action).toEqual(action);
    expect((await store.alerts.rules.update(rule.id, { name: 'Otra' }))?.action).toEqual(action);
    expect((await store.alerts.rules.update(rule.id, { action: { ...action, mode: 'notify' } }))?.action).toMatchObject({ mode: 'notify' });
    expect((await store.alerts.rules.update(rule.id, { action: null }))?.action ?? null).toBeNull();
    expect((await (await open()).alerts.rules.byId(rule.id))?.action ?? null).toBeNull();
  });

  test('hostile text in lookups finds nothing and breaks nothing', async () => {
    const { store } = await fresh();
    await store.alertActions.create(actionRecord());
    for (const probe of ["' OR 1=1 --", '%', '_', '*', '\u0000']) {
      expect(await store.alertActions.byId(probe)).toBeUndefined();
      expect(await store.alertActions.latest(probe, probe)).toBeUndefined();
      expect(await store.alertActions.standing(probe)).toEqual([]);
      expect(await store.alertActions.markUndone(probe, 'a', '2026-03-01T11:00:00.000Z', false)).toBeUndefined();
      expect((await store.alertActions.list({ rule_id: probe }, 0, 10)).total).toBe(0);
    }
  });
}
