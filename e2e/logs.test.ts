// Browser tests of Referrers (live): events posted to the server appear without reload over
// SSE, a failed stream falls back for good to polling every 5 s, Live off stops updates,
// the same event via stream and poll shows once, autoscroll, server pages that stay still
// while events arrive (before_id) and the CSV file of every matching event.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page, Request } from 'playwright-core';
import {
  addDays,
  formatDateDMY,
  parseCsv,
  toNdjson,
  todayIn,
  zonedDayStart,
  type IngestReferrerEvent,
  type IngestReferrersResult,
} from '@adops/core';
import { ADMIN, startHarness, type Harness } from './harness.js';

let h: Harness;
const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;
const today = () => todayIn(TZ);
/** An instant `fraction` of the way from today's local midnight to now (today, never future). */
const earlierToday = (fraction: number) => {
  const start = zonedDayStart(today(), TZ).getTime();
  return new Date(start + Math.floor((Date.now() - start) * fraction)).toISOString();
};

async function ingest(events: IngestReferrerEvent[]): Promise<IngestReferrersResult> {
  const admin = await h.server.admin();
  return admin.referrers.ingest(undefined, { rawBody: toNdjson(events), headers: { 'content-type': 'application/x-ndjson' } });
}

const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** The ad tag's beacon, as a browser on a publisher's page would send it (or a crawler, with `ua`). */
async function hit(zone: string, ref: string, kw: string, country = 'AR', ua = BROWSER_UA) {
  const q = new URLSearchParams({ zone_id: zone, ref, kw, src: 'live.example' });
  const res = await h.server.fetch(`/api/hit?${q}`, { headers: { 'x-country-code': country, 'user-agent': ua } });
  expect(res.status).toBe(204);
}

beforeAll(async () => {
  // Behind one trusted proxy, as in production: the beacon's CDN country header counts.
  h = await startHarness({ trustProxy: 1, botFilter: true });
  // 25 events today of zone L1-pag (two pages of 20).
  await ingest(
    Array.from({ length: 25 }, (_, i) => ({
      zone_id: 'L1-pag',
      parent_domain: 'paging.example',
      referrer: `https://paging.example/p${String(i).padStart(2, '0')}`,
      keyword: `kw ${i}`,
      ip: `198.51.100.${i + 1}`,
      country: 'ES',
      seen_at: earlierToday((i + 1) / 30),
    })),
  );
});
afterAll(async () => {
  await h?.close();
});

interface Watched {
  page: Page;
  streams: Request[];
  polls: Request[];
  warnings: string[];
  errors: string[];
}

/** Signs in, lets `prepare` set routes, opens /logs and records stream/poll requests and console output. */
async function openLogs(prepare?: (page: Page) => Promise<void>): Promise<Watched> {
  const page = await h.newPage();
  const w: Watched = { page, streams: [], polls: [], warnings: [], errors: [] };
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await prepare?.(page);
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path === '/api/referrers_logs/stream') w.streams.push(r);
    if (path === '/api/referrers_logs/' && r.method() === 'POST') w.polls.push(r);
  });
  page.on('console', (m) => {
    if (m.type() === 'warning') w.warnings.push(m.text());
    if (m.type() === 'error') w.errors.push(m.text());
  });
  await page.goto('/logs');
  await page.getByRole('heading', { name: 'Referrers (live)' }).waitFor();
  return w;
}

const badge = (page: Page) => page.getByTestId('live-mode');
const row = (page: Page, text: string) => page.locator('table tbody tr', { hasText: text });
const filterBar = (page: Page) => page.getByRole('form', { name: 'Filtros de referrers' });

async function applyZone(page: Page, zone: string) {
  await filterBar(page).getByLabel('Zone ID').fill(zone);
  await filterBar(page).getByRole('button', { name: 'Aplicar' }).click();
}

