// The issue's money fixture read from the browser (server/test/money-fixture.ts: three advertisers
// whose November revenues are 1,3333 / 1,3333 / 1,3334, monetized impressions below impressions on
// every row): the Dashboard, the Ad Report, the Api Explorer, Demand and Finance show each
// advertiser's November as $1,33, the month as $4,00, and one CTR — clicks over monetized
// impressions (0,78 % for the month, never 0,60 %). rounding.test.ts and cli/test/one-figure.test.ts
// prove the same of the API and of `adops`; money-profit.test.ts of Rentabilidad. Each screen's
// 'Descargar CSV' and 'CSV (Excel España)' add up to the month's $4,00 (3,99 if a file rounded its rows).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { FINANCE_ROUNDING_NOTE, metricHelp, parseCsv, roundTo } from '@adops/core';
import { ADMIN, startHarness, type Harness } from './harness.js';
import { ADVERTISERS, FIXTURE, NOVEMBER } from '../server/test/money-fixture.js';

/**
 * Each advertiser's clicks over its monetized impressions (over all impressions it would read
 * 0,61 %, 0,46 % and 1,00 %): AdNova 19 / 2.550, BidSphere 17 / 2.600, Clickora 13 / 1.100.
 */
const CTR: Record<string, string> = { AdNova: '0,75%', BidSphere: '0,65%', Clickora: '1,18%' };
const RANGE = `from=${NOVEMBER.start_date}&to=${NOVEMBER.end_date}`;

let h: Harness;
let page: Page;

beforeAll(async () => {
  h = await startHarness();
  expect((await h.importZoneReport(FIXTURE)).status).toBe(200);
  page = await h.newPage({ viewport: { width: 1440, height: 900 } });
  await h.signIn(page, ADMIN.email, ADMIN.password);
}, 60_000);
afterAll(async () => {
  await h?.close();
});

/** A table's Totales row as header → cell text, once its body shows `rows` rows. */
async function totalsOf(table: Locator, rows: number): Promise<Record<string, string>> {
  await expect.poll(() => table.locator('tbody tr').count()).toBe(rows);
  const heads = (await table.locator('thead th').allTextContents()).map((t) => t.replace(/[▲▼↕]/g, '').trim());
  const cells = (await table.locator('tfoot td').allTextContents()).map((t) => t.trim());
  expect(cells[0]).toBe('Totales');
  return Object.fromEntries(heads.map((hd, i) => [hd, cells[i]]));
}

/** Waits until the locator's text is `text` (screens reload as the URL's filters apply). */
const shows = (locator: Locator, text: string) => expect.poll(async () => (await locator.textContent())?.trim(), { timeout: 10_000 }).toContain(text);

/** The fixture's November rows of each advertiser: AdNova 3, BidSphere 2, Clickora 1. */
const ROWS: Record<string, number> = { AdNova: 3, BidSphere: 2, Clickora: 1 };

