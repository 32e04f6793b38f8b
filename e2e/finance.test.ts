// Browser tests of Finance: month columns from 2025-01 to today, Total column and TOTAL row
// (from the server, exact sums rounded once when shown: the same in both tables, and a footnote
// saying rows may differ from it by rounding), header sorting by the server,
// the domain filter (tables and the 'Margen mensual - {product}' title), the date range inputs
// and the empty states.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { monthsBetween, todayIn, formatDateDMY } from '@adops/core';
import { ADMIN, sortTable, startHarness, waitSorted, type Harness } from './harness.js';

const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const TODAY = todayIn(TZ);
const MONTH_NAMES = ['Ene', 'Feb', 'Mar', 'Abr', 'May', 'Jun', 'Jul', 'Ago', 'Sep', 'Oct', 'Nov', 'Dic'];
const label = (ym: string) => `${MONTH_NAMES[Number(ym.slice(5, 7)) - 1]} ${ym.slice(0, 4)}`;
const CURRENT_MONTH = label(TODAY.slice(0, 7));

const seedRow = (date: string, advertiser: string, publisher: string, domain: string, revenue: number, margin: number) => ({
  date,
  advertiser,
  publisher,
  zone_id: `z-${advertiser}-${date}`,
  geo: 'ES',
  source: 'search',
  domain,
  impressions: 1_000,
  clicks: 10,
  revenue,
  margin,
  tq: 0.7,
});

// Totals: AdNova 160, Clickora 500, BidSphere 1,040.50 — as text "$1.040,50" < "$160,00" < "$500,00",
// so a text sort and a numeric sort give different orders.
const SEED = [
  seedRow('2025-01-15', 'AdNova', 'Diario Uno', 'uno.com', 100, 30),
  seedRow('2025-01-20', 'BidSphere', 'Portal Dos', 'dos.com', 40, 10),
  seedRow('2025-02-10', 'AdNova', 'Portal Dos', 'dos.com', 60, 20),
  seedRow('2025-03-05', 'Clickora', 'Diario Uno', 'uno.com', 500, 100),
  seedRow(TODAY, 'BidSphere', 'Diario Uno', 'uno.com', 1_000.5, 250.25),
  // September 2024 (outside every other test's range): three advertisers' fractions of a cent
  // that only add up to a cent together: each shows 1.000,00, the month 3.000,01.
  seedRow('2024-09-10', 'AdNova', 'Portal Dos', 'uno.com', 1_000.004, 300),
  seedRow('2024-09-11', 'BidSphere', 'Portal Dos', 'uno.com', 1_000.004, 300),
  seedRow('2024-09-12', 'Clickora', 'Portal Dos', 'uno.com', 1_000.004, 300),
];

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

async function openFinance(): Promise<Page> {
  const page = await h.newPage();
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/finance');
  await page.getByRole('heading', { name: 'Finance', exact: true }).waitFor();
  await table(page, 'Revenue mensual - Advertisers').locator('tbody tr').first().waitFor();
  return page;
}

const table = (page: Page, caption: string) => page.locator('table', { has: page.locator('caption', { hasText: caption }) });
const ADVERTISERS = 'Revenue mensual - Advertisers';
const PUBLISHERS = 'Revenue mensual - Publishers';

/** Header texts without the sort arrows. */
async function headers(t: Locator): Promise<string[]> {
  return (await t.locator('thead th').allTextContents()).map((s) => s.replace(/[↕▲▼]/g, '').trim());
}

/** Each body row as { name: cells by header }. */
async function rowsOf(t: Locator): Promise<Record<string, string>[]> {
  const names = await headers(t);
  const out: Record<string, string>[] = [];
  for (const tr of await t.locator('tbody tr').all()) {
    const cells = (await tr.locator('td').allTextContents()).map((s) => s.trim());
    out.push(Object.fromEntries(names.map((n, i) => [n, cells[i]])));
  }
  return out;
}

async function totalRow(t: Locator): Promise<Record<string, string>> {
  const names = await headers(t);
  const cells = (await t.locator('tfoot td').allTextContents()).map((s) => s.trim());
  return Object.fromEntries(names.map((n, i) => [n, cells[i]]));
}

const namesIn = async (t: Locator) => (await t.locator('tbody tr td:first-child').allTextContents()).map((s) => s.trim());

