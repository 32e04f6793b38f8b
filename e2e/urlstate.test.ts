// A view lives in its URL: on the Dashboard, the Ad Report and Referrers the filters, range,
// sort and page chosen are in the query string, so a reload shows the same view, Back returns
// to the view before the last change, and the link pasted in a fresh browser opens that view.
// Plain links stay clean (defaults are not written). Also the Dashboard's comparison with the
// previous period, on a fixture whose figures are worked out by hand.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, formatDateDMY, toNdjson, todayIn } from '@adops/core';
import { ADMIN, startHarness, waitSorted, type Harness } from './harness.js';

let h: Harness;
const today = todayIn('UTC');
const d = (n: number) => addDays(today, -n);

beforeAll(async () => {
  h = await startHarness();
  const rows = [];
  // Zones zona-100..111 every day d14..d1 (revenue grows with the zone): 84 rows in the Ad Report's 7 days.
  for (let day = 1; day <= 14; day++)
    for (let z = 0; z < 12; z++)
      rows.push({
        date: d(day),
        advertiser: ['AdNova', 'BidSphere', 'Clickora'][z % 3],
        publisher: ['Diario Uno', 'Portal Dos'][z % 2],
        zone_id: `zona-${100 + z}`,
        geo: 'ES',
        source: 'search',
        domain: 'uno.com',
        impressions: 1_000,
        clicks: 10,
        revenue: 10 + z,
        p_revenue: 7,
      });
  // The comparison fixture, publisher 'Comparada' only (worked by hand):
  //   current d27..d25: revenue 100 + 50 + 50 = 200, p_revenue 140 (margin 60), impressions 4.000, clicks 40 (CTR 1 %)
  //   previous d30..d28: revenue 160 on d29, p_revenue 112 (margin 48), impressions 2.000, clicks 40 (CTR 2 %)
  //   change: revenue +25 %, margin +25 %, impressions +100 %, clicks 0 %, CTR −50 %; no TQ: '-'.
  const cmp = (date: string, revenue: number, p_revenue: number, impressions: number, clicks: number) => ({
    date,
    advertiser: 'AdNova',
    publisher: 'Comparada',
    zone_id: 'cmp-1',
    geo: 'ES',
    source: 'search',
    domain: 'uno.com',
    impressions,
    clicks,
    revenue,
    p_revenue,
  });
  rows.push(cmp(d(27), 100, 70, 1_000, 10), cmp(d(26), 50, 35, 1_000, 10), cmp(d(25), 50, 35, 2_000, 20), cmp(d(29), 160, 112, 2_000, 40));
  expect((await h.importZoneReport(rows)).status).toBe(200);
  await h.server.app.services.referrers.refreshZones();
  const admin = await h.server.admin();
  const start = Date.parse(`${today}T00:00:00Z`);
  const events = Array.from({ length: 45 }, (_, i) => ({
    zone_id: `zona-${100 + (i % 12)}`,
    parent_domain: ['noticias.example', 'deportes.example'][i % 2],
    referrer: `https://ref.example/${i}`,
    seen_at: new Date(Math.min(Date.now() - 1000, start + i * 60_000)).toISOString(),
  }));
  await admin.referrers.ingest(undefined, { rawBody: toNdjson(events), headers: { 'content-type': 'application/x-ndjson' } });
}, 120_000);
afterAll(async () => {
  await h?.close();
});

async function signedIn(): Promise<Page> {
  const page = await h.newPage();
  await h.signIn(page, ADMIN.email, ADMIN.password);
  return page;
}

/** The query string of the page's URL as key → value. */
const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

/** The link opened in a fresh browser (its own storage: signs in first). */
async function pasted(url: string): Promise<Page> {
  const page = await signedIn();
  await page.goto(url);
  return page;
}

