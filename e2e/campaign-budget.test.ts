// Browser tests of the campaign creator's budget and bid: the daily budget and bid fields, their
// limits and the values sent to Meta's sandbox. The rest of the creator is in campaigns.test.ts,
// the metrics list in campaign-metrics.test.ts.
import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { todayIn, type Api } from '@adops/core';
import path from 'node:path';
import { SCREENSHOTS, absenceFor, type Harness, widerThanScreen } from './harness.js';
import type { MetaSandbox } from '../server/src/sandbox/meta/index.js';
import { campaignHarness, field, openCreator, submitButton, suggestionButtons, typeKeyword } from './campaign-pages.js';

const harness = campaignHarness();
let h: Harness;
let admin: Api & { token: string };
let sandbox: MetaSandbox;
beforeAll(async () => {
  ({ h, admin, sandbox } = harness);
});

describe('campaign creator: budget and bid', () => {
  /** The daily budget and bid of each creation the page sends (the multipart's text fields). */
  function sentAmounts(page: Page): Array<{ daily_budget: string | undefined; bid_amount: string | undefined }> {
    const sent: Array<{ daily_budget: string | undefined; bid_amount: string | undefined }> = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname !== '/api/create-campaign/') return;
      const body = r.postDataBuffer()?.toString('latin1') ?? '';
      const value = (name: string) => new RegExp(`name="${name}"\\r\\n\\r\\n([^\\r]*)`).exec(body)?.[1];
      sent.push({ daily_budget: value('daily_budget'), bid_amount: value('bid_amount') });
    });
    return sent;
  }

  async function readyToCreate(page: Page, keyword: string, alias: string) {
    await typeKeyword(admin, page, keyword);
    await field(page, 'Alias').fill(alias);
    await suggestionButtons(page).first().click();
  }

  test('in an en-US browser "1,50" typed in Presupuesto diario is sent as 1.50 and reaches Meta as 150 cents; the fields are text with a decimal keypad', async () => {
    const page = await openCreator(h, { locale: 'en-US' });
    expect(await page.evaluate(() => navigator.language)).toBe('en-US');
    const sent = sentAmounts(page);
    await readyToCreate(page, 'cursos online', 'usd01');
    const budget = field(page, 'Presupuesto diario (EUR)');
    expect(await budget.getAttribute('type')).toBe('text');
    expect(await budget.getAttribute('inputmode')).toBe('decimal');
    await budget.fill('');
    await budget.pressSequentially('1,50');
    await field(page, 'Puja CPC (EUR)').fill('');
    await field(page, 'Puja CPC (EUR)').pressSequentially('0,05');
    expect(await budget.inputValue()).toBe('1,50');
    await submitButton(page).click();
    const dialog = page.getByRole('dialog', { name: '✅ Campaña creada' });
    await dialog.waitFor({ timeout: 15_000 });
    expect(sent).toEqual([{ daily_budget: '1.50', bid_amount: '0.05' }]);
    const [record] = await admin.campaigns.list();
    expect(record).toMatchObject({ daily_budget: 1.5, bid_amount: 0.05 });
    const adset = sandbox.objects.get(record.adset_id)!;
    expect([adset.params.daily_budget, adset.params.bid_amount]).toEqual(['150', '5']);
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('the budget is said in the network’s currency too, at the month’s exchange rate; without a rate nothing is guessed', async () => {
    const month = todayIn('UTC').slice(0, 7);
    const before = await openCreator(h);
    await field(before, 'Presupuesto diario (EUR)').fill('67,31');
    await before
      .getByText(/Con coma decimal/)
      .first()
      .waitFor();
    expect(await before.getByText(/al día en USD/).count()).toBe(0);
    await admin.profit.setRates({ rates: [{ month, currency: 'EUR', rate: 1.1 }] });
    try {
      const page = await openCreator(h);
      await field(page, 'Presupuesto diario (EUR)').fill('67,31');
      await page.getByText(/≈ \$74,04 al día en USD \(tipo de cambio de /).waitFor();
    } finally {
      await admin.profit.setRates({ rates: [{ month, currency: 'EUR', rate: null }] });
    }
  });

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${viewport.width} px: 100.000 is refused in words — ambiguous as typed, above the cap as 100.000,00 — and nothing is sent`, async () => {
      const page = await openCreator(h, { viewport });
      const sent = sentAmounts(page);
      await readyToCreate(page, 'energia solar', `sol${viewport.width}`);
      const budget = field(page, 'Presupuesto diario (EUR)');
      await budget.fill('100.000');
      await budget.blur();
      // The field says what is wrong as soon as it is left, and names it for screen readers.
      const inline = '«100.000» es ambiguo: escribe 100000 si son miles, o usa la coma con 2 decimales como mucho (p. ej. 1,50)';
      await page.getByText(inline).waitFor();
      expect(await budget.getAttribute('aria-invalid')).toBe('true');
      const describedBy = (await budget.getAttribute('aria-describedby'))!.split(' ');
      expect(await page.locator(`[id="${describedBy[0]}"]`).textContent()).toBe(inline);
      await submitButton(page).click();
      await expect.poll(() => page.getByTestId('create-result').textContent()).toBe(`Presupuesto diario: ${inline}`);

      await budget.fill('100.000,00');
      await submitButton(page).click();
      await expect.poll(() => page.getByTestId('create-result').textContent()).toBe('El presupuesto diario no puede superar 1.000,00 EUR');
      expect(await page.getByRole('alertdialog').count()).toBe(0);
      await page.getByTestId('create-result').scrollIntoViewIfNeeded();
      await h.screenshot(page, `campaign-budget-refused-${viewport.width}`);
      await absenceFor(300);
      expect(sent).toEqual([]);
      // Nothing wider than the screen (named, to find it), the long message included.
      const wide = await widerThanScreen(page);
      expect(wide).toEqual([]);
    });

    test(`at ${viewport.width} px: above 100,00 EUR a day a dialog asks first; "Revisar el importe" and Escape send nothing, "Sí, crear" creates`, async () => {
      const page = await openCreator(h, { viewport });
      const sent = sentAmounts(page);
      await readyToCreate(page, 'hoteles playa', `hot${viewport.width}`);
      await field(page, 'Presupuesto diario (EUR)').fill('150');
      await submitButton(page).click();
      const dialog = page.getByRole('alertdialog', { name: '¿Crear la campaña con 150,00 EUR al día?' });
      await dialog.waitFor();
      expect(await dialog.getAttribute('aria-modal')).toBe('true');
      expect(await dialog.getByText('El presupuesto diario supera 100,00 EUR.', { exact: false }).count()).toBe(1);
      // The safe answer has the focus, and Tab stays inside the dialog.
      const review = dialog.getByRole('button', { name: 'Revisar el importe' });
      expect(await review.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Tab');
      expect(await dialog.getByRole('button', { name: 'Sí, crear con 150,00 EUR al día' }).evaluate((el) => el === document.activeElement)).toBe(
        true,
      );
      await page.keyboard.press('Tab');
      expect(await review.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.screenshot({ path: path.join(SCREENSHOTS, `campaign-budget-confirm-${viewport.width}.png`) });

      await review.click();
      await dialog.waitFor({ state: 'detached' });
      expect(await field(page, 'Presupuesto diario (EUR)').evaluate((el) => el === document.activeElement)).toBe(true);
      await submitButton(page).click();
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await absenceFor(300);
      expect(sent).toEqual([]);

      await submitButton(page).click();
      await dialog.getByRole('button', { name: 'Sí, crear con 150,00 EUR al día' }).click();
      await page.getByRole('dialog', { name: '✅ Campaña creada' }).waitFor({ timeout: 15_000 });
      expect(sent).toEqual([{ daily_budget: '150.00', bid_amount: '0.05' }]);
      const [record] = await admin.campaigns.list();
      expect(sandbox.objects.get(record.adset_id)!.params.daily_budget).toBe('15000');
    });
  }

  test('at the threshold itself (100,00 EUR) nothing is asked; the hints give the account’s limits and the largest bid', async () => {
    const page = await openCreator(h);
    await readyToCreate(page, 'vuelos baratos', 'vue100');
    await field(page, 'Presupuesto diario (EUR)').fill('100');
    await page.getByText('Entre 1,00 EUR y 1.000,00 EUR al día; por encima de 100,00 EUR se pide confirmación.', { exact: false }).waitFor();
    await page.getByText('Como mucho 20,00 EUR con este presupuesto', { exact: false }).waitFor();
    await submitButton(page).click();
    await page.getByRole('dialog', { name: '✅ Campaña creada' }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('alertdialog').count()).toBe(0);
  });
});

// ---------- metrics ----------
