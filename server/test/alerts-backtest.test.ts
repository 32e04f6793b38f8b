// 'Probar en el pasado' on issue 28's hand-built history (backtest-history.ts): the rule — ROI
// below 0 % over the last 24 h with at least 10 spent, pause on Meta, a 25-hour wait between
// actions, 1 action a day, reactivar — replayed at every hour of the last 14 days.
//
// Worked out. A 24-hour window at any hour of day X covers X−1 and X; X is still running (its
// report is not final), so every hour of X judges X−1 alone, and what a day's figures say is
// known from 00:00 the next day. N's ROI flips every day; L loses from D4.
//   D2 00:00  D1: both win                                         nothing
//   D3 00:00  D2: N −10 %                                          alert N, PAUSE N (D3's one action)
//   D4 00:00  D3: N +10 %: recovered, but its pause is 24 h old      N's alert resolves; held (wait: 25 h)
//   D4 01:00                                                        RESUME N (25 h after its pause)
//   D5 00:00  D4: L −50 %, N −10 % (the worst first)                 alerts L and N, PAUSE L (D5's one action);
//                                                                   N held by the wait (its resume was at D4 01:00)
//   D5 01:00                                                        N held by the wait
//   D5 02:00 … 23:00                                                N held by the daily cap (22 times)
//   D6 00:00  D5: N +10 % (not paused: nothing to resume)            N's alert resolves; L stays paused
//   D7 00:00  D6: N −10 %                                           alert N, PAUSE N
//   D8 00:00 held by the wait, 01:00 RESUME N;   D9 00:00 alert N, held at 00 and 01, 02:00 PAUSE N;
//   D10 00:00–02:00 held, 03:00 RESUME N;        D11 00:00 alert N, held 00–03, 04:00 PAUSE N;
//   D12 00:00 D11: nobody's spend synced (U's visits: unsynced spend), alerts L and N resolve;
//   today 00:00 D12: report partial (E: estimated revenue). N and L stay paused.
// So: 6 alerts, 5 pauses (N ×4, L), 3 resumes; held 13 times by the wait (1 + 2 + 1 + 2 + 3 + 4)
// and 22 by the cap; N flaps (paused 4 times), L does not.
// Money (each day's figures shared by hours):
//   L paused from D5 00:00 on: D5 … D10 whole, spend 6 × 20 = 120, revenue 6 × 10 = 60.
//   N: D3 whole + 1 h of D4, D7 whole + 1 h of D8, 22 h of D9 + 3 h of D10, then D11 on (no figures):
//     spend   20 + 20/24 + 20 + 20/24 + 20·22/24 + 20·3/24 = 62,50
//     revenue 22 + 18/24 + 22 + 18/24 + 22·22/24 + 18·3/24 = 67,916666…
//   spend avoided 182,50 · revenue forgone 127,92 · net 54,58.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatMoney, roundTo, type AlertBacktest, type Api } from '@adops/core';
import { failure, startTestServer, zoneReportRow, type TestServer } from './helpers.js';
import { event, importRows } from './warehouse-contract.js';
import { at, BACKTEST_RULE, D, loadBacktestHistory, TODAY, type BacktestHistory } from './backtest-history.js';

let s: TestServer;
let admin: Api & { token: string };
let h: BacktestHistory;
let ruleId: string;
const sandbox = () => s.app.services.campaigns.providers.metaSandbox!;

beforeAll(async () => {
  s = await startTestServer({ alerts: { everySeconds: 0, mailFrom: 'a@b.c', webhookAttempts: 1, webhookBackoffMs: 1, appUrl: null } });
  admin = await s.admin();
  h = await loadBacktestHistory(s, admin.token);
  ruleId = (await admin.alerts.createRule(BACKTEST_RULE)).id;
});
afterAll(() => s?.close());

/** A backtest, proving it asked Meta nothing and stored nothing. */
async function replay(call: () => Promise<AlertBacktest>): Promise<AlertBacktest> {
  const [requests, changes, stored, actions] = [
    sandbox().requests.length,
    sandbox().statusChanges.length,
    await s.storedEntities(),
    (await admin.alerts.actions({})).total_rows,
  ];
  const answer = await call();
  expect(sandbox().requests.length, 'Meta was called').toBe(requests);
  expect(sandbox().statusChanges.length).toBe(changes);
  expect(await s.storedEntities()).toBe(stored);
  expect((await admin.alerts.actions({})).total_rows).toBe(actions);
  return answer;
}

