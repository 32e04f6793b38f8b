// Browser test of issue 28 on Alertas: 'Probar en el pasado' on a saved rule and in the rule form
// (an unsaved spec) shows what the API answers for the same rule and days — the summary's figures,
// every action, the notes, the pauses marked on the chart — and says the noisy campaign flaps
// before the rule is saved; 'Historial de evaluación' names each campaign's outcome in words and
// filters by campaign and outcome. axe finds nothing critical or serious with every panel open, and
// the page fits 1440 and 390 px. The history is the server's hand-built one (backtest-history.ts):
// L loses from day 4, N flips around break-even, U's spend is unsynced, E's report partial.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  ALERT_OUTCOME_LABELS,
  BACKTEST_ACTION_LABELS,
  alertFiguresText,
  formatDateTimeDMY,
  formatInt,
  formatMoney,
  type AlertBacktest,
  type Api,
} from '@adops/core';
import { ADMIN, accessibilityViolations, startHarness, type Harness } from './harness.js';
import { BACKTEST_RULE, TODAY, loadBacktestHistory, type BacktestHistory } from '../server/test/backtest-history.js';

let h: Harness;
let admin: Api & { token: string };
let hist: BacktestHistory;
let ruleId: string;
let logRuleId: string;

beforeAll(async () => {
  h = await startHarness({ alerts: { everySeconds: 0, mailFrom: 'a@b.c', webhookAttempts: 1, webhookBackoffMs: 1, appUrl: null } });
  admin = await h.server.admin();
  hist = await loadBacktestHistory(h.server, admin.token);
  // The log's rule (notify only), evaluated once at 00:30 today over the last 5 days: L and N lose
  // money, U's only day has no synced spend, E's only day a partial report. The pausing rule is
  // created after, so this evaluation pauses nothing.
  logRuleId = (
    await admin.alerts.createRule({
      name: 'Cinco días',
      kind: 'campaign_roi',
      params: { level: 'campaign', threshold: 0, hours: 120, min_spend: 10 },
    })
  ).id;
  expect(await h.server.app.services.alerts.evaluate(Date.parse(`${TODAY}T00:30:00Z`))).toMatchObject({ errors: [] });
  ruleId = (await admin.alerts.createRule(BACKTEST_RULE)).id;
}, 60_000);
afterAll(async () => {
  await h?.close();
});

/** A rule's row in 'Reglas' (its own <li>, not the lists inside its panels). */
const ruleRow = (page: Page, name: string) => page.getByTestId('alert-rules').locator('xpath=./li').filter({ hasText: name });

/** What the web shows of a backtest answer, to compare with the API's. */
async function shown(result: Locator) {
  const figure = (key: string) => result.getByTestId(`backtest-${key}`).textContent();
  const rows = result.getByTestId('backtest-actions').locator('tbody tr');
  return {
    summary: {
      alerts: await figure('alerts'),
      pauses: await figure('pauses'),
      resumes: await figure('resumes'),
      spend_avoided: await figure('spend_avoided'),
      revenue_forgone: await figure('revenue_forgone'),
      net: await figure('net'),
    },
    actions: await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent?.trim()))),
  };
}

/** The same from the API's answer, through core's formatters (UTC: the test server's zone). */
function expected(b: AlertBacktest) {
  const s = b.summary;
  return {
    summary: {
      alerts: formatInt(s.alerts),
      pauses: formatInt(s.pauses),
      resumes: formatInt(s.resumes),
      spend_avoided: formatMoney(s.spend_avoided, b.currency),
      revenue_forgone: formatMoney(s.revenue_forgone, b.currency),
      net: formatMoney(s.net, b.currency),
    },
    actions: b.actions.slice(0, 25).map((a) => [formatDateTimeDMY(a.at, 'UTC'), `${a.name ?? ''}${a.subject}`, BACKTEST_ACTION_LABELS[a.action]]),
  };
}

async function expectClean(page: Page, where: string) {
  expect.soft(await accessibilityViolations(page), where).toEqual([]);
}

