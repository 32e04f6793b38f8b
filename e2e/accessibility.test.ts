// Issue 30's accessibility bar: axe-core (injected, no network) finds nothing critical or serious
// on the login page (empty and with an error) and on every signed-in screen once its data has
// loaded, with each menu and what a screen hides behind a button open too, at 1440 and 390 px — one signed-in page per width, going from
// screen to screen through the nav as a user does. The tab's title names each screen, the login
// page waits in its first field, and the menus follow the WAI-ARIA menu-button keys.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, accessibilityViolations, startHarness, type Harness } from './harness.js';
import { SCREENS, seedEveryScreen, type Screen } from './screens.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await seedEveryScreen(h);
}, 120_000);
afterAll(async () => {
  await h?.close();
});

/** The element that has the keyboard focus, by its text. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim());

/** axe's critical and serious findings, soft-asserted so one run lists every screen's. */
async function expectClean(page: Page, where: string) {
  expect.soft(await accessibilityViolations(page), where).toEqual([]);
}

/** Goes to a screen as a user does: the nav's link, Media Buying's or the user menu's item (the hamburger's list on a phone). */
async function open(page: Page, screen: Screen, phone: boolean, checkMenu: (what: string) => Promise<void>) {
  const nav = screen.nav;
  if (!nav) await page.goto(screen.path);
  else if ('userMenu' in nav) {
    await page.getByTestId('user-menu').getByRole('button').click();
    await checkMenu('the user menu');
    await page.getByRole('menuitem', { name: nav.userMenu }).click();
  } else if (phone) {
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    await checkMenu('the phone menu');
    const name = 'link' in nav ? nav.link : nav.mediaBuying;
    await page.locator('#mobile-menu').getByRole('link', { name, exact: true }).click();
  } else if ('mediaBuying' in nav) {
    await page.getByRole('button', { name: 'Media Buying' }).click();
    await checkMenu('the Media Buying menu');
    await page.getByRole('menuitem', { name: nav.mediaBuying }).click();
  } else
    await page
      .getByRole('navigation', { name: 'Principal' })
      .getByRole('link', { name: nav.link, exact: true })
      .and(page.getByText(nav.link, { exact: true })) // not the bell, also named 'Alertas'
      .click();
  await page.waitForURL((url) => url.pathname === screen.path);
}

for (const width of [1440, 390]) {
  test(`at ${width} px: the login page waits in Email and every screen, menus open, names itself in the tab and has nothing critical or serious for axe`, async () => {
    const page = await h.newPage({ viewport: { width, height: 900 } });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Entrar' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('login-email');
    expect(await page.title()).toBe('Iniciar sesión · AdOps Console');
    await expectClean(page, 'login');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Contraseña').fill('no-es-la-contraseña');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('alert').waitFor();
    await expectClean(page, 'login with an error');

    await h.signIn(page, ADMIN.email, ADMIN.password);
    const menusSeen = new Set<string>();
    const checkMenu = async (what: string) => {
      if (menusSeen.has(what)) return;
      menusSeen.add(what);
      await expectClean(page, what);
    };
    for (const screen of SCREENS) {
      await open(page, screen, width < 768, checkMenu);
      await page.getByRole('heading', { name: screen.heading, exact: true }).waitFor();
      await screen.ready(page);
      expect.soft(await page.title(), screen.path).toBe(`${screen.title ?? screen.heading} · AdOps Console`);
      await expectClean(page, screen.path);
      if (screen.expand) {
        await screen.expand(page);
        await expectClean(page, `${screen.path}, opened`);
      }
    }
    expect([...menusSeen].sort()).toEqual(width < 768 ? ['the phone menu', 'the user menu'] : ['the Media Buying menu', 'the user menu']);
    expect(h.pageErrors(page)).toEqual([]);
  }, 180_000);
}

describe('menus from the keyboard (WAI-ARIA menu button)', () => {
  test('Media Buying: ArrowDown opens on the first item, arrows move round, Escape closes and gives focus back; Enter follows', async () => {
    const page = await h.newPage({ viewport: { width: 1440, height: 900 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    const button = page.getByRole('button', { name: 'Media Buying' });
    await button.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(page)).toBe('Fb Creator');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('Fb Campaigns');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focused(page)).toBe('Rentabilidad'); // round from the first to the last
    await page.keyboard.press('Home');
    expect(await focused(page)).toBe('Fb Creator');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('menu').count()).toBe(0);
    expect(await focused(page)).toBe('Media Buying');
    await page.keyboard.press('ArrowUp'); // opens on the last item
    await expect.poll(() => focused(page)).toBe('Rentabilidad');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/profit');
    await expect.poll(() => page.title()).toBe('Rentabilidad · AdOps Console');
  });

  test('a menu opened by a click takes the arrows too, and Tab closes it', async () => {
    const page = await h.newPage({ viewport: { width: 1440, height: 900 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('button', { name: 'Media Buying' }).click();
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(page)).toBe('Fb Creator');
    await page.keyboard.press('Tab');
    await page.getByRole('menu').waitFor({ state: 'detached' });
  });

  test('at 390 px the user menu button is named (the avatar alone shows), opens from the keyboard and Escape gives focus back', async () => {
    const page = await h.newPage({ viewport: { width: 390, height: 900 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    const button = page.getByRole('button', { name: `Menú de usuario de ${ADMIN.email}`, exact: true });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('Cambiar contraseña');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('Cerrar sesión');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('menu').count()).toBe(0);
    expect(await button.evaluate((b) => b === document.activeElement)).toBe(true);
  });

  test("the phone's menu: Escape closes it back on its button, and its link to the page shown closes it too", async () => {
    const page = await h.newPage({ viewport: { width: 390, height: 900 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    const button = page.getByRole('button', { name: 'Abrir menú' });
    const menu = page.getByRole('navigation', { name: 'Menú' });
    await button.click();
    await menu.getByRole('link', { name: 'Ad Report' }).focus();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await button.evaluate((b) => b === document.activeElement)).toBe(true);
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await button.click();
    await menu.getByRole('link', { name: 'Dashboard' }).click();
    await menu.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/dashboard');
  });
});

describe('forms that open in place', () => {
  test('Alertas: Nueva regla puts the cursor in Nombre, and Cancelar gives it back to Nueva regla', async () => {
    const page = await h.newPage({ viewport: { width: 1440, height: 900 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/alerts');
    await page.getByRole('button', { name: 'Nueva regla' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('rule-name');
    await page.getByRole('form', { name: 'Regla de alerta' }).getByRole('button', { name: 'Cancelar' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Nueva regla');
  });
});
