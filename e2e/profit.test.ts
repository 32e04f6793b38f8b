// Browser tests of Rentabilidad (/profit) and Fb Campaigns' profit columns on a small fixture
// (two days of last month, two zones, two campaigns — C1 with two ad sets makes money, C2 loses
// it — the second day without a zone report): the missing exchange rate named and added from its
// banner, totals equal to the API's, sorting by profit, a campaign opened to its ad sets, the CSV,
// losing rows marked in words, the estimated day named, a day without synced spend named and its
// unknown figures said in words (an admin opening that range syncs it), the spend sync, and 390 px.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import {
  PROFIT_METRICS,
  formatAmount,
  formatDateDMY,
  formatMoney,
  formatProfitMetric,
  roundTo,
  syncedAtText,
  type Api,
  type ProfitMetricKey,
} from '@adops/core';
import { ADMIN, sortTable, startHarness, waitSorted, type Harness, widerThanScreen } from './harness.js';
import { event, importRows } from '../server/test/warehouse-contract.js';
import type { AdSpendRecord, ReferrerEvent, ZoneReportRecord } from '../server/src/warehouse/index.js';

/** '2026-03' → 'marzo de 2026', as the banner names a month. */
const monthName = (month: string) =>
  new Intl.DateTimeFormat('es-ES', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));

const LAST_MONTH = (() => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
})();
const D1 = `${LAST_MONTH}-01`;
const D2 = `${LAST_MONTH}-02`;
/** A day with visits and no spend synced or stored. */
const D3 = `${LAST_MONTH}-03`;
const RANGE = { start_date: D1, end_date: D2 };
const C1a = { campaign_id: 'C1', adset_id: 'S1', ad_id: 'A1', keyword: 'seguros' };
const C1b = { campaign_id: 'C1', adset_id: 'S3', ad_id: 'A3', keyword: 'seguros baratos' };
const C2 = { campaign_id: 'C2', adset_id: 'S2', ad_id: 'A2', keyword: 'vuelos' };

const zone = (zone_id: string, revenue: number, impressions: number): ZoneReportRecord => ({
  date: D1,
  advertiser: 'AdNova',
  publisher: 'PubA',
  zone_id,
  geo: 'ES',
  source: 'social',
  domain: 'a.com',
  impressions,
  monetized_impressions: null,
  clicks: 0,
  revenue,
  rate_applied: 0.7,
  p_revenue: revenue * 0.7,
  margin: revenue * 0.3,
  tq: 0.7,
});

function visits(): ReferrerEvent[] {
  const out: ReferrerEvent[] = [];
  const add = (day: string, zone_id: string, n: number, extra: Partial<ReferrerEvent> = {}) => {
    for (let i = 0; i < n; i++) out.push(event(out.length + 1, Date.parse(`${day}T10:00:00Z`) + out.length * 1000, { zone_id, ...extra }));
  };
  // Z1 earns 1.00 a visit, Z2 0.50 (D2 has no report: its visits are estimated at the same RPVs).
  add(D1, 'Z1', 10, C1a);
  add(D1, 'Z1', 6, C1b);
  add(D1, 'Z1', 4, C2);
  add(D1, 'Z1', 10);
  add(D1, 'Z2', 10, C2);
  add(D1, 'Z2', 10);
  add(D2, 'Z1', 4, C1a);
  add(D2, 'Z2', 4, C2);
  add(D3, 'Z1', 4, C1a);
  return out;
}

const spend = (date: string, c: typeof C1a, amount: number, clicks: number): AdSpendRecord => ({
  date,
  account_id: 'act_1',
  campaign_id: c.campaign_id,
  campaign_name: `Campaña ${c.campaign_id === 'C1' ? 'seguros' : 'vuelos'}`,
  adset_id: c.adset_id,
  adset_name: `Conjunto ${c.keyword}`,
  ad_id: c.ad_id,
  ad_name: `Anuncio ${c.keyword}`,
  spend: amount,
  impressions: clicks * 100,
  clicks,
  currency: 'EUR',
});

let h: Harness;
let admin: Api & { token: string };

beforeAll(async () => {
  h = await startHarness();
  admin = await h.server.admin();
  const w = h.server.app.services.warehouse;
  await importRows(w, [zone('Z1', 30, 1000), zone('Z2', 10, 500)]);
  await w.referrers.append(visits());
  await w.spend.upsert([spend(D1, C1a, 6, 20), spend(D2, C1a, 2, 10), spend(D1, C1b, 3, 12), spend(D1, C2, 15, 30), spend(D2, C2, 10, 20)]);
});
afterAll(async () => {
  await h?.close();
});