describe('Probar en el pasado and Historial de evaluación', () => {
  for (const [width, days] of [
    [1440, 14],
    [390, 7],
  ] as const) {
    test(`at ${width} px: a saved rule's backtest of ${days} days shows what the API answers, flags the noisy campaign, and the unsaved form's says so before saving`, async () => {
      const page = await h.newPage({ viewport: { width, height: 900 } });
      await h.signIn(page, ADMIN.email, ADMIN.password);
      await page.goto('/alerts');
      const row = ruleRow(page, 'Pierden dinero');
      const open = row.getByRole('button', { name: 'Probar en el pasado' });
      await open.click();
      expect(await open.getAttribute('aria-expanded')).toBe('true');
      const panel = row.getByTestId('rule-backtest');
      await panel.getByRole('heading', { name: 'Probar en el pasado: «Pierden dinero»' }).waitFor();
      await panel.getByLabel(`${days} días`).check();

      // Busy while the server replays it: the answer is held until the busy state has been seen.
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      await page.route('**/api/alerts/rules/*/backtest', async (route) => {
        await held;
        await route.continue();
      });
      const run = panel.getByRole('button', { name: 'Probar' });
      await run.click();
      await panel.getByRole('button', { name: 'Probando…' }).waitFor();
      expect(await panel.getByRole('button', { name: 'Probando…' }).getAttribute('aria-disabled')).toBe('true');
      expect(await panel.getByRole('status').textContent()).toBe(`Probando la regla en los últimos ${days} días…`);
      release();
      const result = panel.getByTestId('backtest-result');
      await result.waitFor();
      await page.unroute('**/api/alerts/rules/*/backtest');

      // API and web agree on the same rule and days.
      const api = await admin.alerts.backtestRule({ id: ruleId, days });
      expect(api.summary.pauses).toBeGreaterThan(1);
      expect(await shown(result)).toEqual(expected(api));
      expect(await panel.getByRole('status').textContent()).toBe(
        `Prueba hecha: ${formatInt(api.summary.alerts)} alertas, ${formatInt(api.summary.pauses)} pausas, ${formatInt(api.summary.resumes)} reactivaciones.`,
      );
      // The noisy campaign flaps, said with its pauses and resumes; the losing one does not.
      const flapping = api.summary.flapping.find((f) => f.subject === hist.N.campaign_id)!;
      expect(flapping.offs).toBeGreaterThan(1);
      const flagged = await result.getByTestId('backtest-flapping').textContent();
      expect(flagged).toContain('Esta regla alternaría una campaña entre pausada y activa (flapping)');
      expect(flagged).toContain(`${hist.N.campaign_name} (${hist.N.campaign_id}): ${flapping.offs} pausas y ${flapping.ons} reactivaciones`);
      expect(flagged).not.toContain(hist.L.campaign_id);
      // The server's notes, and each pause and resume marked on the chart of daily profit.
      const notes = (await result.getByTestId('backtest-notes').textContent()) ?? '';
      for (const n of api.notes) expect(notes).toContain(n);
      const chart = result.getByTestId('backtest-chart');
      await chart.locator('.recharts-line').first().waitFor();
      expect(await chart.locator('.recharts-reference-dot.backtest-pause').count()).toBe(api.summary.pauses);
      expect(await chart.locator('.recharts-reference-dot.backtest-resume').count()).toBe(api.summary.resumes);

      // The evaluation log of the other rule, open at the same time.
      await ruleRow(page, 'Cinco días').getByRole('button', { name: 'Historial de evaluación' }).click();
      await page.getByTestId('evaluation-table').waitFor();

      // The form: the same rule, unsaved, flaps — said beside the button that would create it.
      const rulesBefore = (await admin.alerts.rules()).length;
      await page.getByRole('button', { name: 'Nueva regla' }).click();
      const form = page.getByRole('form', { name: 'Regla de alerta' });
      await form.getByLabel('Nombre').fill('Sin guardar');
      await form.getByLabel('Tipo').selectOption('campaign_roi');
      await form.getByLabel('Acción', { exact: true }).selectOption('pause');
      await form.getByLabel('Espera entre acciones (min)').fill(String(25 * 60));
      await form.getByLabel('Máximo de acciones al día por cuenta').fill('1');
      await form.getByLabel('Reactivar cuando el ROI se recupere').check();
      const tryIt = form.getByTestId('form-backtest');
      await tryIt.getByLabel(`${days} días`).check();
      await tryIt.getByRole('button', { name: 'Probar' }).click();
      await tryIt.getByTestId('backtest-result').waitFor();
      const unsaved = await admin.alerts.backtest({ ...BACKTEST_RULE, days });
      expect(await shown(tryIt.getByTestId('backtest-result'))).toEqual(expected(unsaved));
      expect(await form.getByTestId('form-flapping').textContent()).toBe(
        '⚠ Esta regla alternaría una campaña entre pausada y activa (flapping): mira la prueba antes de crearla.',
      );
      expect((await admin.alerts.rules()).length).toBe(rulesBefore);

      // Every panel open: nothing critical or serious for axe, and nothing wider than the page.
      await expectClean(page, `alerts with the backtests and the log open at ${width} px`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await h.screenshot(page, `alerts-trust-${width}`);

      // A guard never met: the answer goes stale when the rule changes, and tried again it does nothing.
      await form.getByLabel('Gasto mínimo').fill('1000');
      await tryIt.getByText('La regla ha cambiado desde esta prueba: vuelve a probarla.').waitFor();
      expect(await form.getByTestId('form-flapping').count()).toBe(0);
      await tryIt.getByRole('button', { name: 'Probar' }).click();
      await tryIt.getByText('No habría hecho nada.').waitFor();
      expect(await tryIt.getByTestId('backtest-alerts').textContent()).toBe('0');
      expect(await tryIt.getByTestId('backtest-flapping').count()).toBe(0);

      // The guards buyers ask for, set in the form and kept as the rule's: minimum clicks and
      // visits, N evaluations in a row before acting, a pause that resumes by itself.
      await form.getByLabel('Nombre').fill(`Con guardas ${width}`);
      await form.getByLabel('Clics mínimos en Meta').fill('50');
      await form.getByLabel('Visitas mínimas').fill('200');
      await form.getByLabel('Evaluaciones seguidas antes de actuar').fill('3');
      await form.getByLabel(/^Pausa temporal/).fill('120');
      await form.getByRole('button', { name: 'Crear regla' }).click();
      await page.getByTestId('alert-rules').getByText(`Con guardas ${width}`).waitFor();
      const saved = (await admin.alerts.rules()).find((r) => r.name === `Con guardas ${width}`)!;
      expect(saved.params).toMatchObject({ min_clicks: 50, min_visits: 200, min_spend: 1000 });
      expect(saved.action).toMatchObject({ mode: 'pause', confirm_evaluations: 3, hold_minutes: 120, daily_cap: 1 });
      await admin.alerts.deleteRule({ id: saved.id });
      expect(h.pageErrors(page)).toEqual([]);
    }, 60_000);
  }

  test("the evaluation log names each campaign's outcome as the API keeps it, with its figures, and filters by campaign and by outcome", async () => {
    const page = await h.newPage({ viewport: { width: 1440, height: 900 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/alerts');
    const toggle = ruleRow(page, 'Cinco días').getByRole('button', { name: 'Historial de evaluación' });
    await toggle.click();
    const log = page.getByTestId('evaluation-log');
    await log.getByRole('heading', { name: 'Historial de evaluación: «Cinco días»' }).waitFor();
    const table = log.getByRole('table', { name: 'Historial de evaluación de «Cinco días», lo más reciente primero' });
    await table.waitFor();

    const api = await admin.alerts.evaluations({ id: logRuleId });
    const outcomes = Object.fromEntries(api.rows.map((e) => [e.subject, e.outcome]));
    expect(outcomes).toEqual({
      [hist.L.campaign_id]: 'fired',
      [hist.N.campaign_id]: 'fired',
      [hist.U.campaign_id]: 'unsynced_spend',
      [hist.E.campaign_id]: 'estimated_revenue',
    });
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(api.rows.length);
    for (const e of api.rows) {
      const text = (await rows.filter({ hasText: e.subject }).textContent()) ?? '';
      expect(text).toContain(ALERT_OUTCOME_LABELS[e.outcome]);
      expect(text).toContain(e.reason);
      const figures = alertFiguresText(e.figures, 'USD', 'campaign_roi');
      if (figures) expect(text).toContain(figures);
    }
    expect(await rows.filter({ hasText: hist.U.campaign_id }).textContent()).toContain('Gasto sin sincronizar');
    expect(await rows.filter({ hasText: hist.E.campaign_id }).textContent()).toContain('Revenue estimado');
    // L: ROI −50 % against 0 %.
    expect(await rows.filter({ hasText: hist.L.campaign_id }).textContent()).toContain('-50,00% / 0,00%');
    expect(await log.textContent()).toContain(`Última evaluación: ${formatDateTimeDMY(`${TODAY}T00:30:00Z`, 'UTC')}`);

    // One campaign, by its id.
    await log.getByLabel('Campaña o conjunto (id)').fill(hist.U.campaign_id);
    await log.getByRole('button', { name: 'Filtrar' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-outcome')).toBe('unsynced_spend');
    // One outcome, every campaign.
    await log.getByRole('button', { name: 'Quitar filtros' }).click();
    await expect.poll(() => rows.count()).toBe(4);
    await log.getByLabel('Resultado').selectOption({ label: 'Revenue estimado' });
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(hist.E.campaign_id);
    // Nothing for a campaign the rule never looked at.
    await log.getByLabel('Resultado').selectOption({ label: 'Todos' });
    await log.getByLabel('Campaña o conjunto (id)').fill('999');
    await log.getByRole('button', { name: 'Filtrar' }).click();
    await log.getByText('Nada guardado con estos filtros.').waitFor();

    // Closing gives the panel back; the toggle says so.
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await log.count()).toBe(0);
    expect(h.pageErrors(page)).toEqual([]);
  });
});
