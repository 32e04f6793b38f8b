// Browser tests of the Referrers report: the filter bar's draft (nothing happens until
// Aplicar), presets filling dd/MM/yyyy dates, Reset, paging 20 per page, the CSV file,
// the empty state and visible load errors. Events are seeded through the real ingest route.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import {
  addDays,
  formatDateDMY,
  formatInt,
  parseCsv,
  presetRange,
  toNdjson,
  todayIn,
  zonedDayStart,
  type IngestReferrerEvent,
  type PresetKey,
  type VisitsComparison,
} from '@adops/core';
import { ADMIN, startHarness, type Harness } from './harness.js';

let h: Harness;
/** The browser's zone (the screens read dates on the user's clock); Chromium shares the process TZ. */
const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;
const today = () => todayIn(TZ);
/** An instant `fraction` of the way from today's local midnight to now (always today, never future). */
const earlierToday = (fraction: number) => {
  const start = zonedDayStart(today(), TZ).getTime();
  return new Date(start + Math.floor((Date.now() - start) * fraction)).toISOString();
};
const middayOf = (ymd: string) => new Date(zonedDayStart(ymd, TZ).getTime() + 12 * 3_600_000).toISOString();

const PAGED = 45; // distinct referrers of zone 7001 today: with 2 more, 47 rows → 3 pages of 20
const TODAY_ROWS = PAGED + 2;

async function seed(events: IngestReferrerEvent[]) {
  const admin = await h.server.admin();
  const result = await admin.referrers.ingest(undefined, { rawBody: toNdjson(events), headers: { 'content-type': 'application/x-ndjson' } });
  expect(result.accepted).toBe(events.length);
}

beforeAll(async () => {
  // Bot and spam traffic told apart, as in production.
  h = await startHarness({ botFilter: true });
  // Zone owners first: events take their publisher/advertiser from the zone at ingest (and hits
  // to zones no report names are flagged).
  const zoneRows = [
    { zone: '7001', advertiser: 'Adv Uno', publisher: 'Pub Norte' },
    { zone: '7002', advertiser: 'Adv Dos', publisher: 'Pub Sur' },
    { zone: '7003', advertiser: 'Adv Dos', publisher: 'Pub Sur' },
    { zone: '7004', advertiser: 'Adv Dos', publisher: 'Pub Sur' },
  ].map((z) => ({
    date: addDays(today(), -1),
    advertiser: z.advertiser,
    publisher: z.publisher,
    zone_id: z.zone,
    geo: 'ES',
    source: 'web',
    domain: 'example.com',
    impressions: 100,
    clicks: 1,
    revenue: 1,
  }));
  expect((await h.importZoneReport(zoneRows)).status).toBe(200);
  await h.server.app.services.referrers.refreshZones();

  await seed([
    ...Array.from({ length: PAGED }, (_, i) => ({
      zone_id: '7001',
      parent_domain: 'pages.example',
      referrer: `https://pages.example/articulo-${String(i).padStart(2, '0')}`,
      seen_at: earlierToday((i + 1) / (PAGED + 10)),
    })),
    { zone_id: '7002', parent_domain: 'other.example', referrer: 'https://other.example/portada', seen_at: earlierToday(0.95) },
    { zone_id: '7002', parent_domain: 'other.example', referrer: null, seen_at: earlierToday(0.96) },
    { zone_id: '7003', parent_domain: 'old.example', referrer: 'https://old.example/ayer', seen_at: middayOf(addDays(today(), -1)) },
    { zone_id: '7004', parent_domain: 'week.example', referrer: 'https://week.example/semana', seen_at: middayOf(addDays(today(), -5)) },
    // A crawler's visit today: left out unless 'Incluir bots'.
    {
      zone_id: '7002',
      parent_domain: 'crawler.example',
      referrer: 'https://crawler.example/indexado',
      user_agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      seen_at: earlierToday(0.5),
    },
  ]);
});
afterAll(async () => {
  await h?.close();
});