describe('Dashboard', () => {
  const analytics = (page: Page) => page.getByRole('table', { name: 'Analytics' });
  const dates = async (page: Page) => (await analytics(page).locator('tbody td:first-child').allTextContents()).map((t) => t.trim());

  async function expectView(page: Page) {
    await waitSorted(analytics(page), 'Rev', 'descending');
    expect(await page.getByLabel('Publisher', { exact: true }).inputValue()).toBe('Portal Dos');
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(d(10)));
    expect(await page.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(d(2)));
    expect(await page.getByLabel('Mostrar').inputValue()).toBe('25');
    expect(await dates(page)).toHaveLength(9);
  }

  test('a plain link stays clean; publisher, dates, page size and sort go to the URL and come back on reload, Back and a pasted link', async () => {
    const page = await signedIn();
    await analytics(page).locator('tbody tr').nth(5).waitFor();
    expect(new URL(page.url()).search).toBe('');

    await page.getByLabel('Publisher', { exact: true }).selectOption('Portal Dos');
    await page.getByLabel('Desde', { exact: true }).fill(formatDateDMY(d(10)));
    await page.getByLabel('Hasta', { exact: true }).fill(formatDateDMY(d(2)));
    await page.getByLabel('Mostrar').selectOption('25');
    await expect.poll(() => query(page).size).toBe('25');
    await analytics(page).locator('thead').getByRole('button', { name: 'Rev', exact: true }).click();
    await waitSorted(analytics(page), 'Rev', 'ascending');
    await analytics(page).locator('thead').getByRole('button', { name: 'Rev', exact: true }).click();
    await expectView(page);
    expect(query(page)).toEqual({ publisher: 'Portal Dos', from: d(10), to: d(2), size: '25', sort: 'revenue:desc' });
    const link = page.url();

    await page.reload();
    await expectView(page);

    // Back: the view before the last change (ascending), then Forward again.
    await page.goBack();
    await waitSorted(analytics(page), 'Rev', 'ascending');
    expect(query(page).sort).toBe('revenue:asc');
    await page.goForward();
    await expectView(page);

    const fresh = await pasted(link);
    await expectView(fresh);
    expect(h.pageErrors(page)).toEqual([]);
    expect(h.pageErrors(fresh)).toEqual([]);
  });

  test('a half-typed date stays on screen without entering the URL or the history', async () => {
    const page = await signedIn();
    await analytics(page).locator('tbody tr').first().waitFor();
    const before = page.url();
    await page.getByLabel('Desde', { exact: true }).fill('3/1');
    expect(await page.getByLabel('Desde', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).toBe(before);
    await page.getByLabel('Desde', { exact: true }).fill(formatDateDMY(d(3)));
    await expect.poll(() => query(page).from).toBe(d(3));
    await page.goBack();
    await expect.poll(() => page.url()).toBe(before);
    await expect.poll(() => page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(d(6)));
  });
});

