// The guards buyers ask for, live on the Meta sandbox and in a backtest: minimum Meta clicks or
// visits before a campaign is judged at all; an action only once the condition held N evaluations
// in a row (a break starts the count again); a 'hold' pause the rule resumes by itself after the
// chosen minutes (within the daily cap; its wait then counts from that resume). Bad values are a
// Spanish 400 {detail}, nothing stored. Each test has its own day, 30 … 40 days back.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addDays, alertRuleActionText, alertRuleCondition, roundTo, type Api } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';
import { activeCampaigns, loadCampaignDays, setSpend } from './campaign-history.js';
import { at, BACKTEST_RULE, loadBacktestHistory } from './backtest-history.js';

const MIN = 60_000;
const BASE = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
const noon = (day: string) => Date.parse(`${day}T12:00:00Z`);

let s: TestServer;
let admin: Api & { token: string };
const used = new Set<string>();
const sandbox = () => s.app.services.campaigns.providers.metaSandbox!;
const changesOf = (id: string) =>
  sandbox()
    .statusChanges.filter((c) => c.id === id)
    .map((c) => c.to);
const evaluate = (ms: number) => s.app.services.alerts.evaluate(ms);
const latestOutcome = async (ruleId: string, subject: string) => (await admin.alerts.evaluations({ id: ruleId, subject })).rows[0];

beforeAll(async () => {
  s = await startTestServer({ alerts: { everySeconds: 0, mailFrom: 'a@b.c', webhookAttempts: 1, webhookBackoffMs: 1, appUrl: null } });
  admin = await s.admin();
});
afterAll(() => s?.close());

describe('live, on the sandbox', () => {
  test('minimum Meta clicks or visits: under them a losing campaign is not judged; with enough it is', async () => {
    const day = BASE;
    const [c] = activeCampaigns(s, 1, used);
    // ROI −80 % on 10 visits and 20 Meta clicks.
    await loadCampaignDays(s, [{ ad: c, day, spend: 50, revenue: 10 }]);
    const params = { level: 'campaign', target: c.campaign_id, threshold: 0, hours: 36, min_spend: 1 } as const;
    const strict = await admin.alerts.createRule({ name: 'Con datos', kind: 'campaign_roi', params: { ...params, min_clicks: 50, min_visits: 20 } });
    expect(alertRuleCondition(strict)).toContain('≥ 50 clics de Meta y ≥ 20 visitas');
    const loose = await admin.alerts.createRule({
      name: 'Con pocos datos',
      kind: 'campaign_roi',
      params: { ...params, min_clicks: 20, min_visits: 10 },
    });
    await evaluate(noon(addDays(day, 1)));
    const said = await latestOutcome(strict.id, c.campaign_id);
    expect(said).toMatchObject({ outcome: 'below_min_spend', figures: { meta_clicks: 20, visits: 10 } });
    expect(said.reason).toContain('20 clics de Meta (mínimo 50) y 10 visitas (mínimo 20)');
    expect((await latestOutcome(loose.id, c.campaign_id)).outcome).toBe('fired');
    const alerts = (await admin.alerts.list({ state: 'all' })).rows;
    expect(alerts.filter((a) => a.rule_id === strict.id)).toEqual([]);
    expect(alerts.filter((a) => a.rule_id === loose.id)).toHaveLength(1);
    for (const r of [strict, loose]) await admin.alerts.deleteRule({ id: r.id });
  });

  test('an action only after N evaluations in a row: held before, a break starts over, then it pauses', async () => {
    const day = addDays(BASE, 3);
    const [c] = activeCampaigns(s, 1, used);
    await loadCampaignDays(s, [{ ad: c, day, spend: 50, revenue: 10 }]);
    const rule = await admin.alerts.createRule({
      name: 'Tres seguidas',
      kind: 'campaign_roi',
      params: { level: 'campaign', target: c.campaign_id, threshold: 0, hours: 36, min_spend: 1 },
      action: { mode: 'pause', confirm_evaluations: 3, cooldown_minutes: 0 },
    });
    expect(alertRuleActionText(rule.action)).toContain('tras 3 evaluaciones seguidas');
    const t = noon(addDays(day, 1));
    await evaluate(t);
    expect(await latestOutcome(rule.id, c.campaign_id)).toMatchObject({
      outcome: 'cooldown',
      guard: 'se cumple en 1 evaluaciones seguidas de las 3 que pide la regla antes de actuar',
    });
    await evaluate(t + MIN);
    // A break: its spend corrected (ROI +100 %), then back to losing — the count starts over.
    await setSpend(s, [{ ad: c, day, spend: 5 }]);
    await evaluate(t + 2 * MIN);
    await setSpend(s, [{ ad: c, day, spend: 50 }]);
    await evaluate(t + 3 * MIN);
    await evaluate(t + 4 * MIN);
    expect(changesOf(c.campaign_id)).toEqual([]);
    expect((await latestOutcome(rule.id, c.campaign_id)).guard).toContain('se cumple en 2 evaluaciones seguidas de las 3');
    await evaluate(t + 5 * MIN);
    expect(changesOf(c.campaign_id)).toEqual(['PAUSED']);
    expect((await latestOutcome(rule.id, c.campaign_id)).outcome).toBe('acted');
    await admin.alerts.deleteRule({ id: rule.id });
  });

  test("a 'hold' pause resumes by itself after its minutes, and the rule waits its cooldown from that resume", async () => {
    const day = addDays(BASE, 6);
    const [c] = activeCampaigns(s, 1, used);
    await loadCampaignDays(s, [{ ad: c, day, spend: 50, revenue: 10 }]);
    const rule = await admin.alerts.createRule({
      name: 'Pausa de media hora',
      kind: 'campaign_roi',
      params: { level: 'campaign', target: c.campaign_id, threshold: 0, hours: 36, min_spend: 1 },
      action: { mode: 'pause', hold_minutes: 30, cooldown_minutes: 60 },
    });
    expect(alertRuleActionText(rule.action)).toContain('pausa temporal de 30 min');
    const t = noon(addDays(day, 1));
    await evaluate(t);
    await evaluate(t + 29 * MIN);
    expect(changesOf(c.campaign_id)).toEqual(['PAUSED']);
    await evaluate(t + 30 * MIN);
    expect(changesOf(c.campaign_id)).toEqual(['PAUSED', 'ACTIVE']);
    const [resume, pause] = (await admin.alerts.actions({ rule_id: rule.id })).rows;
    expect(resume).toMatchObject({
      action: 'resume',
      trigger: 'hold',
      status: 'done',
      reason: expect.stringContaining('Fin de la pausa temporal de 30 min'),
    });
    expect(pause).toMatchObject({ action: 'pause', undone_by: 'Regla «Pausa de media hora» (pausa temporal)', undoable: false });
    // Still losing: not paused again within the hour after the resume, then paused.
    await evaluate(t + 89 * MIN);
    expect(changesOf(c.campaign_id)).toEqual(['PAUSED', 'ACTIVE']);
    await evaluate(t + 90 * MIN);
    expect(changesOf(c.campaign_id)).toEqual(['PAUSED', 'ACTIVE', 'PAUSED']);
    await admin.alerts.deleteRule({ id: rule.id });
  });
});

