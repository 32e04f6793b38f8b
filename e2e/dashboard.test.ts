// Browser tests of the Dashboard: a small known zone report (relative to today, reporting
// time zone UTC) is imported through the ingest endpoint, then the filter bar, cards, deltas,
// Trends chart, top lists and the Analytics table (sort, paging, CSV, rank colours) are checked.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, presetRange, todayIn, formatDateDMY } from '@adops/core';
import { ADMIN, sortTable, startHarness, waitSorted, type Harness } from './harness.js';

let h: Harness;
const TZ = 'UTC';
const today = todayIn(TZ);
const d = (n: number) => addDays(today, -n);

// In the default range (d6..d0):
//  day | advertiser | publisher | zone | impr | m.impr | clicks | revenue | p_revenue (margin) | tq
//  d1  | AdNova     | PubA      | Z-1  | 1000 |  900   |  20    |   100   |  60 (40)           | 0.8
//  d1  | BidSphere  | PubB      | Z-2  | 1000 |  900   |  10    |    50   |  30 (20)           | 0.6
//  d2  | AdNova     | PubA      | Z-1  | 1000 |  900   |  10    |    80   |  50 (30)           | 0.8
//  d2  | Clickora   | PubC      | Z-3  | 1000 |  900   |  10    |    20   |  10 (10)           | 0.4
//  d0  | AdNova     | PubB      | Z-4  |  500 |  400   |   5    |    10   |   5 (5)            | 0.5
//  d3  | BidSphere  | PubE      | Z-0  |  100 |  100   |   0    |     0   |   0 (0)            | —
//  d3  | Clickora   | PubF      | Z-5  |  100 |  100   |   1    |     5   |   3 (2)            | 0.9
//  d3  | Clickora   | PubF      | Z-6  |  100 |  100   |   1    |     3   |   2 (1)            | 0.9
// Totals: revenue 268, margin 108, impressions 4800, clicks 57, CTR 57/4300 monetized = 1,33%,
// TQ (800+600+800+400+250+90+90)/4700 = 0,64. Yesterday against the day before: revenue
// 150/100 +50%, margin 60/40 +50%, impressions 2000/2000 0%, clicks 30/20 +50%, CTR 1,67/1,11 +50%,
// TQ 0,7/0,6 +16,67%. Outside the range: one AdNova/PubA/Z-1 row a day on d8..d20 (revenue n).
const HEADER = 'date,advertiser,publisher,zone_id,geo,source,domain,impressions,monetized_impressions,clicks,revenue,p_revenue,tq';
const ROWS = [
  `${d(1)},AdNova,PubA,Z-1,ES,search,a.com,1000,900,20,100,60,0.8`,
  `${d(1)},BidSphere,PubB,Z-2,MX,social,b.com,1000,900,10,50,30,0.6`,
  `${d(2)},AdNova,PubA,Z-1,ES,search,a.com,1000,900,10,80,50,0.8`,
  `${d(2)},Clickora,PubC,Z-3,US,search,c.com,1000,900,10,20,10,0.4`,
  `${d(0)},AdNova,PubB,Z-4,MX,search,b.com,500,400,5,10,5,0.5`,
  `${d(3)},BidSphere,PubE,Z-0,ES,direct,e.com,100,100,0,0,0,`,
  `${d(3)},Clickora,PubF,Z-5,AR,native,f.com,100,100,1,5,3,0.9`,
  `${d(3)},Clickora,PubF,Z-6,AR,native,f.com,100,100,1,3,2,0.9`,
  ...Array.from({ length: 13 }, (_, i) => `${d(8 + i)},AdNova,PubA,Z-1,ES,search,a.com,100,100,1,${8 + i},${(8 + i) / 2},0.7`),
];

beforeAll(async () => {
  h = await startHarness();
  const { status, body } = await h.importZoneReport([HEADER, ...ROWS].join('\n'));
  expect(status).toBe(200);
  expect(body).toMatchObject({ inserted: ROWS.length, rejected_total: 0 });
});
afterAll(async () => {
  await h?.close();
});

async function openDashboard(): Promise<Page> {
  const page = await h.newPage();
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  await expectText(page.getByTestId('card-revenue'), '$268,00');
  return page;
}

/** Waits until the locator's text contains `text` (reloads are asynchronous). */
async function expectText(locator: ReturnType<Page['locator']>, text: string) {
  await locator.filter({ hasText: text }).first().waitFor();
  expect(await locator.first().textContent()).toContain(text);
}