describe('Finance', () => {
  test('a column per month from Ene 2025 to this month, a Total column and a TOTAL row, in $ with es-ES numbers', async () => {
    const page = await openFinance();
    const months = monthsBetween('2025-01-01', TODAY).map(label);
    const adv = table(page, ADVERTISERS);
    expect(await headers(adv)).toEqual(['Advertiser', ...months, 'Total']);
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY('2025-01-01'));
    expect(await page.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(TODAY));

    const rows = await rowsOf(adv);
    expect(rows.map((r) => r.Advertiser)).toEqual(['BidSphere', 'Clickora', 'AdNova']);
    expect(rows[2]).toMatchObject({ 'Ene 2025': '$100,00', 'Feb 2025': '$60,00', 'Mar 2025': '$0,00', Total: '$160,00' });
    expect(rows[0]).toMatchObject({ 'Ene 2025': '$40,00', [CURRENT_MONTH]: '$1.000,50', Total: '$1.040,50' });
    expect(await totalRow(adv)).toMatchObject({
      Advertiser: 'TOTAL',
      'Ene 2025': '$140,00',
      'Feb 2025': '$60,00',
      'Mar 2025': '$500,00',
      'Abr 2025': '$0,00',
      Total: '$1.700,50',
    });

    const pub = table(page, PUBLISHERS);
    expect(await headers(pub)).toEqual(['Publisher', ...months, 'Total']);
    const pubRows = await rowsOf(pub);
    expect(pubRows.map((r) => [r.Publisher, r.Total])).toEqual([
      ['Diario Uno', '$1.600,50'],
      ['Portal Dos', '$100,00'],
    ]);
    expect((await totalRow(pub)).Total).toBe('$1.700,50');
    // The publishers' header is green, the advertisers' is not.
    expect(await pub.locator('thead').getAttribute('class')).toContain('bg-emerald-700');
    expect(await adv.locator('thead').getAttribute('class')).not.toContain('emerald');

    await page.getByRole('heading', { name: 'Margen mensual - Total' }).waitFor();
    const margin = await rowsOf(table(page, 'Margen mensual - Total'));
    expect(margin).toHaveLength(1);
    expect(margin[0]).toMatchObject({
      Producto: 'Total',
      'Ene 2025': '$40,00',
      'Feb 2025': '$20,00',
      'Mar 2025': '$100,00',
      [CURRENT_MONTH]: '$250,25',
      Total: '$410,25',
    });
    await h.screenshot(page, 'finance');
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('clicking a header sorts by its numbers: Total ascending, again descending, a month column ascending', async () => {
    const page = await openFinance();
    const adv = table(page, ADVERTISERS);
    // The server's order before any click: Total, largest first.
    expect(await namesIn(adv)).toEqual(['BidSphere', 'Clickora', 'AdNova']);
    await adv.getByRole('button', { name: 'Total' }).click();
    await waitSorted(adv, 'Total', 'ascending');
    expect(await namesIn(adv)).toEqual(['AdNova', 'Clickora', 'BidSphere']);
    expect(await adv.locator('th[aria-sort="ascending"]').textContent()).toContain('Total');
    await adv.getByRole('button', { name: 'Total' }).click();
    await waitSorted(adv, 'Total', 'descending');
    expect(await namesIn(adv)).toEqual(['BidSphere', 'Clickora', 'AdNova']);
    await adv.getByRole('button', { name: 'Ene 2025' }).click();
    await waitSorted(adv, 'Ene 2025', 'ascending');
    // Ene 2025: Clickora 0, BidSphere 40, AdNova 100.
    expect(await namesIn(adv)).toEqual(['Clickora', 'BidSphere', 'AdNova']);
    // The TOTAL row stays at the bottom whatever the order.
    expect((await totalRow(adv)).Advertiser).toBe('TOTAL');
    await sortTable(adv, 'Advertiser', 'descending');
    expect(await namesIn(adv)).toEqual(['Clickora', 'BidSphere', 'AdNova']);

    const pub = table(page, PUBLISHERS);
    await pub.getByRole('button', { name: 'Total' }).click();
    await waitSorted(pub, 'Total', 'ascending');
    expect(await namesIn(pub)).toEqual(['Portal Dos', 'Diario Uno']);
    // Three advertisers fit one page: no paging shown.
    expect(await page.getByRole('navigation', { name: 'Paginación' }).count()).toBe(0);
  });

  test('the TOTAL row is the same in both tables; each cell is its own amount rounded once, and a footnote says rows may differ from the total', async () => {
    const page = await openFinance();
    await page.getByLabel('Desde', { exact: true }).fill('2024-09-01');
    await page.getByLabel('Hasta', { exact: true }).fill('2024-09-30');
    const adv = table(page, ADVERTISERS);
    const pub = table(page, PUBLISHERS);
    await expect.poll(() => headers(adv)).toEqual(['Advertiser', 'Sep 2024', 'Total']);
    await expect.poll(() => namesIn(pub)).toEqual(['Portal Dos']);
    await adv.locator('tbody tr').nth(2).waitFor();
    const advTotal = await totalRow(adv);
    const pubTotal = await totalRow(pub);
    // 3 × 1.000,004 = 3.000,012: a cent more than the advertisers' amounts shown one by one.
    expect(advTotal).toEqual({ Advertiser: 'TOTAL', 'Sep 2024': '$3.000,01', Total: '$3.000,01' });
    expect(pubTotal).toEqual({ Publisher: 'TOTAL', 'Sep 2024': '$3.000,01', Total: '$3.000,01' });
    expect((await rowsOf(pub))[0]).toMatchObject({ 'Sep 2024': '$3.000,01', Total: '$3.000,01' });
    // Each advertiser shows its own 1.000,004 rounded once (as Demand and the Ad Report show it):
    // no cent is moved to make the rows add up to the TOTAL.
    expect((await rowsOf(adv)).map((r) => r['Sep 2024'])).toEqual(['$1.000,00', '$1.000,00', '$1.000,00']);
    await page.getByText('la suma de las filas puede diferir ligeramente del total').waitFor();
    await h.screenshot(page, 'finance-cents');
  });

  test('the domain filter narrows the revenue tables and the margin table becomes that product', async () => {
    const page = await openFinance();
    await expect.poll(() => page.getByLabel('Domain').locator('option').allTextContents()).toEqual(['Todos', 'dos.com', 'uno.com']);
    await page.getByLabel('Domain').selectOption('uno.com');
    await page.getByRole('heading', { name: 'Margen mensual - uno.com' }).waitFor();
    const margin = table(page, 'Margen mensual - uno.com');
    await margin.locator('tbody tr').first().waitFor();
    expect(await rowsOf(margin)).toEqual([
      expect.objectContaining({
        Producto: 'uno.com',
        'Ene 2025': '$30,00',
        'Feb 2025': '$0,00',
        'Mar 2025': '$100,00',
        [CURRENT_MONTH]: '$250,25',
        Total: '$380,25',
      }),
    ]);
    const adv = table(page, ADVERTISERS);
    await adv.locator('tbody tr').first().waitFor();
    expect((await rowsOf(adv)).map((r) => [r.Advertiser, r.Total])).toEqual([
      ['BidSphere', '$1.000,50'],
      ['Clickora', '$500,00'],
      ['AdNova', '$100,00'],
    ]);

    await page.getByLabel('Domain').selectOption('dos.com');
    await page.getByRole('heading', { name: 'Margen mensual - dos.com' }).waitFor();
    const dos = table(page, 'Margen mensual - dos.com');
    await dos.locator('tbody tr').first().waitFor();
    expect((await rowsOf(dos))[0]).toMatchObject({ Producto: 'dos.com', 'Ene 2025': '$10,00', 'Feb 2025': '$20,00', Total: '$30,00' });
    expect(await namesIn(table(page, PUBLISHERS))).toEqual(['Portal Dos']);
    await h.screenshot(page, 'finance-domain');
  });

  test("a range without data shows 'No hay datos disponibles' and 'No hay datos de margen'", async () => {
    const page = await openFinance();
    await page.getByLabel('Desde', { exact: true }).fill('2024-01-01');
    await page.getByLabel('Hasta', { exact: true }).fill('2024-06-30');
    await expect
      .poll(() => headers(table(page, ADVERTISERS)))
      .toEqual(['Advertiser', 'Ene 2024', 'Feb 2024', 'Mar 2024', 'Abr 2024', 'May 2024', 'Jun 2024', 'Total']);
    await page.getByText('No hay datos de margen').waitFor();
    expect(await page.getByText('No hay datos disponibles').count()).toBe(2);
    expect(await page.locator('tfoot').count()).toBe(0);
    await h.screenshot(page, 'finance-empty');

    // A reversed range is refused on screen and the last valid range stays.
    await page.getByLabel('Hasta', { exact: true }).fill('2023-12-31');
    await page.getByRole('alert').filter({ hasText: 'Rango de fechas no válido' }).waitFor();
    expect(await page.getByText('No hay datos de margen').isVisible()).toBe(true);
  });

  test('a failed load is shown on screen', async () => {
    const page = await openFinance();
    await page.route(/\/api\/finance\/margin\?/, (route) => route.abort('connectionrefused'));
    await page.getByLabel('Domain').selectOption('uno.com');
    await page.getByRole('alert').filter({ hasText: 'No se pudo conectar con el servidor' }).waitFor();
    // The other tables still load.
    await table(page, ADVERTISERS).locator('tbody tr').first().waitFor();
  });
});
