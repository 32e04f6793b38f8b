// Browser tests of the Api Explorer: the revenue cards, today's rows in a table paged by the
// server with 'Totales' of every row (the spec's undefined-page defect fixed), filters and the
// Publisher list, the invalid-range alert that sends nothing, ad_report.csv (every row, from the
// server), the empty state and a failed load.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { addDays, formatDateDMY, startOfMonth, todayIn } from '@adops/core';
import { ADMIN, startHarness, type Harness } from './harness.js';

const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const TODAY = todayIn(TZ);
const YESTERDAY = addDays(TODAY, -1);
const MONTH_START = startOfMonth(TODAY);

interface SeedRow {
  date: string;
  advertiser: string;
  publisher: string;
  zone_id: string;
  geo: string;
  source: string;
  domain: string;
  impressions: number;
  clicks: number;
  revenue: number;
  margin: number;
  tq: number;
}

const row = (
  date: string,
  advertiser: string,
  publisher: string,
  zone_id: string,
  impressions: number,
  clicks: number,
  revenue: number,
  margin: number,
): SeedRow => ({
  date,
  advertiser,
  publisher,
  zone_id,
  geo: 'ES',
  source: 'search',
  domain: 'uno.com',
  impressions,
  clicks,
  revenue,
  margin,
  tq: 0.8,
});

/** Today: two named zones plus 30 small ones (32 rows, so the table has two pages of 25). */
const SEED: SeedRow[] = [
  row(TODAY, 'AdNova', 'Diario Uno', 'z-100', 10_000, 100, 50, 15),
  row(TODAY, 'BidSphere', 'Portal Dos', 'z-200', 5_000, 40, 20, 6),
  ...Array.from({ length: 30 }, (_, i) => row(TODAY, 'AdNova', 'Red Tres', `p-${String(i + 1).padStart(2, '0')}`, 100, 2, 1, 0.25)),
  row(YESTERDAY, 'Clickora', 'Diario Uno', 'z-101', 2_000, 10, 8, 2),
  row(YESTERDAY, 'AdNova', 'Portal Dos', 'z-201', 3_000, 30, 12, 3),
  // Forty days back is always an earlier month: outside 'Revenue Mes'.
  row(addDays(TODAY, -40), 'AdNova', 'Diario Uno', 'z-100', 50_000, 500, 1_000, 300),
  // A publisher with no traffic this month still is a choice in the Publisher list.
  row(addDays(TODAY, -40), 'Clickora', 'Archivo Cuatro', 'z-400', 1_000, 5, 3, 1),
];

const sumRevenue = (rows: SeedRow[]) => rows.reduce((n, r) => n + r.revenue, 0);
/** es-ES dollars as the screens show them ('$1.234,50'). */
const dollars = (n: number) =>
  `$${new Intl.NumberFormat('es-ES', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: 'always' } as Intl.NumberFormatOptions).format(n)}`;

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  const { status, body } = await h.importZoneReport(SEED);
  expect(status).toBe(200);
  expect(body).toMatchObject({ inserted: SEED.length, rejected_total: 0 });
});
afterAll(async () => {
  await h?.close();
});

async function openExplorer(): Promise<Page> {
  const page = await h.newPage();
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/apis');
  await page.getByRole('heading', { name: 'Api Explorer' }).waitFor();
  await page.getByRole('table').waitFor();
  return page;
}

const card = (page: Page, name: string) => page.getByRole('region', { name }).getByTestId('revenue-value');
const bodyRows = (page: Page) => page.locator('table tbody tr');
const cellsOf = async (page: Page, index: number) => (await bodyRows(page).nth(index).locator('td').allInnerTexts()).map((t) => t.trim());

/** Records every Api Explorer report request the page sends from now on. */
function watchReportRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/api/ad-report' || url.pathname === '/api/ad-report/revenue-cards') seen.push(r);
  });
  return seen;
}

