// 'Historial de evaluación': every evaluation of a rule keeps, per campaign, why it acted or not —
// figures, threshold, the guard's words and the outcome — and GET /api/alerts/rules/{id}/evaluations
// reads it (by subject, since, outcome, in pages). Evaluations that say the same are one entry.
// Bad input is a Spanish 4xx {detail}.
//
// The history (UTC; A, B, C three days in a row, 20 days back): on A, 'lose' spends 50 and earns
// 10 (ROI −80 %), 'lose2' spends 40 and earns 10 (−75 %), 'ok' spends 5 and earns 10 (+100 %),
// 'small' spends 0,50 (under the rule's minimum of 1); on B nobody's spend is synced and 'unsynced'
// earns 10 there; on C the zone report is partial and 'partial' spends 50 there. The rule: ROI
// below 0 % over the last 60 hours (A to C at C's noon), pause on Meta, at most 1 action a day.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addDays, formatProfitFigure, type AlertEvaluationEntry, type Api } from '@adops/core';
import { failure, startTestServer, type TestServer } from './helpers.js';
import { activeCampaigns, ingestReport, loadCampaignDays, setSpend } from './campaign-history.js';

const MIN = 60_000;
const A = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
const B = addDays(A, 1);
const C = addDays(A, 2);
const noon = (day: string) => Date.parse(`${day}T12:00:00Z`);

let s: TestServer;
let admin: Api & { token: string };
const used = new Set<string>();

beforeAll(async () => {
  s = await startTestServer({ alerts: { everySeconds: 0, mailFrom: 'a@b.c', webhookAttempts: 1, webhookBackoffMs: 1, appUrl: null } });
  admin = await s.admin();
});
afterAll(() => s?.close());

const latestBySubject = (rows: readonly AlertEvaluationEntry[]) => {
  const out: Record<string, AlertEvaluationEntry> = {};
  for (const r of rows) out[r.subject] ??= r;
  return out;
};