describe('the backtest of a saved rule on the hand-built history', () => {
  let b: AlertBacktest;
  beforeAll(async () => {
    b = await replay(() => admin.alerts.backtestRule({ id: ruleId, days: 14 }));
  });

  test('replays every hour of the last 14 days, from 00:00 fourteen days ago', () => {
    expect(b.from).toBe(new Date(`${D(-1)}T00:00:00Z`).toISOString());
    // Every whole hour up to the last one before the call.
    expect(b.evaluations).toBe((Date.parse(b.to) - Date.parse(b.from)) / 3_600_000 + 1);
    expect(Date.now() - Date.parse(b.to)).toBeLessThan(3_600_000 + 60_000);
    expect(b.evaluations).toBeGreaterThan(14 * 24);
    expect(b.rule).toMatchObject({ id: ruleId, name: 'Pierden dinero', kind: 'campaign_roi' });
    expect(b.currency).toBe('USD');
  });

  test('pauses at the right hour, waits its 25 hours, stops at the daily cap and reactivates', () => {
    const { L, N } = h;
    const name = (x: typeof L) => x.campaign_id;
    expect(b.actions.map((a) => [a.at, a.action, a.subject])).toEqual([
      [at(3), 'alert', name(N)],
      [at(3), 'pause', name(N)],
      [at(4, 1), 'resume', name(N)],
      [at(5), 'alert', name(L)],
      [at(5), 'alert', name(N)],
      [at(5), 'pause', name(L)],
      [at(7), 'alert', name(N)],
      [at(7), 'pause', name(N)],
      [at(8, 1), 'resume', name(N)],
      [at(9), 'alert', name(N)],
      [at(9, 2), 'pause', name(N)],
      [at(10, 3), 'resume', name(N)],
      [at(11), 'alert', name(N)],
      [at(11, 4), 'pause', name(N)],
    ]);
    const pauseL = b.actions.find((a) => a.action === 'pause' && a.subject === L.campaign_id)!;
    expect(pauseL).toMatchObject({ level: 'campaign', name: L.campaign_name, figures: { spend: 20, revenue: 10, profit: -10, roi: -50 } });
    expect(pauseL.reason).toContain(`ROI -50,00% (umbral 0,00%), gasto ${formatMoney(20, 'USD')}, revenue ${formatMoney(10, 'USD')}`);
    expect(b.actions.find((a) => a.action === 'resume')?.reason).toMatch(/^ROI recuperado: 10,00% \(umbral 0,00%\)/);
    // A replay says what would have happened: nothing was paused on Meta.
    const said = b.actions.map((a) => a.reason).join('\n');
    expect(said).not.toMatch(/se ha (pausado|reactivado) en Meta/);
    expect(b.actions.filter((a) => a.action === 'alert').some((a) => a.reason.includes('se habría pausado en Meta'))).toBe(true);
    expect(b.summary).toMatchObject({ alerts: 6, pauses: 5, resumes: 3, held: { cooldown: 13, daily_cap: 22 } });
  });

  test('spend avoided and revenue forgone to the cent, and the noisy campaign flagged as flapping', () => {
    expect(roundTo(b.summary.spend_avoided, 2)).toBe(182.5);
    expect(roundTo(b.summary.revenue_forgone, 2)).toBe(127.92);
    expect(roundTo(b.summary.net, 2)).toBe(54.58);
    expect(b.summary.flapping).toEqual([{ subject: h.N.campaign_id, name: h.N.campaign_name, offs: 4, ons: 3 }]);
  });

  test("the chart has each campaign's daily profit and the hours it would have been paused", () => {
    const day = (subject: string, k: number) => b.daily.find((x) => x.subject === subject && x.date === D(k));
    expect(day(h.L.campaign_id, 4)).toEqual({ date: D(4), subject: h.L.campaign_id, spend: 20, revenue: 10, profit: -10, paused_hours: 0 });
    expect(day(h.L.campaign_id, 5)).toMatchObject({ profit: -10, paused_hours: 24 });
    expect(day(h.N.campaign_id, 4)).toMatchObject({ profit: -2, paused_hours: 1 });
    expect(day(h.N.campaign_id, 9)).toMatchObject({ profit: 2, paused_hours: 22 });
    expect(day(h.N.campaign_id, 11)).toMatchObject({ spend: 0, revenue: 0, paused_hours: 20 });
    expect(new Set(b.daily.map((x) => x.subject))).toEqual(new Set([h.L.campaign_id, h.N.campaign_id]));
    // Fourteen days ago to today.
    expect(b.daily.filter((x) => x.subject === h.L.campaign_id).map((x) => x.date)).toEqual(Array.from({ length: 15 }, (_, i) => D(i - 1)));
    expect(D(13)).toBe(TODAY);
  });

  test('the notes say where today’s data differs from what was known then', () => {
    expect(b.notes.join('\n')).toContain(`Días sin gasto sincronizado hoy (la regla nunca los cuenta):`);
    expect(b.notes.find((n) => n.startsWith('Días sin gasto'))).toContain(D(11).split('-').reverse().join('/'));
    expect(b.notes.find((n) => n.startsWith('Días con el informe aún parcial'))).toContain(D(12).split('-').reverse().join('/'));
    expect(b.notes.join('\n')).toContain('Meta no se consulta');
  });
});

