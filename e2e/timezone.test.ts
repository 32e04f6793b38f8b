// The web computes presets and defaults in the server's reporting time zone (ADOPS_TZ), not
// the browser's: the browser here runs on UTC while the server reports in a zone whose
// calendar day differs from UTC's at the moment the test runs.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addDays, presetRange, todayIn, formatDateDMY } from '@adops/core';
import { startHarness, ADMIN, type Harness } from './harness.js';

// A zone whose date differs from UTC's right now: UTC−12 before noon UTC, UTC+14 after.
const zone = new Date().getUTCHours() < 12 ? 'Etc/GMT+12' : 'Etc/GMT-14';
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ tz: zone });
});
afterAll(async () => {
  await h?.close();
});

test('presets and default ranges follow the reporting time zone, not the browser', async () => {
  const today = todayIn(zone);
  expect(today).not.toBe(todayIn('UTC')); // the premise: the two calendars disagree now
  const page = await h.newPage();
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toMatch(/UTC|Etc\/UTC|GMT/);
  await h.signIn(page, ADMIN.email, ADMIN.password);

  // Dashboard: last 7 days including today, in the reporting zone.
  const dashboard = presetRange('ultimos7_hoy', new Date(), zone);
  expect(await page.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(dashboard.to));
  expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(dashboard.from));

  // Ad Report: 'Hoy' is the reporting zone's today; the default ends yesterday there.
  await page.goto('/ad-report');
  expect(await page.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(addDays(today, -1)));
  await page.getByLabel('Presets', { exact: true }).selectOption('hoy');
  expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(today));
});
