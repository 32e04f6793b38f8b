// Browser tests of the Ad Report: a known zone report (relative to today, reporting time zone
// UTC) is imported through the ingest endpoint, then filters, presets, sorting with missing
// values last, paging, 'Descargar CSV' (every matching row, in both CSV flavours), the summary
// tables, empty and error states are checked.
// A 50,000-row fixture two months back proves the server sorts, totals and exports the whole
// result: the top row by revenue sits past row 45,000 of the default order.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, todayIn, formatDateDMY, formatNumber } from '@adops/core';
import { ADMIN, holdRequests, sortTable, startHarness, waitSorted, type Harness } from './harness.js';

let h: Harness;
const TZ = 'UTC';
const today = todayIn(TZ);
const d = (n: number) => addDays(today, -n);

const ADVERTISERS = ['AdNova', 'BidSphere', 'Clickora'];
const GEOS = ['ES', 'MX'];
const SOURCES = ['search', 'social', 'direct'];

// Zone Z-i (i = 1..30) on day d(1 + i % 7), so all inside the default range d7..d1:
// impressions 100·i, monetized 50·i (missing when i is a multiple of 4), clicks i, revenue i,
// p_revenue 0,6·i (margin 0,4·i), tq i/100 (missing when i is a multiple of 5); PubB owns Z-1..Z-5.
// Totals: impressions 46.500, monetized 17.650, clicks 465, revenue 465, p_revenue 279,
// margin 186; CTR 465 / 28.850 (monetized, else impressions) = 1,61 %; TQ 0,20.
// Outside the default range: Z-TODAY today (revenue 999) and Z-OLD on d8.
interface Seeded {
  i: number;
  date: string;
  advertiser: string;
  publisher: string;
  zone: string;
  geo: string;
  source: string;
}
const ZONES: Seeded[] = Array.from({ length: 30 }, (_, k) => {
  const i = k + 1;
  return {
    i,
    date: d(1 + (i % 7)),
    advertiser: ADVERTISERS[i % 3],
    publisher: i <= 5 ? 'PubB' : 'PubA',
    zone: `Z-${i}`,
    geo: GEOS[i % 2],
    source: SOURCES[i % 3],
  };
});
const HEADER = 'date,advertiser,publisher,zone_id,geo,source,domain,impressions,monetized_impressions,clicks,revenue,p_revenue,tq';
const ROWS = [
  ...ZONES.map(
    (z) =>
      `${z.date},${z.advertiser},${z.publisher},${z.zone},${z.geo},${z.source},x.com,${100 * z.i},${z.i % 4 ? 50 * z.i : ''},${z.i},${z.i},${(0.6 * z.i).toFixed(2)},${z.i % 5 ? z.i / 100 : ''}`,
  ),
  `${d(0)},AdNova,PubA,Z-TODAY,ES,search,x.com,1000,1000,10,999,600,0.9`,
  `${d(8)},AdNova,PubA,Z-OLD,ES,search,x.com,1000,1000,10,50,30,0.9`,
];

// 50,000 rows on d69..d60 (5,000 zones a day, PubBig): revenue 0,00–99,99, except B-MAX on the
// oldest day (d69) with 5.000,00 — last day of the default order (date desc), so past row 45,000.
const BIG_DAYS = 10;
const BIG_PER_DAY = 5_000;
const BIG_ROWS = BIG_DAYS * BIG_PER_DAY;
const bigFrom = d(60 + BIG_DAYS - 1);
const bigTo = d(60);
interface BigRow {
  date: string;
  zone: string;
  impressions: number;
  clicks: number;
  cents: number;
}
const BIG: BigRow[] = [];
for (let k = 0; k < BIG_DAYS; k++)
  for (let j = 0; j < BIG_PER_DAY; j++) {
    const max = k === BIG_DAYS - 1 && j === BIG_PER_DAY - 1;
    BIG.push({
      date: d(60 + k),
      zone: max ? 'B-MAX' : `B-${k}-${j}`,
      impressions: 100 + (j % 50),
      clicks: j % 7,
      cents: max ? 500_000 : (j * 7919 + k * 104_729) % 10_000,
    });
  }