const analytics = (page: Page) => page.getByRole('table', { name: 'Analytics' });
const bodyRows = (page: Page) => analytics(page).locator('tbody tr');
const cellTexts = async (page: Page, row: number) => (await bodyRows(page).nth(row).locator('td').allTextContents()).map((t) => t.trim());
const pageLabel = (page: Page) => page.getByText(/^Página \d+ de \d+$/);

describe('filters', () => {
  test('opens on the last 7 days including today with Todos in both selects, and Reset returns there', async () => {
    const page = await openDashboard();
    const week = presetRange('ultimos7_hoy', new Date(), TZ);
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(week.from));
    expect(await page.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(today));
    expect(await page.getByLabel('Presets', { exact: true }).inputValue()).toBe('ultimos7_hoy');
    expect(await page.getByLabel('Advertiser', { exact: true }).inputValue()).toBe('Todos');
    const advertisers = await page.getByLabel('Advertiser', { exact: true }).locator('option').allTextContents();
    expect(advertisers).toEqual(['Todos', 'AdNova', 'BidSphere', 'Clickora']);
    const publishers = await page.getByLabel('Publisher', { exact: true }).locator('option').allTextContents();
    expect(publishers[0]).toBe('Todos');
    expect(publishers).toEqual(expect.arrayContaining(['PubA', 'PubB', 'PubC', 'PubE', 'PubF']));
    // One label per reading: the default with today is named apart from the 7 days ending yesterday.
    const presets = await page.getByLabel('Presets', { exact: true }).locator('option').allTextContents();
    expect(presets.slice(0, 6)).toEqual(['Hoy', 'Ayer', 'Últimos 7 días', 'Últimos 7 días (con hoy)', 'Mes actual', 'Mes anterior']);

    await page.getByLabel('Advertiser', { exact: true }).selectOption('Clickora');
    await page.getByLabel('Presets', { exact: true }).selectOption('ayer');
    await expectText(page.getByTestId('card-revenue'), '$0,00');
    await page.getByRole('button', { name: 'Reset' }).click();
    // The view goes through the URL (a navigation): wait for the fields to show it.
    await expect.poll(() => page.getByLabel('Advertiser', { exact: true }).inputValue()).toBe('Todos');
    await expect.poll(() => page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(week.from));
    await expect.poll(() => page.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(today));
    await expectText(page.getByTestId('card-revenue'), '$268,00');
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('presets fill the dates and reload the cards', async () => {
    const page = await openDashboard();
    const presets = page.getByLabel('Presets', { exact: true });
    await presets.selectOption('ayer');
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(d(1)));
    expect(await page.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(d(1)));
    await expectText(page.getByTestId('card-revenue'), '$150,00');
    await presets.selectOption('hoy');
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(today));
    await expectText(page.getByTestId('card-revenue'), '$10,00');
    await presets.selectOption('ultimos7');
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(d(7)));
    expect(await page.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(d(1)));
    await presets.selectOption('mes_anterior');
    const previous = presetRange('mes_anterior', new Date(), TZ);
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(previous.from));
    expect(await page.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(previous.to));
    await presets.selectOption('mes_actual');
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(presetRange('mes_actual', new Date(), TZ).from));
    // Editing a date by hand turns the preset to Personalizado.
    await page.getByLabel('Desde', { exact: true }).fill(d(2));
    expect(await presets.inputValue()).toBe('custom');
  });

  test('a start date after the end date is refused on screen and nothing is asked for', async () => {
    const page = await openDashboard();
    let overviewCalls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/dashboard/overview')) overviewCalls++;
    });
    await page.getByLabel('Desde', { exact: true }).fill(addDays(today, 3));
    await page.getByText('La fecha de inicio debe ser anterior o igual a la de fin').waitFor();
    await page.waitForTimeout(300);
    expect(overviewCalls).toBe(0);
  });
});