async function openReferrers(): Promise<Page> {
  const page = await h.newPage();
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/referrers');
  await page.getByRole('heading', { name: 'Referrers', exact: true }).waitFor();
  return page;
}

const bar = (page: Page) => page.getByRole('form', { name: 'Filtros de referrers' });
const bodyRows = (page: Page) => page.locator('table tbody tr');
const zoneCells = (page: Page) => page.locator('table tbody tr td:nth-child(2)').allTextContents();

async function waitForCount(page: Page, n: number) {
  await page
    .getByTestId('referrers-count')
    .filter({ hasText: new RegExp(`^${n} referrers?$`) })
    .waitFor();
}

describe('Referrers report', () => {
  test("'Incluir bots' adds the crawler's visit at once, keeps it in the link, and the IVT table gives each zone its share", async () => {
    const page = await openReferrers();
    await bar(page).getByLabel('Zone ID').fill('7002');
    await bar(page).getByRole('button', { name: 'Aplicar' }).click();
    await waitForCount(page, 2);
    expect(await page.getByText('https://crawler.example/indexado').count()).toBe(0);
    const bots = bar(page).getByLabel('Incluir bots');
    expect(await bots.isChecked()).toBe(false);
    await bots.check();
    await waitForCount(page, 3);
    expect(new URL(page.url()).searchParams.get('bots')).toBe('1');
    await page.getByText('https://crawler.example/indexado').waitFor();
    // The link keeps it: reloading shows the same.
    await page.reload();
    await waitForCount(page, 3);
    expect(await bar(page).getByLabel('Incluir bots').isChecked()).toBe(true);
    await bar(page).getByLabel('Zone ID').fill('');
    await bar(page).getByRole('button', { name: 'Aplicar' }).click();
    await waitForCount(page, TODAY_ROWS + 1);

    await page.getByRole('button', { name: /Ver tráfico inválido/ }).click();
    const ivt = page.getByTestId('ivt-table');
    const zone7002 = ivt.locator('tbody tr', { hasText: '7002' });
    await zone7002.waitFor();
    // 7002 today: two visits and the crawler's: 1 of 3 flagged.
    expect(await zone7002.locator('td').allTextContents()).toEqual(['7002', 'Pub Sur', '3', '1', '33,33%']);
    // Sortable headers (↕), sorted by the server.
    expect((await ivt.locator('thead th').allTextContents()).map((t) => t.replace(/[↕↑↓]/g, '').trim())).toEqual([
      'Zone ID',
      'Publisher',
      'Visitas',
      'Bots y spam',
      'IVT %',
    ]);
    await page.getByLabel('Agrupar por').selectOption('publisher');
    await ivt.locator('tbody tr', { hasText: 'Pub Norte' }).waitFor();
    expect(await ivt.locator('tbody tr', { hasText: 'Pub Norte' }).locator('td').allTextContents()).toEqual([
      'Pub Norte',
      String(PAGED),
      '0',
      '0,00%',
    ]);

    await bar(page).getByLabel('Incluir bots').uncheck();
    await waitForCount(page, TODAY_ROWS);
    expect(new URL(page.url()).searchParams.has('bots')).toBe(false);
    await h.screenshot(page, 'referrers-bots');
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('opens on today with every select at Todos, dates in dd/MM/yyyy and 20 rows per page', async () => {
    const page = await openReferrers();
    const f = bar(page);
    expect(await f.getByLabel('Zone ID').getAttribute('placeholder')).toBe('Buscar Zone ID');
    for (const name of ['Advertiser', 'Publisher', 'Source']) expect(await f.getByLabel(name).inputValue()).toBe('Todos');
    expect(await f.getByLabel('Preset').locator('option:checked').textContent()).toBe('Hoy');
    expect(await f.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(today()));
    expect(await f.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(today()));

    await waitForCount(page, TODAY_ROWS);
    await h.screenshot(page, 'referrers');
    const headers = await page.locator('table thead th').allTextContents();
    expect(headers).toEqual(['Date', 'Zone ID', 'Source', 'Referrer']);
    expect(await bodyRows(page).count()).toBe(20);
    // Newest first: the 7002 rows were seen last today.
    const first = await bodyRows(page).first().locator('td').allTextContents();
    expect(first[0]).toMatch(new RegExp(`^${formatDateDMY(today())} \\d{2}:\\d{2}$`));
    expect(first.slice(1)).toEqual(['7002', 'other.example', '-']);
    expect((await bodyRows(page).nth(1).locator('td').allTextContents()).slice(1)).toEqual([
      '7002',
      'other.example',
      'https://other.example/portada',
    ]);

    const pager = page.getByRole('navigation', { name: 'Paginación' });
    await pager.getByText('Página 1 de 3').waitFor();
    expect(await pager.getByRole('button', { name: 'Anterior' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: 'Siguiente' }).click();
    await pager.getByText('Página 2 de 3').waitFor();
    expect(await bodyRows(page).count()).toBe(20);
    await pager.getByRole('button', { name: 'Siguiente' }).click();
    await pager.getByText('Página 3 de 3').waitFor();
    expect(await bodyRows(page).count()).toBe(TODAY_ROWS - 40);
    expect(await pager.getByRole('button', { name: 'Siguiente' }).isDisabled()).toBe(true);
    expect(await pager.getByRole('button', { name: 'Anterior' }).isDisabled()).toBe(false);
    // The oldest row of the day is last.
    expect(await bodyRows(page).last().locator('td').nth(3).textContent()).toBe('https://pages.example/articulo-00');
    await page.getByRole('button', { name: 'Descargar CSV' }).waitFor();
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('today’s visits are compared with yesterday’s up to the same minute, in the server’s figures and words', async () => {
    const page = await h.newPage();
    await h.signIn(page, ADMIN.email, ADMIN.password);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/referrers/comparison'),
      page.goto('/referrers'),
    ]);
    const c = (await answer.json()) as VisitsComparison;
    // In the day's first minute nothing has run yet to set against yesterday (CI may run then).
    if (c.basis === 'none') return expect(c.current).toBeNull();
    // A running day is never set against the whole of yesterday (no '▼ 90 %' at 3 a.m.).
    expect(c.basis).toBe('same_hours');
    expect(c.label).toMatch(/^hasta las \d{2}:\d{2} frente a ayer a la misma hora$/);
    const line = page.getByTestId('visits-comparison');
    await line.waitFor();
    const text = (await line.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain(`${formatInt(c.current!.hits)} visitas`);
    expect(text).toContain(`${c.label} (antes ${formatInt(c.previous!.hits)})`);
    expect(await line.getAttribute('title')).toBe(c.note);
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('changing selects, zone or preset does nothing until Aplicar; Aplicar reloads from page 1', async () => {
    const page = await openReferrers();
    await waitForCount(page, TODAY_ROWS);
    const pager = page.getByRole('navigation', { name: 'Paginación' });
    await pager.getByRole('button', { name: 'Siguiente' }).click();
    await pager.getByText('Página 2 de 3').waitFor();

    const loads: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/referrers/') loads.push(r.postData() ?? '');
    });
    const f = bar(page);
    await f.getByLabel('Source').selectOption('old.example');
    await f.getByLabel('Preset').selectOption({ label: 'Ayer' });
    await f.getByText('Hay cambios sin aplicar').waitFor();
    await page.waitForTimeout(400);
    expect(loads).toEqual([]);
    await pager.getByText('Página 2 de 3').waitFor();
    await waitForCount(page, TODAY_ROWS);

    await f.getByRole('button', { name: 'Aplicar' }).click();
    await waitForCount(page, 1);
    expect(loads).toHaveLength(1);
    const sent = JSON.parse(loads[0]);
    expect(sent.parentDomain).toBe('old.example');
    expect(sent.advertiser).toBeUndefined();
    expect(Date.parse(sent.startDate)).toBe(zonedDayStart(addDays(today(), -1), TZ).getTime());
    expect(Date.parse(sent.endDate)).toBe(zonedDayStart(today(), TZ).getTime() - 1);
    expect(await zoneCells(page)).toEqual(['7003']);
    await pager.getByText('Página 1 de 1').waitFor();
    expect(await f.getByText('Hay cambios sin aplicar').count()).toBe(0);
  });

  test('each preset fills Desde/Hasta in dd/MM/yyyy; typing a date switches to Personalizado', async () => {
    const page = await openReferrers();
    const f = bar(page);
    const cases: [string, PresetKey][] = [
      ['Ayer', 'ayer'],
      ['Últimos 7 días', 'ultimos7'],
      ['Mes actual', 'mes_actual'],
      ['Mes anterior', 'mes_anterior'],
      ['Hoy', 'hoy'],
    ];
    for (const [label, key] of cases) {
      await f.getByLabel('Preset').selectOption({ label });
      const { from, to } = presetRange(key, new Date(), TZ);
      expect([await f.getByLabel('Desde', { exact: true }).inputValue(), await f.getByLabel('Hasta', { exact: true }).inputValue()]).toEqual([
        formatDateDMY(from),
        formatDateDMY(to),
      ]);
    }
    // Últimos 7 días: from 7 days ago to the end of yesterday.
    await f.getByLabel('Preset').selectOption({ label: 'Últimos 7 días' });
    expect(await f.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(addDays(today(), -7)));
    expect(await f.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(addDays(today(), -1)));

    await f.getByLabel('Desde', { exact: true }).fill(formatDateDMY(addDays(today(), -6)));
    expect(await f.getByLabel('Preset').locator('option:checked').textContent()).toBe('Personalizado');

    // A date that does not exist cannot be applied; Desde after Hasta neither.
    await f.getByLabel('Hasta', { exact: true }).fill('31/02/2026');
    await f.getByText('Fecha "Hasta" no válida (dd/mm/aaaa)').waitFor();
    expect(await f.getByRole('button', { name: 'Aplicar' }).isDisabled()).toBe(true);
    await f.getByLabel('Hasta', { exact: true }).fill(formatDateDMY(addDays(today(), -8)));
    await f.getByText('La fecha de inicio debe ser anterior o igual a la de fin').waitFor();
    expect(await f.getByRole('button', { name: 'Aplicar' }).isDisabled()).toBe(true);

    // A typed range applies: zone 7004 was seen 5 days ago.
    await f.getByLabel('Hasta', { exact: true }).fill(formatDateDMY(addDays(today(), -2)));
    await f.getByLabel('Zone ID').fill('7004');
    await f.getByLabel('Zone ID').press('Enter');
    await waitForCount(page, 1);
    expect(await zoneCells(page)).toEqual(['7004']);
  });

  test('Reset puts draft and applied filters back to today, Todos and preset Personalizado', async () => {
    const page = await openReferrers();
    const f = bar(page);
    await waitForCount(page, TODAY_ROWS);
    await f.getByLabel('Zone ID').fill('700');
    await f.getByLabel('Source').selectOption('week.example');
    await f.getByLabel('Preset').selectOption({ label: 'Últimos 7 días' });
    await f.getByRole('button', { name: 'Aplicar' }).click();
    await waitForCount(page, 1);
    // A draft change not applied is dropped by Reset too.
    await f.getByLabel('Advertiser').selectOption('Adv Uno');

    await f.getByRole('button', { name: 'Reset' }).click();
    await waitForCount(page, TODAY_ROWS);
    expect(await f.getByLabel('Zone ID').inputValue()).toBe('');
    for (const name of ['Advertiser', 'Publisher', 'Source']) expect(await f.getByLabel(name).inputValue()).toBe('Todos');
    expect(await f.getByLabel('Preset').locator('option:checked').textContent()).toBe('Personalizado');
    expect(await f.getByLabel('Desde', { exact: true }).inputValue()).toBe(formatDateDMY(today()));
    expect(await f.getByLabel('Hasta', { exact: true }).inputValue()).toBe(formatDateDMY(today()));
    await page.getByText('Página 1 de 3').waitFor();
  });

  test('Advertiser and Publisher list the zones’ owners and filter by them', async () => {
    const page = await openReferrers();
    const f = bar(page);
    await waitForCount(page, TODAY_ROWS);
    const options = async (name: string) => f.getByLabel(name).locator('option').allTextContents();
    expect(await options('Advertiser')).toEqual(['Todos', 'Adv Dos', 'Adv Uno']);
    expect(await options('Publisher')).toEqual(['Todos', 'Pub Norte', 'Pub Sur']);
    expect(await options('Source')).toEqual(expect.arrayContaining(['Todos', 'pages.example', 'other.example', 'old.example', 'week.example']));
    await f.getByLabel('Advertiser').selectOption('Adv Dos');
    await f.getByRole('button', { name: 'Aplicar' }).click();
    await waitForCount(page, 2);
    expect(await zoneCells(page)).toEqual(['7002', '7002']);
    await f.getByLabel('Advertiser').selectOption('Todos');
    await f.getByLabel('Publisher').selectOption('Pub Norte');
    await f.getByRole('button', { name: 'Aplicar' }).click();
    await waitForCount(page, PAGED);
  });

  test('Descargar CSV saves every row as referrers-{start}_to_{end}.csv with a BOM and commas', async () => {
    const page = await openReferrers();
    await waitForCount(page, TODAY_ROWS);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`referrers-${today()}_to_${today()}.csv`);
    const text = await readFile((await download.path())!, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text.slice(1).split('\n')[0]).toBe('date,zone_id,source,referrer');
    const records = parseCsv(text);
    expect(records).toHaveLength(1 + TODAY_ROWS);
    expect(records[1]).toEqual([expect.stringMatching(new RegExp(`^${today()} \\d{2}:\\d{2}$`)), '7002', 'other.example', '']);
    expect(records.at(-1)?.slice(1)).toEqual(['7001', 'pages.example', 'https://pages.example/articulo-00']);
  });

  test('no rows: "No hay resultados", no CSV button, "Página 1 de 1" with both buttons disabled', async () => {
    const page = await openReferrers();
    await waitForCount(page, TODAY_ROWS);
    await bar(page).getByLabel('Zone ID').fill('no-existe');
    await bar(page).getByRole('button', { name: 'Aplicar' }).click();
    await page.getByText('No hay resultados').waitFor();
    expect(await page.getByRole('button', { name: 'Descargar CSV' }).count()).toBe(0);
    const pager = page.getByRole('navigation', { name: 'Paginación' });
    await pager.getByText('Página 1 de 1').waitFor();
    expect(await pager.getByRole('button', { name: 'Anterior' }).isDisabled()).toBe(true);
    expect(await pager.getByRole('button', { name: 'Siguiente' }).isDisabled()).toBe(true);
    await h.screenshot(page, 'referrers-empty');
  });

  test('failed loads are shown on screen and logged with the console texts of the catalogue', async () => {
    const page = await h.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.route('**/api/referrers/', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'Almacén no disponible' }) }),
    );
    await page.route('**/api/referrers/filters', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ detail: 'Fallo interno' }) }),
    );
    await page.goto('/referrers');
    await page.getByRole('alert').filter({ hasText: 'Error al cargar datos de referrers: Almacén no disponible' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'Error al cargar filtros de referrers: Fallo interno' }).waitFor();
    await page.getByText('No se pudieron cargar los referrers').waitFor();
    expect(await page.getByRole('button', { name: 'Descargar CSV' }).count()).toBe(0);
    expect(consoleErrors.some((t) => t.includes('Error al cargar datos de referrers'))).toBe(true);
    expect(consoleErrors.some((t) => t.includes('Error al cargar filtros de referrers'))).toBe(true);
    await h.screenshot(page, 'referrers-error');
  });
});
