// The profit guard against the Meta sandbox (the real client, the sandbox records every status
// change): a campaign rule with a pause action pauses a losing campaign once, stops at the
// daily cap of the ad account (a new ADOPS_TZ day has a new one), writes a record and an audit
// entry with the rule, why and the figures, and an admin undoes it (resumed on Meta, audited;
// the rule leaves it alone while that alert stays open). Notify-only says what it would pause;
// a failed pause is recorded and retried only after the cooldown; 'reactivar' resumes once the
// ROI recovers. Decisions wait for matured data: no pause on a day whose report is partial (until
// it is final), estimates only for a rule that opts in (and named), no recovery on revenue of a
// day whose spend is not synced. Who may set actions. Each test has its own days, so their daily
// caps are apart.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addDays, formatDateDMY, jsonNumber, type AlertAction, type Api } from '@adops/core';
import { startTestServer, failure, zoneReportRow, type TestServer } from './helpers.js';
import { event, importRows } from './warehouse-contract.js';
import type { SandboxAd } from '../src/sandbox/meta/index.js';
import type { AdSpendRecord } from '../src/warehouse/index.js';

const MIN = 60_000;
// Each test's day: far enough back that the tests' days never meet, inside the events' retention.
const BASE = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
const noon = (day: string) => Date.parse(`${day}T12:00:00Z`);

let s: TestServer;
let admin: Api & { token: string };
let ana: Api & { token: string };
let nextId = 1;
let zoneNo = 0;

const sandbox = () => s.app.services.campaigns.providers.metaSandbox!;
const evaluate = (at: number) => s.app.services.alerts.evaluate(at);
const pausesOf = (id: string) => sandbox().statusChanges.filter((c) => c.id === id && c.to === 'PAUSED');
const changesOf = (id: string) => sandbox().statusChanges.filter((c) => c.id === id);

/** `n` active sandbox campaigns (one ad of each) no earlier test used. */
const used = new Set<string>();
function activeCampaigns(n: number): SandboxAd[] {
  const out: SandboxAd[] = [];
  for (const ad of sandbox().ads()) {
    if (out.length === n) break;
    if (used.has(ad.campaign_id) || sandbox().objects.get(ad.campaign_id)?.status !== 'ACTIVE') continue;
    used.add(ad.campaign_id);
    out.push(ad);
  }
  if (out.length < n) throw new Error('the sandbox has too few active campaigns');
  return out;
}

const zoneRow = (date: string, zone_id: string, revenue: number) => zoneReportRow(date, zone_id, { revenue });

/**
 * On `day`, each campaign earns 10 (10 human visits at a zone's revenue per visit of 1.00)
 * and spends its amount: spend 50 is ROI −80 %, spend 5 is +100 %.
 */
async function money(day: string, spends: Array<[SandboxAd, number]>): Promise<void> {
  const w = s.app.services.warehouse;
  const zone = `Z-GUARD-${++zoneNo}`;
  await importRows(w, [zoneRow(day, zone, 10 * spends.length)]);
  await w.referrers.append(
    spends.flatMap(([ad]) =>
      Array.from({ length: 10 }, (_, i) =>
        event(nextId++, noon(day) - 60 * MIN + i * 1000, { zone_id: zone, campaign_id: ad.campaign_id, adset_id: ad.adset_id, ad_id: ad.ad_id }),
      ),
    ),
  );
  await spend(day, spends);
}

const spend = (day: string, spends: Array<[SandboxAd, number]>) =>
  s.app.services.warehouse.spend.upsert(
    spends.map(
      ([ad, amount]): AdSpendRecord => ({
        date: day,
        account_id: 'act_1000000000001',
        campaign_id: ad.campaign_id,
        adset_id: ad.adset_id,
        ad_id: ad.ad_id,
        campaign_name: ad.campaign_name,
        adset_name: 'Conjunto',
        ad_name: 'Anuncio',
        spend: amount,
        impressions: 1000,
        clicks: 20,
        currency: 'USD',
      }),
    ),
  );

