// The evaluation log's part of the entity-store contract: consecutive evaluations that say the
// same of a subject are one entry (first and last instant, how many), a change starts a new one;
// read latest first with filters and pages; bounded by age and per rule (the oldest dropped), and
// gone with its rule. Run by describeStoreContract on every engine.
import { expect, test } from 'vitest';
import type { AlertEvaluationInput, EntityStore } from '../src/store/types.js';
import { alertRule } from './store-contract-alerts.js';

type Fresh = () => Promise<{ store: EntityStore; open: () => Promise<EntityStore> }>;

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const bounds = { keepSince: '2026-01-01T00:00:00.000Z', perRule: 100 };

const entry = (ruleId: string, over: Partial<AlertEvaluationInput> = {}): AlertEvaluationInput => ({
  rule_id: ruleId,
  subject: 'C-1',
  outcome: 'not_matched',
  value: 12.5,
  threshold: 0,
  figures: { spend: 40, revenue: 45, roi: 12.5, cpc: null },
  guard: null,
  reason: 'Campaña C-1: ROI 12,5 % (umbral 0,0 %: no está por debajo)',
  ...over,
});

export function describeAlertEvaluationContract(fresh: Fresh): void {
  test('evaluations saying the same of a subject are one entry; any change starts a new one; latest first', async () => {
    const { store, open } = await fresh();
    const rule = alertRule({ kind: 'campaign_roi' });
    await store.alerts.rules.create(rule);
    const log = store.alertEvaluations;
    await log.record(at(0), [entry(rule.id), entry(rule.id, { subject: 'C-2', outcome: 'below_min_spend' })], bounds);
    await log.record(at(1), [entry(rule.id), entry(rule.id, { subject: 'C-2', outcome: 'below_min_spend' })], bounds);
    await log.record(at(2), [entry(rule.id)], bounds);
    // C-1 loses now: a new entry, its guard's words kept.
    const acted = entry(rule.id, { outcome: 'acted', value: -80, figures: { spend: 50, revenue: 10, roi: -80, cpc: null }, guard: 'pausada' });
    await log.record(at(3), [acted], bounds);
    const { rows, total } = await (await open()).alertEvaluations.list({ rule_id: rule.id }, 0, 10);
    expect(total).toBe(3);
    expect(rows.map((r) => [r.subject, r.outcome, r.first_at, r.last_at, r.evaluations])).toEqual([
      ['C-1', 'acted', at(3), at(3), 1],
      ['C-1', 'not_matched', at(0), at(2), 3],
      ['C-2', 'below_min_spend', at(0), at(1), 2],
    ]);
    expect(rows[0]).toMatchObject({ ...acted, id: expect.any(String) });
    expect(await log.lastEvaluated(rule.id)).toBe(at(3));
    expect(await log.lastEvaluated('nope')).toBeNull();
    // Filters and pages.
    expect((await log.list({ rule_id: rule.id, subject: 'C-2' }, 0, 10)).rows.map((r) => r.outcome)).toEqual(['below_min_spend']);
    expect((await log.list({ rule_id: rule.id, outcome: 'acted' }, 0, 10)).total).toBe(1);
    expect((await log.list({ rule_id: rule.id, since: at(2) }, 0, 10)).rows.map((r) => r.outcome)).toEqual(['acted', 'not_matched']);
    expect(await log.list({ rule_id: rule.id }, 1, 1)).toMatchObject({ total: 3, rows: [{ outcome: 'not_matched' }] });
  });

  test('bounded: entries last seen before the retention go, each rule keeps its newest N, and a rule takes its entries along', async () => {
    const { store } = await fresh();
    const [a, b] = [alertRule(), alertRule()];
    for (const r of [a, b]) await store.alerts.rules.create(r);
    const log = store.alertEvaluations;
    await log.record(at(0), [entry(b.id, { subject: 'old' })], bounds);
    for (let i = 1; i <= 6; i++) await log.record(at(i), [entry(a.id, { subject: `Z-${i}` })], { ...bounds, perRule: 4 });
    expect((await log.list({ rule_id: a.id }, 0, 10)).rows.map((r) => r.subject)).toEqual(['Z-6', 'Z-5', 'Z-4', 'Z-3']);
    // The other rule's entry stays until the retention passes it.
    expect((await log.list({ rule_id: b.id }, 0, 10)).total).toBe(1);
    await log.record(at(7), [], { keepSince: at(1), perRule: 4 });
    expect((await log.list({ rule_id: b.id }, 0, 10)).total).toBe(0);
    await store.alerts.rules.remove(a.id);
    await log.removeRule(a.id);
    expect((await log.list({ rule_id: a.id }, 0, 10)).total).toBe(0);
  });
}