const BIG_CSV = [
  'date,advertiser,publisher,zone_id,geo,source,domain,impressions,clicks,revenue',
  ...BIG.map(
    (r, i) => `${r.date},${ADVERTISERS[i % 3]},PubBig,${r.zone},ES,search,big.com,${r.impressions},${r.clicks},${(r.cents / 100).toFixed(2)}`,
  ),
].join('\n');
const esInt = (n: number) =>
  new Intl.NumberFormat('es-ES', { useGrouping: 'always', maximumFractionDigits: 0 } as Intl.NumberFormatOptions).format(n);
const esDollars = (cents: number) =>
  `$${new Intl.NumberFormat('es-ES', { useGrouping: 'always', minimumFractionDigits: 2, maximumFractionDigits: 2 } as Intl.NumberFormatOptions).format(cents / 100)}`;

beforeAll(async () => {
  h = await startHarness();
  const { status, body } = await h.importZoneReport([HEADER, ...ROWS].join('\n'));
  expect(status).toBe(200);
  expect(body).toMatchObject({ inserted: ROWS.length, rejected_total: 0 });
  const big = await h.importZoneReport(BIG_CSV);
  expect(big.status).toBe(200);
  expect(big.body).toMatchObject({ inserted: BIG_ROWS, rejected_total: 0 });
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const zoneTable = (page: Page) => page.getByRole('table', { name: 'Resumen diario por zona' });
const zoneCard = (page: Page) => page.getByTestId('zone-table');
const zoneRows = (page: Page) => zoneTable(page).locator('tbody tr');
/** The zone ids of the rows shown, in order. */
const zoneIds = async (page: Page) => zoneRows(page).locator('td:nth-child(4)').allTextContents();
const column = async (page: Page, n: number) => (await zoneRows(page).locator(`td:nth-child(${n})`).allTextContents()).map((t) => t.trim());
const label = (page: Page, text: string) => zoneCard(page).getByText(text, { exact: true });
const header = (page: Page, name: string) => zoneTable(page).locator('thead').getByRole('button', { name, exact: true });
const sortedBy = (page: Page, name: string, dir: 'ascending' | 'descending', table = zoneTable(page)) => waitSorted(table, name, dir);
const sortBy = (page: Page, name: string, dir: 'ascending' | 'descending', table = zoneTable(page)) => sortTable(table, name, dir);

async function openAdReport(): Promise<Page> {
  const page = await h.newPage();
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/ad-report');
  await page.getByRole('heading', { name: 'Ad Report' }).waitFor();
  await label(page, 'Página 1 de 2').waitFor();
  return page;
}

describe('filters and presets', () => {
  test('opens on the 7 days ending yesterday with every select on Todos', async () => {
    const page = await openAdReport();
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(d(7)));
    expect(await page.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(d(1)));
    for (const name of ['Advertiser', 'Publisher', 'Geo', 'Source']) {
      const options = await page.getByLabel(name, { exact: true }).locator('option').allTextContents();
      expect(options[0]).toBe('Todos');
      expect(await page.getByLabel(name, { exact: true }).inputValue()).toBe('Todos');
    }
    expect(await page.getByLabel('Geo', { exact: true }).locator('option').allTextContents()).toEqual(['Todos', 'ES', 'MX']);
    expect(await page.getByLabel('Source', { exact: true }).locator('option').allTextContents()).toEqual(['Todos', 'direct', 'search', 'social']);
    const presets = await page.getByLabel('Presets', { exact: true }).locator('option').allTextContents();
    expect(presets.slice(0, 6)).toEqual(['Hoy', 'Ayer', 'Últimos 7 días', 'Últimos 7 días (con hoy)', 'Mes actual', 'Mes anterior']);
    // Today's and older rows are outside the default range.
    expect(await zoneCard(page).getByText('30 filas', { exact: true }).count()).toBe(1);
    await zoneCard(page).getByLabel('Mostrar').selectOption('100');
    await label(page, 'Página 1 de 1').waitFor();
    const ids = await zoneIds(page);
    expect(ids).toHaveLength(30);
    expect(ids).not.toContain('Z-TODAY');
    expect(ids).not.toContain('Z-OLD');
    await h.screenshot(page, 'adreport');
  });

  test('presets fill the dates and reload: Hoy shows only today', async () => {
    const page = await openAdReport();
    await page.getByLabel('Presets', { exact: true }).selectOption('hoy');
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(today));
    expect(await page.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(today));
    await label(page, 'Página 1 de 1').waitFor();
    expect(await zoneIds(page)).toEqual(['Z-TODAY']);
    expect(await column(page, 15)).toEqual(['$999,00']);
    await page.getByLabel('Presets', { exact: true }).selectOption('ayer');
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(d(1)));
    await zoneTable(page).getByText('Z-7', { exact: true }).waitFor();
    expect((await zoneIds(page)).sort()).toEqual(['Z-14', 'Z-21', 'Z-28', 'Z-7']);
  });

  test('changing a filter reloads and returns to page 1; Reset clears every filter', async () => {
    const page = await openAdReport();
    await zoneCard(page).getByRole('button', { name: 'Siguiente' }).click();
    await label(page, 'Página 2 de 2').waitFor();
    await page.getByLabel('Publisher', { exact: true }).selectOption('PubB');
    await label(page, 'Página 1 de 1').waitFor();
    expect((await zoneIds(page)).sort()).toEqual(['Z-1', 'Z-2', 'Z-3', 'Z-4', 'Z-5']);

    await page.getByLabel('Publisher', { exact: true }).selectOption('Todos');
    await label(page, 'Página 1 de 2').waitFor();
    await page.getByLabel('Zone ID', { exact: true }).fill('z-1');
    await label(page, 'Página 1 de 1').waitFor();
    expect((await zoneIds(page)).sort()).toEqual(['Z-1', 'Z-10', 'Z-11', 'Z-12', 'Z-13', 'Z-14', 'Z-15', 'Z-16', 'Z-17', 'Z-18', 'Z-19']);

    await page.getByLabel('Geo', { exact: true }).selectOption('MX');
    await zoneCard(page).getByText('6 filas', { exact: true }).waitFor();
    expect(new Set(await column(page, 5))).toEqual(new Set(['MX']));
    await page.getByLabel('Source', { exact: true }).selectOption('social');
    await zoneCard(page).getByText('3 filas', { exact: true }).waitFor();
    expect((await zoneIds(page)).sort()).toEqual(['Z-1', 'Z-13', 'Z-19']);
    // Those three are BidSphere's: AdNova has none of them.
    await page.getByLabel('Advertiser', { exact: true }).selectOption('AdNova');
    await zoneCard(page).getByText('No hay datos para estos filtros.').waitFor();

    await page.getByRole('button', { name: 'Reset' }).click();
    await label(page, 'Página 1 de 2').waitFor();
    expect(await page.getByLabel('Zone ID', { exact: true }).inputValue()).toBe('');
    for (const name of ['Advertiser', 'Publisher', 'Geo', 'Source']) expect(await page.getByLabel(name, { exact: true }).inputValue()).toBe('Todos');
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(d(7)));
    expect(h.pageErrors(page)).toEqual([]);
  });
});