const roiRule = (name: string, action: Record<string, unknown>) =>
  admin.alerts.createRule({
    name,
    kind: 'campaign_roi',
    params: { level: 'campaign', metric: 'roi', threshold: 0, hours: 6, min_spend: 1 },
    action,
  });

const actionsOf = async (ruleId: string): Promise<AlertAction[]> => (await admin.alerts.actions({ rule_id: ruleId })).rows;
const alertOf = async (ruleId: string, subject: string) =>
  (await admin.alerts.list({ rule_id: ruleId, state: 'all' })).rows.find((a) => a.subject === subject);

beforeAll(async () => {
  s = await startTestServer({ alerts: { everySeconds: 0, mailFrom: 'a@b.c', webhookAttempts: 1, webhookBackoffMs: 1, appUrl: null } });
  admin = await s.admin();
  await admin.admin.createUser({ first_name: 'Ana', last_name: 'Gómez', email: 'ana@example.com', password: 'una-clave-larga-1' });
  ana = await s.as('ana@example.com', 'una-clave-larga-1');
});
afterAll(() => s?.close());

describe('the guard on a losing sandbox campaign', () => {
  test('pauses it once, respects the daily cap, is audited, and an admin undoes it', async () => {
    const day = BASE;
    const [worst, bad, third] = activeCampaigns(3);
    // ROI −90 %, −80 %, −75 %: the worst first.
    await money(day, [
      [worst, 100],
      [bad, 50],
      [third, 40],
    ]);
    const r = await roiRule('Guardia', { mode: 'pause', daily_cap: 2, cooldown_minutes: 60 });
    expect(r.action).toEqual({ mode: 'pause', daily_cap: 2, cooldown_minutes: 60, reactivate: false, confirm_evaluations: 1, hold_minutes: null });

    expect(await evaluate(noon(day))).toMatchObject({ fired: 3, errors: [] });
    // The cap: two pauses on the ad account today; the third is only told.
    expect(pausesOf(worst.campaign_id)).toHaveLength(1);
    expect(pausesOf(bad.campaign_id)).toHaveLength(1);
    expect(pausesOf(third.campaign_id)).toHaveLength(0);
    expect(sandbox().objects.get(worst.campaign_id)?.status).toBe('PAUSED');
    expect((await alertOf(r.id, worst.campaign_id))?.message).toContain('se ha pausado en Meta');
    expect((await alertOf(r.id, third.campaign_id))?.message).toContain('límite diario de 2 acciones en act_1000000000001 alcanzado');

    const list = await admin.alerts.actions({ rule_id: r.id });
    expect(list.totals).toMatchObject({ account: 'act_1000000000001' });
    expect(list.rows.map((a) => [a.subject, a.action, a.status, a.undoable])).toEqual([
      [bad.campaign_id, 'pause', 'done', true],
      [worst.campaign_id, 'pause', 'done', true],
    ]);
    const paused = list.rows.find((a) => a.subject === worst.campaign_id)!;
    expect(paused).toMatchObject({ rule_name: 'Guardia', level: 'campaign', trigger: 'rule', detail: null, at: new Date(noon(day)).toISOString() });
    expect(paused.figures).toMatchObject({ spend: 100, revenue: 10 });
    expect(paused.figures.roi).toBeCloseTo(-90, 6);
    expect(paused.reason).toContain(worst.campaign_id);

    // The next minutes: the same findings, no second pause, no third (still capped).
    await evaluate(noon(day) + MIN);
    await evaluate(noon(day) + 90 * MIN);
    expect(pausesOf(worst.campaign_id)).toHaveLength(1);
    expect(pausesOf(bad.campaign_id)).toHaveLength(1);
    expect(pausesOf(third.campaign_id)).toHaveLength(0);
    expect(await actionsOf(r.id)).toHaveLength(2);

    // Audited as the system's, naming the rule, the reason and the figures.
    const audit = await admin.audit.list({ action: 'alert_action.pause', target_id: worst.campaign_id });
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ actor_type: 'system', target_kind: 'meta_campaign', target_id: worst.campaign_id });
    expect(audit.rows[0].after).toMatchObject({ status: 'done', rule_id: r.id, rule_name: 'Guardia', figures: { spend: 100, revenue: 10 } });

    // Undo: staff may not; an admin resumes it on Meta, once.
    expect(await failure(ana.alerts.undoAction({ id: paused.id }))).toMatchObject({ status: 403 });
    const undone = await admin.alerts.undoAction({ id: paused.id });
    expect(undone).toMatchObject({ undone_by: 'admin@test.local', undoable: false });
    expect(changesOf(worst.campaign_id).map((c) => c.to)).toEqual(['PAUSED', 'ACTIVE']);
    expect(await failure(admin.alerts.undoAction({ id: paused.id }))).toMatchObject({
      status: 409,
      detail: 'Esta pausa ya se deshizo (admin@test.local)',
    });
    const undoAudit = await admin.audit.list({ action: 'alert_action.undo' });
    expect(undoAudit.rows[0]).toMatchObject({ actor_email: 'admin@test.local', target_id: worst.campaign_id });
    expect(undoAudit.rows[0].after).toMatchObject({ status: 'ACTIVE', undone_by: 'admin@test.local' });

    // Its alert is still open: the rule leaves it running.
    await evaluate(noon(day) + 100 * MIN);
    expect(changesOf(worst.campaign_id).map((c) => c.to)).toEqual(['PAUSED', 'ACTIVE']);
    expect((await alertOf(r.id, worst.campaign_id))?.state).toBe('open');

    // The next day has a new cap: the third is paused then; the undone one still stays running.
    const next = addDays(day, 1);
    await money(next, [
      [worst, 100],
      [third, 40],
    ]);
    await evaluate(noon(next));
    expect(pausesOf(third.campaign_id)).toHaveLength(1);
    expect(changesOf(worst.campaign_id).map((c) => c.to)).toEqual(['PAUSED', 'ACTIVE']);
    await admin.alerts.deleteRule({ id: r.id });
    // The record outlives its rule.
    expect(await actionsOf(r.id)).toHaveLength(3);
  });

  test('notify-only (the default action) says what it would pause and pauses nothing', async () => {
    const day = addDays(BASE, 3);
    const [c] = activeCampaigns(1);
    await money(day, [[c, 50]]);
    const r = await roiRule('Solo aviso', {});
    expect(r.action).toEqual({ mode: 'notify', daily_cap: 5, cooldown_minutes: 60, reactivate: false, confirm_evaluations: 1, hold_minutes: null });
    await evaluate(noon(day));
    expect((await alertOf(r.id, c.campaign_id))?.message).toContain(`Solo aviso: la regla pausaría la campaña ${c.campaign_id} en Meta`);
    expect(changesOf(c.campaign_id)).toEqual([]);
    expect(await actionsOf(r.id)).toEqual([]);
    await admin.alerts.deleteRule({ id: r.id });
  });

  test('a pause Meta refuses is recorded as failed with its error, and retried only after the cooldown', async () => {
    const day = addDays(BASE, 6);
    const [c] = activeCampaigns(1);
    await money(day, [[c, 50]]);
    const r = await roiRule('Con fallo', { mode: 'pause', cooldown_minutes: 30 });
    sandbox().failNext('update', { message: '(#200) Permissions error', code: 200, error_user_msg: 'Falta el permiso ads_management.' });
    const updates = () =>
      sandbox()
        .requestsTo('update')
        .filter((q) => q.path === `/${c.campaign_id}`).length;
    await evaluate(noon(day));
    expect(changesOf(c.campaign_id)).toEqual([]);
    const [failed] = await actionsOf(r.id);
    expect(failed).toMatchObject({ action: 'pause', status: 'failed', detail: 'Falta el permiso ads_management.', undoable: false });
    expect((await alertOf(r.id, c.campaign_id))?.message).toContain('no se pudo pausar en Meta: Falta el permiso ads_management.');
    expect(await failure(admin.alerts.undoAction({ id: failed.id }))).toMatchObject({ status: 409 });
    // Within the cooldown: Meta is not asked again.
    await evaluate(noon(day) + 20 * MIN);
    expect(updates()).toBe(1);
    await evaluate(noon(day) + 31 * MIN);
    expect(updates()).toBe(2);
    expect(pausesOf(c.campaign_id)).toHaveLength(1);
    expect((await actionsOf(r.id)).map((a) => a.status)).toEqual(['done', 'failed']);
    // The failed one is audited too.
    expect(
      (await admin.audit.list({ action: 'alert_action.pause', target_id: c.campaign_id })).rows.map((e) => (e.after as { status: string }).status),
    ).toEqual(['done', 'failed']);
    await admin.alerts.deleteRule({ id: r.id });
  });

  test("'reactivar' resumes what the rule paused once its ROI recovers (not while it is unmeasured)", async () => {
    const day = addDays(BASE, 9);
    const [c] = activeCampaigns(1);
    await money(day, [[c, 50]]);
    const r = await roiRule('Reactivar', { mode: 'pause', reactivate: true, cooldown_minutes: 30 });
    await evaluate(noon(day));
    expect(changesOf(c.campaign_id).map((x) => x.to)).toEqual(['PAUSED']);
    // Its spend corrected to 5 (ROI +100 %), but within the cooldown: nothing yet.
    await spend(day, [[c, 5]]);
    await evaluate(noon(day) + 10 * MIN);
    // Below the rule's minimum spend it is not measured: it stays paused.
    await spend(day, [[c, 0.5]]);
    await evaluate(noon(day) + 40 * MIN);
    expect(changesOf(c.campaign_id).map((x) => x.to)).toEqual(['PAUSED']);
    await spend(day, [[c, 5]]);
    await evaluate(noon(day) + 45 * MIN);
    expect(changesOf(c.campaign_id).map((x) => x.to)).toEqual(['PAUSED', 'ACTIVE']);
    const [resume, pause] = await actionsOf(r.id);
    expect(resume).toMatchObject({ action: 'resume', trigger: 'recovery', status: 'done', undoable: false });
    expect(resume.figures.roi).toBeCloseTo(100, 6);
    expect(pause).toMatchObject({ action: 'pause', undone_by: 'Regla «Reactivar» (reactivar)', undoable: false });
    await admin.alerts.deleteRule({ id: r.id });
  });
});

