// The Ad Report at laptop width (1440 px): every header with SPEC's label, the money columns in
// view without scrolling, the key columns kept in view while the table scrolls sideways, and a
// column chooser whose choice is remembered by the browser (a reload keeps it; the CSV does not change).
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, todayIn } from '@adops/core';
import { ADMIN, startHarness, type Harness } from './harness.js';

let h: Harness;
const today = todayIn('UTC');
const d = (n: number) => addDays(today, -n);

beforeAll(async () => {
  h = await startHarness();
  const rows = [];
  for (let day = 1; day <= 7; day++)
    for (let z = 0; z < 12; z++)
      rows.push({
        date: d(day),
        advertiser: ['AdNova', 'BidSphere', 'Clickora'][z % 3],
        publisher: ['Diario Uno', 'Portal Dos', 'Noticias del Sur Internacional'][z % 3],
        zone_id: `zona-${1000 + z}`,
        geo: ['ES', 'MX', 'AR'][z % 3],
        source: ['search', 'social'][z % 2],
        domain: 'uno.com',
        impressions: 123_456 + z,
        monetized_impressions: 100_000 + z,
        clicks: 1_234 + z,
        revenue: 1_234.56 + z,
        p_revenue: 800.5 + z,
        tq: 0.5 + z / 50,
      });
  expect((await h.importZoneReport(rows)).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const HEADERS = [
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
];

const zoneTable = (page: Page) => page.getByRole('table', { name: 'Resumen diario por zona' });
const headers = async (page: Page) => (await zoneTable(page).locator('thead th').allTextContents()).map((t) => t.replace(/[▲▼↕]/g, '').trim());

async function open(width = 1440): Promise<Page> {
  const page = await h.newPage({ viewport: { width, height: 900 } });
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/ad-report');
  await zoneTable(page).locator('tbody tr').nth(5).waitFor();
  return page;
}

/** The headers whose cell lies (mostly) outside the table's scroll box. */
async function cutHeaders(page: Page): Promise<string[]> {
  return zoneTable(page).evaluate((table) => {
    const box = (table.closest('.overflow-x-auto') as HTMLElement).getBoundingClientRect();
    return [...table.querySelectorAll('thead th')]
      .filter((th) => th.getBoundingClientRect().right > box.right + 1)
      .map((th) => (th.textContent ?? '').replace(/[▲▼↕]/g, '').trim());
  });
}

describe('Ad Report at 1440 px', () => {
  test("every header is SPEC's label and every column, money included, is in view without scrolling", async () => {
    const page = await open();
    expect(await headers(page)).toEqual(HEADERS);
    await h.screenshot(page, 'adreport-columns-1440');
    expect(await cutHeaders(page)).toEqual([]);
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('the column chooser hides a column, the choice survives a reload, and Mostrar todas brings every column back', async () => {
    const page = await open();
    await page.getByRole('button', { name: /^Columnas \(17\/17\)$/ }).click();
    const menu = page.getByRole('group', { name: 'Columnas' });
    await menu.getByLabel('Geo', { exact: true }).uncheck();
    await menu.getByLabel('P.CPC', { exact: true }).uncheck();
    await page.keyboard.press('Escape');
    expect(await headers(page)).toEqual(HEADERS.filter((x) => x !== 'Geo' && x !== 'P.CPC'));
    // The summaries hide it too.
    const pubHeads = (await page.getByRole('table', { name: 'Resumen publisher' }).locator('thead th').allTextContents()).map((t) =>
      t.replace(/[▲▼↕]/g, '').trim(),
    );
    expect(pubHeads).not.toContain('P.CPC');

    await page.reload();
    await zoneTable(page).locator('tbody tr').first().waitFor();
    expect(await headers(page)).toEqual(HEADERS.filter((x) => x !== 'Geo' && x !== 'P.CPC'));
    // The CSV keeps SPEC's 19 CSV columns whatever is shown.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar CSV' }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toBe(
      'date,advertiser,publisher,zone_id,geo,source,impressions,monetized_impressions,clicks,CTR%,P.CPM,P.CPC,P.Revenue,TQ,revenue,margin,CPM,CPC,RS%',
    );

    await page.getByRole('button', { name: /^Columnas \(15\/17\)$/ }).click();
    await page.getByRole('group', { name: 'Columnas' }).getByRole('button', { name: 'Mostrar todas' }).click();
    expect(await headers(page)).toEqual(HEADERS);
    await page.reload();
    await zoneTable(page).locator('tbody tr').first().waitFor();
    expect(await headers(page)).toEqual(HEADERS);
  });

  test('the key columns (Date, Advertiser, Publisher, Zone ID) stay in view while the table scrolls sideways', async () => {
    const page = await open(1100);
    const scroller = zoneTable(page).locator('xpath=ancestor::div[contains(@class,"overflow-x-auto")][1]');
    const lefts = () =>
      zoneTable(page).evaluate((t) => {
        const box = (t.closest('.overflow-x-auto') as HTMLElement).getBoundingClientRect().left;
        const row = t.querySelector('tbody tr')!;
        return [...row.querySelectorAll('td')].slice(0, 5).map((c) => Math.round(c.getBoundingClientRect().left - box));
      });
    const before = await lefts();
    await scroller.evaluate((el) => {
      el.scrollLeft = 400;
    });
    const after = await lefts();
    // The four key cells did not move; the fifth (Geo) scrolled away under them.
    expect(after.slice(0, 4)).toEqual(before.slice(0, 4));
    expect(after[4]).toBeLessThan(before[4] - 100);
    await h.screenshot(page, 'adreport-sticky-1100');
  });
});