describe('Referrers (live)', () => {
  test('Live over SSE: a beacon hit appears at the top without reload, with keyword, IP and country', async () => {
    const w = await openLogs();
    const { page } = w;
    await row(page, 'https://paging.example/p24').waitFor();
    expect(await badge(page).textContent()).toBe('SSE');
    expect(await page.getByRole('checkbox', { name: 'Live' }).isChecked()).toBe(true);
    expect(await page.locator('table thead th').allTextContents()).toEqual(['Date', 'Zone ID', 'Source', 'Referrer', 'Keyword', 'IP', 'Country']);
    await expect.poll(() => w.streams.length).toBe(1);
    const streamUrl = new URL(w.streams[0].url());
    expect(streamUrl.searchParams.get('access_token')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(Date.parse(streamUrl.searchParams.get('startDate')!)).toBe(zonedDayStart(today(), TZ).getTime());
    const pollsBefore = w.polls.length;

    await hit('L2-live', 'https://news.example/nota-en-vivo', 'zapatillas rojas');
    const fresh = row(page, 'https://news.example/nota-en-vivo');
    await fresh.waitFor({ timeout: 4000 });
    const cells = await fresh.locator('td').allTextContents();
    expect(cells[0]).toMatch(new RegExp(`^${formatDateDMY(today())} \\d{2}:\\d{2}$`));
    expect(cells.slice(1)).toEqual(['L2-live', 'live.example', 'https://news.example/nota-en-vivo', 'zapatillas rojas', '127.0.0.1', 'AR']);
    // Newest first: it is the first row.
    expect(await page.locator('table tbody tr').first().locator('td').nth(3).textContent()).toBe('https://news.example/nota-en-vivo');
    expect(w.polls.length).toBe(pollsBefore); // no polling while the stream works
    expect(await badge(page).textContent()).toBe('SSE');
    await h.screenshot(page, 'logs-live');
    expect(h.pageErrors(page)).toEqual([]);
  });

  test("a crawler's hit stays out of the live log; 'Incluir bots' streams it with its reason, and the link keeps it", async () => {
    const w = await openLogs();
    const { page } = w;
    await applyZone(page, 'L8-');
    await page.getByText('No hay resultados').waitFor();
    await hit('L8-bots', 'https://bots.example/rastreado', 'bot', 'US', GOOGLEBOT);
    await hit('L8-bots', 'https://bots.example/persona', 'humano');
    await row(page, 'https://bots.example/persona').waitFor();
    expect(await row(page, 'https://bots.example/rastreado').count()).toBe(0);

    await filterBar(page).getByLabel('Incluir bots').check();
    await row(page, 'https://bots.example/rastreado').waitFor();
    expect(new URL(page.url()).searchParams.get('bots')).toBe('1');
    await expect.poll(() => w.streams.length).toBeGreaterThanOrEqual(3);
    expect(new URL(w.streams.at(-1)!.url()).searchParams.get('include_bots')).toBe('true');
    expect(await page.locator('table thead th').allTextContents()).toEqual([
      'Date',
      'Zone ID',
      'Source',
      'Referrer',
      'Keyword',
      'IP',
      'Country',
      'Bot',
    ]);
    expect(await row(page, 'https://bots.example/rastreado').locator('td').last().textContent()).toBe('Bot (user agent)');
    expect(await row(page, 'https://bots.example/persona').locator('td').last().textContent()).toBe('');
    // A crawler's hit arriving now streams in too.
    await hit('L8-bots', 'https://bots.example/rastreado-2', 'bot', 'US', GOOGLEBOT);
    await row(page, 'https://bots.example/rastreado-2').waitFor({ timeout: 4000 });
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('applied filters reach the stream: only the filtered zone’s events arrive', async () => {
    const w = await openLogs();
    const { page } = w;
    await row(page, 'https://paging.example/p24').waitFor();
    await applyZone(page, 'L3-');
    await page.getByText('No hay resultados').waitFor();
    await expect.poll(() => w.streams.length).toBe(2);
    expect(new URL(w.streams[1].url()).searchParams.get('zoneId')).toBe('L3-');
    await hit('L9-other', 'https://other.example/no-debe-verse', 'x');
    await hit('L3-zone', 'https://zone.example/si-debe-verse', 'y');
    await row(page, 'https://zone.example/si-debe-verse').waitFor();
    expect(await row(page, 'https://other.example/no-debe-verse').count()).toBe(0);
    expect(await page.locator('table tbody tr').count()).toBe(1);
  });

  test('Live off: no stream, no polling, no new rows; Live on again catches up on what was missed', async () => {
    const w = await openLogs();
    const { page } = w;
    await applyZone(page, 'L4-');
    await page.getByText('No hay resultados').waitFor();
    await expect.poll(() => w.streams.length).toBe(2);
    await page.getByRole('checkbox', { name: 'Live' }).uncheck();
    const polls = w.polls.length;
    await hit('L4-off', 'https://off.example/mientras-apagado', 'apagado');
    await page.waitForTimeout(6000); // longer than one polling interval
    expect(await row(page, 'https://off.example/mientras-apagado').count()).toBe(0);
    expect(w.polls.length).toBe(polls);
    expect(w.streams.length).toBe(2);

    await page.getByRole('checkbox', { name: 'Live' }).check();
    await row(page, 'https://off.example/mientras-apagado').waitFor({ timeout: 4000 });
    expect(await badge(page).textContent()).toBe('SSE');
  });

  test('a failed stream switches to Polling for good and polled events appear', async () => {
    const w = await openLogs((page) => page.route('**/api/referrers_logs/stream?**', (route) => route.abort('connectionreset')));
    const { page } = w;
    await badge(page).filter({ hasText: 'Polling' }).waitFor();
    expect(w.warnings.some((t) => t.includes('Error en el stream de referrers_logs'))).toBe(true);
    await applyZone(page, 'L5-');
    await page.getByText('No hay resultados').waitFor();
    await hit('L5-poll', 'https://poll.example/por-polling', 'sondeo');
    const started = Date.now();
    await row(page, 'https://poll.example/por-polling').waitFor({ timeout: 8000 });
    expect(Date.now() - started).toBeLessThan(7000);
    // Never back to the stream, even after new filters.
    expect(w.streams.length).toBe(1);
    expect(await badge(page).textContent()).toBe('Polling');
    await h.screenshot(page, 'logs-polling');
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('the same event via the stream and the poll shows once; a malformed message is ignored with a warning', async () => {
    const referrer = 'https://dup.example/una-vez';
    let served = 0;
    const w = await openLogs((page) =>
      page.route('**/api/referrers_logs/stream?**', async (route) => {
        served++;
        // The event is stored now, after the page's first load, so only the stream and the
        // poll can bring it; the stream then ends, which the page takes as a failure.
        const event = {
          zone_id: 'L6-dedupe',
          parent_domain: 'dup.example',
          referrer,
          keyword: 'duplicado',
          ip: '203.0.113.7',
          country: 'ES',
          seen_at: new Date(Date.now() - 1000).toISOString(),
        };
        const { first_id } = await ingest([event]);
        const body = [
          'retry: 100',
          '',
          'data: {no es json',
          '',
          `id: ${first_id}`,
          `data: ${JSON.stringify({ id: first_id, ...event })}`,
          '',
          '',
        ].join('\n');
        await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream' }, body });
      }),
    );
    const { page } = w;
    await row(page, referrer).waitFor();
    await badge(page).filter({ hasText: 'Polling' }).waitFor();
    const pollsAtSwitch = w.polls.length;
    // At least one poll after the switch has brought the stored copy of the same event.
    await expect.poll(() => w.polls.length, { timeout: 8000 }).toBeGreaterThan(pollsAtSwitch);
    await page.waitForTimeout(500);
    expect(await row(page, referrer).count()).toBe(1);
    expect(await page.locator('table tbody tr').first().locator('td').nth(3).textContent()).toBe(referrer);
    // The list holds exactly what the server has today: nothing twice.
    const stored = await (await h.server.admin()).referrers.logs({});
    await expect.poll(() => page.getByTestId('logs-count').textContent()).toBe(`${stored.total_rows} eventos`);
    expect(served).toBe(1);
    expect(w.warnings.some((t) => t.includes('mal formado'))).toBe(true);
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('20 rows per page; live arrivals keep the page; Autoscroll scrolls the list to the bottom on a new event', async () => {
    const w = await openLogs();
    const { page } = w;
    await applyZone(page, 'L1-pag');
    await page.getByText('Página 1 de 2').waitFor();
    expect(await page.locator('table tbody tr').count()).toBe(20);
    const pager = page.getByRole('navigation', { name: 'Paginación' });
    expect(await pager.getByRole('button', { name: 'Anterior' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: 'Siguiente' }).click();
    await page.getByText('Página 2 de 2').waitFor();
    expect(await page.locator('table tbody tr').count()).toBe(5);
    expect(await pager.getByRole('button', { name: 'Siguiente' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: 'Anterior' }).click();
    await page.getByText('Página 1 de 2').waitFor();

    const scroller = page.getByTestId('logs-scroller');
    const scroll = () => scroller.evaluate((el) => ({ top: el.scrollTop, max: el.scrollHeight - el.clientHeight }));
    expect((await scroll()).max).toBeGreaterThan(0);
    // Without Autoscroll a new event leaves the list where it is.
    await hit('L1-pag', 'https://paging.example/nuevo-1', 'a');
    await row(page, 'https://paging.example/nuevo-1').waitFor();
    expect((await scroll()).top).toBe(0);
    await page.getByLabel('Autoscroll').check();
    await hit('L1-pag', 'https://paging.example/nuevo-2', 'b');
    await row(page, 'https://paging.example/nuevo-2').waitFor();
    await expect
      .poll(async () => {
        const s = await scroll();
        return s.max > 0 && Math.abs(s.top - s.max) <= 1;
      })
      .toBe(true);
    await page.getByText('Página 1 de 2').waitFor();

    // Page 2 comes from the server pinned to the newest event known (before_id), so a live
    // arrival neither sends the user back to page 1 nor shifts the rows: it only adds to the count.
    const pageLoads: Array<Record<string, unknown>> = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/referrers_logs/' && r.method() === 'POST') pageLoads.push(JSON.parse(r.postData() ?? '{}'));
    });
    await pager.getByRole('button', { name: 'Siguiente' }).click();
    await page.getByText('Página 2 de 2').waitFor();
    await page.locator('table tbody tr', { hasText: 'https://paging.example/p02' }).waitFor();
    const pageTwo = await page.locator('table tbody tr td:nth-child(4)').allTextContents();
    expect(pageTwo).toHaveLength(7);
    expect(pageLoads.at(-1)).toMatchObject({ page: 2, page_size: 20, zoneId: 'L1-pag' });
    expect(pageLoads.at(-1)!.before_id).toEqual(expect.any(Number));
    await hit('L1-pag', 'https://paging.example/nuevo-3', 'c');
    await expect.poll(() => page.getByTestId('logs-count').textContent()).toBe('28 eventos');
    await page.getByText('Página 2 de 2').waitFor();
    expect(await page.locator('table tbody tr td:nth-child(4)').allTextContents()).toEqual(pageTwo);
    // Back on page 1 the newest events are on top again, the one that arrived meanwhile first.
    await pager.getByRole('button', { name: 'Anterior' }).click();
    await page.getByText('Página 1 de 2').waitFor();
    await expect.poll(() => page.locator('table tbody tr').first().locator('td').nth(3).textContent()).toBe('https://paging.example/nuevo-3');
    expect(pageLoads.at(-1)).not.toHaveProperty('before_id');
    await expect.poll(() => page.getByTestId('logs-count').textContent()).toBe('28 eventos');
  });

  test('Descargar CSV saves every matching event (all pages, from the server) with keyword, ip and country', async () => {
    const w = await openLogs();
    const { page } = w;
    await applyZone(page, 'L1-pag');
    await page.getByText('Página 1 de 2').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`referrers_logs-${today()}_to_${today()}.csv`);
    const text = await readFile((await download.path())!, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const records = parseCsv(text);
    expect(records[0]).toEqual(['date', 'zone_id', 'source', 'referrer', 'keyword', 'ip', 'country']);
    const p00 = records.find((r) => r[3] === 'https://paging.example/p00');
    expect(p00).toEqual([
      expect.stringMatching(new RegExp(`^${today()} \\d{2}:\\d{2}$`)),
      'L1-pag',
      'paging.example',
      'https://paging.example/p00',
      'kw 0',
      '198.51.100.1',
      'ES',
    ]);
    const count = Number((await page.getByTestId('logs-count').textContent())!.split(' ')[0]);
    expect(count).toBeGreaterThan(20);
    expect(records.length).toBe(1 + count);
  });

  test('a failed first load is shown on screen and logged', async () => {
    const w = await openLogs((page) =>
      page.route('**/api/referrers_logs/', (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ detail: 'Almacén caído' }) }),
      ),
    );
    await w.page.getByRole('alert').filter({ hasText: 'Error al cargar datos de referrers_logs: Almacén caído' }).waitFor();
    expect(w.errors.some((t) => t.includes('Error al cargar datos de referrers_logs'))).toBe(true);
  });
  test("'Valor' adds each visit's value (its zone's revenue per visit, estimated today) and TQ, kept in the link; off again removes them", async () => {
    // Last in the file: a zone report makes every zone it does not name unknown (flagged as bots).
    // Yesterday zone L7-valor earned 6.00 over 8 human visits (RPV 0.75, TQ 0.50); today has no
    // report, so today's visits are worth yesterday's RPV (the trailing 7 reported days').
    const yesterday = addDays(today(), -1);
    const imported = await h.importZoneReport([
      {
        date: yesterday,
        advertiser: 'AdNova',
        publisher: 'Pub V',
        zone_id: 'L7-valor',
        geo: 'ES',
        source: 'web',
        domain: 'v.example',
        impressions: 1000,
        clicks: 0,
        revenue: 6,
        tq: 0.5,
      },
    ]);
    expect(imported.status).toBe(200);
    await ingest(
      Array.from({ length: 8 }, (_, i) => ({
        zone_id: 'L7-valor',
        referrer: `https://valor.example/ayer-${i}`,
        seen_at: `${yesterday}T12:00:0${i}Z`,
      })),
    );
    for (const width of [1440, 390]) {
      const page = await h.newPage({ viewport: { width, height: 900 } });
      await h.signIn(page, ADMIN.email, ADMIN.password);
      await page.goto('/logs');
      await page.getByRole('heading', { name: 'Referrers (live)' }).waitFor();
      await applyZone(page, 'L7-');
      // The first pass finds nothing today; the second, the first pass's visit.
      await (width === 1440 ? page.getByText('No hay resultados') : row(page, 'https://valor.example/hoy-1440')).waitFor();
      expect(await page.getByLabel('Valor').isChecked()).toBe(false);
      await page.getByLabel('Valor').check();
      expect(new URL(page.url()).searchParams.get('valor')).toBe('1');
      expect(await page.locator('table thead th').allTextContents()).toEqual([
        'Date',
        'Zone ID',
        'Valor',
        'TQ',
        'Source',
        'Referrer',
        'Keyword',
        'IP',
        'Country',
      ]);
      await hit('L7-valor', `https://valor.example/hoy-${width}`, 'valor');
      const fresh = row(page, `https://valor.example/hoy-${width}`);
      await fresh.waitFor({ timeout: 4000 });
      expect((await fresh.locator('td').allTextContents()).slice(1, 4)).toEqual(['L7-valor', '$0,7500', '0,50']);
      await h.screenshot(page, `logs-valor-${width}`);
      // The link keeps it: a reload shows the column with the polled rows' values.
      await page.reload();
      await row(page, `https://valor.example/hoy-${width}`).waitFor();
      expect(await page.getByLabel('Valor').isChecked()).toBe(true);
      expect((await row(page, `https://valor.example/hoy-${width}`).locator('td').allTextContents()).slice(2, 4)).toEqual(['$0,7500', '0,50']);
      await page.getByLabel('Valor').uncheck();
      expect(new URL(page.url()).searchParams.get('valor')).toBeNull();
      expect(await page.locator('table thead th').allTextContents()).not.toContain('Valor');
      expect(new URL(page.url()).searchParams.get('zone_id')).toBe('L7-');
      expect(h.pageErrors(page)).toEqual([]);
      await page.context().close();
    }
  });
});