/** A zone's report of `day` through the ingest (the path that records its finality), with `?report=` when given. */
async function report(day: string, zone: string, revenue: number, state?: 'final' | 'partial') {
  const row = { date: day, advertiser: 'AdNova', publisher: 'PubA', zone_id: zone, impressions: 5000, clicks: 50, revenue };
  const answer = await admin.ingest.zoneReport(state ? { report: state } : undefined, {
    rawBody: JSON.stringify([row]),
    headers: { 'content-type': 'application/json' },
  });
  expect(answer.inserted + answer.replaced).toBe(1);
  return answer.days;
}

/** `n` human visits from `ad` to `zone` on `day`. */
const visitsFrom = (ad: SandboxAd, zone: string, day: string, n: number) =>
  s.app.services.warehouse.referrers.append(
    Array.from({ length: n }, (_, i) =>
      event(nextId++, noon(day) - 60 * MIN + i * 1000, { zone_id: zone, campaign_id: ad.campaign_id, adset_id: ad.adset_id, ad_id: ad.ad_id }),
    ),
  );

describe('decisions wait for matured data', () => {
  test('a rule with pause does not act on a day whose zone report is partial; on the same losing figures once the report is final, it does', async () => {
    const day = addDays(BASE, 12);
    const [c] = activeCampaigns(1);
    // Earned 10 on 50 spent (ROI −80 %), but the day's report was imported as incomplete.
    expect(await report(day, 'Z-PARTIAL', 10, 'partial')).toEqual([{ date: day, report: 'partial' }]);
    await visitsFrom(c, 'Z-PARTIAL', day, 10);
    await spend(day, [[c, 50]]);
    const r = await roiRule('Espera al informe', { mode: 'pause', cooldown_minutes: 30 });
    // No matured day in the window: nothing found, nothing paused.
    expect(await evaluate(noon(day))).toMatchObject({ errors: [] });
    expect(await alertOf(r.id, c.campaign_id)).toBeUndefined();
    expect(changesOf(c.campaign_id)).toEqual([]);

    // The same report again, now that the day is over: final. The same figures now pause it.
    expect(await report(day, 'Z-PARTIAL', 10)).toEqual([{ date: day, report: 'final' }]);
    await evaluate(noon(day) + 5 * MIN);
    expect(pausesOf(c.campaign_id)).toHaveLength(1);
    const alert = await alertOf(r.id, c.campaign_id);
    expect(alert?.message).toContain('se ha pausado en Meta');
    expect(alert?.message).not.toContain('estimados');
    expect(alert?.figures.roi).toBeCloseTo(-80, 6);
    await admin.alerts.deleteRule({ id: r.id });
  });

  test('a rule that opts into estimates judges the partial day, and its alert names the estimated figures', async () => {
    const day = addDays(BASE, 13);
    const [c] = activeCampaigns(1);
    await report(day, 'Z-EST', 10, 'partial');
    await visitsFrom(c, 'Z-EST', day, 10);
    await spend(day, [[c, 50]]);
    const r = await admin.alerts.createRule({
      name: 'Con estimaciones',
      kind: 'campaign_roi',
      params: { level: 'campaign', metric: 'roi', threshold: 0, hours: 6, min_spend: 1, use_estimates: true },
    });
    expect(r.params.use_estimates).toBe(true);
    await evaluate(noon(day));
    const alert = await alertOf(r.id, c.campaign_id);
    // No final report for the zone in the week before: its trailing RPV is 0, the estimate 0 (ROI −100 %).
    expect(alert?.figures).toMatchObject({ spend: 50, revenue: 0, estimated_visits: 10 });
    expect(alert?.message).toContain(`estimados: revenue, beneficio y ROI (informe parcial o sin informe el ${formatDateDMY(day)})`);
    await admin.alerts.deleteRule({ id: r.id });
  });

  test("'reactivar' does not resume on the revenue of a day whose spend is not synced; it does once that day's spend is in", async () => {
    const dayA = addDays(BASE, 15);
    const dayB = addDays(dayA, 1);
    const [c] = activeCampaigns(1);
    await money(dayA, [[c, 50]]);
    const r = await admin.alerts.createRule({
      name: 'Reactivar con datos',
      kind: 'campaign_roi',
      params: { level: 'campaign', metric: 'roi', threshold: 0, hours: 30, min_spend: 1 },
      action: { mode: 'pause', reactivate: true, cooldown_minutes: 30 },
    });
    await evaluate(noon(dayA));
    expect(changesOf(c.campaign_id).map((x) => x.to)).toEqual(['PAUSED']);

    // Day B's report is final and the campaign's 100 visits there earn 100, but B's spend is not synced:
    // counted with A (spend 50, revenue 10 + 100) it would look recovered (ROI +120 %).
    await importRows(s.app.services.warehouse, [zoneRow(dayB, 'Z-LATE', 100)]);
    await visitsFrom(c, 'Z-LATE', dayB, 100);
    await evaluate(noon(dayB));
    expect(changesOf(c.campaign_id).map((x) => x.to)).toEqual(['PAUSED']);
    // Still failing on its matured day: its alert stays open.
    expect((await alertOf(r.id, c.campaign_id))?.state).toBe('open');

    // B's spend arrives (10): spend 60 against revenue 110 over both days — recovered.
    await spend(dayB, [[c, 10]]);
    await evaluate(noon(dayB) + 5 * MIN);
    expect(changesOf(c.campaign_id).map((x) => x.to)).toEqual(['PAUSED', 'ACTIVE']);
    const [resume] = await actionsOf(r.id);
    expect(resume).toMatchObject({ action: 'resume', status: 'done' });
    expect(resume.figures.roi).toBe(jsonNumber((50 / 60) * 100));
    await admin.alerts.deleteRule({ id: r.id });
  });
});

