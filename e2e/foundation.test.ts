// Browser tests of the web foundation: sign-in and session rules, route guards and the
// navigation shell. The admin screen (users and publisher tokens) and the password change are
// in admin-users.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, createUser, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** An unsigned JWT-shaped token with the given claims (the browser only decodes it). */
function fakeToken(claims: Record<string, unknown>): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}.c2lnbmF0dXJl`;
}

const storedToken = (page: Page) =>
  page.evaluate(() => ({ local: localStorage.getItem('adops_token'), session: sessionStorage.getItem('adops_token') }));

const path = (page: Page) => new URL(page.url()).pathname;

describe('sign-in and session', () => {
  test('signing in with valid credentials lands on /dashboard with the navigation shell', async () => {
    const page = await h.newPage();
    await h.signIn(page, ADMIN.email, ADMIN.password);
    expect(path(page)).toBe('/dashboard');
    const nav = page.getByRole('navigation', { name: 'Principal' });
    for (const name of ['Dashboard', 'Ad Report', 'Demand', 'Refs', 'Logs', 'Finance', 'Users'])
      await nav.getByRole('link', { name, exact: true }).waitFor();
    expect(await nav.getByRole('link', { name: 'Refs' }).getAttribute('href')).toBe('/referrers');
    await nav.getByRole('button', { name: 'Media Buying' }).click();
    expect(await nav.getByRole('menuitem', { name: 'Fb Creator' }).getAttribute('href')).toBe('/create-campaigns');
    expect(await nav.getByRole('menuitem', { name: 'Fb Campaigns' }).getAttribute('href')).toBe('/fb-campaigns');
    await nav.getByText(ADMIN.email).waitFor();
    // The avatar is drawn locally: the e-mail's initials.
    await page.getByTestId('avatar-initials').waitFor();
    expect(await page.getByTestId('avatar-initials').textContent()).toBe('AD');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const token = await storedToken(page);
    expect(token.local).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(token.session).toBeNull();
    await h.screenshot(page, 'dashboard-admin');
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('without "Recordarme" the token is kept in sessionStorage under the same key', async () => {
    const page = await h.newPage();
    await h.signIn(page, ADMIN.email, ADMIN.password, { remember: false });
    const token = await storedToken(page);
    expect(token.local).toBeNull();
    expect(token.session).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await page.goto('/finance');
    expect(path(page)).toBe('/finance');
  });

  test('a wrong password shows the server detail in red under the form and stores nothing', async () => {
    const page = await h.newPage();
    await page.goto('/login');
    await h.screenshot(page, 'login');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Contraseña').fill('not-the-password');
    await page.getByRole('button', { name: 'Entrar' }).click();
    const error = page.getByRole('alert');
    await error.waitFor();
    expect(await error.textContent()).toBe('Email o contraseña incorrectos');
    expect(await error.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(220, 38, 38)');
    expect(path(page)).toBe('/login');
    expect(await storedToken(page)).toEqual({ local: null, session: null });
    await h.screenshot(page, 'login-error');
  });

  test('an unknown e-mail gets the same refusal as a wrong password', async () => {
    const page = await h.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill('nobody@test.local');
    await page.getByLabel('Contraseña').fill('whatever-123');
    await page.getByRole('button', { name: 'Entrar' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Email o contraseña incorrectos');
  });

  test('the login page links back to the public site and requires an e-mail and a password', async () => {
    const page = await h.newPage();
    await page.goto('/login');
    const back = page.getByRole('link', { name: /Volver al sitio/ });
    expect(await back.getAttribute('href')).toBe(h.server.app.services.config.publicSiteUrl);
    expect(await page.getByLabel('Email').getAttribute('type')).toBe('email');
    expect(await page.getByLabel('Email').evaluate((el: HTMLInputElement) => el.required)).toBe(true);
    expect(await page.getByLabel('Contraseña').evaluate((el: HTMLInputElement) => el.required)).toBe(true);
    // Logged out, the shell offers only 'Login'.
    const nav = page.getByRole('navigation', { name: 'Principal' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['AAdOps Console', 'Login']);
  });

  test('an empty or malformed e-mail is said in Spanish under the field, never in the browser’s bubble (an English browser too)', async () => {
    const page = await h.newPage({ locale: 'en-US' });
    await page.goto('/login');
    let posted = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/login')) posted++;
    });
    expect(
      await page
        .locator('form')
        .first()
        .evaluate((f: HTMLFormElement) => f.noValidate),
    ).toBe(true);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.locator('#login-email-error').getByText('Este campo es obligatorio.').waitFor();
    await page.locator('#login-password-error').getByText('Este campo es obligatorio.').waitFor();
    expect(await page.getByLabel('Email').evaluate((el) => el === document.activeElement)).toBe(true);

    await page.getByLabel('Email').fill('no-es-un-email');
    // Editing the field takes its message away; the password's stays until it is typed.
    await page.locator('#login-email-error').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.locator('#login-email-error').getByText('Escribe un email válido, como nombre@dominio.com.').waitFor();
    expect(await page.locator('body').innerText()).not.toMatch(/Please|fill out|field/i);
    expect(posted).toBe(0);
  });

  test('an expired token in storage is removed and the user is sent to /login', async () => {
    const page = await h.newPage();
    await page.goto('/login');
    const expired = fakeToken({ sub: 'admin-id', email: ADMIN.email, is_admin: true, exp: Math.floor(Date.now() / 1000) - 60 });
    await page.evaluate((t) => localStorage.setItem('adops_token', t), expired);
    await page.goto('/dashboard');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await storedToken(page)).toEqual({ local: null, session: null });
    await page.getByRole('button', { name: 'Entrar' }).waitFor();
  });

  test('a malformed token is removed and the user is sent to /login', async () => {
    const page = await h.newPage();
    await page.goto('/login');
    await page.evaluate(() => sessionStorage.setItem('adops_token', 'not-a-jwt'));
    await page.goto('/ad-report');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await storedToken(page)).toEqual({ local: null, session: null });
  });

  test('a session the server no longer accepts signs the user out on the next call', async () => {
    const user = await createUser(h, 'revocado');
    const page = await h.newPage();
    await h.signIn(page, user.email, user.password);
    const admin = await h.server.admin();
    await admin.admin.deleteUser({ id: user.id });
    // The page's first call (its two-factor card asks for the account's state) is refused.
    await page.goto('/change-password');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await storedToken(page)).toEqual({ local: null, session: null });
  });
});

describe('route guards', () => {
  test('a protected route visited signed out goes to /login', async () => {
    const page = await h.newPage();
    for (const route of [
      '/dashboard',
      '/apis',
      '/create-campaigns',
      '/fb-campaigns',
      '/ad-report',
      '/demand',
      '/finance',
      '/change-password',
      '/referrers',
      '/logs',
      '/admin-users',
    ]) {
      await page.goto(route);
      await page.waitForURL((u) => u.pathname === '/login');
      expect(path(page), route).toBe('/login');
    }
  });

  test('an unknown path goes to /login (and on to /dashboard when signed in)', async () => {
    const page = await h.newPage();
    await page.goto('/no-such-screen/at/all');
    await page.waitForURL((u) => u.pathname === '/login');
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/otra-cosa');
    await page.waitForURL('**/dashboard');
  });

  test('/login while signed in goes to /dashboard', async () => {
    const page = await h.newPage();
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/login');
    await page.waitForURL('**/dashboard');
    expect(path(page)).toBe('/dashboard');
  });

  test('every protected screen opens for a signed-in user with its title', async () => {
    const page = await h.newPage();
    await h.signIn(page, ADMIN.email, ADMIN.password);
    const screens: Array<[string, string]> = [
      ['/apis', 'Api Explorer'],
      ['/create-campaigns', 'Crear Campaña en Facebook'],
      ['/fb-campaigns', 'Campañas con métricas (Facebook)'],
      ['/ad-report', 'Ad Report'],
      ['/demand', 'Demand'],
      ['/finance', 'Finance'],
      ['/referrers', 'Referrers'],
      ['/logs', 'Referrers (live)'],
      ['/change-password', 'Cambiar contraseña'],
      ['/admin-users', 'Usuarios y tokens'],
    ];
    for (const [route, title] of screens) {
      await page.goto(route);
      await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
      expect(path(page)).toBe(route);
    }
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('a non-admin sees no Users link, cannot open /admin-users, and the server refuses them the user list', async () => {
    const user = await createUser(h, 'analista');
    const page = await h.newPage();
    await h.signIn(page, user.email, user.password);
    const nav = page.getByRole('navigation', { name: 'Principal' });
    await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Users' }).count()).toBe(0);
    // The admin guard sends them to /login, which a signed-in user leaves for /dashboard.
    await page.goto('/admin-users');
    await page.waitForURL('**/dashboard');
    expect(await page.getByText('Usuarios registrados').count()).toBe(0);
    const token = (await storedToken(page)).local;
    const res = await h.server.fetch('/api/admin/users', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ detail: 'No autorizado' });
  });
});

describe('navigation shell', () => {
  test('the user menu opens Cambiar contraseña, closes on an outside click and signs out', async () => {
    const page = await h.newPage();
    await h.signIn(page, ADMIN.email, ADMIN.password);
    const menu = page.getByTestId('user-menu');
    await menu.getByRole('button').click();
    await page.getByRole('menuitem', { name: 'Cerrar sesión' }).waitFor();
    await page.mouse.click(600, 500);
    await page.getByRole('menuitem', { name: 'Cerrar sesión' }).waitFor({ state: 'detached' });

    await menu.getByRole('button').click();
    await page.getByRole('menuitem', { name: 'Cambiar contraseña' }).click();
    await page.waitForURL('**/change-password');

    const { local, session } = await storedToken(page);
    const token = (local ?? session)!;
    const me = () => fetch(`${h.url}/api/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    expect(await me()).toBe(200);
    await menu.getByRole('button').click();
    await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await storedToken(page)).toEqual({ local: null, session: null });
    // The server ended the session: a copy of the token is worthless.
    await expect.poll(me).toBe(401);
    await page.goto('/dashboard');
    await page.waitForURL((u) => u.pathname === '/login');
  });

  test('below md the links sit behind a menu toggle', async () => {
    const page = await h.newPage({ viewport: { width: 390, height: 844 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    const toggle = page.getByRole('button', { name: 'Abrir menú' });
    await toggle.waitFor();
    expect(await page.locator('#mobile-menu').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Ad Report' }).isVisible()).toBe(false);
    await toggle.click();
    const mobile = page.locator('#mobile-menu');
    for (const name of ['Dashboard', 'Ad Report', 'Demand', 'Refs', 'Logs', 'Finance', 'Users', 'Fb Creator', 'Fb Campaigns'])
      await mobile.getByRole('link', { name, exact: true }).waitFor();
    await h.screenshot(page, 'mobile-menu');
    await mobile.getByRole('link', { name: 'Finance' }).click();
    await page.waitForURL('**/finance');
    expect(await page.locator('#mobile-menu').count()).toBe(0);
  });
});
