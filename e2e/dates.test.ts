// Every date field reads and takes dd/MM/yyyy whatever the browser's language: with the
// browser in English (a native date input would show 11/17/2026), each screen's Desde and
// Hasta show day/month/year, typing a day that way reloads the screen, and a wrong date is
// marked instead of being sent.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, formatDateDMY, todayIn } from '@adops/core';
import { ADMIN, startHarness, type Harness } from './harness.js';

let h: Harness;
const today = todayIn('UTC');

beforeAll(async () => {
  h = await startHarness();
  const rows = [
    'date,advertiser,publisher,zone_id,geo,source,domain,impressions,clicks,revenue',
    `${addDays(today, -10)},AdNova,Pub D,d-1,ES,search,d.com,1000,10,12.5`,
    `${addDays(today, -3)},AdNova,Pub D,d-2,ES,search,d.com,2000,20,30`,
  ].join('\n');
  expect((await h.importZoneReport(rows)).status).toBe(200);
});
afterAll(async () => {
  await h?.close();
});

async function open(path: string): Promise<Page> {
  const page = await h.newPage({ locale: 'en-US' });
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(path);
  await page.getByLabel('Desde', { exact: true }).waitFor();
  return page;
}

const DMY = /^\d{2}\/\d{2}\/\d{4}$/;

describe('date fields in an English browser', () => {
  for (const path of ['/dashboard', '/ad-report', '/demand', '/apis', '/finance', '/fb-campaigns', '/referrers']) {
    test(`${path}: Desde and Hasta show dd/MM/yyyy`, async () => {
      const page = await open(path);
      for (const label of ['Desde', 'Hasta']) {
        const field = page.getByLabel(label, { exact: true });
        await expect.poll(() => field.inputValue(), { message: `${path} ${label}` }).toMatch(DMY);
        expect(await field.getAttribute('type')).toBe('text');
      }
      expect(h.pageErrors(page)).toEqual([]);
    });
  }

  test('typing dd/MM/yyyy on the Ad Report reloads it for that range; an impossible date is marked and not sent', async () => {
    const page = await open('/ad-report');
    const from = page.getByLabel('Desde', { exact: true });
    const to = page.getByLabel('Hasta', { exact: true });
    const day = addDays(today, -3);
    await from.fill(formatDateDMY(day));
    await to.fill(formatDateDMY(day));
    const card = page.getByTestId('zone-table');
    await card
      .getByText('1 filas', { exact: true })
      .or(card.getByText('1 fila', { exact: true }))
      .waitFor();
    await expect.poll(async () => (await card.locator('tbody tr td:nth-child(4)').allTextContents()).map((t) => t.trim())).toEqual(['d-2']);
    await from.fill('31/02/2026');
    expect(await from.getAttribute('aria-invalid')).toBe('true');
    await from.fill(formatDateDMY(addDays(today, -10)));
    expect(await from.getAttribute('aria-invalid')).toBeNull();
    await from.blur();
    expect(await from.inputValue()).toBe(formatDateDMY(addDays(today, -10)));
  });
});