describe('the evaluation log', () => {
  test('names each campaign’s outcome — acted, daily cap, not matched, too little spend, unsynced spend, estimated revenue — then standing, recovered', async () => {
    const [lose, lose2, ok, small, unsynced, partial] = activeCampaigns(s, 6, used);
    await loadCampaignDays(s, [
      { ad: lose, day: A, spend: 50, revenue: 10 },
      { ad: lose2, day: A, spend: 40, revenue: 10 },
      { ad: ok, day: A, spend: 5, revenue: 10 },
      { ad: small, day: A, spend: 0.5, revenue: 10 },
      { ad: unsynced, day: B, revenue: 10 },
      { ad: partial, day: C, spend: 50 },
    ]);
    await ingestReport(s, admin.token, C, `Z-${partial.campaign_id}-${C}`, 10, 'partial');
    const rule = await admin.alerts.createRule({
      name: 'Pierden dinero',
      kind: 'campaign_roi',
      params: { level: 'campaign', threshold: 0, hours: 60, min_spend: 1 },
      action: { mode: 'pause', daily_cap: 1, cooldown_minutes: 60 },
    });
    expect(await s.app.services.alerts.evaluate(noon(C))).toMatchObject({ errors: [] });

    const first = await admin.alerts.evaluations({ id: rule.id });
    expect(first.totals).toMatchObject({ last_evaluated_at: new Date(noon(C)).toISOString(), retention_days: 30, per_rule: 1000 });
    const by = latestBySubject(first.rows);
    expect(Object.fromEntries(Object.entries(by).map(([k, e]) => [k, e.outcome]))).toEqual({
      [lose.campaign_id]: 'acted',
      [lose2.campaign_id]: 'daily_cap',
      [ok.campaign_id]: 'not_matched',
      [small.campaign_id]: 'below_min_spend',
      [unsynced.campaign_id]: 'unsynced_spend',
      [partial.campaign_id]: 'estimated_revenue',
    });
    // What acted and what was held back come first.
    expect(first.rows.slice(0, 2).map((e) => e.outcome)).toEqual(['acted', 'daily_cap']);
    expect(by[lose.campaign_id]).toMatchObject({
      value: -80,
      threshold: 0,
      figures: { spend: 50, revenue: 10, profit: -40, roi: -80 },
      evaluations: 1,
    });
    expect(by[lose.campaign_id].guard).toBe('la campaña se ha pausado en Meta (acción de la regla)');
    expect(by[lose2.campaign_id].guard).toBe('límite diario de 1 acciones en act_1000000000001 alcanzado: no se pausa');
    expect(by[ok.campaign_id].reason).toContain('ROI 100,00% (umbral 0,00%: no está por debajo)');
    expect(by[small.campaign_id].reason).toContain(
      `gasto ${formatProfitFigure('spend', 0.5, 'USD')} por debajo del mínimo de ${formatProfitFigure('spend', 1, 'USD')}`,
    );
    expect(by[unsynced.campaign_id].reason).toContain(`gasto sin sincronizar el ${B.split('-').reverse().join('/')}`);
    expect(by[partial.campaign_id].reason).toContain(`revenue solo estimado el ${C.split('-').reverse().join('/')}`);

    // Ten minutes later nothing changed but the pause now stands: one more evaluation on the same entries, a new one for 'lose'.
    await s.app.services.alerts.evaluate(noon(C) + 10 * MIN);
    const second = latestBySubject((await admin.alerts.evaluations({ id: rule.id })).rows);
    expect(second[ok.campaign_id]).toMatchObject({ outcome: 'not_matched', evaluations: 2, first_at: new Date(noon(C)).toISOString() });
    expect(second[lose.campaign_id]).toMatchObject({ outcome: 'fired', evaluations: 1 });
    expect(second[lose.campaign_id].guard).toContain('sigue en pausa en Meta desde');

    // 'lose' earns more than it spent after all: its alert resolves — recovered.
    await setSpend(s, [{ ad: lose, day: A, spend: 5 }]);
    await s.app.services.alerts.evaluate(noon(C) + 20 * MIN);
    const third = await admin.alerts.evaluations({ id: rule.id, subject: lose.campaign_id });
    expect(third.rows.map((e) => e.outcome)).toEqual(['recovered', 'fired', 'acted']);
    expect(third.rows[0].reason).toContain('no está por debajo');

    // Filters and pages.
    expect((await admin.alerts.evaluations({ id: rule.id, outcome: 'daily_cap' })).rows.map((e) => e.subject)).toEqual([lose2.campaign_id]);
    const recent = await admin.alerts.evaluations({ id: rule.id, since: new Date(noon(C) + 15 * MIN).toISOString() });
    expect(recent.rows.every((e) => Date.parse(e.last_at) >= noon(C) + 15 * MIN)).toBe(true);
    expect(recent.total_rows).toBe(6);
    const paged = await admin.alerts.evaluations({ id: rule.id, page: 2, page_size: 3 });
    expect(paged).toMatchObject({ page: 2, page_size: 3, total_rows: first.total_rows + 2 });
    // A deleted rule takes its log with it.
    await admin.alerts.deleteRule({ id: rule.id });
    expect(await failure(admin.alerts.evaluations({ id: rule.id }))).toMatchObject({ status: 404, detail: 'Regla no encontrada' });
    expect((await s.app.services.store.alertEvaluations.list({ rule_id: rule.id }, 0, 10)).total).toBe(0);
  });

  test('a rule without an action: a re-fire within its cooldown reopens silently and says so', async () => {
    const day = addDays(A, 5);
    const [c] = activeCampaigns(s, 1, used);
    await loadCampaignDays(s, [{ ad: c, day, spend: 50, revenue: 10 }]);
    const rule = await admin.alerts.createRule({
      name: 'Aviso',
      kind: 'campaign_roi',
      cooldown_minutes: 60,
      params: { level: 'campaign', target: c.campaign_id, threshold: 0, hours: 36, min_spend: 1 },
    });
    const at = noon(addDays(day, 1));
    await s.app.services.alerts.evaluate(at);
    await setSpend(s, [{ ad: c, day, spend: 5 }]);
    await s.app.services.alerts.evaluate(at + 10 * MIN);
    await setSpend(s, [{ ad: c, day, spend: 50 }]);
    await s.app.services.alerts.evaluate(at + 20 * MIN);
    const rows = (await admin.alerts.evaluations({ id: rule.id })).rows;
    expect(rows.map((e) => [e.outcome, e.guard])).toEqual([
      ['cooldown', 'vuelve a cumplirse dentro de la espera entre avisos (60 min): se reabre sin aviso nuevo'],
      ['recovered', null],
      ['fired', null],
    ]);
    await admin.alerts.deleteRule({ id: rule.id });
  });

  test('missing, malformed, oversized and hostile input is a Spanish 4xx {detail}', async () => {
    const rule = await admin.alerts.createRule({ name: 'TQ', kind: 'tq_low', params: { scope: 'zone', threshold: 0.5, hours: 6 } });
    const get = (q: string, id = rule.id) =>
      s.fetch(`/api/alerts/rules/${encodeURIComponent(id)}/evaluations${q}`, { headers: { authorization: `Bearer ${admin.token}` } });
    const cases: Array<[string, number, RegExp, string?]> = [
      ['', 404, /Regla no encontrada/, 'no-existe'],
      ['?page_size=9999', 400, /como máximo 500/],
      ['?page=0', 400, /al menos 1/],
      ['?outcome=borrado', 400, /^Resultado: no es un resultado del historial \(claves: fired, acted/],
      ['?since=ayer', 400, /^Desde: debe ser una fecha AAAA-MM-DD o un instante ISO 8601$/],
      ['?since=2026-02-30', 400, /^Desde: debe ser una fecha AAAA-MM-DD o un instante ISO 8601$/],
      [`?subject=${'x'.repeat(201)}`, 400, /^Campaña u objeto: como mucho 200 caracteres/],
      ['?subject=%00%1b[2J', 400, /caracteres de control/],
      ["?subject=' OR 1=1 --", 200, /./],
      ['', 404, /Regla no encontrada/, "' OR 1=1 --"],
      ['', 400, /./, 'x'.repeat(65)],
    ];
    for (const [q, status, detail, id] of cases) {
      const res = await get(q, id);
      expect(res.status, `${id ?? ''}${q}`).toBe(status);
      const body = await res.json();
      if (status !== 200) expect(body.detail, q).toMatch(detail);
      else expect(body.rows).toEqual([]);
    }
    const anon = await s.fetch(`/api/alerts/rules/${rule.id}/evaluations`);
    expect(anon.status).toBe(401);
    await admin.alerts.deleteRule({ id: rule.id });
  });
});