describe('cards and deltas', () => {
  test('the six summary cards show the sums of the range', async () => {
    const page = await openDashboard();
    const expected = { revenue: '$268,00', margin: '$108,00', impressions: '4.800', clicks: '57', ctr: '1,33%', tq: '0,64' };
    for (const [key, value] of Object.entries(expected)) await expectText(page.getByTestId(`card-${key}`), value);
    const labels = await page.getByTestId('summary-cards').locator('div.uppercase').allTextContents();
    expect(labels).toEqual(['Revenue', 'Margin', 'Impressions', 'Clicks', 'CTR%', 'TQ Avg']);
  });

  test('deltas show the absolute change of yesterday: green ▲ above 0, red ▼ otherwise, - when there is no base', async () => {
    const page = await openDashboard();
    const delta = (key: string) => page.getByTestId(`delta-${key}`);
    const trend = async (key: string) => delta(key).locator('[data-trend]').getAttribute('data-trend');
    const colour = async (key: string) => delta(key).locator('[data-trend]').getAttribute('class');
    for (const key of ['revenue', 'margin', 'clicks', 'ctr']) {
      await expectText(delta(key), '50,00%');
      expect(await trend(key)).toBe('up');
      expect(await colour(key)).toContain('text-green-700');
    }
    await expectText(delta('tq'), '16,67%');
    expect(await trend('tq')).toBe('up');
    // No change is not a rise: red, arrow down.
    await expectText(delta('impressions'), '0,00%');
    expect(await trend('impressions')).toBe('down');
    expect(await colour('impressions')).toContain('text-red-600');

    // Clickora sold 20 the day before and nothing yesterday: -100 %, shown as 100,00% in red.
    await page.getByLabel('Advertiser', { exact: true }).selectOption('Clickora');
    await expectText(delta('revenue'), '100,00%');
    expect(await trend('revenue')).toBe('down');
    expect(await colour('revenue')).toContain('text-red-600');
    // PubB sold nothing the day before: no base, '-'.
    await page.getByLabel('Advertiser', { exact: true }).selectOption('Todos');
    await page.getByLabel('Publisher', { exact: true }).selectOption('PubB');
    await expectText(page.getByTestId('card-revenue'), '$60,00');
    await page.waitForFunction(() => document.querySelector('[data-testid="delta-revenue"] [data-trend]') === null);
    expect((await delta('revenue').textContent())?.replace('ayer vs. día anterior (días completos)', '').replace('Revenue', '').trim()).toBe('-');
  });
});

describe('Trends chart', () => {
  test('draws revenue, TQ and margin at first; the series buttons add and remove areas', async () => {
    const page = await openDashboard();
    const chart = page.getByTestId('trends-chart');
    await chart.locator('svg.recharts-surface').waitFor();
    expect(await chart.getAttribute('data-series')).toBe('revenue,tq,margin');
    expect(await chart.locator('.recharts-area').count()).toBe(3);
    // TQ has its own axis on the right.
    expect(await chart.locator('.recharts-yAxis').count()).toBe(2);
    const series = page.getByRole('group', { name: 'Series' });
    expect(await series.getByRole('button').allTextContents()).toEqual(['Revenue', 'TQ', 'Margin', 'Clicks', 'Impressions']);

    await series.getByRole('button', { name: 'Clicks' }).click();
    expect(await series.getByRole('button', { name: 'Clicks' }).getAttribute('aria-pressed')).toBe('true');
    expect(await chart.locator('.recharts-area').count()).toBe(4);
    await series.getByRole('button', { name: 'Revenue' }).click();
    expect(await chart.getAttribute('data-series')).toBe('tq,margin,clicks');
    expect(await chart.locator('.recharts-area').count()).toBe(3);
    await series.getByRole('button', { name: 'TQ' }).click();
    expect(await chart.locator('.recharts-yAxis').count()).toBe(1);
    const colours = await chart.locator('.recharts-area-curve').evaluateAll((paths) => paths.map((p) => p.getAttribute('stroke')));
    expect(colours).toEqual(['#22c55e', '#f59e0b']);
  });
});