describe('one advertiser and month, the same cents and CTR on every screen', () => {
  test('Dashboard: the Revenue and CTR cards and the Analytics Totales', async () => {
    for (const advertiser of [...ADVERTISERS, null]) {
      await page.goto(`/dashboard?${RANGE}${advertiser ? `&advertiser=${advertiser}` : ''}`);
      const [revenue, ctr] = advertiser ? ['$1,33', CTR[advertiser]] : ['$4,00', '0,78%'];
      await shows(page.getByTestId('card-revenue'), revenue);
      await shows(page.getByTestId('card-ctr'), ctr);
      const days = advertiser ? ROWS[advertiser] : 6;
      const totals = await totalsOf(page.getByRole('table', { name: 'Analytics' }), days);
      expect([totals.Rev, totals['CTR%']], advertiser ?? 'all').toEqual([revenue, ctr]);
    }
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('Ad Report: the zone table’s Totales', async () => {
    for (const advertiser of [...ADVERTISERS, null]) {
      await page.goto(`/ad-report?${RANGE}${advertiser ? `&advertiser=${advertiser}` : ''}`);
      const totals = await totalsOf(page.getByRole('table', { name: 'Resumen diario por zona' }), advertiser ? ROWS[advertiser] : 6);
      expect([totals.Revenue, totals['CTR%']], advertiser ?? 'all').toEqual(advertiser ? ['$1,33', CTR[advertiser]] : ['$4,00', '0,78%']);
    }
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('Api Explorer: the Totales and the Revenue Filtro card', async () => {
    for (const advertiser of [...ADVERTISERS, null]) {
      await page.goto(`/apis?${RANGE}${advertiser ? `&advertiser=${advertiser}` : ''}`);
      const totals = await totalsOf(page.getByRole('table'), advertiser ? ROWS[advertiser] : 6);
      const expected = advertiser ? ['$1,33', CTR[advertiser]] : ['$4,00', '0,78%'];
      expect([totals.Revenue, totals['CTR%']], advertiser ?? 'all').toEqual(expected);
      await shows(page.getByRole('region', { name: 'Revenue Filtro' }).getByTestId('revenue-value'), expected[0]);
    }
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('Demand: each advertiser’s card totals $1,33', async () => {
    await page.goto(`/demand?${RANGE}`);
    const cards = page.getByTestId('advertiser-card');
    await expect.poll(() => cards.count()).toBe(3);
    for (const advertiser of ADVERTISERS) {
      const card = cards.filter({ has: page.getByRole('heading', { name: advertiser, exact: true }) });
      await shows(card.getByTestId('advertiser-revenue'), '$1,33');
    }
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('Finance: each advertiser’s November and Total $1,33, the TOTAL $4,00, and a footnote that rows may differ from it', async () => {
    await page.goto(`/finance?${RANGE}`);
    const table = page.locator('table', { has: page.locator('caption', { hasText: 'Revenue mensual - Advertisers' }) });
    await table.locator('tbody tr', { hasText: 'Clickora' }).waitFor();
    const cells = async (row: Locator) => (await row.locator('td, th').allTextContents()).map((t) => t.trim());
    for (const advertiser of ADVERTISERS)
      expect(await cells(table.locator('tbody tr', { hasText: advertiser }))).toEqual([advertiser, '$1,33', '$1,33']);
    expect(await cells(table.locator('tr', { hasText: /^\s*TOTAL\b/ }))).toEqual(['TOTAL', '$4,00', '$4,00']);
    await page.getByText(FINANCE_ROUNDING_NOTE).first().waitFor();
    expect(h.pageErrors(page)).toEqual([]);
  });
});

/** The file a screen's button saves, as rows of cells (its dialect's separator). */
async function downloaded(button: Locator, excel: boolean): Promise<{ file: string; rows: string[][] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const text = await readFile((await download.path())!, 'utf8');
  return { file: download.suggestedFilename(), rows: parseCsv(text, excel ? ';' : ',') };
}

/** A spreadsheet's SUM of a column, to the cent. */
function columnSum([head, ...body]: string[][], header: string, excel: boolean): number | null {
  const at = head.indexOf(header);
  expect(at, `${header} in ${head.join('|')}`).toBeGreaterThanOrEqual(0);
  return roundTo(
    body.reduce((sum, cells) => sum + Number(excel ? cells[at].replace(',', '.') : cells[at]), 0),
    2,
  );
}

describe('one definition per name, said where the figure is', () => {
  test('CTR% and P.Revenue carry the registry’s definition as their tooltip on the Dashboard, the Ad Report and the Api Explorer', async () => {
    const header = (table: Locator, name: string) => table.locator('thead th').getByRole('button', { name, exact: true });
    await page.goto(`/dashboard?${RANGE}`);
    expect(await page.getByTestId('card-ctr').locator('[title]').first().getAttribute('title')).toBe(metricHelp('ctr'));
    const analytics = page.getByRole('table', { name: 'Analytics' });
    await analytics.locator('tbody tr').first().waitFor();
    expect(await header(analytics, 'CTR%').getAttribute('title')).toBe(metricHelp('ctr'));
    expect(await header(analytics, 'P.Revenue').getAttribute('title')).toBe(metricHelp('p_revenue'));
    await page.goto(`/ad-report?${RANGE}`);
    const zones = page.getByRole('table', { name: 'Resumen diario por zona' });
    await zones.locator('tbody tr').first().waitFor();
    expect(await header(zones, 'CTR%').getAttribute('title')).toBe(metricHelp('ctr'));
    expect(await header(zones, 'P.Revenue').getAttribute('title')).toBe(metricHelp('p_revenue'));
    await page.goto(`/apis?${RANGE}`);
    const explorer = page.getByRole('table');
    await explorer.locator('tbody tr').first().waitFor();
    // Whether a header sorts (the title on its button) or not (on the cell), it says what its figure is.
    const titles = await explorer
      .locator('thead th')
      .evaluateAll((ths) =>
        Object.fromEntries(
          ths.map((th) => [
            (th.textContent ?? '').replace(/[▲▼↕]/g, '').trim(),
            th.getAttribute('title') ?? th.querySelector('[title]')?.getAttribute('title'),
          ]),
        ),
      );
    expect(titles['CTR%']).toBe(metricHelp('ctr'));
  });
});

describe('every screen’s CSV, in both flavours, adds up to the month’s $4,00', () => {
  const screens: ReadonlyArray<{ path: string; ready: (p: Page) => Promise<unknown>; column: string; file: RegExp }> = [
    {
      path: '/dashboard',
      ready: (p) => p.getByRole('table', { name: 'Analytics' }).locator('tbody tr').nth(5).waitFor(),
      column: 'Rev',
      file: /^resumen_diario\.csv$/,
    },
    {
      path: '/ad-report',
      ready: (p) => p.getByRole('table', { name: 'Resumen diario por zona' }).locator('tbody tr').nth(5).waitFor(),
      column: 'revenue',
      file: /^adreport_zonas\.csv$/,
    },
    { path: '/apis', ready: (p) => p.getByRole('table').locator('tbody tr').nth(5).waitFor(), column: 'Revenue', file: /^ad_report\.csv$/ },
    { path: '/demand', ready: (p) => p.getByTestId('advertiser-card').nth(2).waitFor(), column: 'Revenue', file: /^demand_/ },
  ];
  for (const { path, ready, column, file } of screens)
    test(`${path}: the ${column} column`, async () => {
      await page.goto(`${path}?${RANGE}`);
      await ready(page);
      for (const excel of [false, true]) {
        const button = page.getByRole('button', { name: excel ? 'CSV (Excel España)' : 'Descargar CSV', exact: true }).first();
        const csv = await downloaded(button, excel);
        expect(csv.file).toMatch(file);
        expect(columnSum(csv.rows, column, excel), `${path} ${excel ? 'excel-es' : 'standard'}`).toBe(4);
      }
      expect(h.pageErrors(page)).toEqual([]);
    });

  test('/finance: the advertisers’ November column, and its TOTAL line', async () => {
    await page.goto(`/finance?${RANGE}`);
    await page.locator('tbody tr', { hasText: 'Clickora' }).first().waitFor();
    for (const excel of [false, true]) {
      const button = page.getByRole('button', { name: excel ? 'CSV (Excel España)' : 'Descargar CSV', exact: true }).first();
      const { rows } = await downloaded(button, excel);
      const total = rows.at(-1)!;
      expect(total[0]).toBe('TOTAL');
      expect(columnSum(rows.slice(0, -1), '2025-11', excel)).toBe(4);
      expect(total.slice(1)).toEqual(['4', '4']);
    }
  });
});