describe('zone table', () => {
  test('has the 19 columns and a Totales row over every matching row', async () => {
    const page = await openAdReport();
    const headers = (await zoneTable(page).locator('thead th').allTextContents()).map((t) => t.replace(/[▲▼↕]/g, '').trim());
    // SPEC's labels on screen (the CSV keeps adreport_zonas.csv's own headers).
    expect(headers).toEqual([
      'Date',
      'Advertiser',
      'Publisher',
      'Zone ID',
      'Geo',
      'Source',
      'Impr.',
      'M. Impr.',
      'Clicks',
      'CTR%',
      'P.CPM',
      'P.CPC',
      'P.Revenue',
      'TQ',
      'Revenue',
      'Margin',
      'CPM',
      'CPC',
      'RS%',
    ]);
    const totals = (await zoneTable(page).locator('tfoot td').allTextContents()).map((t) => t.trim());
    expect(totals).toEqual([
      'Totales',
      '',
      '',
      '',
      '',
      '',
      '46.500',
      '17.650',
      '465',
      '1,61%',
      '$6,00',
      '$0,60',
      '$279,00',
      '0,20',
      '$465,00',
      '$186,00',
      '$10,00',
      '$1,00',
      '40,00%',
    ]);
    // Z-8 had no monetized impressions: '-' there, CTR on impressions (8/800 = 1 %).
    await page.getByLabel('Zone ID', { exact: true }).fill('Z-8');
    await label(page, 'Página 1 de 1').waitFor();
    const cells = (await zoneRows(page).first().locator('td').allTextContents()).map((t) => t.trim());
    expect(cells.slice(3)).toEqual([
      'Z-8',
      'ES',
      'direct',
      '800',
      '-',
      '8',
      '1,00%',
      '$6,00',
      '$0,60',
      '$4,80',
      '0,08',
      '$8,00',
      '$3,20',
      '$10,00',
      '$1,00',
      '40,00%',
    ]);
  });

  test('headers toggle ascending/descending with an arrow and missing values stay last both ways', async () => {
    const page = await openAdReport();
    await zoneCard(page).getByLabel('Mostrar').selectOption('100');
    await label(page, 'Página 1 de 1').waitFor();
    await header(page, 'TQ').click();
    await sortedBy(page, 'TQ', 'ascending');
    let tq = await column(page, 14);
    expect(tq[0]).toBe('0,01');
    expect(tq.slice(-6)).toEqual(Array(6).fill('-'));
    expect(tq.slice(0, -6)).not.toContain('-');
    expect(await zoneTable(page).locator('th[aria-sort="ascending"]').textContent()).toBe('TQ▲');

    await header(page, 'TQ').click();
    await sortedBy(page, 'TQ', 'descending');
    tq = await column(page, 14);
    expect(tq[0]).toBe('0,29');
    expect(tq.slice(-6)).toEqual(Array(6).fill('-'));
    expect(await zoneTable(page).locator('th[aria-sort="descending"]').textContent()).toBe('TQ▼');

    await header(page, 'M. Impr.').click();
    await sortedBy(page, 'M. Impr.', 'ascending');
    const monetized = await column(page, 8);
    expect(monetized[0]).toBe('50');
    expect(monetized.slice(-7)).toEqual(Array(7).fill('-'));
    await header(page, 'Zone ID').click();
    await sortedBy(page, 'Zone ID', 'ascending');
    // Zone ids are text: Spanish collation, so Z-10 comes before Z-2.
    expect((await zoneIds(page)).slice(0, 4)).toEqual(['Z-1', 'Z-10', 'Z-11', 'Z-12']);
  });

  test('page size 10/25/50/100 (25 at first) returns to page 1; Anterior/Siguiente are disabled at the ends', async () => {
    const page = await openAdReport();
    expect(await zoneCard(page).getByLabel('Mostrar').inputValue()).toBe('25');
    expect(await zoneCard(page).getByLabel('Mostrar').locator('option').allTextContents()).toEqual(['10', '25', '50', '100']);
    expect(await zoneRows(page).count()).toBe(25);
    const prev = zoneCard(page).getByRole('button', { name: 'Anterior' });
    const next = zoneCard(page).getByRole('button', { name: 'Siguiente' });
    expect(await prev.isDisabled()).toBe(true);
    await next.click();
    await label(page, 'Página 2 de 2').waitFor();
    expect(await zoneRows(page).count()).toBe(5);
    expect(await next.isDisabled()).toBe(true);
    expect(await prev.isDisabled()).toBe(false);
    await zoneCard(page).getByLabel('Mostrar').selectOption('10');
    await label(page, 'Página 1 de 3').waitFor();
    expect(await zoneRows(page).count()).toBe(10);
    // A header click sorts the whole result and goes back to page 1 too.
    await next.click();
    await label(page, 'Página 2 de 3').waitFor();
    await sortBy(page, 'Clicks', 'descending');
    await label(page, 'Página 1 de 3').waitFor();
    expect((await zoneIds(page))[0]).toBe('Z-30');
  });

  test('Descargar CSV saves adreport_zonas.csv with every matching row (not only the page shown), in the order shown, and 19 columns', async () => {
    const page = await openAdReport();
    await zoneCard(page).getByLabel('Mostrar').selectOption('10');
    await label(page, 'Página 1 de 3').waitFor();
    await sortBy(page, 'Revenue', 'ascending');
    await zoneCard(page).getByRole('button', { name: 'Siguiente' }).click();
    await label(page, 'Página 2 de 3').waitFor();
    expect(await zoneIds(page)).toEqual(['Z-11', 'Z-12', 'Z-13', 'Z-14', 'Z-15', 'Z-16', 'Z-17', 'Z-18', 'Z-19', 'Z-20']);
    const [download] = await Promise.all([page.waitForEvent('download'), zoneCard(page).getByRole('button', { name: 'Descargar CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('adreport_zonas.csv');
    const text = await readFile((await download.path())!, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).trim().split('\n');
    expect(lines[0]).toBe(
      'date,advertiser,publisher,zone_id,geo,source,impressions,monetized_impressions,clicks,CTR%,P.CPM,P.CPC,P.Revenue,TQ,revenue,margin,CPM,CPC,RS%',
    );
    // Every one of the 30 rows of the range, by revenue ascending as on screen.
    expect(lines).toHaveLength(1 + 30);
    expect(lines.slice(1).map((l) => l.split(',')[3])).toEqual(ZONES.map((z) => z.zone));
    // Z-15: no TQ (empty field); Z-16: no monetized impressions.
    const z = ZONES[14];
    expect(lines[15]).toBe(`${z.date},${z.advertiser},PubA,Z-15,${z.geo},${z.source},1500,750,15,2,6,0.6,9,,15,6,10,1,40`);
    expect(lines[16].split(',').slice(6, 10)).toEqual(['1600', '', '16', '1']);
    // No page-only download is left under another name.
    expect(
      await zoneCard(page)
        .getByRole('button', { name: /página|Exportar todo/i })
        .count(),
    ).toBe(0);
  });

  test('CSV (Excel España) saves the same rows with semicolons, decimal commas and dates dd/MM/yyyy; its revenue column adds up to Totales', async () => {
    const page = await openAdReport();
    await sortBy(page, 'Revenue', 'ascending');
    const [download] = await Promise.all([page.waitForEvent('download'), zoneCard(page).getByRole('button', { name: 'CSV (Excel España)' }).click()]);
    expect(download.suggestedFilename()).toBe('adreport_zonas.csv');
    const text = await readFile((await download.path())!, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'date;advertiser;publisher;zone_id;geo;source;impressions;monetized_impressions;clicks;CTR%;P.CPM;P.CPC;P.Revenue;TQ;revenue;margin;CPM;CPC;RS%',
    );
    expect(lines).toHaveLength(1 + 30);
    const z = ZONES[14];
    expect(lines[15]).toBe(`${formatDateDMY(z.date)};${z.advertiser};PubA;Z-15;${z.geo};${z.source};1500;750;15;2;6;0,6;9;;15;6;10;1;40`);
    const revenue = lines.slice(1).reduce((sum, l) => sum + Number(l.split(';')[14].replace(',', '.')), 0);
    expect(formatNumber(revenue, 2)).toBe('465,00');
    expect(await zoneTable(page).locator('tfoot').innerText()).toContain('465,00');
  });

  test('filters that match nothing show the empty state, an empty CSV button and empty summaries', async () => {
    const page = await openAdReport();
    await page.getByLabel('Zone ID', { exact: true }).fill('no-existe');
    await zoneCard(page).getByText('No hay datos para estos filtros.').waitFor();
    expect(await zoneCard(page).getByRole('button', { name: 'Descargar CSV' }).isDisabled()).toBe(true);
    expect(await zoneCard(page).getByRole('button', { name: 'CSV (Excel España)' }).isDisabled()).toBe(true);
    expect(await zoneTable(page).locator('tfoot').count()).toBe(0);
    await page.getByTestId('publisher-table').getByText('No hay datos para estos filtros.').waitFor();
    await page.getByTestId('advertiser-table').getByText('No hay datos para estos filtros.').waitFor();
    await label(page, 'Página 1 de 1').waitFor();
  });
});

describe('summary tables', () => {
  test("'Resumen publisher' and 'Resumen advertiser' add Date and Publisher / Advertiser columns, a row per day and name", async () => {
    const page = await openAdReport();
    const publishers = page.getByRole('table', { name: 'Resumen publisher' });
    await publishers.locator('tbody tr').first().waitFor();
    const heads = (await publishers.locator('thead th').allTextContents()).map((t) => t.replace(/[▲▼↕]/g, '').trim());
    expect(heads.slice(0, 3)).toEqual(['Date', 'Publisher', 'Impr.']);
    expect(heads).toHaveLength(15);
    // PubB: Z-1..Z-5 on five different days; PubA on all 7: 12 rows, 10 a page.
    await page.getByTestId('publisher-table').getByText('12 filas', { exact: true }).waitFor();
    await page.getByTestId('publisher-table').getByText('Página 1 de 2').waitFor();
    const totals = (await publishers.locator('tfoot td').allTextContents()).map((t) => t.trim());
    expect(totals.slice(0, 3)).toEqual(['Totales', '', '46.500']);
    expect(totals[totals.length - 3]).toBe('$10,00');

    await page.getByLabel('Publisher', { exact: true }).selectOption('PubB');
    await page.getByTestId('publisher-table').getByText('5 filas', { exact: true }).waitFor();
    expect(new Set(await publishers.locator('tbody td:nth-child(2)').allTextContents())).toEqual(new Set(['PubB']));

    const advertisers = page.getByRole('table', { name: 'Resumen advertiser' });
    expect((await advertisers.locator('thead th').allTextContents()).map((t) => t.replace(/[▲▼↕]/g, '').trim()).slice(0, 2)).toEqual([
      'Date',
      'Advertiser',
    ]);
    // PubB's five zones: Z-1 (BidSphere), Z-2 (Clickora), Z-3 (AdNova), Z-4 (BidSphere), Z-5 (Clickora).
    await page.getByTestId('advertiser-table').getByText('5 filas', { exact: true }).waitFor();
    await sortBy(page, 'Revenue', 'descending', advertisers);
    const first = (await advertisers.locator('tbody tr').first().locator('td').allTextContents()).map((t) => t.trim());
    expect(first.slice(0, 2)).toEqual([formatDateDMY(ZONES[4].date), 'Clickora']);
    expect(first[first.length - 5]).toBe('$5,00');
    await h.screenshot(page, 'adreport-pubb');
  });
});

test('a failed load is shown on the screen with the server detail while the rest still loads', async () => {
  const page = await h.newPage();
  await page.route(/\/api\/ad-report\/publisher-summary\?/, (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'Resumen no disponible' }) }),
  );
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/ad-report');
  await page.getByRole('alert').filter({ hasText: 'Resumen no disponible' }).waitFor();
  await label(page, 'Página 1 de 2').waitFor();
});

describe('the whole result, not a page of it (50,000 rows)', () => {
  async function openBigRange(): Promise<Page> {
    const page = await openAdReport();
    await page.getByLabel('Desde', { exact: true }).fill(bigFrom);
    await page.getByLabel('Hasta', { exact: true }).fill(bigTo);
    await zoneCard(page).getByText('50.000 filas', { exact: true }).waitFor();
    return page;
  }
  const totalsRow = async (page: Page) => (await zoneTable(page).locator('tfoot td').allTextContents()).map((t) => t.trim());

  test('sorting by revenue descending shows the true maximum on page 1, though it sits past row 45,000 of the default order', async () => {
    const page = await openBigRange();
    await label(page, 'Página 1 de 2000').waitFor();
    // Default order: newest day first, so B-MAX (oldest day) is nowhere near the first page.
    expect(new Set(await column(page, 1))).toEqual(new Set([formatDateDMY(bigTo)]));
    expect(await zoneIds(page)).not.toContain('B-MAX');

    await sortBy(page, 'Revenue', 'descending');
    expect((await zoneIds(page))[0]).toBe('B-MAX');
    expect((await column(page, 15))[0]).toBe('$5.000,00');
    expect((await column(page, 1))[0]).toBe(formatDateDMY(bigFrom));
    await label(page, 'Página 1 de 2000').waitFor();
    // The rest of page 1 is the next largest revenues of all 50,000 rows, in order.
    const expected = [...BIG]
      .sort((a, b) => b.cents - a.cents)
      .slice(0, 25)
      .map((r) => esDollars(r.cents));
    expect(await column(page, 15)).toEqual(expected);
    await h.screenshot(page, 'adreport-top-n');
  });

  test("'Totales' are the totals of every matching row, the same on every page", async () => {
    const page = await openBigRange();
    const cents = BIG.reduce((n, r) => n + r.cents, 0);
    const impressions = BIG.reduce((n, r) => n + r.impressions, 0);
    const clicks = BIG.reduce((n, r) => n + r.clicks, 0);
    const first = await totalsRow(page);
    expect(first[0]).toBe('Totales');
    expect(first[6]).toBe(esInt(impressions));
    expect(first[8]).toBe(esInt(clicks));
    expect(first[14]).toBe(esDollars(cents));
    // Not the page's: the 25 rows shown add up to far less.
    const pageCents = (await column(page, 15)).reduce((n, t) => n + Math.round(Number(t.replace(/[$.]/g, '').replace(',', '.')) * 100), 0);
    expect(pageCents).toBeLessThan(cents / 100);

    await zoneCard(page).getByRole('button', { name: 'Siguiente' }).click();
    await label(page, 'Página 2 de 2000').waitFor();
    expect(await totalsRow(page)).toEqual(first);
    await zoneCard(page).getByLabel('Mostrar').selectOption('100');
    await label(page, 'Página 1 de 500').waitFor();
    expect(await totalsRow(page)).toEqual(first);
  });

  test("'Descargar CSV' downloads every matching row of a 50,000-row range in the order shown, saying 'Exportando…' meanwhile", async () => {
    const page = await openBigRange();
    await sortBy(page, 'Revenue', 'descending');
    // The export waits until its busy state has been seen.
    const exporting = await holdRequests(page, /\/api\/ad-report\/zone-details\?.*format=csv/);
    const exportAll = zoneCard(page).getByRole('button', { name: /^(Descargar CSV|Exportando…)$/ });
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      (async () => {
        await exportAll.click();
        await zoneCard(page).getByRole('button', { name: 'Exportando…' }).waitFor();
        expect(await zoneCard(page).getByRole('button', { name: 'Exportando…' }).isDisabled()).toBe(true);
        exporting.release();
      })(),
    ]);
    expect(download.suggestedFilename()).toBe('adreport_zonas.csv');
    const text = await readFile((await download.path())!, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).trimEnd().split('\n');
    expect(lines).toHaveLength(1 + BIG_ROWS);
    expect(lines[0]).toBe(
      'date,advertiser,publisher,zone_id,geo,source,impressions,monetized_impressions,clicks,CTR%,P.CPM,P.CPC,P.Revenue,TQ,revenue,margin,CPM,CPC,RS%',
    );
    expect(lines[1].split(',')[3]).toBe('B-MAX');
    expect(new Set(lines.slice(1).map((l) => l.split(',')[3])).size).toBe(BIG_ROWS);
    await zoneCard(page).getByRole('button', { name: 'Descargar CSV' }).waitFor();
  });

  test("an export that fails says so on screen and 'Descargar CSV' can be tried again", async () => {
    const page = await openAdReport();
    await page.route(/\/api\/ad-report\/zone-details\?.*format=csv/, (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'Exportación no disponible' }) }),
    );
    await zoneCard(page).getByRole('button', { name: 'Descargar CSV' }).click();
    await zoneCard(page).getByRole('alert').filter({ hasText: 'No se pudo exportar: Exportación no disponible' }).waitFor();
    await page.unroute(/\/api\/ad-report\/zone-details\?.*format=csv/);
    const [download] = await Promise.all([page.waitForEvent('download'), zoneCard(page).getByRole('button', { name: 'Descargar CSV' }).click()]);
    const lines = (await readFile((await download.path())!, 'utf8')).slice(1).trimEnd().split('\n');
    // The default range's 30 rows, though the page shows 25.
    expect(lines).toHaveLength(1 + 30);
    expect(await zoneCard(page).getByRole('alert').count()).toBe(0);
  });
});
