// Browser tests of Fb Campaigns' metrics: the list of campaigns with metrics for a range and a
// status, sorted on the server, the empty and no-data states, and what each row's figures are.
// The campaign creator is in campaigns.test.ts.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, formatInt, formatAmount, presetRange, sortRows, type Api, type CampaignInsight, formatDateDMY } from '@adops/core';
import { ADMIN, absenceFor, holdRequests, sortTable, waitSorted, type Harness } from './harness.js';
import type { MetaSandbox } from '../server/src/sandbox/meta/index.js';
import { campaignHarness, requestsTo } from './campaign-pages.js';

const NO_DATA = 'Esta campaña no tiene métricas en el rango de fechas seleccionado';
const EMPTY = 'No se encontraron campañas con métricas.';

const harness = campaignHarness();
let h: Harness;
let admin: Api & { token: string };
let sandbox: MetaSandbox;
beforeAll(async () => {
  ({ h, admin, sandbox } = harness);
});

const yesterday = () => presetRange('ayer', new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC').from;

type Status = 'ACTIVE' | 'PAUSED' | 'ALL';
/** Every campaign of a range and status as the server answers it (one page of up to 500), with its totals. */
async function campaignsOf(from: string, to: string, status: Status, sort?: string) {
  const table = await admin.campaigns.insights({ from_date: from, to_date: to, status, page_size: 500, ...(sort ? { sort } : {}) });
  expect(table.total_rows).toBe(table.rows.length);
  return table;
}

async function openMetrics(): Promise<{ page: Page; calls: ReturnType<typeof requestsTo> }> {
  const page = await h.newPage();
  const calls = requestsTo(page, '/api/facebook-campaigns/insights');
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/fb-campaigns');
  await page.getByRole('heading', { name: 'Campañas con métricas (Facebook)' }).waitFor();
  return { page, calls };
}

const table = (page: Page) => page.getByRole('table', { name: 'Campañas con métricas' });
const bodyRows = (page: Page) => table(page).locator('tbody tr');
const shownIds = (page: Page) =>
  table(page)
    .getByTestId('campaign-id')
    .allTextContents()
    .then((ids) => ids.map((s) => s.trim()));

async function waitForRows(page: Page, count: number) {
  await expect.poll(() => table(page).getByTestId('campaign-id').count(), { timeout: 10_000 }).toBe(count);
}

describe('campaign metrics', () => {
  test('opens on Activas for yesterday: the campaigns Meta reports, ✅ each, ⚠️ with its tooltip where the range has no data, and totals', async () => {
    const { page, calls } = await openMetrics();
    const day = yesterday();
    expect(await page.getByLabel('Estado').inputValue()).toBe('ACTIVE');
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(day));
    expect(await page.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(day));

    const { rows: expected, totals } = await campaignsOf(day, day, 'ACTIVE');
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThanOrEqual(20);
    await waitForRows(page, expected.length);
    expect(calls).toHaveLength(1);
    // The server sorts and pages: newest first, 20 a page.
    expect(Object.fromEntries(calls[0].url.searchParams)).toEqual({
      from_date: day,
      to_date: day,
      status: 'ACTIVE',
      sort: 'created_at:desc',
      page: '1',
      page_size: '20',
    });

    // Newest first; every row active.
    expect(await shownIds(page)).toEqual(sortRows(expected, { key: 'created_at', dir: 'desc' }).map((c) => c.id));
    const statuses = await table(page)
      .getByTestId('campaign-status')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-status'), e.textContent]));
    expect(statuses.every(([s, text]) => s === 'ACTIVE' && text!.startsWith('✅'))).toBe(true);

    // ⚠️ exactly on the campaigns without data in the range, with the tooltip.
    const noData = expected.filter((c) => !c.has_data).map((c) => c.id);
    expect(noData.length).toBeGreaterThan(0); // the sandbox has active campaigns that never delivered
    const warned = await bodyRows(page).evaluateAll((rows) =>
      rows.filter((r) => r.querySelector('[data-testid="no-data"]')).map((r) => r.querySelector('[data-testid="campaign-id"]')!.textContent!.trim()),
    );
    expect(warned.sort()).toEqual([...noData].sort());
    const warning = table(page).getByTestId('no-data').first();
    expect(await warning.getAttribute('title')).toBe(NO_DATA);
    expect(await warning.textContent()).toBe('⚠️');
    // Drawn as SVG icons (emoji render as empty boxes without an emoji font), named for readers.
    expect(await warning.locator('svg[role="img"]').getAttribute('aria-label')).toBe(NO_DATA);
    expect(await table(page).getByTestId('campaign-status').first().locator('svg[role="img"]').getAttribute('aria-label')).toBe('ACTIVE');
    const glyphs = await table(page).evaluate((t) =>
      [...t.querySelectorAll('*')].some((el) =>
        [...el.childNodes].some((n) => n.nodeType === 3 && /[✅⛔⚠]/.test(n.textContent ?? '') && el.tagName.toLowerCase() !== 'title'),
      ),
    );
    expect(glyphs).toBe(false);

    // Totals of the whole list, as the server sums them.
    const foot = table(page).locator('tfoot tr td');
    const sum = (k: 'impressions' | 'clicks' | 'account_spend') => expected.reduce((a, c) => a + c[k], 0);
    expect(totals).toMatchObject({ campaigns: expected.length, impressions: sum('impressions'), clicks: sum('clicks') });
    const footer = await foot.allTextContents();
    expect(footer[0]).toBe('Totales');
    expect(footer).toContain(formatInt(sum('impressions')));
    expect(footer).toContain(formatInt(sum('clicks')));
    // Spend in the network's currency ('sin sincronizar' here: nothing synced) and Meta's EUR beside it.
    expect(footer.join(' ')).toContain(`· ${formatAmount(sum('account_spend'), 'EUR')}`);
    expect(await page.getByTestId('campaign-count').textContent()).toContain(`${formatInt(expected.length)} campaña`);
    await page.getByText('Página 1 de 1').waitFor();
    await h.screenshot(page, 'fb-campaigns');
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('Todas lists every campaign 20 per page with ⛔ for paused ones; Pausadas only paused ones', async () => {
    const { page, calls } = await openMetrics();
    const day = yesterday();
    await waitForRows(page, (await campaignsOf(day, day, 'ACTIVE')).rows.length);

    await page.getByLabel('Estado').selectOption({ label: 'Todas' });
    const all = (await campaignsOf(day, day, 'ALL')).rows;
    expect(all.length).toBeGreaterThan(20);
    const pages = Math.ceil(all.length / 20);
    await waitForRows(page, 20);
    expect(calls.at(-1)!.url.searchParams.get('status')).toBe('ALL');
    await page.getByText(`Página 1 de ${pages}`).waitFor();
    const ordered = sortRows(all, { key: 'created_at', dir: 'desc' });
    expect(await shownIds(page)).toEqual(ordered.slice(0, 20).map((c) => c.id));
    expect(await page.getByRole('button', { name: 'Anterior' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Siguiente' }).click();
    await page.getByText(`Página 2 de ${pages}`).waitFor();
    expect(await shownIds(page)).toEqual(ordered.slice(20, 40).map((c) => c.id));
    const byId = new Map(all.map((c) => [c.id, c]));
    for (const [id, status, icon] of await bodyRows(page).evaluateAll((rows) =>
      rows.map((r) => [
        r.querySelector('[data-testid="campaign-id"]')!.textContent!.trim(),
        r.querySelector('[data-testid="campaign-status"]')!.getAttribute('data-status'),
        r.querySelector('[data-testid="campaign-status"] [role="img"]')!.textContent,
      ]),
    )) {
      expect(status).toBe(byId.get(id!)!.effective_status);
      expect(icon).toBe(status === 'ACTIVE' ? '✅' : '⛔');
    }
    // Totals stay those of the whole list, not of the page.
    expect(await table(page).locator('tfoot').textContent()).toContain(formatInt(all.reduce((a, c) => a + c.impressions, 0)));

    // A new filter goes back to page 1.
    await page.getByLabel('Estado').selectOption({ label: 'Pausadas' });
    const paused = all.filter((c) => c.effective_status === 'PAUSED');
    await waitForRows(page, Math.min(20, paused.length));
    expect(calls.at(-1)!.url.searchParams.get('status')).toBe('PAUSED');
    await page.getByText(`Página 1 de ${Math.max(1, Math.ceil(paused.length / 20))}`).waitFor();
    const icons = await table(page).locator('[data-testid="campaign-status"] [role="img"]').allTextContents();
    expect(icons.every((i) => i === '⛔')).toBe(true);
    await h.screenshot(page, 'fb-campaigns-paused');
  });

  test('header clicks sort ascending, then descending; a new header starts ascending', async () => {
    const { page } = await openMetrics();
    const day = yesterday();
    await page.getByLabel('Estado').selectOption({ label: 'Todas' });
    const all = (await campaignsOf(day, day, 'ALL')).rows;
    await waitForRows(page, 20);
    const header = (name: string) => table(page).getByRole('columnheader', { name: new RegExp(`^${name}`) });

    // The order is the server's over every campaign (ties by the natural key): page 1 of each
    // order is the first 20 of the whole list in that order.
    const impressionsOf = new Map(all.map((c) => [c.id, c.impressions]));
    const firstPage = async (sort: string) => (await campaignsOf(day, day, 'ALL', sort)).rows.slice(0, 20).map((c) => c.id);
    await sortTable(table(page), 'Impresiones', 'ascending');
    let shown = await shownIds(page);
    expect(shown).toEqual(await firstPage('impressions:asc'));
    expect(shown.map((id) => impressionsOf.get(id)!)).toEqual(
      sortRows(all, { key: 'impressions', dir: 'asc' })
        .slice(0, 20)
        .map((c) => c.impressions),
    );
    await header('Impresiones').getByRole('button').click();
    await waitSorted(table(page), 'Impresiones', 'descending');
    shown = await shownIds(page);
    expect(shown).toEqual(await firstPage('impressions:desc'));
    expect(shown.map((id) => impressionsOf.get(id)!)).toEqual(
      sortRows(all, { key: 'impressions', dir: 'desc' })
        .slice(0, 20)
        .map((c) => c.impressions),
    );

    await sortTable(table(page), 'Campaña', 'ascending');
    expect(await header('Impresiones').getAttribute('aria-sort')).toBe('none');
    expect(await shownIds(page)).toEqual(
      sortRows(all, { key: 'name', dir: 'asc' })
        .slice(0, 20)
        .map((c) => c.id),
    );

    // CTR: campaigns without impressions have no CTR and come last in both directions.
    await sortTable(table(page), 'CTR%', 'descending');
    const pages = Math.ceil(all.length / 20);
    await page.getByRole('button', { name: 'Siguiente' }).click();
    await page.getByText(`Página 2 de ${pages}`).waitFor();
    const byCtr = (await campaignsOf(day, day, 'ALL', 'ctr:desc')).rows;
    const lastPage = byCtr.slice(20, 40);
    expect(await shownIds(page)).toEqual(lastPage.map((c) => c.id));
    expect(lastPage.at(-1)!.ctr).toBeNull();
    // Every campaign with a CTR comes before every one without, largest first.
    const withCtr = byCtr.filter((c) => c.ctr !== null).map((c) => c.ctr!);
    expect(withCtr).toEqual([...withCtr].sort((a, b) => b - a));
    expect(byCtr.slice(withCtr.length).every((c) => c.ctr === null)).toBe(true);
  });

  test('a new range asks Meta for that range (loading state while it answers); Desde after Hasta asks nothing and says why', async () => {
    const { page, calls } = await openMetrics();
    const day = yesterday();
    await waitForRows(page, (await campaignsOf(day, day, 'ACTIVE')).rows.length);
    const insights = await holdRequests(page, '**/api/facebook-campaigns/insights*');
    const from = addDays(day, -30);
    await page.getByLabel('Desde', { exact: true }).fill(from);
    await page.getByText('Cargando campañas…').waitFor();
    insights.release();
    const expected = (await campaignsOf(from, day, 'ACTIVE')).rows;
    await waitForRows(page, Math.min(20, expected.length));
    expect(Object.fromEntries(calls.at(-1)!.url.searchParams)).toMatchObject({ from_date: from, to_date: day, status: 'ACTIVE', page: '1' });
    const sum = expected.reduce((a, c) => a + c.impressions, 0);
    expect(await table(page).locator('tfoot').textContent()).toContain(formatInt(sum));
    const warned = await table(page).getByTestId('no-data').count();
    expect(warned).toBe(expected.slice(0, 20).filter((c) => !c.has_data).length);

    const before = calls.length;
    await page.getByLabel('Desde', { exact: true }).fill(addDays(day, 1));
    await page.getByText('La fecha de inicio debe ser anterior o igual a la de fin').waitFor();
    await absenceFor(300);
    expect(calls.length).toBe(before);
    expect(await table(page).count()).toBe(0);
  });

  test('a Meta failure is shown with its HTTP status', async () => {
    const { page } = await openMetrics();
    const day = yesterday();
    await waitForRows(page, (await campaignsOf(day, day, 'ACTIVE')).rows.length);
    sandbox.failNext('campaigns.list', {
      message: '(#200) Permissions error',
      code: 200,
      error_user_msg: 'No tienes permiso para ver esta cuenta publicitaria.',
    });
    await page.getByRole('button', { name: 'Actualizar' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Error al cargar las campañas (HTTP 502): No tienes permiso para ver esta cuenta publicitaria.');
    expect(await table(page).count()).toBe(0);
    // The next try works again.
    await page.getByRole('button', { name: 'Actualizar' }).click();
    await table(page).waitFor();
  });

  test('with no campaigns on the ad account the list shows its empty state', async () => {
    const meta = h.server.app.services.campaigns.providers.meta;
    const ids = [...sandbox.objects.values()].filter((o) => o.type === 'campaign').map((o) => o.id);
    for (const id of ids) await meta.deleteObject(id);
    const { page } = await openMetrics();
    await table(page).getByText(EMPTY).waitFor();
    await page.getByText('Página 1 de 1').waitFor();
    expect(await table(page).locator('tfoot').count()).toBe(0);
    await page.getByLabel('Estado').selectOption({ label: 'Todas' });
    await table(page).getByText(EMPTY).waitFor();
    const rows: CampaignInsight[] = (await campaignsOf(yesterday(), yesterday(), 'ALL')).rows;
    expect(rows).toEqual([]);
    await h.screenshot(page, 'fb-campaigns-empty');
  });
});