describe('top lists', () => {
  test('Top Zones lists the five zones with the most revenue as "#rank publisher - zone" with revenue / margin', async () => {
    const page = await h.newPage();
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await expectText(page.getByTestId('card-revenue'), '$268,00');
    const zones = page.getByTestId('top-zones');
    await zones.locator('li').first().waitFor();
    const items = await zones.locator('li').allTextContents();
    expect(items).toEqual([
      '#1 PubA - Z-1$180,00 / $70,00',
      '#2 PubB - Z-2$50,00 / $20,00',
      '#3 PubC - Z-3$20,00 / $10,00',
      '#4 PubB - Z-4$10,00 / $5,00',
      '#5 PubF - Z-5$5,00 / $2,00',
    ]);
    const widths = await zones.locator('[data-bar]').evaluateAll((bars) => bars.map((b) => (b as HTMLElement).style.width));
    expect(widths[0]).toBe('100%');
    expect(parseFloat(widths[1])).toBeCloseTo((50 / 180) * 100, 3);
    // The lists come ranked from the server: the Dashboard never downloads the zone rows.
    expect(asked).toContain('/api/dashboard/top');
    expect(asked).not.toContain('/api/ad-report/zone-details');
  });

  test('Top Advertisers sums the range per advertiser with proportional bars', async () => {
    const page = await openDashboard();
    const list = page.getByTestId('top-advertisers');
    await list.locator('li').first().waitFor();
    expect(await list.locator('li').allTextContents()).toEqual(['#1 AdNova$190,00', '#2 BidSphere$50,00', '#3 Clickora$28,00']);
    const widths = await list.locator('[data-bar]').evaluateAll((bars) => bars.map((b) => parseFloat((b as HTMLElement).style.width)));
    expect(widths[0]).toBe(100);
    expect(widths[2]).toBeCloseTo((28 / 190) * 100, 3);
  });

  test('a range without data shows "Sin datos" in both lists, an empty table and no CSV', async () => {
    const page = await openDashboard();
    await page.getByLabel('Hasta', { exact: true }).fill(addDays(today, 40));
    await page.getByLabel('Desde', { exact: true }).fill(addDays(today, 30));
    await expectText(page.getByTestId('card-revenue'), '$0,00');
    await expectText(page.getByTestId('top-zones'), 'Sin datos');
    await expectText(page.getByTestId('top-advertisers'), 'Sin datos');
    await page.getByText('No hay datos para este rango de fechas.').waitFor();
    expect(await page.getByTestId('card-ctr').textContent()).toContain('-');
    expect(await page.getByRole('button', { name: 'Descargar CSV' }).isDisabled()).toBe(true);
    await h.screenshot(page, 'dashboard-empty');
  });
});

