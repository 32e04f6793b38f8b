// Browser tests of navigation that keeps its place: a link opened signed out comes back after
// sign-in (query string too, only paths of this site), the app's frame paints before the
// server's health answer, and a session ended on another device says so on the login page.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { ADMIN, startHarness, type Harness } from './harness.js';

let h: Harness;
let seq = 0;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function createUser(tag: string) {
  const admin = await h.server.admin();
  const email = `${tag}-${Date.now().toString(36)}-${++seq}@test.local`;
  const password = 'user-pass-123';
  const user = await admin.admin.createUser({ first_name: tag, email, password });
  return { ...user, password };
}

async function fillLogin(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

const onLogin = (u: URL) => u.pathname === '/login';

describe('a link opened while signed out', () => {
  test('survives sign-in: the login page returns to the screen with its query string', async () => {
    const page = await h.newPage();
    const link = '/dashboard?publisher=Diario%20Uno&from=2024-03-01&to=2024-03-09';
    await page.goto(link);
    await page.waitForURL(onLogin);
    expect(new URL(page.url()).searchParams.get('next')).toBe(link);
    await fillLogin(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((u) => u.pathname === '/dashboard');
    expect(`${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe(link);
    expect(await page.getByLabel('Publisher', { exact: true }).inputValue()).toBe('Diario Uno');
    expect(await page.getByLabel('Desde', { exact: true }).inputValue()).toBe('01/03/2024');
    expect(await page.getByLabel('Hasta', { exact: true }).inputValue()).toBe('09/03/2024');
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('an admin screen comes back too', async () => {
    const page = await h.newPage();
    await page.goto('/admin/audit');
    await page.waitForURL(onLogin);
    await fillLogin(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((u) => u.pathname === '/admin/audit');
    await page.getByRole('heading', { name: 'Auditoría' }).waitFor();
  });

  for (const next of ['https://evil.example/phish', '//evil.example/phish', '/\\evil.example']) {
    test(`a next that leaves the site (${next}) is ignored: sign-in goes to the Dashboard`, async () => {
      const page = await h.newPage();
      await page.goto(`/login?next=${encodeURIComponent(next)}`);
      await fillLogin(page, ADMIN.email, ADMIN.password);
      await page.waitForURL((u) => u.pathname === '/dashboard');
      expect(new URL(page.url()).origin).toBe(h.url);
    });
  }
});

describe('the first paint', () => {
  test("shows the app's frame at once, before the server's health check answers", async () => {
    const page = await h.newPage();
    // Hold /api/health until the test lets it go.
    const held: Route[] = [];
    let asked!: () => void;
    const healthAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    await page.route('**/api/health', (route) => {
      held.push(route);
      asked();
    });
    // Timers stand still: a page that waited for the answer (or for its 3 s time-out) would stay white.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1000);
    await page.goto('/login', { waitUntil: 'commit' });
    await healthAsked;
    const nav = page.getByRole('navigation', { name: 'Principal' });
    await nav.getByText('AdOps Console').waitFor();
    // The login form is there too: signing in needs no time zone.
    await page.getByRole('button', { name: 'Entrar' }).waitFor();
    for (const route of held) await route.continue();
    await page.unroute('**/api/health');
  });

  test('a signed-in screen paints the frame and waits under it for the time zone', async () => {
    const page = await h.newPage();
    await h.signIn(page, ADMIN.email, ADMIN.password);
    const held: Route[] = [];
    await page.route('**/api/health', (route) => void held.push(route));
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1000);
    await page.goto('/ad-report');
    await page.getByTestId('user-menu').waitFor();
    await page.getByRole('status').getByText('Cargando…').waitFor();
    expect(await page.getByRole('heading', { name: 'Ad Report' }).count()).toBe(0);
    for (const route of held) await route.continue();
    await page.getByRole('heading', { name: 'Ad Report' }).waitFor();
    await page.unroute('**/api/health');
  });
});

describe('a session ended elsewhere', () => {
  test("sends the user to the login page saying 'Tu sesión se cerró en otro dispositivo', and back to the screen after", async () => {
    const user = await createUser('otro-dispositivo');
    const page = await h.newPage();
    await h.signIn(page, user.email, user.password);
    await page.goto('/ad-report?publisher=Diario%20Uno');
    await page.getByRole('heading', { name: 'Ad Report' }).waitFor();
    // An admin (or the user on another device) ends every session of the account.
    const admin = await h.server.admin();
    await admin.admin.endUserSessions({ id: user.id });
    // The screen's next call is refused.
    await page.getByRole('link', { name: 'Demand' }).first().click();
    await page.waitForURL(onLogin);
    await page.getByRole('status').getByText('Tu sesión se cerró en otro dispositivo.').waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/demand');
    await fillLogin(page, user.email, user.password);
    await page.waitForURL((u) => u.pathname === '/demand');
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('the live log, left open with nobody touching it, notices too: its stream ends and the page says why', async () => {
    const user = await createUser('log-abierto');
    const page = await h.newPage();
    await h.signIn(page, user.email, user.password);
    await page.goto('/logs');
    await page.getByRole('heading', { name: 'Referrers (live)' }).waitFor();
    const admin = await h.server.admin();
    await admin.admin.endUserSessions({ id: user.id });
    // The server ends the stream at its next session check; the page is refused on its way back.
    await page.waitForURL(onLogin, { timeout: 20_000 });
    await page.getByRole('status').getByText('Tu sesión se cerró en otro dispositivo.').waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/logs');
  });

  test("'Cerrar sesión' by the user says nothing and does not come back", async () => {
    const page = await h.newPage();
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/ad-report');
    await page.getByTestId('user-menu').getByRole('button').click();
    await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
    await page.waitForURL(onLogin);
    expect(new URL(page.url()).search).toBe('');
    await page.getByRole('button', { name: 'Entrar' }).waitFor();
    expect(await page.getByText('Tu sesión se cerró').count()).toBe(0);
  });
});
