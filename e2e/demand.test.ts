// Browser tests of Demand: one bar-chart card per advertiser (revenue and margin by date in
// the advertiser's own colour, labels in the network's currency), the zone/publisher/preset filters, Reset
// back to this month with no zone or publisher, and the empty state.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { addDays, daysBetween, startOfMonth, todayIn, formatDateDMY } from '@adops/core';
import { ADMIN, startHarness, type Harness } from './harness.js';

const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const TODAY = todayIn(TZ);
const MONTH_START = startOfMonth(TODAY);
/** Always in the previous month. */
const LAST_MONTH_DAY = addDays(MONTH_START, -5);

const seedRow = (date: string, advertiser: string, publisher: string, zone_id: string, revenue: number, margin: number) => ({
  date,
  advertiser,
  publisher,
  zone_id,
  geo: 'ES',
  source: 'search',
  domain: 'uno.com',
  impressions: 1_000,
  clicks: 10,
  revenue,
  margin,
  tq: 0.7,
});

const SEED = [
  seedRow(TODAY, 'AdNova', 'Diario Uno', 'z-100', 120.5, 30.25),
  seedRow(TODAY, 'AdNova', 'Portal Dos', 'z-201', 10, 2.5),
  seedRow(TODAY, 'BidSphere', 'Portal Dos', 'z-200', 80, 20),
  seedRow(TODAY, 'Clickora', 'Diario Uno', 'z-300', 40, 12.4),
  seedRow(LAST_MONTH_DAY, 'AdNova', 'Portal Dos', 'z-201', 999, 99),
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

const cards = (page: Page) => page.getByTestId('advertiser-card');

async function openDemand(): Promise<Page> {
  const page = await h.newPage();
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/demand');
  await page.getByRole('heading', { name: 'Demand', exact: true }).waitFor();
  return page;
}

/** Each card's advertiser with its revenue and margin sums as shown. */
async function cardSums(page: Page) {
  const out: Array<[string, string, string]> = [];
  for (const card of await cards(page).all()) {
    out.push([
      (await card.getByRole('heading').textContent())!.trim(),
      (await card.getByTestId('advertiser-revenue').textContent())!.trim(),
      (await card.getByTestId('advertiser-margin').textContent())!.trim(),
    ]);
  }
  return out;
}

describe('Demand', () => {
  test('one card per advertiser for this month: revenue and margin bars in its own colour, labelled in the network’s currency (as Finance)', async () => {
    const page = await openDemand();
    await expect.poll(() => cards(page).count()).toBe(3);
    expect(await cardSums(page)).toEqual([
      ['AdNova', '$130,50', '$32,75'],
      ['BidSphere', '$80,00', '$20,00'],
      ['Clickora', '$40,00', '$12,40'],
    ]);
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(MONTH_START));
    expect(await page.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(TODAY));
    expect(await page.getByLabel('Presets').locator('option:checked').textContent()).toBe('Mes actual');
    expect(await page.getByLabel('Presets').locator('option').allTextContents()).toEqual([
      'Ayer',
      'Últimos 7 días',
      'Mes actual',
      'Mes anterior',
      'Personalizado',
    ]);

    // Three distinct brand colours; each card's margin bars are a lighter tint of its revenue bars.
    const colors: string[] = [];
    const fills: string[] = [];
    for (const card of await cards(page).all()) {
      const color = (await card.getAttribute('data-color'))!;
      colors.push(color);
      const revenueBar = card.locator(`.recharts-bar[class*="fill-${color}-600"] rect`).last();
      const marginBar = card.locator(`.recharts-bar[class*="fill-${color}-300"] rect`).last();
      const revenueFill = await revenueBar.evaluate((el) => getComputedStyle(el).fill);
      const marginFill = await marginBar.evaluate((el) => getComputedStyle(el).fill);
      expect(revenueFill).not.toBe(marginFill);
      fills.push(revenueFill);
    }
    expect(new Set(colors).size).toBe(3);
    expect(new Set(fills).size).toBe(3);

    // The value axis reads in the network's currency ($ here) with 2 decimals.
    const first = cards(page).first();
    const ticks = (await first.locator('.recharts-yAxis .recharts-cartesian-axis-tick-value').allTextContents()).map((t) => t.trim());
    expect(ticks.length).toBeGreaterThan(1);
    for (const t of ticks) expect(t).toMatch(/^-?\$\d{1,3}(\.\d{3})*,\d{2}$/);
    // Hovering today's bars (the last) shows both values in the network's currency in the tooltip.
    await first.locator('.recharts-bar[class*="-600"] rect').last().hover({ force: true });
    const tooltip = first.locator('.recharts-tooltip-wrapper');
    await expect.poll(() => tooltip.innerText()).toMatch(/Revenue\s*\$130,50/);
    expect(await tooltip.innerText()).toMatch(/Margin\s*\$32,75/);
    await h.screenshot(page, 'demand');
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('zone, publisher and preset filters reload the cards; Reset clears zone and publisher and returns to this month', async () => {
    const page = await openDemand();
    await expect.poll(() => cards(page).count()).toBe(3);

    await page.getByLabel('Publisher').selectOption('Portal Dos');
    await expect
      .poll(() => cardSums(page))
      .toEqual([
        ['BidSphere', '$80,00', '$20,00'],
        ['AdNova', '$10,00', '$2,50'],
      ]);
    await page.getByLabel('Zone ID').fill('z-20');
    await page.getByLabel('Zone ID').press('Enter');
    await page.getByLabel('Presets').selectOption({ label: 'Mes anterior' });
    await expect.poll(() => cardSums(page)).toEqual([['AdNova', '$999,00', '$99,00']]);
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(startOfMonth(LAST_MONTH_DAY)));
    await h.screenshot(page, 'demand-filtered');

    await page.getByRole('button', { name: 'Reset' }).click();
    await expect
      .poll(() => cardSums(page))
      .toEqual([
        ['AdNova', '$130,50', '$32,75'],
        ['BidSphere', '$80,00', '$20,00'],
        ['Clickora', '$40,00', '$12,40'],
      ]);
    expect(await page.getByLabel('Zone ID').inputValue()).toBe('');
    expect(await page.getByLabel('Publisher').inputValue()).toBe('Todos');
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(MONTH_START));
    expect(await page.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(TODAY));
  });

  test('a range without advertisers shows the empty state; a reversed range is refused on screen', async () => {
    const page = await openDemand();
    await expect.poll(() => cards(page).count()).toBe(3);
    await page.getByLabel('Desde', { exact: true }).fill('2024-02-01');
    await page.getByLabel('Hasta', { exact: true }).fill('2024-02-29');
    await page.getByText('No hay datos de advertisers para este rango de fechas.').waitFor();
    expect(await cards(page).count()).toBe(0);
    await h.screenshot(page, 'demand-empty');

    await page.getByLabel('Desde', { exact: true }).fill('2024-03-10');
    await page.getByRole('alert').filter({ hasText: 'La fecha de inicio debe ser anterior o igual a la de fin' }).waitFor();
  });

  test('Descargar CSV saves the server’s export: a row per advertiser and day of the range, headed Advertiser, Date, Revenue, Margin', async () => {
    const page = await openDemand();
    await expect.poll(() => cards(page).count()).toBe(3);
    await page.getByLabel('Publisher').selectOption('Portal Dos');
    await expect.poll(() => cards(page).count()).toBe(2);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`demand_${MONTH_START}_to_${TODAY}.csv`);
    const lines = (await readFile((await download.path())!, 'utf8'))
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toBe('Advertiser,Date,Revenue,Margin');
    const days = daysBetween(MONTH_START, TODAY);
    expect(lines).toHaveLength(1 + 2 * days);
    // Advertisers in the cards' order, each with every day of the month so far (zero-filled).
    expect(lines.slice(1).filter((l) => l.endsWith(',0,0') === false)).toEqual([`BidSphere,${TODAY},80,20`, `AdNova,${TODAY},10,2.5`]);
    expect(lines[1]).toBe(`BidSphere,${MONTH_START},${MONTH_START === TODAY ? '80,20' : '0,0'}`);

    // Nothing to download for a range without advertisers.
    await page.getByLabel('Desde', { exact: true }).fill('2024-02-01');
    await page.getByLabel('Hasta', { exact: true }).fill('2024-02-29');
    await page.getByText('No hay datos de advertisers para este rango de fechas.').waitFor();
    expect(await page.getByRole('button', { name: 'Descargar CSV' }).isDisabled()).toBe(true);
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('a failed load is shown on screen', async () => {
    const page = await h.newPage();
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.route(/\/api\/demand\/advertiser-revenue\?/, (route) => route.abort('connectionrefused'));
    await page.goto('/demand');
    await page.getByRole('alert').filter({ hasText: 'No se pudo conectar con el servidor' }).waitFor();
    expect(await cards(page).count()).toBe(0);
  });
});