describe('the evaluation log on the same history', () => {
  test('names the outcome for each campaign, including unsynced spend and estimated revenue', async () => {
    // The last 5 days at 00:30 today: D8 … D10 closed (L −50 %, N −3,33 %), D11 without synced
    // spend (U's only day), D12 with a partial report (E's only day).
    const rule = await admin.alerts.createRule({
      name: 'Cinco días',
      kind: 'campaign_roi',
      params: { level: 'campaign', threshold: 0, hours: 120, min_spend: 10 },
    });
    await s.app.services.alerts.evaluate(Date.parse(`${TODAY}T00:30:00Z`));
    const log = await admin.alerts.evaluations({ id: rule.id });
    expect(Object.fromEntries(log.rows.map((e) => [e.subject, e.outcome]))).toEqual({
      [h.L.campaign_id]: 'fired',
      [h.N.campaign_id]: 'fired',
      [h.U.campaign_id]: 'unsynced_spend',
      [h.E.campaign_id]: 'estimated_revenue',
    });
    expect(log.rows.find((e) => e.subject === h.N.campaign_id)?.figures).toMatchObject({ spend: 60, revenue: 58 });
    await admin.alerts.deleteRule({ id: rule.id });
  });
});

describe('other kinds replay too, on the stored zone reports and events', () => {
  test('a zone whose TQ fell on two days alerts on each, once its day is alone in the 6-hour window', async () => {
    // Z-TQ's reports (equal impressions): TQ 0,20 on D3 and D6, 0,90 on the other days; the rule:
    // TQ below 0,50 over 6 h. From 00:00 to 05:00 the window holds the day before too (0,55: not
    // below); from 06:00 the low day alone fires, and the next 00:00 it resolves.
    await importRows(
      s.app.services.warehouse,
      [1, 2, 3, 4, 5, 6, 7].map((k) => zoneReportRow(D(k), 'Z-TQ', { tq: k === 3 || k === 6 ? 0.2 : 0.9 })),
    );
    const b = await replay(() =>
      admin.alerts.backtest({ kind: 'tq_low', params: { scope: 'zone', target: 'Z-TQ', threshold: 0.5, hours: 6 }, days: 14 }),
    );
    expect(b.actions.map((a) => [a.action, a.at, a.subject, a.level])).toEqual([
      ['alert', at(3, 6), 'Z-TQ', 'zone'],
      ['alert', at(6, 6), 'Z-TQ', 'zone'],
    ]);
    expect(b.summary).toMatchObject({ alerts: 2, pauses: 0, spend_avoided: 0, flapping: [{ subject: 'Z-TQ', offs: 2, ons: 2 }] });
    expect(b.daily).toEqual([]);
    expect(b.notes).toEqual([
      'Los informes de zona de cada día tal como están guardados hoy (los que llegaron tarde o se reimportaron, con sus cifras de hoy).',
    ]);
  });

  test('a referrer burst is seen at the whole hour whose window holds it; one between two hours is not (the notes say so)', async () => {
    const burst = (start: number, n: number, host: string) =>
      Array.from({ length: n }, (_, i) => event(5_000_000 + start / 1000 + i, start + i * 1000, { zone_id: 'Z-B', parent_domain: host }));
    await s.app.services.warehouse.referrers.append([
      ...burst(Date.parse(at(4, 11)) - 5 * 60_000, 30, 'caught.example'),
      ...burst(Date.parse(at(4, 14)) + 20 * 60_000, 30, 'missed.example'),
    ]);
    const b = await replay(() => admin.alerts.backtest({ kind: 'referrer_burst', params: { visits: 20, minutes: 10 }, days: 14 }));
    expect(b.actions.map((a) => [a.at, a.subject, a.level, a.figures.visits])).toEqual([[at(4, 11), 'caught.example', 'referrer', 30]]);
    expect(b.notes[0]).toContain('un pico entre dos horas');
  });
});

