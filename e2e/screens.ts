// Every signed-in screen for the browser tests that walk them all (layout, accessibility): its
// path, heading, tab title, how the nav reaches it and when its data has loaded; and one
// fixture that gives each screen something to show, losing Meta campaigns included.
import type { Page } from 'playwright-core';
import { addDays, toNdjson, todayIn } from '@adops/core';
import { ADMIN, type Harness } from './harness.js';

const today = todayIn('UTC');
const d = (n: number) => addDays(today, -n);

export interface Screen {
  path: string;
  /** Screenshot name. */
  name: string;
  heading: string;
  /** The tab's title before ' · AdOps Console' (the heading's short name where they differ). */
  title?: string;
  /** The nav's words for it: a link, an item of Media Buying's menu, or of the user menu; none: typed in the address bar. */
  nav?: { link: string } | { mediaBuying: string } | { userMenu: string };
  ready: (page: Page) => Promise<unknown>;
  /** Whether the screen shows a table's paging. */
  paging?: boolean;
  /** Opens what the screen hides behind a button (a chooser, a form, a breakdown) and waits for it. */
  expand?: (page: Page) => Promise<unknown>;
}

export const SCREENS: Screen[] = [
  {
    path: '/dashboard',
    name: 'dashboard',
    heading: 'Dashboard',
    nav: { link: 'Dashboard' },
    ready: (p) => p.getByRole('table', { name: 'Analytics' }).locator('tbody tr').nth(5).waitFor(),
  },
  {
    path: '/ad-report',
    name: 'adreport',
    heading: 'Ad Report',
    nav: { link: 'Ad Report' },
    ready: (p) => p.getByRole('table', { name: 'Resumen advertiser' }).locator('tbody tr').nth(5).waitFor(),
    expand: async (p) => {
      await p.getByRole('button', { name: /^Columnas/ }).click();
      await p.getByRole('checkbox').first().waitFor();
    },
  },
  { path: '/apis', name: 'explorer', heading: 'Api Explorer', ready: (p) => p.getByText('Página 1 de 1').waitFor() },
  {
    path: '/finance',
    name: 'finance',
    heading: 'Finance',
    nav: { link: 'Finance' },
    ready: (p) => p.locator('table').nth(1).locator('tfoot').waitFor(),
  },
  {
    path: '/referrers',
    name: 'referrers',
    heading: 'Referrers',
    nav: { link: 'Refs' },
    ready: (p) => p.getByText('Página 1 de 3').waitFor(),
    expand: async (p) => {
      await p.getByRole('button', { name: 'Ver tráfico inválido' }).click();
      await p.getByTestId('ivt-table').locator('tbody tr').first().waitFor();
      await p.getByTestId('spam-summary').waitFor();
      await p.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    },
  },
  {
    path: '/logs',
    name: 'logs',
    heading: 'Referrers (live)',
    title: 'Logs',
    nav: { link: 'Logs' },
    ready: (p) => p.getByText('Página 1 de 3').waitFor(),
  },
  {
    path: '/fb-campaigns',
    name: 'fb-campaigns',
    heading: 'Campañas con métricas (Facebook)',
    title: 'Fb Campaigns',
    nav: { mediaBuying: 'Fb Campaigns' },
    // The fixture's synced spend without visits: losing rows, drawn on their pink background.
    ready: (p) => p.getByRole('table').locator('tbody tr[data-losing="true"]').first().waitFor(),
  },
  {
    path: '/demand',
    name: 'demand',
    heading: 'Demand',
    nav: { link: 'Demand' },
    ready: (p) => p.getByTestId('advertiser-card').nth(2).waitFor(),
    paging: false,
  },
  {
    path: '/create-campaigns',
    name: 'create-campaign',
    heading: 'Crear Campaña en Facebook',
    title: 'Fb Creator',
    nav: { mediaBuying: 'Fb Creator' },
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
    nav: { link: 'Users' },
    ready: (p) => p.getByText('admin@test.local').nth(1).waitFor(),
    paging: false,
    expand: async (p) => {
      await p.getByRole('button', { name: 'Sesiones' }).first().click();
      // This very sign-in is listed (a card on a phone, a table's row wider).
      await p
        .getByRole('region', { name: `Sesiones de ${ADMIN.email}` })
        .getByText('(esta sesión)')
        .locator('visible=true')
        .first()
        .waitFor();
    },
  },
  {
    path: '/change-password',
    name: 'change-password',
    heading: 'Cambiar contraseña',
    nav: { userMenu: 'Cambiar contraseña' },
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
    nav: { mediaBuying: 'Rentabilidad' },
    // An admin opening a stale range syncs it and loads again: ready once no table is busy.
    ready: async (p) => {
      await p.getByTestId('profit-count').waitFor();
      await p.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    },
    paging: false,
    expand: async (p) => {
      await p
        .getByRole('table', { name: 'Rentabilidad por campaña' })
        .getByRole('button', { name: /^Abrir / })
        .first()
        .click();
      await p.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    },
  },
  {
    path: '/alerts',
    name: 'alerts',
    heading: 'Alertas',
    nav: { link: 'Alertas' },
    ready: (p) => p.getByTestId('alert-rules').waitFor(),
    paging: false,
    expand: async (p) => {
      await p.getByRole('button', { name: 'Nueva regla' }).click();
      await p.getByRole('button', { name: 'Cancelar' }).waitFor();
    },
  },
  {
    path: '/admin/audit',
    name: 'audit',
    heading: 'Auditoría',
    nav: { link: 'Auditoría' },
    ready: (p) => p.getByTestId('audit-row').first().waitFor({ state: 'attached' }),
    paging: false,
    expand: async (p) => {
      await p.getByRole('button', { name: 'Ver', exact: true }).locator('visible=true').first().click();
      await p.getByRole('button', { name: 'Ocultar', exact: true }).locator('visible=true').first().waitFor();
    },
  },
];

/**
 * Two weeks of zone reports (12 zones), today's 45 referrer visits, an alert rule, and Meta's
 * spend of those two weeks synced with the months' EUR rates (campaigns with spend and no
 * visits lose money, so Fb Campaigns and Rentabilidad show losing rows).
 */
export async function seedEveryScreen(h: Harness): Promise<void> {
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
  const imported = await h.importZoneReport(rows);
  if (imported.status !== 200) throw new Error(`The fixture's import failed: ${JSON.stringify(imported.body)}`);
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
  const months = [...new Set([d(14), today].map((day) => day.slice(0, 7)))];
  await admin.profit.setRates({ rates: months.map((month) => ({ month, currency: 'EUR', rate: 1.1 })) });
  await admin.profit.syncSpend({ start_date: d(14), end_date: today });
}
