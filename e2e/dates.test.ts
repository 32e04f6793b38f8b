// Every date field reads and takes dd/MM/yyyy whatever the browser's language: with the
// browser in English (a native date input would show 11/17/2026), each screen's Desde and
// Hasta show day/month/year, typing a day that way reloads the screen, and a wrong date is
// marked instead of being sent. And every table shows its dates as dd/MM/yyyy (times on the
// reporting zone's clock), at 1440 and at 390 px.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, formatDateDMY, formatDateTimeDMY, todayIn } from '@adops/core';
import { event } from '../server/test/warehouse-contract.js';
import { ADMIN, startHarness, type Harness } from './harness.js';

// The server reports in a zone of its own (the browser runs on UTC): table times are its.
const TZ = 'America/Bogota';
let h: Harness;
const today = todayIn(TZ);
const seenAt = Date.now() - 5 * 60_000;

beforeAll(async () => {
  h = await startHarness({ tz: TZ, alerts: { everySeconds: 0, mailFrom: 'a@adops.test', appUrl: null } });
  const rows = [
    'date,advertiser,publisher,zone_id,geo,source,domain,impressions,clicks,revenue',
    `${addDays(today, -10)},AdNova,Pub D,d-1,ES,search,d.com,1000,10,12.5`,
    `${addDays(today, -3)},AdNova,Pub D,d-2,ES,search,d.com,2000,20,30`,
    `${today},AdNova,Pub D,d-3,ES,search,d.com,500,5,4`,
  ].join('\n');
  expect((await h.importZoneReport(rows)).status).toBe(200);
  // Referrer visits a few minutes ago (Referrers, Logs), an alert that fired (Alertas), a publisher token (Usuarios).
  const w = h.server.app.services.warehouse;
  await w.referrers.append(
    Array.from({ length: 12 }, (_, i) => event(i + 1, seenAt + i, { zone_id: 'd-2', referrer: 'https://news.example.com/', ip: '10.7.7.7' })),
  );
  const admin = await h.server.admin();
  await admin.alerts.createRule({ name: 'Picos de una IP', kind: 'ip_burst', params: { visits: 10, minutes: 15 } });
  expect(await h.server.app.services.alerts.evaluate(Date.now())).toMatchObject({ fired: 1 });
  await admin.publishers.set({ name: 'Pub D', revenue_share: 0.5 }); // a publisher the network knows
  await admin.admin.createToken({ publisher_name: 'Pub D' });
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

/** A date as a table shows it: dd/MM/yyyy, with a time (HH:mm[:ss]) and '(parcial)' where it applies. */
const SHOWN_DATE = /^\d{2}\/\d{2}\/\d{4}( \d{2}:\d{2}(:\d{2})?)?( \(parcial\))?$/;

/**
 * The texts of every body cell under a date column (headed as `headers` says) of every table
 * on the page, plus the audit's phone list; and the text of every report table, to look for a
 * stray ISO day.
 */
async function dateCells(page: Page, headers: readonly string[]): Promise<{ dates: string[]; iso: string[] }> {
  return page.evaluate((wanted) => {
    const dates: string[] = [];
    const iso: string[] = [];
    for (const table of document.querySelectorAll('table')) {
      const heads = [...table.querySelectorAll('thead th')].map((th) => (th.textContent ?? '').replace(/[▲▼↕]/g, '').trim());
      const columns = heads.flatMap((h, i) => (wanted.includes(h) ? [i] : []));
      for (const row of table.querySelectorAll('tbody tr')) {
        const cells = (row as HTMLTableRowElement).cells;
        for (const i of columns) if (cells[i]) dates.push((cells[i].textContent ?? '').trim());
        for (const c of cells) if (/\b\d{4}-\d{2}-\d{2}\b/.test(c.textContent ?? '')) iso.push((c.textContent ?? '').trim());
      }
    }
    for (const el of document.querySelectorAll('[data-testid="audit-row"] span.tabular-nums')) dates.push((el.textContent ?? '').trim());
    return { dates, iso };
  }, headers);
}

describe('dates in every table read dd/MM/yyyy', () => {
  const screens: ReadonlyArray<{ path: string; headers: string[]; ready: (page: Page) => Promise<unknown> }> = [
    { path: '/dashboard', headers: ['Date'], ready: (p) => p.getByRole('table', { name: 'Analytics' }).locator('tbody tr').first().waitFor() },
    { path: '/ad-report', headers: ['Date'], ready: (p) => p.getByTestId('zone-table').locator('tbody tr td').nth(3).waitFor() },
    { path: '/apis', headers: ['Date'], ready: (p) => p.locator('table tbody tr td').nth(2).waitFor() },
    { path: '/referrers', headers: ['Date'], ready: (p) => p.getByText('news.example.com').first().waitFor() },
    { path: '/logs', headers: ['Date'], ready: (p) => p.getByText('10.7.7.7').first().waitFor() },
    { path: '/fb-campaigns', headers: ['Creada'], ready: (p) => p.getByTestId('campaign-id').first().waitFor() },
    { path: '/admin-users', headers: ['Creado', 'Caduca', 'Último uso'], ready: (p) => p.locator('[data-publisher="Pub D"]').waitFor() },
    { path: '/admin/audit', headers: ['Fecha'], ready: (p) => p.getByTestId('audit-row').first().waitFor({ state: 'attached' }) },
    { path: '/alerts', headers: ['Disparada'], ready: (p) => p.getByTestId('alerts-table').locator('tbody tr').first().waitFor() },
  ];
  for (const width of [1440, 390]) {
    test(`at ${width} px every date column of every screen reads dd/MM/yyyy, never YYYY-MM-DD`, async () => {
      const page = await h.newPage({ viewport: { width, height: 900 }, locale: 'en-US' });
      await h.signIn(page, ADMIN.email, ADMIN.password);
      for (const { path, headers, ready } of screens) {
        await page.goto(path);
        await ready(page);
        const { dates, iso } = await dateCells(page, headers);
        expect(dates.length, `${path}: date cells`).toBeGreaterThan(0);
        for (const d of dates) expect(d === '-' || d === 'Nunca' || SHOWN_DATE.test(d), `${path}: ${d}`).toBe(true);
        // A campaign's name may carry a day of its own; the report tables never show an ISO day.
        if (path !== '/fb-campaigns') expect(iso, path).toEqual([]);
      }
      // Times are the reporting zone's (Bogota), not the browser's (UTC): the visits of a few minutes ago.
      await page.goto('/logs');
      await page.getByText(formatDateTimeDMY(seenAt, TZ).slice(0, 16)).first().waitFor();
      await h.screenshot(page, `dates-tables-${width}`);
      expect(h.pageErrors(page)).toEqual([]);
    });
  }
});