describe('Api Explorer', () => {
  test("opens on today's report: four revenue cards and the first page of 25 rows with 'Totales'", async () => {
    const page = await openExplorer();
    const monthRows = SEED.filter((r) => r.date >= MONTH_START && r.date <= TODAY);
    const todayRows = SEED.filter((r) => r.date === TODAY);
    await expect.poll(() => card(page, 'Revenue Hoy').innerText()).toBe(dollars(100));
    expect(await card(page, 'Revenue Ayer').innerText()).toBe(dollars(20));
    expect(await card(page, 'Revenue Mes').innerText()).toBe(dollars(sumRevenue(monthRows)));
    await expect.poll(() => card(page, 'Revenue Filtro').innerText()).toBe(dollars(sumRevenue(todayRows)));

    const headers = (await page.locator('table thead th').allTextContents()).map((t) => t.trim());
    expect(headers).toEqual([
      'Date',
      'Advertiser',
      'Zone ID',
      'Publisher',
      'Impr.',
      'Clicks',
      'CTR%',
      'CPM',
      'CPC',
      'Revenue',
      'Margin',
      'RS%',
      'P.CPM',
      'P.CPC',
      'TQ',
    ]);
    expect(await bodyRows(page).count()).toBe(25);
    // Largest revenue first: z-100 with 10,000 impressions, 100 clicks, $50 revenue, $15 margin.
    expect(await cellsOf(page, 0)).toEqual([
      formatDateDMY(TODAY),
      'AdNova',
      'z-100',
      'Diario Uno',
      '10.000',
      '100',
      '1,00%',
      '$5,00',
      '$0,50',
      '$50,00',
      '$15,00',
      '30,00%',
      '$3,50',
      '$0,35',
      '0,80',
    ]);
    expect(await cellsOf(page, 1)).toEqual([
      formatDateDMY(TODAY),
      'BidSphere',
      'z-200',
      'Portal Dos',
      '5.000',
      '40',
      '0,80%',
      '$4,00',
      '$0,50',
      '$20,00',
      '$6,00',
      '30,00%',
      '$2,80',
      '$0,35',
      '0,80',
    ]);
    // Totals of all 32 rows: 18,000 impressions, 200 clicks, $100 revenue, CPC with 4 decimals.
    const totals = (await page.locator('table tfoot td').allInnerTexts()).map((t) => t.trim());
    expect(totals).toEqual([
      'Totales',
      '',
      '',
      '',
      '18.000',
      '200',
      '1,11%',
      '$5,56',
      '$0,5000',
      '$100,00',
      '$28,50',
      '28,50%',
      '$3,97',
      '$0,36',
      '0,80',
    ]);
    expect(await page.getByText('Página 1 de 2').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Siguiente' }).click();
    await page.getByText('Página 2 de 2').waitFor();
    expect(await bodyRows(page).count()).toBe(7);
    expect((await cellsOf(page, 6))[2]).toBe('p-30');
    // The totals are every row's on every page.
    expect((await page.locator('table tfoot td').allInnerTexts()).map((t) => t.trim())).toEqual(totals);
    expect(await page.getByRole('button', { name: 'Siguiente' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Anterior' }).click();
    await page.getByText('Página 1 de 2').waitFor();
    await h.screenshot(page, 'explorer');
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('Buscar applies zone, advertiser and dates; Publisher lists every publisher of the data', async () => {
    const page = await openExplorer();
    const publisherOptions = () => page.getByLabel('Publisher').locator('option').allInnerTexts();
    await expect.poll(publisherOptions).toEqual(['Todos', 'Archivo Cuatro', 'Diario Uno', 'Portal Dos', 'Red Tres']);
    expect(await page.getByLabel('Advertiser').locator('option').allInnerTexts()).toEqual(['Todos', 'AdNova', 'BidSphere', 'Clickora']);

    await page.getByLabel('Zone ID').fill('z-2');
    await page.getByLabel('Desde', { exact: true }).fill(YESTERDAY);
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect.poll(() => bodyRows(page).count()).toBe(2);
    expect((await cellsOf(page, 0)).slice(0, 4)).toEqual([formatDateDMY(TODAY), 'BidSphere', 'z-200', 'Portal Dos']);
    expect((await cellsOf(page, 1)).slice(0, 4)).toEqual([formatDateDMY(YESTERDAY), 'AdNova', 'z-201', 'Portal Dos']);
    await expect.poll(() => card(page, 'Revenue Filtro').innerText()).toBe(dollars(32));

    await page.getByLabel('Advertiser').selectOption('AdNova');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect.poll(() => bodyRows(page).count()).toBe(1);
    expect((await cellsOf(page, 0))[2]).toBe('z-201');
    await expect.poll(() => card(page, 'Revenue Filtro').innerText()).toBe(dollars(12));
    // The list offers every publisher, not only the current answer's.
    expect(await publisherOptions()).toEqual(['Todos', 'Archivo Cuatro', 'Diario Uno', 'Portal Dos', 'Red Tres']);

    await page.getByLabel('Zone ID').fill('');
    await page.getByLabel('Advertiser').selectOption('Todos');
    await page.getByLabel('Publisher').selectOption('Diario Uno');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect.poll(() => bodyRows(page).count()).toBe(2);
    expect((await cellsOf(page, 0)).slice(1, 4)).toEqual(['AdNova', 'z-100', 'Diario Uno']);
    expect((await cellsOf(page, 1)).slice(1, 4)).toEqual(['Clickora', 'z-101', 'Diario Uno']);
    // The day cards are global: filters never change them.
    expect(await card(page, 'Revenue Hoy').innerText()).toBe(dollars(100));
  });

  test('a reversed or empty range is said where the results were, in place of the old ones, until the dates change; nothing is asked', async () => {
    const page = await openExplorer();
    await expect.poll(() => card(page, 'Revenue Filtro').innerText()).toBe(dollars(100));
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    const requests = watchReportRequests(page);
    const refusal = page.getByRole('alert').filter({ hasText: 'La fecha de inicio debe ser anterior o igual a la de fin' });

    await page.getByLabel('Desde', { exact: true }).fill(TODAY);
    await page.getByLabel('Hasta', { exact: true }).fill(YESTERDAY);
    await page.getByRole('button', { name: 'Buscar' }).click();
    await refusal.waitFor();
    // The old rows and cards are gone: nothing is shown under dates it does not belong to.
    expect(await bodyRows(page).count()).toBe(0);
    expect(await page.getByText('Revenue Filtro').count()).toBe(0);

    await page.getByLabel('Hasta', { exact: true }).fill(TODAY);
    await refusal.waitFor({ state: 'detached' });
    await page.getByLabel('Desde', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.getByRole('alert').filter({ hasText: 'Elige las fechas Desde y Hasta' }).waitFor();
    expect(requests).toEqual([]);
    expect(dialogs).toBe(0);

    // A valid range searches again.
    await page.getByLabel('Desde', { exact: true }).fill(TODAY);
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect.poll(() => bodyRows(page).count()).toBe(25);
  });

  test('Descargar CSV saves ad_report.csv with the table columns and every row (not the page), numbers as shown', async () => {
    const page = await openExplorer();
    await page.getByText('Página 1 de 2').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('ad_report.csv');
    const text = await readFile((await download.path())!, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).trimEnd().split('\n');
    expect(lines[0]).toBe('Date,Advertiser,Zone ID,Publisher,Impr.,Clicks,CTR%,CPM,CPC,Revenue,Margin,RS%,P.CPM,P.CPC,TQ');
    expect(lines).toHaveLength(1 + 32);
    expect(lines[1]).toBe(`${TODAY},AdNova,z-100,Diario Uno,10000,100,1,5,0.5,50,15,30,3.5,0.35,0.8`);
    expect(lines[32]).toBe(`${TODAY},AdNova,p-30,Red Tres,100,2,2,10,0.5,1,0.25,25,7.5,0.38,0.8`);
  });

  test("a range without data shows 'No hay datos para este rango de fechas.' and nothing to download", async () => {
    const page = await openExplorer();
    await page.getByLabel('Desde', { exact: true }).fill('2024-01-10');
    await page.getByLabel('Hasta', { exact: true }).fill('2024-01-20');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.getByText('No hay datos para este rango de fechas.').waitFor();
    expect(await bodyRows(page).count()).toBe(1);
    expect(await page.locator('table tfoot').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Descargar CSV' }).isDisabled()).toBe(true);
    await expect.poll(() => card(page, 'Revenue Filtro').innerText()).toBe(dollars(0));
    await h.screenshot(page, 'explorer-empty');
  });

  test('a report that cannot be loaded shows its error on screen and Buscar works again', async () => {
    const page = await openExplorer();
    await page.route(/\/api\/ad-report\?/, (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.getByRole('alert').filter({ hasText: 'No se pudo conectar con el servidor' }).waitFor();
    expect(await page.getByRole('button', { name: 'Buscar' }).isEnabled()).toBe(true);
    await page.unroute(/\/api\/ad-report\?/);
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect.poll(() => bodyRows(page).count()).toBe(25);
  });
});