describe('backtests that do nothing, unsaved rules and bad input', () => {
  test('a guard never met gives no action', async () => {
    const never = await replay(() => admin.alerts.backtest({ ...BACKTEST_RULE, params: { ...BACKTEST_RULE.params, min_spend: 1000 }, days: 14 }));
    expect(never.actions).toEqual([]);
    expect(never.summary).toMatchObject({ alerts: 0, pauses: 0, resumes: 0, spend_avoided: 0, revenue_forgone: 0, net: 0, flapping: [] });
    expect(never.rule).toMatchObject({ id: null, name: 'Pierden dinero' });
  });

  test("an unsaved rule answers what the saved one does; notify only would alert but never pause (and N's alerts flap)", async () => {
    const saved = await admin.alerts.backtestRule({ id: ruleId, days: 14 });
    const unsaved = await replay(() => admin.alerts.backtest({ ...BACKTEST_RULE, days: 14 }));
    expect({ ...unsaved, rule: null, to: null, evaluations: null }).toEqual({ ...saved, rule: null, to: null, evaluations: null });
    const notify = await admin.alerts.backtest({ ...BACKTEST_RULE, action: { mode: 'notify' }, days: 14 });
    expect(notify.actions.map((a) => a.action)).toEqual(Array(6).fill('alert'));
    expect(notify.summary).toMatchObject({ pauses: 0, spend_avoided: 0, flapping: [{ subject: h.N.campaign_id, offs: 5, ons: 5 }] });
    // Staff may replay any rule: nothing is stored and Meta is never called.
    await admin.admin.createUser({ first_name: 'Ana', last_name: 'G', email: 'ana@example.com', password: 'una-clave-larga-1' });
    const ana = await s.as('ana@example.com', 'una-clave-larga-1');
    expect((await replay(() => ana.alerts.backtestRule({ id: ruleId, days: 7 }))).days).toBe(7);
  });

  test('missing, malformed, oversized and hostile input is a Spanish 4xx {detail}, nothing stored', async () => {
    const post = (path: string, body: string) =>
      s.fetch(path, { method: 'POST', headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' }, body });
    const rule = JSON.stringify(BACKTEST_RULE);
    const cases: Array<[string, string, number, RegExp]> = [
      [`/api/alerts/rules/${ruleId}/backtest`, '{"days":10}', 400, /^Días: debe ser 7, 14 o 30$/],
      [`/api/alerts/rules/${ruleId}/backtest`, '{"days":"14"}', 400, /^Días: debe ser 7, 14 o 30$/],
      [`/api/alerts/rules/${ruleId}/backtest`, '{"days":14,"extra":1}', 400, /./],
      [`/api/alerts/rules/${ruleId}/backtest`, '{"days":', 400, /JSON mal formado/],
      ['/api/alerts/rules/no-existe/backtest', '{"days":7}', 404, /Regla no encontrada/],
      [`/api/alerts/rules/${encodeURIComponent("' OR 1=1 --")}/backtest`, '{}', 404, /Regla no encontrada/],
      [`/api/alerts/rules/${'x'.repeat(65)}/backtest`, '{}', 400, /./],
      ['/api/alerts/backtest', '{}', 400, /^Tipo: debe ser tq_low, revenue_drop/],
      ['/api/alerts/backtest', JSON.stringify({ ...BACKTEST_RULE, params: { level: 'campaign' } }), 400, /horas/i],
      [
        '/api/alerts/backtest',
        JSON.stringify({ ...BACKTEST_RULE, kind: 'tq_low', params: { scope: 'zone', threshold: 0.5, hours: 6 } }),
        400,
        /solo se puede añadir a reglas de campaña/,
      ],
      [
        '/api/alerts/backtest',
        JSON.stringify({ ...BACKTEST_RULE, params: { ...BACKTEST_RULE.params, target: '\u0007x' } }),
        400,
        /caracteres de control/,
      ],
      [
        '/api/alerts/backtest',
        JSON.stringify({ ...BACKTEST_RULE, params: { ...BACKTEST_RULE.params, target: 'x'.repeat(201) } }),
        400,
        /200 caracteres/,
      ],
      ['/api/alerts/backtest', JSON.stringify({ ...BACKTEST_RULE, name: 'x'.repeat(121) }), 400, /120 caracteres/],
      ['/api/alerts/backtest', JSON.stringify({ ...BACKTEST_RULE, action: { mode: 'pause', daily_cap: 0 } }), 400, /al menos 1/],
      ['/api/alerts/backtest', `${rule.slice(0, -1)},"days":3650}`, 400, /^Días: debe ser 7, 14 o 30$/],
      ['/api/alerts/backtest', JSON.stringify({ ...BACKTEST_RULE, padding: 'x'.repeat(2_000_000) }), 413, /demasiado grande/],
    ];
    const before = await s.storedEntities();
    for (const [path, body, status, detail] of cases) {
      const res = await post(path, body);
      expect(res.status, `${path} ${body.slice(0, 80)}`).toBe(status);
      expect((await res.json()).detail, `${path} ${body.slice(0, 80)}`).toMatch(detail);
    }
    expect(await s.storedEntities()).toBe(before);
    expect(await failure(s.anon.alerts.backtestRule({ id: ruleId, days: 7 }))).toMatchObject({ status: 401 });
  });
});
