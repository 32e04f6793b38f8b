// /api/docs in a real browser: the API document rendered by the project's own Swagger UI copy,
// with no CSP violation or console error, offline (every request stays on the server), and
// readable at 1440 and 390 px.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHarness, type Harness } from './harness.js';

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
});