describe('Analytics table', () => {
  test('one row per day with Totales; revenue, P.Revenue and margin coloured from lowest (red) to highest (green)', async () => {
    const page = await openDashboard();
    await bodyRows(page).nth(3).waitFor();
    const headers = (await analytics(page).locator('thead th').allTextContents()).map((t) => t.replace(/[▲▼↕]/g, '').trim());
    expect(headers).toEqual(['Date', 'Impr.', 'M. Impr.', 'Clicks', 'CTR%', 'CPM', 'CPC', 'Rev', 'P.Revenue', 'Marg.', 'Marg %', 'TQ']);
    expect(await bodyRows(page).count()).toBe(4);
    // d1: 2000 impr., 1800 m. impr., 30 clicks, CTR 30/1800 = 1,67 %, CPM 75, CPC 5, rev 150, P.Revenue 90, margin 60, 40 %, TQ 0,70.
    expect(await cellTexts(page, 2)).toEqual([
      formatDateDMY(d(1)),
      '2.000',
      '1.800',
      '30',
      '1,67%',
      '$75,00',
      '$5,00',
      '$150,00',
      '$90,00',
      '$60,00',
      '40,00%',
      '0,70',
    ]);
    const totals = (await analytics(page).locator('tfoot td').allTextContents()).map((t) => t.trim());
    expect(totals).toEqual(['Totales', '4.800', '4.300', '57', '1,33%', '$55,83', '$4,70', '$268,00', '$160,00', '$108,00', '40,30%', '0,64']);
    // Rev column (index 7): d1 is the highest, d3 (8) the lowest.
    const revClass = async (row: number) => bodyRows(page).nth(row).locator('td').nth(7).getAttribute('class');
    expect(await revClass(2)).toContain('bg-green-200');
    expect(await revClass(0)).toContain('bg-red-200');
    // Today is a partial day: marked, and never rank-coloured as if it were a bad one.
    expect((await cellTexts(page, 3))[0]).toBe(`${formatDateDMY(today)} (parcial)`);
    expect(await revClass(3)).not.toMatch(/bg-(red|green)-/);
    await h.screenshot(page, 'dashboard');
  });

  test('a header sorts ascending, the same header toggles, a new header starts ascending', async () => {
    const page = await openDashboard();
    await bodyRows(page).nth(3).waitFor();
    const header = (name: string) => analytics(page).locator('thead').getByRole('button', { name, exact: true });
    const firstCell = async (col: number) => (await cellTexts(page, 0))[col];
    await header('Rev').click();
    await waitSorted(analytics(page), 'Rev', 'ascending');
    expect(await firstCell(7)).toBe('$8,00');
    expect(await analytics(page).locator('th[aria-sort="ascending"]').textContent()).toContain('Rev');
    await header('Rev').click();
    await waitSorted(analytics(page), 'Rev', 'descending');
    expect(await firstCell(7)).toBe('$150,00');
    await header('Clicks').click();
    await waitSorted(analytics(page), 'Clicks', 'ascending');
    expect(await firstCell(3)).toBe('2');
    await header('Date').click();
    await waitSorted(analytics(page), 'Date', 'ascending');
    expect(await firstCell(0)).toBe(formatDateDMY(d(3)));
    await header('Date').click();
    await waitSorted(analytics(page), 'Date', 'descending');
    // Today's row is marked as the partial day it is.
    expect(await firstCell(0)).toBe(`${formatDateDMY(today)} (parcial)`);
    // M. Impr. and Marg % are not sort keys.
    expect(await analytics(page).locator('thead').getByRole('button', { name: 'M. Impr.' }).count()).toBe(0);
  });

  test('Mostrar changes the page size and returns to page 1; Anterior/Siguiente move between pages', async () => {
    const page = await openDashboard();
    await page.getByLabel('Desde', { exact: true }).fill(d(20));
    await pageLabel(page).filter({ hasText: 'Página 1 de 2' }).waitFor();
    expect(await bodyRows(page).count()).toBe(10);
    const pager = page.getByRole('navigation', { name: 'Paginación' });
    expect(await pager.getByRole('button', { name: 'Anterior' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: 'Siguiente' }).click();
    await pageLabel(page).filter({ hasText: 'Página 2 de 2' }).waitFor();
    expect(await bodyRows(page).count()).toBe(7);
    expect(await pager.getByRole('button', { name: 'Siguiente' }).isDisabled()).toBe(true);
    await page.getByLabel('Mostrar').selectOption('25');
    await pageLabel(page).filter({ hasText: 'Página 1 de 1' }).waitFor();
    expect(await bodyRows(page).count()).toBe(17);

    // Changing a filter goes back to page 1 as well.
    await page.getByLabel('Mostrar').selectOption('10');
    await pager.getByRole('button', { name: 'Siguiente' }).click();
    await pageLabel(page).filter({ hasText: 'Página 2 de 2' }).waitFor();
    await page.getByLabel('Advertiser', { exact: true }).selectOption('AdNova');
    await pageLabel(page).filter({ hasText: 'Página 1 de 2' }).waitFor();
  });

  test("'Totales' cover every day of the range on every page, with the TQ Avg card's TQ", async () => {
    const page = await openDashboard();
    await page.getByLabel('Desde', { exact: true }).fill(d(20));
    await pageLabel(page).filter({ hasText: 'Página 1 de 2' }).waitFor();
    await expectText(page.getByTestId('card-revenue'), '$450,00');
    const totals = async () => (await analytics(page).locator('tfoot td').allTextContents()).map((t) => t.trim());
    // 268 in the last week plus 8 + 9 + … + 20 on d8..d20: the 10 rows shown sum far less.
    const first = await totals();
    expect(first[7]).toBe('$450,00');
    expect(first[3]).toBe('70');
    const tqCard = (await page.getByTestId('card-tq').textContent())!.replace('TQ Avg', '').trim();
    expect(first[11]).toBe(tqCard);
    await page.getByRole('navigation', { name: 'Paginación' }).getByRole('button', { name: 'Siguiente' }).click();
    await pageLabel(page).filter({ hasText: 'Página 2 de 2' }).waitFor();
    expect(await totals()).toEqual(first);
  });

  test('Descargar CSV saves resumen_diario.csv with every row in the order shown', async () => {
    const page = await openDashboard();
    await bodyRows(page).nth(3).waitFor();
    await sortTable(analytics(page), 'Rev', 'descending');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('resumen_diario.csv');
    const text = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
    const lines = text.trim().split('\n');
    expect(lines[0]).toBe('Date,Impr.,M. Impr.,Clicks,CTR%,CPM,CPC,Rev,P.Revenue,Marg.,Marg %,TQ');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toBe(`${d(1)},2000,1800,30,1.67,75,5,150,90,60,40,0.7`);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([d(1), d(2), today, d(3)]);
  });
});

test('a failed load is shown on the screen with the server detail', async () => {
  const page = await h.newPage();
  await page.route(/\/api\/dashboard\/overview\?/, (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ detail: 'El warehouse no responde' }) }),
  );
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await page.getByRole('alert').filter({ hasText: 'El warehouse no responde' }).waitFor();
  // The rest of the screen still loads.
  await page.getByTestId('top-zones').locator('li').first().waitFor();
});
