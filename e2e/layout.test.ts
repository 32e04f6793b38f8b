// Every screen at a desktop width (1440 px) and a phone width (390 px): the page never scrolls
// sideways (wide tables scroll inside their own box), tables show their paging, the summary
// cards never cut their numbers, and a screenshot of each is kept in e2e/screenshots/ for a
// look. (Axe, tab titles and keyboard use: e2e/accessibility.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startHarness, type Harness, widerThanScreen } from './harness.js';
import { SCREENS, seedEveryScreen } from './screens.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await seedEveryScreen(h);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

for (const width of [1440, 390]) {
  describe(`at ${width} px`, () => {
    for (const screen of SCREENS)
      test(`${screen.heading}: nothing is wider than the screen (tables scroll in their own box), the paging shows and the cards keep their figures whole`, async () => {
        const page = await h.newPage({ viewport: { width, height: 900 } });
        await h.signIn(page, ADMIN.email, ADMIN.password);
        await page.goto(screen.path);
        await page.getByRole('heading', { name: screen.heading, exact: true }).waitFor();
        await screen.ready(page);
        await h.screenshot(page, `layout-${screen.name}-${width}`);
        // Anything wider than the screen outside a table's own scroll box (named, to find it).
        const wide = await widerThanScreen(page);
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
