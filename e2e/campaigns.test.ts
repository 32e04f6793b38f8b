// Browser tests of the campaign creator against the real server and its Meta / Pixabay / copy
// sandboxes: debounced suggestions, refresh, the image rule, multipart creation (upload or
// suggestion), the preview dialog and reset, backend errors. Budget and bid are in
// campaign-budget.test.ts, the metrics list in campaign-metrics.test.ts.
import { beforeAll, describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { CTA_LABELS, trackingUrl, type Api } from '@adops/core';
import path from 'node:path';
import { SCREENSHOTS, absenceFor, holdRequests, type Harness } from './harness.js';
import type { MetaSandbox } from '../server/src/sandbox/meta/index.js';
import { campaignHarness, field, openCreator, requestsTo, submitButton, suggestionButtons, typeKeyword } from './campaign-pages.js';

const IMAGE_REQUIRED = 'Debes subir una imagen o seleccionar una de Pixabay';
const NO_TOKEN = 'No se encontró el token. Inicia sesión nuevamente.';

const harness = campaignHarness();
let h: Harness;
let admin: Api & { token: string };
let sandbox: MetaSandbox;
let publicSite: string;
beforeAll(async () => {
  ({ h, admin, sandbox } = harness);
  publicSite = (await admin.health.check()).public_site_url;
});

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

/** A 1200×628 PNG drawn by the browser's canvas. */
async function makePng(page: Page, text: string): Promise<Buffer> {
  const dataUrl = await page.evaluate((label) => {
    const c = document.createElement('canvas');
    c.width = 1200;
    c.height = 628;
    const g = c.getContext('2d')!;
    const gradient = g.createLinearGradient(0, 0, 1200, 628);
    gradient.addColorStop(0, '#1d4ed8');
    gradient.addColorStop(1, '#f59e0b');
    g.fillStyle = gradient;
    g.fillRect(0, 0, 1200, 628);
    g.fillStyle = '#ffffff';
    g.font = 'bold 80px sans-serif';
    g.fillText(label, 80, 340);
    return c.toDataURL('image/png');
  }, text);
  return Buffer.from(dataUrl.split(',')[1], 'base64');
}

const inputValue = (page: Page, label: string) => field(page, label).inputValue();

describe('campaign creator: suggestions', () => {
  test('a keyword of 2 characters asks for nothing; a longer one asks once for copy and images 1 s after the last keystroke and fills headline, body and cta', async () => {
    const page = await openCreator(h);
    const copyCalls = requestsTo(page, '/api/generate-copy/');
    const imageCalls = requestsTo(page, '/api/pixabay/');

    await field(page, 'Keyword').fill('ab');
    await absenceFor(1500); // past the 1 s debounce: a request would have left
    expect(copyCalls).toEqual([]);
    expect(imageCalls).toEqual([]);
    await page.getByText('Escribe una keyword de más de 2 caracteres para ver imágenes sugeridas.').waitFor();

    await field(page, 'Keyword').fill('');
    const keyword = 'vuelos baratos';
    const expected = await admin.campaigns.generateCopy({ keyword });
    // When the last keystroke reached the page, by the browser's own clock (same machine).
    await page.evaluate(() => document.addEventListener('input', () => ((window as unknown as { lastInput: number }).lastInput = Date.now()), true));
    await field(page, 'Keyword').pressSequentially(keyword, { delay: 60 });
    await expect.poll(() => inputValue(page, 'Título (headline)'), { timeout: 5000 }).toBe(expected.headline);
    expect(await inputValue(page, 'Texto principal (body)')).toBe(expected.body);
    expect(await field(page, 'Botón (CTA)').inputValue()).toBe(expected.cta);
    expect(expected.cta).toBe('LEARN_MORE');

    // One call each for the whole keyword, none for its prefixes, after the 1 s pause.
    expect(copyCalls.map((c) => c.url.searchParams.get('keyword'))).toEqual([keyword]);
    const typedAt = await page.evaluate(() => (window as unknown as { lastInput: number }).lastInput);
    expect(copyCalls[0].at - typedAt).toBeGreaterThanOrEqual(950);
    await suggestionButtons(page).first().waitFor();
    expect(imageCalls).toHaveLength(1);
    const first = imageCalls[0].url.searchParams;
    expect(first.get('query')).toBe(keyword);
    const pageNo = Number(first.get('page'));
    expect(pageNo).toBeGreaterThanOrEqual(1);
    expect(pageNo).toBeLessThanOrEqual(5);

    // The grid shows that page's suggestions, in order.
    const suggestions = await admin.campaigns.imageSuggestions({ query: keyword, page: pageNo });
    expect(suggestions.length).toBeGreaterThan(0);
    const shown = await page
      .getByTestId('image-suggestions')
      .locator('img')
      .evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src));
    expect(shown).toEqual(suggestions.map((s) => s.previewURL));
    // The images really load (bundled images served by the server).
    const loaded = await page
      .getByTestId('image-suggestions')
      .locator('img')
      .evaluateAll((imgs) => Promise.all(imgs.map((i) => (i as HTMLImageElement).decode().then(() => (i as HTMLImageElement).naturalWidth))));
    expect(loaded.every((w) => w > 0)).toBe(true);
    await h.screenshot(page, 'campaign-creator-suggestions');
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('the refresh button asks for another random page (1–5) and shows its images', async () => {
    const page = await openCreator(h);
    const imageCalls = requestsTo(page, '/api/pixabay/');
    const keyword = 'hoteles playa';
    await typeKeyword(admin, page, keyword);
    expect(imageCalls).toHaveLength(1);
    let previous = Number(imageCalls[0].url.searchParams.get('page'));

    for (let i = 2; i <= 4; i++) {
      await page.getByRole('button', { name: '↻ Otras imágenes' }).click();
      await expect.poll(() => imageCalls.length).toBe(i);
      const next = Number(imageCalls[i - 1].url.searchParams.get('page'));
      expect(imageCalls[i - 1].url.searchParams.get('query')).toBe(keyword);
      expect(next).not.toBe(previous);
      expect(next).toBeGreaterThanOrEqual(1);
      expect(next).toBeLessThanOrEqual(5);
      await page.locator(`[data-testid="image-suggestions"][data-page="${next}"]`).waitFor();
      const expected = await admin.campaigns.imageSuggestions({ query: keyword, page: next });
      const shown = await page
        .getByTestId('image-suggestions')
        .locator('img')
        .evaluateAll((imgs) => imgs.map((im) => (im as HTMLImageElement).src));
      expect(shown).toEqual(expected.map((s) => s.previewURL));
      previous = next;
    }
  });
});

describe('campaign creator: validation and errors', () => {
  test('submitting without an image shows the image message in the result area and sends nothing', async () => {
    const page = await openCreator(h);
    const creates = requestsTo(page, '/api/create-campaign/');
    await typeKeyword(admin, page, 'cursos online');
    await field(page, 'Alias').fill('cur01');
    await submitButton(page).click();
    await expect.poll(() => page.getByTestId('create-result').textContent()).toBe(IMAGE_REQUIRED);
    await absenceFor(300);
    expect(creates).toEqual([]);
    // Choosing an image clears the message.
    await suggestionButtons(page).first().click();
    await page.getByTestId('create-result').waitFor({ state: 'detached' });
  });

  test('a required field left empty keeps the form from being sent and says so in Spanish under it, until it is filled', async () => {
    const page = await openCreator(h);
    const creates = requestsTo(page, '/api/create-campaign/');
    await typeKeyword(admin, page, 'dieta mediterranea');
    await suggestionButtons(page).first().click();
    await submitButton(page).click(); // alias is empty
    // Our words under the field (no browser bubble), and the cursor waits in it.
    const aliasError = page.locator(`[id="${await field(page, 'Alias').getAttribute('id')}-error"]`);
    await expect.poll(() => aliasError.textContent()).toBe('Este campo es obligatorio.');
    expect(await field(page, 'Alias').evaluate((el) => el === document.activeElement && el.getAttribute('aria-invalid') !== null)).toBe(true);
    await field(page, 'Alias').fill('die01');
    await aliasError.waitFor({ state: 'detached' });
    await field(page, 'Título (headline)').fill('');
    await submitButton(page).click();
    await page.getByText('Este campo es obligatorio.').waitFor();
    expect(creates).toEqual([]);
  });

  test('without a stored token the creator says so and sends nothing', async () => {
    const page = await openCreator(h);
    const creates = requestsTo(page, '/api/create-campaign/');
    await typeKeyword(admin, page, 'energia solar');
    await field(page, 'Alias').fill('sol01');
    await suggestionButtons(page).first().click();
    await page.evaluate(() => {
      localStorage.removeItem('adops_token');
      sessionStorage.removeItem('adops_token');
    });
    await submitButton(page).click();
    await expect.poll(() => page.getByTestId('create-result').textContent()).toBe(NO_TOKEN);
    await absenceFor(300);
    expect(creates).toEqual([]);
  });

  test('a budget under Meta’s minimum is refused in words and units before sending; the form keeps what was typed and nothing is recorded', async () => {
    const page = await openCreator(h);
    const creates = requestsTo(page, '/api/create-campaign/');
    const before = (await admin.campaigns.list()).length;
    await typeKeyword(admin, page, 'alquiler pisos');
    await field(page, 'Alias').fill('alq01');
    await field(page, 'Presupuesto diario (EUR)').fill('0,99');
    await suggestionButtons(page).first().click();
    await submitButton(page).click();
    await expect.poll(() => page.getByTestId('create-result').textContent()).toBe('El presupuesto diario debe ser de al menos 1,00 EUR');
    // The field to correct has the focus.
    expect(await field(page, 'Presupuesto diario (EUR)').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(creates).toEqual([]);
    expect(await inputValue(page, 'Presupuesto diario (EUR)')).toBe('0,99');
    expect(await inputValue(page, 'Keyword')).toBe('alquiler pisos');
    expect(await inputValue(page, 'Alias')).toBe('alq01');
    await page.getByTestId('chosen-image').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect((await admin.campaigns.list()).length).toBe(before);
    expect(await submitButton(page).textContent()).toBe('Crear campaña');
  });

  test('a Graph error injected at the ad set step reaches the user; a proxy error page reads "Error inesperado en el backend"', async () => {
    const page = await openCreator(h);
    await typeKeyword(admin, page, 'moviles libres');
    await field(page, 'Alias').fill('mov01');
    await suggestionButtons(page).first().click();
    sandbox.failNext('adsets', { message: '(#1487) Ad account disabled', code: 1487, error_user_msg: 'La cuenta publicitaria está deshabilitada.' });
    await submitButton(page).click();
    await expect.poll(() => page.getByTestId('create-result').textContent(), { timeout: 10_000 }).toBe('La cuenta publicitaria está deshabilitada.');

    // A reverse proxy in front of the server answering its own HTML page (no detail).
    await page.route('**/api/create-campaign/', (route) =>
      route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' }),
    );
    await submitButton(page).click();
    await expect.poll(() => page.getByTestId('create-result').textContent()).toBe('Error inesperado en el backend');
  });
});

describe('campaign creator: creating', () => {
  test('an uploaded PNG: Creando... while sending, the feed preview with Meta’s ids, then "Crear nueva campaña" empties the form and the image and scrolls up', async () => {
    const page = await openCreator(h);
    const keyword = 'zapatillas running';
    const copy = await typeKeyword(admin, page, keyword);
    const baseUrl = 'https://www.example-news.com/ofertas?lang=es';
    await field(page, 'URL base (base_url)').fill(baseUrl);
    await field(page, 'Alias').fill('run01');
    await field(page, 'Botón (CTA)').selectOption('SHOP_NOW');
    await field(page, 'Página de Facebook (fb_page)').fill('998877665544');
    await field(page, 'Objetivo').selectOption('OUTCOME_SALES');
    await field(page, 'Presupuesto diario (EUR)').fill('2,50');
    await field(page, 'Puja CPC (EUR)').fill('0,07');

    // The tracking URL follows alias and keyword (core's helper), read-only.
    const expectedLink = trackingUrl({ baseUrl, alias: 'run01', keyword });
    expect(await inputValue(page, 'URL de seguimiento')).toBe(expectedLink);
    expect(await field(page, 'URL de seguimiento').getAttribute('readonly')).not.toBeNull();
    // Timed in the page from the moment it shows to the moment it goes, so a busy machine's
    // polling cannot shorten what is measured.
    const copiedShown = await watchShown(page, '✅ Copiado');
    await page.getByRole('button', { name: 'Copiar', exact: true }).click();
    const copied = page.getByText('✅ Copiado');
    await copied.waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expectedLink);
    expect(await copiedShown()).toBeGreaterThanOrEqual(1900);

    const png = await makePng(page, 'Running 2025');
    await field(page, 'Subir imagen').setInputFiles({ name: 'anuncio.png', mimeType: 'image/png', buffer: png });
    await page
      .getByTestId('chosen-image')
      .getByText(/anuncio\.png/)
      .waitFor();
    expect(await page.getByTestId('ad-preview').getByTestId('ad-image').getAttribute('src')).toMatch(/^blob:/);

    const creating = await holdRequests(page, '**/api/create-campaign/');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const createdShown = await watchShown(page, '✅ Campaña creada (ID');
    await submitButton(page).click();
    await page.getByRole('button', { name: 'Creando...' }).waitFor();
    expect(await page.getByRole('button', { name: 'Creando...' }).isDisabled()).toBe(true);
    creating.release();

    const dialog = page.getByRole('dialog', { name: '✅ Campaña creada' });
    await dialog.waitFor({ timeout: 15_000 });
    const createdFlash = page.getByText(/^✅ Campaña creada \(ID \d+\)$/);
    await createdFlash.waitFor();

    // What Meta received: the PNG's bytes, amounts in cents, the texts and the tracking link.
    const [record] = await admin.campaigns.list();
    expect(record).toMatchObject({
      keyword,
      headline: copy.headline,
      body: copy.body,
      objective: 'OUTCOME_SALES',
      daily_budget: 2.5,
      bid_amount: 0.07,
      tracking_url: expectedLink,
    });
    expect(record.image_hash).toBe(md5(png));
    expect(sandbox.images.get(md5(png))?.equals(png)).toBe(true);
    const adset = sandbox.requestsTo('adsets').at(-1)!;
    expect(String(adset.params.daily_budget)).toBe('250');
    expect(String(adset.params.bid_amount)).toBe('7');
    const creative = sandbox.requestsTo('adcreatives').at(-1)!.params.object_story_spec as {
      page_id: string;
      link_data: { call_to_action: { type: string } };
    };
    expect(String(creative.page_id)).toBe('998877665544');
    expect(creative.link_data.call_to_action.type).toBe('SHOP_NOW');

    // The preview dialog looks like the feed ad and lists the ids.
    const preview = dialog.getByTestId('ad-preview');
    expect(await preview.getByTestId('ad-page').textContent()).toBe('Página 998877665544');
    expect(await preview.getByTestId('ad-body').textContent()).toBe(copy.body);
    expect(await preview.getByTestId('ad-headline').textContent()).toBe(copy.headline);
    expect(await preview.getByTestId('ad-cta').textContent()).toBe(CTA_LABELS.SHOP_NOW);
    expect(await preview.getByTestId('ad-domain').textContent()).toBe('WWW.EXAMPLE-NEWS.COM');
    const img = preview.getByTestId('ad-image');
    expect(await img.getAttribute('src')).toMatch(/^blob:/);
    expect(await img.evaluate((i) => (i as HTMLImageElement).decode().then(() => (i as HTMLImageElement).naturalWidth))).toBe(1200);
    expect(await dialog.getByTestId('created-Campaña').textContent()).toBe(record.campaign_id);
    expect(await dialog.getByTestId('created-Conjunto de anuncios').textContent()).toBe(record.adset_id);
    expect(await dialog.getByTestId('created-Anuncio').textContent()).toBe(record.ad_id);
    expect(await dialog.getByTestId('created-Creatividad').textContent()).toBe(record.creative_id);
    expect(await dialog.getByTestId('created-tracking-url').textContent()).toBe(expectedLink);
    // The viewport as the user sees it (a full-page shot would repeat the sticky bar).
    await page.screenshot({ path: path.join(SCREENSHOTS, 'campaign-created-dialog.png') });

    await dialog.getByRole('button', { name: 'Crear nueva campaña' }).click();
    await dialog.waitFor({ state: 'detached' });
    for (const label of ['Keyword', 'Título (headline)', 'Texto principal (body)', 'Alias', 'Página de Facebook (fb_page)'])
      expect(await inputValue(page, label)).toBe('');
    expect(await field(page, 'Botón (CTA)').inputValue()).toBe('LEARN_MORE');
    expect(await field(page, 'Objetivo').inputValue()).toBe('OUTCOME_TRAFFIC');
    expect(await inputValue(page, 'Presupuesto diario (EUR)')).toBe('1,00');
    expect(await inputValue(page, 'Puja CPC (EUR)')).toBe('0,05');
    expect(await inputValue(page, 'URL base (base_url)')).toBe(publicSite);
    expect(await inputValue(page, 'URL de seguimiento')).toBe('');
    expect(await field(page, 'Subir imagen').evaluate((el) => (el as HTMLInputElement).files?.length ?? 0)).toBe(0);
    expect(await page.getByTestId('chosen-image').count()).toBe(0);
    expect(await page.getByTestId('ad-preview').getByTestId('ad-image').count()).toBe(0);
    await page.waitForFunction(() => window.scrollY === 0, undefined, { timeout: 5000 });

    // The "created" message vanishes by itself after 3 s.
    expect(await createdShown()).toBeGreaterThanOrEqual(2900);
    expect(await createdFlash.count()).toBe(0);
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('a chosen suggestion is sent by URL and uploaded to Meta by the server; closing the preview also resets the form', async () => {
    const page = await openCreator(h);
    const creates = requestsTo(page, '/api/create-campaign/');
    const keyword = 'recetas faciles';
    const copy = await typeKeyword(admin, page, keyword);
    await field(page, 'Alias').fill('rec01');
    const chosen = suggestionButtons(page).nth(1);
    await chosen.click();
    expect(await chosen.getAttribute('aria-pressed')).toBe('true');
    const pageNo = Number(await page.getByTestId('image-suggestions').getAttribute('data-page'));
    const suggestion = (await admin.campaigns.imageSuggestions({ query: keyword, page: pageNo }))[1];
    await page.getByTestId('chosen-image').getByText(`Sugerencia de Pixabay #${suggestion.id}`).waitFor();

    await submitButton(page).click();
    const dialog = page.getByRole('dialog', { name: '✅ Campaña creada' });
    await dialog.waitFor({ timeout: 15_000 });
    expect(creates).toHaveLength(1);

    const bytes = Buffer.from(await (await fetch(suggestion.largeImageURL)).arrayBuffer());
    const [record] = await admin.campaigns.list();
    expect(record.keyword).toBe(keyword);
    expect(record.image_hash).toBe(md5(bytes));
    const preview = dialog.getByTestId('ad-preview');
    expect(await preview.getByTestId('ad-image').getAttribute('src')).toBe(suggestion.largeImageURL);
    expect(await preview.getByTestId('ad-headline').textContent()).toBe(copy.headline);
    expect(await preview.getByTestId('ad-cta').textContent()).toBe(CTA_LABELS.LEARN_MORE);
    expect(await preview.getByTestId('ad-page').textContent()).toBe('Página por defecto');
    expect(await preview.getByTestId('ad-domain').textContent()).toBe(new URL(publicSite).hostname.toUpperCase());

    await dialog.getByRole('button', { name: 'Cerrar', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await inputValue(page, 'Keyword')).toBe('');
    expect(await inputValue(page, 'Alias')).toBe('');
    expect(await page.getByTestId('chosen-image').count()).toBe(0);
    expect(await page.getByTestId('image-suggestions').count()).toBe(0);
  });

  test('Tab stays inside the preview (round from the last control to the first), and Escape closes it and resets the form', async () => {
    const page = await openCreator(h);
    await typeKeyword(admin, page, 'viajes rurales');
    await field(page, 'Alias').fill('via01');
    await suggestionButtons(page).first().click();
    await submitButton(page).click();
    const dialog = page.getByRole('dialog', { name: '✅ Campaña creada' });
    await dialog.waitFor({ timeout: 15_000 });
    const focus = () =>
      page.evaluate(() => ({
        text: document.activeElement?.textContent?.trim() ?? '',
        inDialog: Boolean(document.activeElement?.closest('[role="dialog"]')),
      }));
    await expect.poll(focus).toEqual({ text: 'Crear nueva campaña', inDialog: true });
    // The last control: Tab goes round to the first (×), Shift+Tab back to the last.
    await page.keyboard.press('Tab');
    expect(await focus()).toEqual({ text: '×', inDialog: true });
    await page.keyboard.press('Shift+Tab');
    expect(await focus()).toEqual({ text: 'Crear nueva campaña', inDialog: true });
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      expect((await focus()).inDialog).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await inputValue(page, 'Keyword')).toBe('');
    expect(await page.getByTestId('chosen-image').count()).toBe(0);
  });
});

/**
 * Starts watching, in the page, for a text starting with `prefix`; the returned function
 * resolves with how long (ms) it was shown, from the mutation that showed it to the one that
 * removed it (-1 if that did not happen within 10 s).
 */
async function watchShown(page: Page, prefix: string): Promise<() => Promise<number>> {
  const key = `__shown_${Math.random().toString(36).slice(2)}`;
  await page.evaluate(
    ({ text, key }) => {
      const w = window as unknown as Record<string, unknown>;
      const showing = () =>
        [...document.querySelectorAll('body *')].some((el) => (el.textContent ?? '').trim().startsWith(text) && el.children.length <= 2);
      let shownAt: number | null = null;
      w[key] = new Promise<number>((resolve) => {
        const observer = new MutationObserver(() => {
          const now = performance.now();
          if (shownAt === null && showing()) shownAt = now;
          else if (shownAt !== null && !showing()) {
            observer.disconnect();
            resolve(now - shownAt);
          }
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        setTimeout(() => resolve(-1), 10_000);
      });
    },
    { text: prefix, key },
  );
  return () => page.evaluate((key) => (window as unknown as Record<string, Promise<number>>)[key], key);
}