describe('Dashboard: comparing with the previous period', () => {
  // The comparison is one more answer of the server's (both periods' sums): a fresh page waits for it.
  const COMPARED = { timeout: 5000 };
  const card = (page: Page, key: string) => page.getByTestId(`card-${key}`);
  const text = async (page: Page, key: string, part: string) => ((await card(page, key).getByTestId(part).textContent()) ?? '').trim();

  test("the cards show the range's figure, the previous period's and the change; Trends draws the previous period dashed", async () => {
    const page = await signedIn();
    // SPEC's default: the daily deltas 'ayer vs. día anterior', no comparison.
    await page.getByTestId('delta-revenue').getByText('ayer vs. día anterior').waitFor();
    await page.getByLabel('Publisher', { exact: true }).selectOption('Comparada');
    await page.getByLabel('Desde', { exact: true }).fill(formatDateDMY(d(27)));
    await page.getByLabel('Hasta', { exact: true }).fill(formatDateDMY(d(25)));
    await page.getByLabel('Comparar con el período anterior').check();
    expect(query(page)).toMatchObject({ publisher: 'Comparada', from: d(27), to: d(25), compare: '1' });
    await expect.poll(() => text(page, 'revenue', 'card-previous-value'), COMPARED).toBe('$160,00');

    const expected: Record<string, [string, string, string, 'up' | 'down' | null]> = {
      revenue: ['$200,00', '$160,00', '25,00%', 'up'],
      margin: ['$60,00', '$48,00', '25,00%', 'up'],
      impressions: ['4.000', '2.000', '100,00%', 'up'],
      clicks: ['40', '40', '0,00%', 'down'],
      ctr: ['1,00%', '2,00%', '50,00%', 'down'],
      tq: ['-', '-', '-', null],
    };
    for (const [key, [now, before, change, trend]] of Object.entries(expected)) {
      expect(await text(page, key, 'card-value'), key).toBe(now);
      expect(await text(page, key, 'card-previous-value'), key).toBe(before);
      expect(await text(page, key, 'card-change'), key).toContain(change);
      const arrow = card(page, key).locator('[data-trend]');
      if (trend) expect(await arrow.getAttribute('data-trend'), key).toBe(trend);
      else expect(await arrow.count()).toBe(0);
    }
    // The server says what it compared: a range that is over, whole days against as many before.
    expect(await page.getByTestId('compare-ranges').textContent()).toBe(
      `Período del ${formatDateDMY(d(27))} al ${formatDateDMY(d(25))} · Anterior del ${formatDateDMY(d(30))} al ${formatDateDMY(d(28))} · ` +
        `Días completos: ${formatDateDMY(d(27))} – ${formatDateDMY(d(25))} frente a ${formatDateDMY(d(30))} – ${formatDateDMY(d(28))}.`,
    );
    expect(await text(page, 'revenue', 'card-change')).toContain('(días completos)');
    // The daily deltas give way to the comparison.
    expect(await page.getByTestId('delta-cards').count()).toBe(0);

    const chart = page.getByTestId('trends-chart');
    expect(await chart.getAttribute('data-previous')).toBe('on');
    await expect.poll(() => chart.locator('.trend-previous path[stroke-dasharray="5 4"]').count()).toBe(3);
    await h.screenshot(page, 'dashboard-compare-1440');

    // A pasted link compares too.
    const fresh = await pasted(page.url());
    await expect.poll(() => text(fresh, 'margin', 'card-previous-value'), COMPARED).toBe('$48,00');
    expect(await fresh.getByLabel('Comparar con el período anterior').isChecked()).toBe(true);
    // Switching it off brings back SPEC's cards and leaves compare out of the URL.
    await fresh.getByLabel('Comparar con el período anterior').uncheck();
    await fresh.getByTestId('delta-cards').waitFor();
    expect(query(fresh).compare).toBeUndefined();
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('a range running into today is compared on its complete days only, and the cards say so', async () => {
    const page = await signedIn();
    // Diario Uno earns 90 every day d14..d1 and nothing yet today. The default range (d6..today)
    // against d13..d7 whole would read ▼ 14,29 % (540 against 630); like with like it is 0 %.
    await page.goto(`/dashboard?publisher=${encodeURIComponent('Diario Uno')}&compare=1`);
    await expect.poll(() => text(page, 'revenue', 'card-compared-value'), COMPARED).toBe('$540,00');
    expect(await text(page, 'revenue', 'card-previous-value')).toBe('$540,00');
    expect(await text(page, 'revenue', 'card-change')).toBe('▼baja0,00% (días completos, sin hoy)');
    expect(await page.getByTestId('compare-ranges').textContent()).toContain(
      `Días completos: ${formatDateDMY(d(6))} – ${formatDateDMY(d(1))} frente a ${formatDateDMY(d(13))} – ${formatDateDMY(d(8))} (hoy aún no ha terminado y no cuenta).`,
    );
    // Hoy alone: nothing comparable yet on daily data, said instead of a fall.
    await page.getByLabel('Presets', { exact: true }).selectOption('hoy');
    await expect.poll(() => text(page, 'revenue', 'card-change'), COMPARED).toBe('- (sin comparación)');
    expect(await page.getByTestId('compare-ranges').textContent()).toContain(
      'Sin comparación: hoy aún no ha terminado y el informe de zonas es diario.',
    );
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('at 390 px the compared cards fit their numbers', async () => {
    const page = await h.newPage({ viewport: { width: 390, height: 900 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(`/dashboard?publisher=Comparada&from=${d(27)}&to=${d(25)}&compare=1`);
    await expect.poll(() => text(page, 'revenue', 'card-previous-value'), COMPARED).toBe('$160,00');
    const cut = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid^="card-"]')].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent),
    );
    expect(cut).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await h.screenshot(page, 'dashboard-compare-390');
  });
});

describe('Ad Report', () => {
  const zoneTable = (page: Page) => page.getByRole('table', { name: 'Resumen diario por zona' });
  const card = (page: Page) => page.getByTestId('zone-table');

  // BidSphere's zones matching 'zona-1' (zona-101, 104, 107, 110) on d8..d2: 28 rows, 2 pages of 25.
  async function expectView(page: Page) {
    await card(page).getByText('Página 2 de 2', { exact: true }).waitFor();
    await waitSorted(zoneTable(page), 'Revenue', 'descending');
    expect(await page.getByLabel('Advertiser', { exact: true }).inputValue()).toBe('BidSphere');
    expect(await page.getByLabel('Zone ID', { exact: true }).inputValue()).toBe('zona-1');
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(d(8)));
    expect(await page.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(d(2)));
    expect(await zoneTable(page).locator('tbody tr').count()).toBe(3);
  }

  test('zone search, advertiser, dates, sort and page come back on reload, Back and a pasted link; a preset is kept by name', async () => {
    const page = await signedIn();
    await page.goto('/ad-report');
    await zoneTable(page).locator('tbody tr').nth(5).waitFor();
    expect(new URL(page.url()).search).toBe('');

    await page.getByLabel('Advertiser', { exact: true }).selectOption('BidSphere');
    await page.getByLabel('Zone ID', { exact: true }).fill('zona-1');
    await expect.poll(() => query(page).zone_id).toBe('zona-1');
    await page.getByLabel('Hasta', { exact: true }).fill(formatDateDMY(d(2)));
    await page.getByLabel('Desde', { exact: true }).fill(formatDateDMY(d(8)));
    await expect.poll(() => query(page).from).toBe(d(8));
    await zoneTable(page).locator('thead').getByRole('button', { name: 'Revenue', exact: true }).click();
    await waitSorted(zoneTable(page), 'Revenue', 'ascending');
    await zoneTable(page).locator('thead').getByRole('button', { name: 'Revenue', exact: true }).click();
    await waitSorted(zoneTable(page), 'Revenue', 'descending');
    await card(page).getByText('Página 1 de 2', { exact: true }).waitFor();
    await card(page).getByRole('button', { name: 'Siguiente' }).click();
    await expectView(page);
    expect(query(page)).toEqual({ advertiser: 'BidSphere', zone_id: 'zona-1', from: d(8), to: d(2), sort: 'revenue:desc', page: '2' });
    const link = page.url();

    await page.reload();
    await expectView(page);

    // Back: page 1 of the same view.
    await page.goBack();
    await card(page).getByText('Página 1 de 2', { exact: true }).waitFor();
    expect(query(page).page).toBeUndefined();
    await page.goForward();
    await expectView(page);

    const fresh = await pasted(link);
    await expectView(fresh);
    // A preset is kept by name (a link to 'Ayer' means yesterday when opened); new filters drop the page.
    await fresh.getByLabel('Presets').selectOption({ label: 'Ayer' });
    await card(fresh).getByText('Página 1 de 1', { exact: true }).waitFor();
    expect(query(fresh)).toEqual({ advertiser: 'BidSphere', zone_id: 'zona-1', sort: 'revenue:desc', preset: 'ayer' });
    expect(h.pageErrors(page)).toEqual([]);
    expect(h.pageErrors(fresh)).toEqual([]);
  });
});

describe('Referrers', () => {
  const bar = (page: Page) => page.getByRole('form', { name: 'Filtros de referrers' });

  test('the applied filters and the page come back on reload, Back and a pasted link', async () => {
    const page = await signedIn();
    await page.goto('/referrers');
    await page.getByText('Página 1 de 3').waitFor();
    await bar(page).getByLabel('Source').selectOption('noticias.example');
    // Nothing applied yet: the URL does not change until Aplicar.
    expect(new URL(page.url()).search).toBe('');
    await bar(page).getByRole('button', { name: 'Aplicar' }).click();
    await page.getByText('Página 1 de 2').waitFor();
    await page.getByRole('navigation', { name: 'Paginación' }).getByRole('button', { name: 'Siguiente' }).click();
    await page.getByText('Página 2 de 2').waitFor();
    expect(query(page)).toEqual({ source: 'noticias.example', page: '2' });
    const link = page.url();

    await page.reload();
    await page.getByText('Página 2 de 2').waitFor();
    expect(await bar(page).getByLabel('Source').inputValue()).toBe('noticias.example');

    await page.goBack();
    await page.getByText('Página 1 de 2').waitFor();
    await page.goBack();
    await page.getByText('Página 1 de 3').waitFor();
    expect(await bar(page).getByLabel('Source').inputValue()).toBe('Todos');

    const fresh = await pasted(link);
    await fresh.getByText('Página 2 de 2').waitFor();
    expect(await bar(fresh).getByLabel('Source').inputValue()).toBe('noticias.example');
    expect(h.pageErrors(fresh)).toEqual([]);
  });
});
