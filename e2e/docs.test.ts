// /api/docs in a real browser: the API document rendered by the project's own Swagger UI copy,
// with no CSP violation or console error, offline (every request stays on the server), and
// readable at 1440 and 390 px; under a public host name too, where Swagger UI would otherwise
// call out to its online validator.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SCREENSHOTS, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('API docs page', () => {
  for (const width of [1440, 390]) {
    test(`renders every section of the API, with nothing fetched off the server, at ${width} px`, async () => {
      const page = await h.newPage({ viewport: { width, height: 900 } });
      const problems: string[] = [];
      const origins = new Set<string>();
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      page.on('request', (r) => origins.add(new URL(r.url()).origin));
      await page.goto('/api/docs');
      await page.getByText('AdOps Console API').first().waitFor();
      await page.getByText('Datos de un publisher (URL con token)').first().waitFor();
      for (const tag of ['Sesión', 'Publishers (URL con token)', 'Ingesta', 'Referrers'])
        await page.locator('.opblock-tag', { hasText: tag }).first().waitFor();
      expect(problems).toEqual([]);
      expect(h.pageErrors(page)).toEqual([]);
      expect([...origins]).toEqual([h.url]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await h.screenshot(page, `api-docs-${width}`);
    });
  }

  test('under a public host name, every request stays on that host (no online validator badge)', async () => {
    const host = 'http://adops.example.test';
    const page = await h.newPage({ viewport: { width: 1440, height: 900 } });
    // The browser asks for adops.example.test; the test answers from the server under test.
    await page.route(/^http:\/\/adops\.example\.test\//, async (route) =>
      route.fulfill({ response: await route.fetch({ url: route.request().url().replace(host, h.url) }) }),
    );
    const problems: string[] = [];
    const origins = new Set<string>();
    page.on('console', (m) => {
      // Plain http on a non-local name: Chromium ignores the app's COOP header and says so.
      if (m.type() === 'error' && !m.text().includes('Cross-Origin-Opener-Policy header has been ignored')) problems.push(m.text());
    });
    page.on('request', (r) => origins.add(new URL(r.url()).origin));
    await page.goto(`${host}/api/docs`);
    await page.getByText('Datos de un publisher (URL con token)').first().waitFor();
    await page.locator('.opblock-tag', { hasText: 'Referrers' }).first().waitFor();
    await page.waitForLoadState('networkidle');
    expect([...origins]).toEqual([host]);
    expect(await page.locator('.validator, img[src*="validator"]').count()).toBe(0);
    // The publisher route opened: its parameters described in Spanish, its three answer types.
    const data = page.locator('.opblock', { hasText: '/api/publisher/data' }).first();
    await data.locator('.opblock-summary').click();
    await data.getByText('Token del publisher (el de su URL); sin él o si no existe, 401.').waitFor();
    await data.locator('select').filter({ hasText: 'text/csv' }).first().waitFor();
    await data.screenshot({ path: `${SCREENSHOTS}/api-docs-publisher-data.png` });
    expect(problems).toEqual([]);
    expect(h.pageErrors(page)).toEqual([]);
  });
});
