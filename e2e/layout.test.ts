// Every screen at a desktop width (1440 px) and a phone width (390 px): the page never scrolls
// sideways (wide tables scroll inside their own box), tables show their paging, the summary
// cards never cut their numbers, axe-core finds nothing critical or serious, the tab's title
// names the screen, and a screenshot of each is kept in e2e/screenshots/ for a look. The login
// page waits in its first field; the menus follow the WAI-ARIA menu-button keys.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, toNdjson, todayIn } from '@adops/core';
import { ADMIN, accessibilityViolations, startHarness, type Harness } from './harness.js';

let h: Harness;
const TZ = 'UTC';
const today = todayIn(TZ);
const d = (n: number) => addDays(today, -n);

beforeAll(async () => {
  h = await startHarness();
  const rows = [];
  for (let day = 0; day < 14; day++)
    for (let z = 0; z < 12; z++)
      rows.push({
        date: d(day),
        advertiser: ['AdNova', 'BidSphere', 'Clickora'][z % 3],
        publisher: ['Diario Uno', 'Portal Dos', 'Red Tres', 'Noticias del Sur'][z % 4],
        zone_id: `zona-${100 + z}`,
        geo: ['ES', 'MX', 'AR'][z % 3],
        source: ['search', 'social'][z % 2],
        domain: ['uno.com', 'dos.com'][z % 2],
        impressions: 1_000 + 37 * z + day,
        monetized_impressions: 900 + 30 * z,
        clicks: 10 + z,
        revenue: 12.5 * (z + 1) + day,
        tq: 0.5 + z / 50,
      });
  expect((await h.importZoneReport(rows)).status).toBe(200);
  await h.server.app.services.referrers.refreshZones();
  const admin = await h.server.admin();
  const start = Date.parse(`${today}T00:00:00Z`);
  const events = Array.from({ length: 45 }, (_, i) => ({
    zone_id: `zona-${100 + (i % 12)}`,
    parent_domain: ['noticias.example', 'deportes.example'][i % 2],
    referrer: `https://${['noticias', 'deportes'][i % 2]}.example/articulo-muy-largo-con-muchas-palabras-${i}?utm_source=feed&utm_medium=social`,
    keyword: i % 3 ? `palabra ${i}` : null,
    ip: `198.51.100.${i + 1}`,
    country: ['ES', 'MX', 'AR'][i % 3],
    seen_at: new Date(Math.min(Date.now() - 1000, start + i * 60_000)).toISOString(),
  }));
  await admin.referrers.ingest(undefined, { rawBody: toNdjson(events), headers: { 'content-type': 'application/x-ndjson' } });
  // Alertas with a rule to list (and its row audited).
  await admin.alerts.createRule({ name: 'Picos de una IP', kind: 'ip_burst', params: { visits: 20, minutes: 10 } });
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const SCREENS: Array<{
  path: string;
  name: string;
  heading: string;
  /** The tab's title before ' · AdOps Console' (the heading's short name where they differ). */
  title?: string;
  ready: (page: Page) => Promise<unknown>;
  paging?: boolean;
}> = [
  {
    path: '/dashboard',
    name: 'dashboard',
    heading: 'Dashboard',
    ready: (p) => p.getByRole('table', { name: 'Analytics' }).locator('tbody tr').nth(5).waitFor(),
  },
  {
    path: '/ad-report',
    name: 'adreport',
    heading: 'Ad Report',
    ready: (p) => p.getByRole('table', { name: 'Resumen advertiser' }).locator('tbody tr').nth(5).waitFor(),
  },
  { path: '/apis', name: 'explorer', heading: 'Api Explorer', ready: (p) => p.getByText('Página 1 de 1').waitFor() },
  { path: '/finance', name: 'finance', heading: 'Finance', ready: (p) => p.locator('table').nth(1).locator('tfoot').waitFor() },
  { path: '/referrers', name: 'referrers', heading: 'Referrers', ready: (p) => p.getByText('Página 1 de 3').waitFor() },
  { path: '/logs', name: 'logs', heading: 'Referrers (live)', title: 'Logs', ready: (p) => p.getByText('Página 1 de 3').waitFor() },
  {
    path: '/fb-campaigns',
    name: 'fb-campaigns',
    heading: 'Campañas con métricas (Facebook)',
    title: 'Fb Campaigns',
    ready: (p) => p.getByRole('table').locator('tbody tr').first().waitFor(),
  },
  { path: '/demand', name: 'demand', heading: 'Demand', ready: (p) => p.getByTestId('advertiser-card').nth(2).waitFor(), paging: false },
  {
    path: '/create-campaigns',
    name: 'create-campaign',
    heading: 'Crear Campaña en Facebook',
    title: 'Fb Creator',
    ready: (p) =>
      p
        .getByRole('button', { name: /Crear campaña/i })
        .first()
        .waitFor(),
    paging: false,
  },
  {
    path: '/admin-users',
    name: 'users',
    heading: 'Usuarios y tokens',
    title: 'Usuarios',
    ready: (p) => p.getByText('admin@test.local').nth(1).waitFor(),
    paging: false,
  },
  {
    path: '/change-password',
    name: 'change-password',
    heading: 'Cambiar contraseña',
    ready: (p) =>
      p
        .getByRole('button', { name: /Cambiar contraseña/i })
        .last()
        .waitFor(),
    paging: false,
  },
  {
    path: '/profit',
    name: 'profit',
    heading: 'Rentabilidad',
    // An admin opening a stale range syncs it and loads again: ready once no table is busy.
    ready: async (p) => {
      await p.getByTestId('profit-count').waitFor();
      await p.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    },
    paging: false,
  },
  {
    path: '/alerts',
    name: 'alerts',
    heading: 'Alertas',
    ready: (p) => p.getByTestId('alert-rules').waitFor(),
    paging: false,
  },
  {
    path: '/admin/audit',
    name: 'audit',
    heading: 'Auditoría',
    ready: (p) => p.getByTestId('audit-row').first().waitFor({ state: 'attached' }),
    paging: false,
  },
];

for (const width of [1440, 390]) {
  describe(`at ${width} px`, () => {
    for (const screen of SCREENS)
      test(`${screen.heading}: nothing is wider than the screen (tables scroll in their own box), the paging shows, the tab names the screen and axe finds nothing critical or serious`, async () => {
        const page = await h.newPage({ viewport: { width, height: 900 } });
        await h.signIn(page, ADMIN.email, ADMIN.password);
        await page.goto(screen.path);
        await page.getByRole('heading', { name: screen.heading, exact: true }).waitFor();
        await screen.ready(page);
        await h.screenshot(page, `layout-${screen.name}-${width}`);
        // Anything wider than the screen outside a table's own scroll box (named, to find it).
        const wide = await page.evaluate(() =>
          [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
            .filter((e) => !e.closest('.overflow-x-auto'))
            .slice(0, 5)
            .map((e) => `${e.tagName}.${(e as HTMLElement).className} ${Math.round(e.getBoundingClientRect().right)}`),
        );
        expect(wide).toEqual([]);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        if (screen.name !== 'finance' && screen.paging !== false)
          expect(await page.getByRole('navigation', { name: 'Paginación' }).first().isVisible()).toBe(true);
        // No card cuts its figure ('$32.783…'): every card's text fits its box.
        const cut = await page.evaluate(() =>
          [...document.querySelectorAll('[data-testid^="card-"], [data-testid="revenue-value"]')]
            .filter((e) => e instanceof HTMLElement && e.scrollWidth > e.clientWidth + 1)
            .map((e) => `${e.getAttribute('data-testid')}: ${e.textContent}`),
        );
        expect(cut).toEqual([]);
        expect(await page.title()).toBe(`${screen.title ?? screen.heading} · AdOps Console`);
        expect(await accessibilityViolations(page)).toEqual([]);
        expect(h.pageErrors(page)).toEqual([]);
      });

    test('the login page: the cursor waits in Email, the tab says so, and axe finds nothing serious', async () => {
      const page = await h.newPage({ viewport: { width, height: 900 } });
      await page.goto('/login');
      await page.getByRole('button', { name: 'Entrar' }).waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('login-email');
      expect(await page.title()).toBe('Iniciar sesión · AdOps Console');
      expect(await accessibilityViolations(page)).toEqual([]);
    });
  });
}

describe('menus from the keyboard (WAI-ARIA menu button)', () => {
  test('Media Buying: ArrowDown opens on the first item, arrows move round, Escape closes and gives focus back; Enter follows', async () => {
    const page = await h.newPage({ viewport: { width: 1440, height: 900 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    const button = page.getByRole('button', { name: 'Media Buying' });
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
    await button.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe('Fb Creator');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Fb Campaigns');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe('Rentabilidad'); // round from the first to the last
    await page.keyboard.press('Home');
    expect(await focused()).toBe('Fb Creator');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('menu').count()).toBe(0);
    expect(await focused()).toBe('Media Buying');
    await page.keyboard.press('ArrowUp'); // opens on the last item
    await expect.poll(focused).toBe('Rentabilidad');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/profit');
  });

  test('at 390 px the user menu button is named (the avatar alone shows) and opens from the keyboard', async () => {
    const page = await h.newPage({ viewport: { width: 390, height: 900 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    const button = page.getByRole('button', { name: `Menú de usuario de ${ADMIN.email}`, exact: true });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Cambiar contraseña');
  });
});