/** The month's rate (the first test adds it through the screen; a test run alone sets it here). */
async function withRate(): Promise<void> {
  if ((await admin.profit.rates()).rates.length === 0) await admin.profit.setRates({ rates: [{ month: LAST_MONTH, currency: 'EUR', rate: 1.1 }] });
}

async function openProfit(viewport = { width: 1440, height: 1000 }): Promise<Page> {
  const page = await h.newPage({ viewport });
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/profit?from=${D1}&to=${D2}`);
  await page.getByRole('heading', { name: 'Rentabilidad', exact: true }).waitFor();
  await campaignsTable(page).locator('tbody tr').first().waitFor();
  return page;
}

const campaignsTable = (page: Page) => page.getByRole('table', { name: 'Rentabilidad por campaña' });
/** A table's own body rows (not those of a breakdown opened inside it). */
const ownRows = (table: ReturnType<Page['getByRole']>, filter = '') => table.locator(`:scope > tbody > tr${filter}`);
const row = (page: Page, key: string) => ownRows(campaignsTable(page), `[data-key="${key}"]`);
/** The header texts of a table, and a row's cells by header. */
async function cellsByHeader(table: ReturnType<Page['getByRole']>, tr: ReturnType<Page['locator']>): Promise<Record<string, string>> {
  const heads = (await table.locator(':scope > thead > tr > th').allInnerTexts()).map((t) => t.replace(/[▲▼↕]/g, '').trim());
  const cells = await tr.locator(':scope > td').allInnerTexts();
  return Object.fromEntries(heads.map((hd, i) => [hd, cells[i]?.trim() ?? '']));
}
const SHOWN: ProfitMetricKey[] = ['spend', 'meta_clicks', 'visits', 'revenue', 'profit', 'roi', 'roas', 'rpv', 'cpc', 'break_even_cpc', 'tq'];
const label = (k: ProfitMetricKey) => PROFIT_METRICS[k].label;

describe('Rentabilidad', () => {
  test('without the month’s exchange rate a banner names it and spend and profit are not shown; an admin adds it from the banner and the figures appear', async () => {
    const page = await openProfit();
    const banner = page.getByTestId('missing-rates');
    await expect(banner.textContent()).resolves.toContain(`EUR de ${monthName(LAST_MONTH)}`);
    const c1 = await cellsByHeader(campaignsTable(page), row(page, 'C1'));
    expect(c1[label('spend')]).toBe('-');
    expect(c1[label('profit')]).toBe('-');
    expect(c1[label('revenue')]).toMatch(/^\$20,00/);
    await h.screenshot(page, 'profit-missing-rate-1440');

    await banner.getByRole('button', { name: `Añadir EUR de ${monthName(LAST_MONTH)}` }).click();
    const rates = page.getByTestId('exchange-rates');
    // The form takes the banner's month in an effect, a frame after the click.
    await expect.poll(() => rates.getByLabel('Mes').inputValue(), { timeout: 5000 }).toBe(LAST_MONTH);
    expect(await rates.getByLabel('Moneda').inputValue()).toBe('EUR');
    await rates.getByLabel(/^Tipo/).fill('1,1');
    await rates.getByRole('button', { name: 'Guardar' }).click();
    await rates.getByRole('status').filter({ hasText: 'Guardado' }).waitFor();
    await banner.waitFor({ state: 'detached' });
    await expect(rates.locator('tbody').innerText()).resolves.toContain('1,1000');
    await page.waitForFunction(() => document.querySelector('tr[data-key="C1"] td:nth-child(2)')?.textContent !== '-');
    expect((await admin.profit.rates()).rates).toEqual([{ month: LAST_MONTH, currency: 'EUR', rate: 1.1 }]);
  });

  test('the totals row shows the API’s totals, column by column, and the estimated day is named', async () => {
    await withRate();
    const page = await openProfit();
    const api = await admin.profit.table({ ...RANGE, by: 'campaign' });
    expect(api.totals.missing_rates).toEqual([]);
    const totals = await cellsByHeader(campaignsTable(page), campaignsTable(page).locator(':scope > tfoot > tr'));
    for (const k of SHOWN) expect(totals[label(k)], k).toBe(formatProfitMetric(k, api.totals[k], '$'));
    expect(totals.Campaña).toBe('Totales');
    expect(await page.getByTestId('profit-total').innerText()).toBe(formatProfitMetric('profit', api.totals.profit, '$'));
    expect(api.totals.estimated_days).toEqual([D2]);
    await expect(page.getByTestId('completeness-notes').innerText()).resolves.toContain(`Revenue estimado el ${formatDateDMY(D2)}`);
    // The chart names the estimated day too.
    await page
      .getByTestId('profit-chart')
      .getByText(`${formatDateDMY(D2)} (estimado)`)
      .first()
      .waitFor();
    await h.screenshot(page, 'profit-1440');
  });

  test('the losing campaign is marked in words and red, the winning one is not; sorting by Beneficio puts it first', async () => {
    await withRate();
    const page = await openProfit();
    const api = await admin.profit.table({ ...RANGE, by: 'campaign' });
    const losing = api.rows.filter((r) => r.losing).map((r) => r.key);
    expect(losing).toEqual(['C2']);
    await expect(row(page, 'C2').innerText()).resolves.toContain('Pierde');
    expect(await row(page, 'C2').getAttribute('data-losing')).toBe('true');
    await expect(row(page, 'C1').innerText()).resolves.not.toContain('Pierde');
    const profitCell = row(page, 'C2')
      .locator('td')
      .nth(1 + SHOWN.indexOf('profit'));
    expect(await profitCell.evaluate((td) => getComputedStyle(td).color)).toBe('rgb(185, 28, 28)');

    await sortTable(campaignsTable(page), 'Beneficio', 'ascending');
    expect(await ownRows(campaignsTable(page), '[data-key]').evaluateAll((trs) => trs.map((t) => t.getAttribute('data-key')))).toEqual(['C2', 'C1']);
    expect(page.url()).toContain('sort=profit:asc');
    await campaignsTable(page).locator('thead').getByRole('button', { name: 'Beneficio', exact: true }).click();
    await waitSorted(campaignsTable(page), 'Beneficio', 'descending');
    expect(await ownRows(campaignsTable(page), '[data-key]').first().getAttribute('data-key')).toBe('C1');
  });

  test('a campaign opens to its ad sets (then ads and keywords), whose figures are the API’s for that campaign', async () => {
    await withRate();
    const page = await openProfit();
    await row(page, 'C1')
      .getByRole('button', { name: /Abrir Campaña seguros/ })
      .click();
    const sets = page.getByRole('table', { name: 'Conjuntos de anuncios de Campaña Campaña seguros' });
    await ownRows(sets, '[data-key]').first().waitFor();
    const api = await admin.profit.table({ ...RANGE, by: 'adset', campaign_id: 'C1' });
    const keys = await ownRows(sets, '[data-key]').evaluateAll((trs) => trs.map((t) => t.getAttribute('data-key')));
    expect(keys).toEqual(api.rows.map((r) => r.key));
    expect(keys.sort()).toEqual(['S1', 'S3']);
    const s1 = await cellsByHeader(sets, sets.locator('tr[data-key="S1"]'));
    const apiS1 = api.rows.find((r) => r.key === 'S1')!;
    expect(s1[label('revenue')]).toContain(formatProfitMetric('revenue', apiS1.revenue, '$'));
    expect(s1[label('profit')]).toBe(formatProfitMetric('profit', apiS1.profit, '$'));
    // The breakdown's totals are the campaign's own figures.
    const c1 = await cellsByHeader(campaignsTable(page), row(page, 'C1'));
    const setTotals = await cellsByHeader(sets, sets.locator('tfoot tr'));
    expect(setTotals[label('profit')]).toBe(c1[label('profit')]);

    await page.getByRole('tab', { name: 'Keywords' }).first().click();
    const kws = page.getByRole('table', { name: 'Keywords de Campaña Campaña seguros' });
    await kws.locator('tbody tr[data-key="seguros baratos"]').waitFor();
    await h.screenshot(page, 'profit-expanded-1440');
  });

  test('Descargar CSV saves the server’s export of the campaigns, as sorted on screen', async () => {
    await withRate();
    const page = await openProfit();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`rentabilidad_campaign_${D1}_${D2}.csv`);
    const text = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
    const res = await h.server.fetch('/api/profit', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...RANGE, by: 'campaign', format: 'csv' }),
    });
    expect(text).toBe((await res.text()).replace(/^\uFEFF/, ''));
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0].split(',').slice(0, 3)).toEqual(['Campaña', 'Nombre', 'Gasto']);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['C2', 'C1']);
  });

  test('at 390 px nothing is wider than the screen (the table scrolls in its own box)', async () => {
    await withRate();
    const page = await openProfit({ width: 390, height: 844 });
    await page.getByTestId('profit-chart').waitFor();
    const wide = await widerThanScreen(page);
    expect(wide).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await h.screenshot(page, 'profit-390');
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('a user who is not an admin sees the figures and the rates but neither syncs spend nor sets rates', async () => {
    await withRate();
    await admin.admin.createUser({ first_name: 'Lía', email: 'lia@example.com', password: 'una-clave-larga-1' });
    const page = await h.newPage({ viewport: { width: 1440, height: 1000 } });
    await h.signIn(page, 'lia@example.com', 'una-clave-larga-1');
    await page.goto(`/profit?from=${D1}&to=${D2}`);
    await row(page, 'C1').waitFor();
    await expect(page.getByTestId('exchange-rates').locator('tbody').innerText()).resolves.toContain('1,1000');
    expect(await page.getByRole('button', { name: 'Sincronizar gasto' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Guardar' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Quitar/ }).count()).toBe(0);
  });

  test('the Media Buying menu leads to Rentabilidad', async () => {
    const page = await h.newPage({ viewport: { width: 1440, height: 900 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('button', { name: 'Media Buying' }).click();
    await page.getByRole('menuitem', { name: 'Rentabilidad' }).click();
    await page.waitForURL('**/profit');
    await page.getByRole('heading', { name: 'Rentabilidad', exact: true }).waitFor();
  });

  test('a day without synced spend: staff see it named, its revenue apart and “sin sincronizar” where spend is unknown; an admin opening the range syncs it', async () => {
    await withRate();
    await admin.admin.createUser({ first_name: 'Mar', email: 'mar@example.com', password: 'una-clave-larga-1' });
    const staff = await h.newPage({ viewport: { width: 1440, height: 1000 } });
    await h.signIn(staff, 'mar@example.com', 'una-clave-larga-1');
    await staff.goto(`/profit?from=${D1}&to=${D3}`);
    await row(staff, 'C1').waitFor();
    const notes = staff.getByTestId('completeness-notes');
    await expect(notes.innerText()).resolves.toContain(
      `Gasto de Meta sin sincronizar el ${formatDateDMY(D3)}: esos días no cuentan en el gasto, el beneficio, el ROI ni el ROAS (no son 0)`,
    );
    await expect(notes.innerText()).resolves.toContain('Un administrador puede sincronizar el gasto');
    // When spend was last synced (any range: the menu test's admin opened the default week, which synced it), in ADOPS_TZ.
    const last = (await admin.profit.table({ start_date: D1, end_date: D3 })).totals.spend_synced_at;
    expect(await staff.getByTestId('spend-synced-at').innerText()).toBe(syncedAtText(last, 'UTC'));
    // C1's 4 visits on D3 (Z1 at 1,00) are apart under its revenue, not in its profit.
    await expect(row(staff, 'C1').getByTestId('unsynced-revenue').innerText()).resolves.toBe('+ $4,00 sin sinc.');
    // The chart names the day; staff do not sync.
    await staff
      .getByTestId('profit-chart')
      .getByText(`${formatDateDMY(D3)} (estimado) (gasto sin sincronizar)`)
      .first()
      .waitFor();
    expect(await staff.getByTestId('auto-sync').count()).toBe(0);
    // Only that day: every spend is unknown, said in words.
    await staff.goto(`/profit?from=${D3}&to=${D3}`);
    await row(staff, 'C1').waitFor();
    const c1 = await cellsByHeader(campaignsTable(staff), row(staff, 'C1'));
    for (const k of ['spend', 'profit', 'roi', 'roas'] as const) expect(c1[label(k)], k).toBe('sin sincronizar');
    expect(c1[label('revenue')]).toMatch(/^\$4,00/);
    await h.screenshot(staff, 'profit-unsynced-1440');
    expect(await admin.profit.table({ start_date: D1, end_date: D3 }).then((t) => t.totals.unsynced_days)).toEqual([D3]);

    // An admin opening the stale range: synced, said so, loaded again.
    const page = await h.newPage({ viewport: { width: 1440, height: 1000 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(`/profit?from=${D1}&to=${D3}`);
    const result = page.getByTestId('sync-result');
    await result.waitFor();
    expect(await result.innerText()).toMatch(
      new RegExp(
        `^El gasto de este rango no estaba al día y se ha sincronizado\\. Gasto sincronizado del ${formatDateDMY(D1)} al ${formatDateDMY(D3)}:`,
      ),
    );
    await expect
      .poll(() => page.getByTestId('spend-synced-at').innerText(), { timeout: 10_000 })
      .toMatch(/^Gasto sincronizado el \d\d\/\d\d\/\d{4} a las \d\d:\d\d \(UTC\)$/);
    await expect.poll(() => page.getByTestId('completeness-notes').innerText(), { timeout: 10_000 }).not.toContain('sin sincronizar');
    expect((await admin.profit.table({ start_date: D1, end_date: D3 })).totals.unsynced_days).toEqual([]);
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('an admin syncs spend from Meta and sees what the sync did; the table then counts the synced campaigns', async () => {
    await withRate();
    const page = await openProfit();
    await page.getByRole('button', { name: 'Sincronizar gasto' }).click();
    const result = page.getByTestId('sync-result');
    await result.waitFor();
    expect(await result.innerText()).toMatch(new RegExp(`^Gasto sincronizado del ${formatDateDMY(D1)} al ${formatDateDMY(D2)}: \\d+ filas de Meta`));
    const api = await admin.profit.table({ ...RANGE, by: 'campaign' });
    expect(api.total_rows).toBeGreaterThan(2);
    await page.getByTestId('profit-count').first().getByText(`${api.total_rows} campañas`, { exact: true }).waitFor();
  });
});

describe('Fb Campaigns', () => {
  test('shows each campaign’s estimated revenue, profit and ROI with totals equal to the API’s, losing campaigns marked', async () => {
    await withRate();
    await admin.profit.syncSpend(RANGE);
    const page = await h.newPage({ viewport: { width: 1440, height: 1000 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(`/fb-campaigns?status=ALL&from=${D1}&to=${D2}`);
    const table = page.getByRole('table', { name: 'Campañas con métricas' });
    await table.locator('tbody tr').first().waitFor();
    const api = await admin.campaigns.insights({ from_date: D1, to_date: D2, status: 'ALL' });
    const totals = await cellsByHeader(table, table.locator('tfoot tr'));
    expect(totals[label('revenue')]).toBe(formatProfitMetric('revenue', api.totals.revenue, '$'));
    expect(totals[label('profit')]).toBe(formatProfitMetric('profit', api.totals.profit, '$'));
    expect(totals[label('roi')]).toBe(formatProfitMetric('roi', api.totals.roi, '$'));
    const losing = api.rows.filter((r) => r.profit !== null && r.profit < 0).length;
    expect(losing).toBeGreaterThan(0);
    expect(await table.locator('tbody tr[data-losing="true"]').count()).toBe(losing);
    await expect(table.locator('tbody tr[data-losing="true"]').first().innerText()).resolves.toContain('Pierde');
    // One currency in every row: spend in dollars (Meta's euros at 1,10) with Meta's own amount beside
    // it, labelled; profit is the revenue shown minus the spend shown.
    const spent = api.rows.filter((r) => r.spend !== null && r.account_spend > 0 && r.revenue !== null);
    expect(spent.length).toBeGreaterThan(0);
    for (const r of spent) {
      const tr = table.locator('tbody tr', { has: page.getByTestId('campaign-id').getByText(r.id, { exact: true }) });
      expect(r.spend!).toBeCloseTo(r.account_spend * 1.1, 6);
      expect(await tr.getByTestId('spend-network').innerText()).toBe(formatMoney(r.spend, 'USD'));
      expect((await tr.getByTestId('spend-account').innerText()).trim()).toBe(`· ${formatAmount(r.account_spend, 'EUR')}`);
      const cells = await cellsByHeader(table, tr);
      expect(cells[label('profit')], r.id).toContain(formatMoney(roundTo(roundTo(r.revenue, 2)! - roundTo(r.spend, 2)!, 2), 'USD'));
    }
    await h.screenshot(page, 'fb-campaigns-profit-1440');
  });
});