test("in a backtest a 'hold' pause shows what it would have cost and flags the campaign it toggles", async () => {
  // On issue 28's history, L alone (losing from D4): paused 6 hours at a time, then a day's wait.
  // D5 00–06, D6 06–12, D7 12–18, D8 18–24, D10 00–06, D11 06–12 (L spends nothing on D11 and
  // is no longer losing on D12): 5 × 6/24 × 20 = 25 avoided, 5 × 6/24 × 10 = 12,50 forgone.
  const h = await loadBacktestHistory(s, admin.token);
  const sent = sandbox().requests.length;
  const b = await admin.alerts.backtest({
    ...BACKTEST_RULE,
    params: { ...BACKTEST_RULE.params, target: h.L.campaign_id },
    action: { mode: 'pause', hold_minutes: 360, cooldown_minutes: 24 * 60, daily_cap: 5 },
    days: 14,
  });
  expect(sandbox().requests.length).toBe(sent);
  expect(b.actions.filter((a) => a.action !== 'alert').map((a) => [a.action, a.at])).toEqual([
    ['pause', at(5)],
    ['resume', at(5, 6)],
    ['pause', at(6, 6)],
    ['resume', at(6, 12)],
    ['pause', at(7, 12)],
    ['resume', at(7, 18)],
    ['pause', at(8, 18)],
    ['resume', at(9)],
    ['pause', at(10)],
    ['resume', at(10, 6)],
    ['pause', at(11, 6)],
    ['resume', at(11, 12)],
  ]);
  expect(roundTo(b.summary.spend_avoided, 2)).toBe(25);
  expect(roundTo(b.summary.revenue_forgone, 2)).toBe(12.5);
  expect(b.summary.flapping).toEqual([{ subject: h.L.campaign_id, name: h.L.campaign_name, offs: 6, ons: 6 }]);
});

test('bad guard values are a Spanish 400 {detail}, nothing stored', async () => {
  const params = { level: 'campaign', threshold: 0, hours: 24 };
  const bodies: Array<[unknown, RegExp]> = [
    [{ params: { ...params, min_clicks: -1 } }, /^Clics mínimos en Meta: debe ser al menos 0$/],
    [{ params: { ...params, min_visits: 2.5 } }, /^Visitas mínimas: debe ser un número entero$/],
    [{ params: { ...params, min_visits: '10' } }, /^Visitas mínimas: debe ser un número/],
    [{ params, action: { mode: 'pause', confirm_evaluations: 0 } }, /^Evaluaciones seguidas antes de actuar: debe ser al menos 1$/],
    [{ params, action: { mode: 'pause', confirm_evaluations: 1e9 } }, /^Evaluaciones seguidas antes de actuar: debe ser como máximo/],
    [{ params, action: { mode: 'pause', hold_minutes: 0 } }, /^Pausa temporal \(min\): debe ser al menos 1$/],
    [{ params, action: { mode: 'pause', hold_minutes: 'una hora' } }, /^Pausa temporal \(min\): debe ser un número/],
  ];
  const before = await s.storedEntities();
  for (const path of ['/api/alerts/rules', '/api/alerts/backtest'])
    for (const [body, detail] of bodies) {
      const res = await s.fetch(path, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x', kind: 'campaign_roi', ...(body as object) }),
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).detail, JSON.stringify(body)).toMatch(detail);
    }
  expect(await s.storedEntities()).toBe(before);
});
