// Every screen at a desktop width (1440 px) and a phone width (390 px): the page never scrolls
// sideways (wide tables scroll inside their own box), tables show their paging, the summary
// cards never cut their numbers, and a screenshot of each is kept in e2e/screenshots/ for a look.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, toNdjson, todayIn } from '@adops/core';
import { ADMIN, startHarness, type Harness } from './harness.js';

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
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const SCREENS: Array<{ path: string; name: string; heading: string; ready: (page: Page) => Promise<unknown>; paging?: boolean }> = [
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
  { path: '/logs', name: 'logs', heading: 'Referrers (live)', ready: (p) => p.getByText('Página 1 de 3').waitFor() },
  {
    path: '/fb-campaigns',
    name: 'fb-campaigns',
    heading: 'Campañas con métricas (Facebook)',
    ready: (p) => p.getByRole('table').locator('tbody tr').first().waitFor(),
  },
  { path: '/demand', name: 'demand', heading: 'Demand', ready: (p) => p.getByTestId('advertiser-card').nth(2).waitFor(), paging: false },
  {
    path: '/create-campaigns',
    name: 'create-campaign',
    heading: 'Crear Campaña en Facebook',
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
];

for (const width of [1440, 390]) {
  describe(`at ${width} px`, () => {
    for (const screen of SCREENS)
      test(`${screen.heading}: nothing is wider than the screen (tables scroll in their own box) and the paging shows`, async () => {
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
        expect(h.pageErrors(page)).toEqual([]);
      });
  });
}
