// One number, one place: the web UI and the terminal show the same figures for the same filter
// (issue 9). A 24,000-row fixture (more rows than the old 20,000 cap) with missing TQ and
// monetized impressions, tied revenues, and its largest revenue on the oldest day: the web
// screens, read from the browser, and `adops` screens, read from the terminal, must agree on
// the top rows of a sort, the Totales (TQ included), the Dashboard and the Finance TOTAL.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, todayIn } from '@adops/core';
import { ADMIN, sortTable, startHarness, type Harness } from './harness.js';
import { newConfigDir, runCli } from '../cli/test/helpers.js';

let h: Harness;
let configDir: string;

const today = todayIn('UTC');
const DAYS = 6;
const PER_DAY = 4_000;
const from = addDays(today, -(DAYS + 1));
const to = addDays(today, -2);
const dayOf = (k: number) => addDays(to, -k);

/** A deterministic fixture: revenues repeat (ties), a row in 7 has no TQ, one in 5 no monetized count. */
function fixture(): string {
  const lines = ['date,advertiser,publisher,zone_id,geo,source,domain,impressions,monetized_impressions,clicks,revenue,p_revenue,tq'];
  const advertisers = ['AdNova', 'BidSphere', 'Clickora', 'Ñandú Ads'];
  for (let k = 0; k < DAYS; k++)
    for (let j = 0; j < PER_DAY; j++) {
      const top = k === DAYS - 1 && j === PER_DAY - 1;
      const cents = top ? 987_654 : ((j * 7919 + k * 104_729) % 5_000) + 1;
      const impressions = 200 + ((j * 31 + k) % 900);
      const monetized = j % 5 === 0 ? '' : String(Math.floor(impressions * 0.8));
      const tq = j % 7 === 0 ? '' : (((j * 13 + k) % 100) / 100).toFixed(2);
      const revenue = (cents / 100).toFixed(2);
      lines.push(
        [
          dayOf(k),
          advertisers[j % 4],
          `Pub ${j % 9}`,
          top ? 'F-TOP' : `F-${k}-${j}`,
          j % 2 ? 'ES' : 'MX',
          'search',
          'faces.com',
          impressions,
          monetized,
          j % 11,
          revenue,
          ((cents * 0.6) / 100).toFixed(4),
          tq,
        ].join(','),
      );
    }
  return lines.join('\n');
}

beforeAll(async () => {
  h = await startHarness();
  const imported = await h.importZoneReport(fixture());
  expect(imported.status).toBe(200);
  expect(imported.body).toMatchObject({ inserted: DAYS * PER_DAY, rejected_total: 0 });
  configDir = await newConfigDir();
  const login = await runCli(['login', '--email', ADMIN.email], configDir, h.url, { stdin: `${ADMIN.password}\n` });
  expect(login.code, login.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

/** An `adops` screen as a 400-column terminal shows it (no keyboard: drawn once), without colours. */
async function terminal(args: string[]): Promise<string[]> {
  const r = await runCli(args, configDir, h.url, { isTTY: true, columns: 400 });
  expect(r.code, r.stderr).toBe(0);
  return stripVTControlCharacters(r.stdout).split('\n');
}
/** The cells of a terminal line (columns are two or more spaces apart). */
const cells = (line: string | undefined) => (line ?? '').trim().split(/\s{2,}/);
const texts = async (page: Page, selector: string) => (await page.locator(selector).allTextContents()).map((t) => t.trim());

async function signedIn(path: string): Promise<Page> {
  const page = await h.newPage({ viewport: { width: 1440, height: 900 } });
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(path);
  return page;
}

describe('the web and the terminal show the same numbers', () => {
  test('Ad Report: the same top rows of a revenue sort over every row, and the same Totales', async () => {
    const page = await signedIn('/ad-report');
    await page.getByLabel('Desde', { exact: true }).fill(from);
    await page.getByLabel('Hasta', { exact: true }).fill(to);
    const card = page.getByTestId('zone-table');
    await card
      .getByText(`${(DAYS * PER_DAY).toLocaleString('es-ES', { useGrouping: 'always' } as Intl.NumberFormatOptions)} filas`, { exact: true })
      .waitFor();
    const table = page.getByRole('table', { name: 'Resumen diario por zona' });
    await sortTable(table, 'Revenue', 'descending');
    const webIds = await texts(page, '[data-testid="zone-table"] tbody tr td:nth-child(4)');
    const webTotals = (await texts(page, '[data-testid="zone-table"] tfoot td')).filter((t) => t !== '');
    expect(webIds[0]).toBe('F-TOP');

    const lines = await terminal(['report', 'zones', '--from', from, '--to', to, '--sort', 'revenue:desc']);
    const header = cells(lines.find((l) => /^\s*Date\s/.test(l)));
    const zoneAt = header.indexOf('Zone ID');
    expect(zoneAt).toBeGreaterThan(0);
    const start = lines.findIndex((l) => /^\s*Date\s/.test(l)) + 2;
    const cliIds = lines.slice(start, start + webIds.length).map((l) => cells(l)[zoneAt]);
    expect(cliIds).toEqual(webIds);
    const cliTotals = cells(lines.find((l) => l.trim().startsWith('Totales')));
    expect(cliTotals).toEqual(webTotals);
  });

  test('Dashboard: the same Analytics Totales (TQ included) and TQ Avg card', async () => {
    const page = await signedIn('/dashboard');
    await page.getByLabel('Desde', { exact: true }).fill(from);
    await page.getByLabel('Hasta', { exact: true }).fill(to);
    const analytics = page.getByRole('table', { name: 'Analytics' });
    await analytics
      .locator('tbody tr')
      .nth(DAYS - 1)
      .waitFor();
    await expect.poll(async () => await analytics.locator('tbody tr').count()).toBe(DAYS);
    const webTotals = (await analytics.locator('tfoot td').allTextContents()).map((t) => t.trim());
    const tqCard = (await page.getByTestId('card-tq').textContent())!.replace('TQ Avg', '').trim();
    expect(webTotals.at(-1)).toBe(tqCard);

    const lines = await terminal(['dashboard', '--from', from, '--to', to]);
    const cliTotals = cells(lines.find((l) => l.trim().startsWith('Totales')));
    expect(cliTotals).toEqual(webTotals);
    // The TQ Avg card: a box whose first line is its label and second its figure.
    const labelLine = lines.findIndex((l) => l.includes('TQ Avg'));
    const box = lines[labelLine].split('│').findIndex((c) => c.trim() === 'TQ Avg');
    expect(lines[labelLine + 1].split('│')[box].trim()).toBe(tqCard);
  });

  test('Finance: the same TOTAL for the range, to the cent, in both tables', async () => {
    const page = await signedIn('/finance');
    await page.getByLabel('Desde', { exact: true }).fill(from);
    await page.getByLabel('Hasta', { exact: true }).fill(to);
    const advertisers = page.locator('table', { has: page.locator('caption', { hasText: 'Revenue mensual - Advertisers' }) });
    await advertisers.locator('tbody tr', { hasText: 'Ñandú Ads' }).waitFor();
    const webTotal = (
      await advertisers
        .locator('tr', { hasText: /^\s*TOTAL\b/ })
        .locator('td, th')
        .allTextContents()
    ).map((t) => t.trim());

    const lines = await terminal(['finance', '--from', from, '--to', to]);
    const totalLines = lines.filter((l) => l.trim().startsWith('TOTAL')).map(cells);
    expect(totalLines).toHaveLength(2);
    expect(totalLines[0]).toEqual(webTotal);
    expect(totalLines[1]).toEqual(webTotal);
  });
});