describe('who may set an action, and bad input', () => {
  test('staff get 403 for actions and for rules that have one; an action belongs on campaign rules only', async () => {
    const params = { level: 'campaign', metric: 'roi', threshold: 0, hours: 6, min_spend: 1 } as const;
    expect(await failure(ana.alerts.createRule({ name: 'x', kind: 'campaign_roi', params, action: { mode: 'pause' } }))).toMatchObject({
      status: 403,
      detail: 'Solo un administrador puede añadir o cambiar la acción de una regla (pausar campañas en Meta)',
    });
    const mine = await ana.alerts.createRule({ name: 'De Ana', kind: 'campaign_roi', params });
    expect(mine.action).toBeNull();
    expect(await failure(ana.alerts.updateRule({ id: mine.id, action: { mode: 'notify' } }))).toMatchObject({ status: 403 });
    // An admin attaches one: from then on the rule is an admin's to change or delete.
    expect((await admin.alerts.updateRule({ id: mine.id, action: { mode: 'pause', daily_cap: 3 } })).action).toMatchObject({
      mode: 'pause',
      daily_cap: 3,
    });
    expect(await failure(ana.alerts.updateRule({ id: mine.id, enabled: false }))).toMatchObject({
      status: 403,
      detail: 'Esta regla tiene una acción sobre Meta: solo un administrador puede cambiarla o borrarla',
    });
    expect(await failure(ana.alerts.deleteRule({ id: mine.id }))).toMatchObject({ status: 403 });
    expect(await failure(admin.alerts.updateRule({ id: mine.id, kind: 'ip_burst', params: { visits: 5, minutes: 5 } }))).toMatchObject({
      status: 400,
      detail: 'La acción (pausar en Meta) solo se puede añadir a reglas de campaña (campaign_roi)',
    });
    expect((await admin.alerts.updateRule({ id: mine.id, action: null })).action).toBeNull();
    expect((await admin.alerts.rules()).find((x) => x.id === mine.id)?.action).toBeNull();
    await ana.alerts.deleteRule({ id: mine.id });
    // Staff read what the actions did.
    expect((await ana.alerts.actions({})).totals.account).toBe('act_1000000000001');
  });

  test('bad actions are refused with a Spanish 400 {detail}; unknown actions are 404', async () => {
    const params = { level: 'campaign', hours: 6 };
    const bad: unknown[] = [
      { name: 'x', kind: 'tq_low', params: { scope: 'zone', threshold: 0.5, hours: 6 }, action: { mode: 'pause' } },
      { name: 'x', kind: 'campaign_roi', params, action: { mode: 'borrar' } },
      { name: 'x', kind: 'campaign_roi', params, action: { daily_cap: 0 } },
      { name: 'x', kind: 'campaign_roi', params, action: { daily_cap: 1.5 } },
      { name: 'x', kind: 'campaign_roi', params, action: { cooldown_minutes: -1 } },
      { name: 'x', kind: 'campaign_roi', params, action: { reactivate: 'sí' } },
      { name: 'x', kind: 'campaign_roi', params, action: { mode: 'pause', budget: 1 } },
      { name: 'x', kind: 'campaign_roi', params, action: 'pause' },
    ];
    const before = await s.storedEntities();
    for (const body of bad) {
      const res = await s.fetch('/api/alerts/rules', {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).detail, JSON.stringify(body)).toMatch(/[a-záéíóúñ]/i);
    }
    expect(await s.storedEntities()).toBe(before);
    expect(await failure(admin.alerts.undoAction({ id: 'no-existe' }))).toMatchObject({ status: 404, detail: 'Acción no encontrada' });
    const page = await s.fetch('/api/alerts/actions?page_size=9999', { headers: { authorization: `Bearer ${admin.token}` } });
    expect(page.status).toBe(400);
  });
});
