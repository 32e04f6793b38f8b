// Browser-test harness: the real server (temp data, real stores) serving the built web UI,
// driven by playwright-core in Debian's Chromium. One browser per test file; each page
// gets its own context (fresh storage) with clipboard access granted.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { startTestServer, ADMIN, type TestServer } from '../server/test/helpers.js';
import type { Config } from '../server/src/config.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The built web UI under test; ADOPS_E2E_WEB_DIST lets parallel work test its own build. */
export const WEB_DIST = process.env.ADOPS_E2E_WEB_DIST || path.join(ROOT, 'web', 'dist');
export const SCREENSHOTS = path.join(ROOT, 'e2e', 'screenshots');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export { ADMIN };

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface Harness {
  server: TestServer;
  /** http://127.0.0.1:<port> */
  url: string;
  browser: Browser;
  /** A page in a fresh browser context (its own localStorage, sessionStorage, cookies). */
  newPage(options?: { viewport?: { width: number; height: number }; locale?: string }): Promise<Page>;
  /** Uncaught errors the page has thrown so far. */
  pageErrors(page: Page): Error[];
  /** Signs in through the login form and waits for /dashboard. */
  signIn(page: Page, email: string, password: string, options?: { remember?: boolean }): Promise<void>;
  /** Full-page PNG into e2e/screenshots/<name>.png. */
  screenshot(page: Page, name: string): Promise<string>;
  /**
   * Imports zone-report rows through the real ingest route as the admin: a CSV text
   * (header first) or JSON rows. Returns the HTTP status and the ingest answer.
   */
  importZoneReport(rows: string | object[]): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** `server` overrides the test server's configuration (e.g. `{ tz }`). */
export async function startHarness(server_: Partial<Config> = {}): Promise<Harness> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}. Install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  if (!existsSync(path.join(WEB_DIST, 'index.html')))
    throw new Error(`The web UI is not built (${WEB_DIST}/index.html missing): run \`npm run build\` first.`);

  const server = await startTestServer({ webDist: WEB_DIST, ...server_ });
  let browser: Browser;
  try {
    // launch() runs Chromium on a fresh temporary profile (--user-data-dir) of its own and
    // removes it on close; contexts then isolate each page's storage.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  } catch (e) {
    await server.close();
    throw new Error(`Chromium at ${CHROMIUM} could not start: ${(e as Error).message}`);
  }
  const contexts = new Set<BrowserContext>();
  const errors = new WeakMap<Page, Error[]>();
  await mkdir(SCREENSHOTS, { recursive: true });

  return {
    server,
    url: server.url,
    browser,
    async importZoneReport(rows) {
      const admin = await server.admin();
      const csv = typeof rows === 'string';
      const res = await server.fetch('/api/ingest/zone-report', {
        method: 'POST',
        headers: { 'content-type': csv ? 'text/csv' : 'application/json', authorization: `Bearer ${admin.token}` },
        body: csv ? rows : JSON.stringify(rows),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    async newPage(options = {}) {
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: options.viewport ?? { width: 1366, height: 900 },
        locale: options.locale ?? 'es-ES',
        serviceWorkers: 'block',
      });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      // No outside network here: fail any external request at once (e2e/privacy.test.ts asserts none is made).
      await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort('internetdisconnected'));
      context.setDefaultTimeout(10_000);
      contexts.add(context);
      context.on('close', () => contexts.delete(context));
      const page = await context.newPage();
      const list: Error[] = [];
      errors.set(page, list);
      page.on('pageerror', (e) => list.push(e));
      return page;
    },
    pageErrors: (page) => errors.get(page) ?? [],
    async signIn(page, email, password, { remember = true } = {}) {
      await page.goto('/login');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Contraseña').fill(password);
      await page.getByLabel('Recordarme').setChecked(remember);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.waitForURL('**/dashboard');
    },
    async screenshot(page, name) {
      const file = path.join(SCREENSHOTS, `${name.replace(/[^\w.-]+/g, '_')}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      for (const c of [...contexts]) await c.close().catch(() => {});
      await browser.close().catch(() => {});
      await server.close();
    },
  };
}

let seq = 0;
/** An e-mail no other test of the run uses, tagged for reading the failures. */
export const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${++seq}@test.local`;
/** A name no other test of this file uses ('Publisher 3'). */
export const uniqueName = (prefix: string) => `${prefix} ${++seq}`;

/** A user (not an admin unless said) created through the API, with its password. */
export async function createUser(h: Harness, tag: string, password = 'user-pass-123', is_admin = false) {
  const admin = await h.server.admin();
  const email = uniqueEmail(tag);
  const user = await admin.admin.createUser({ first_name: tag, last_name: 'Prueba', email, password, is_admin });
  return { ...user, password };
}

/**
 * What sticks out past the screen's right edge outside a table's own scroll box: the first five
 * elements, named with their right edge to find them; [] when nothing does.
 */
export function widerThanScreen(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .filter((e) => !e.closest('.overflow-x-auto'))
      .slice(0, 5)
      .map((e) => `${e.tagName}.${(e as HTMLElement).className} ${Math.round(e.getBoundingClientRect().right)}`),
  );
}

/** Makes `name` a publisher the network knows (a revenue share), as a token for it must be. */
export async function knownPublisher(h: Harness, name: string): Promise<void> {
  await (await h.server.admin()).publishers.set({ name, revenue_share: 0.5 });
}

/** axe-core's source, read once: run inside the page through the DevTools protocol (no network, no CSP exception). */
let axeSource: string | undefined;
const axe = () => (axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

export interface AccessibilityViolation {
  id: string;
  impact: string;
  help: string;
  /** Where: a CSS selector of each element, and its HTML's start. */
  nodes: string[];
}

/** axe-core's critical and serious findings on the page as it is now (WCAG 2.x A and AA, and best practices). */
export async function accessibilityViolations(page: Page): Promise<AccessibilityViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe());
  return page.evaluate(async () => {
    // Colours are read as drawn: a table fading back in after loading (transition-opacity)
    // would measure its text at 60 %. Endless animations (spinners) are left running.
    await Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    );
    type AxeResult = { violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; html: string }> }> };
    const { axe } = window as unknown as { axe: { run(ctx: Document, opts: object): Promise<AxeResult> } };
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, nodes: v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)}`) }));
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Waits until a table sorted by the server shows the answer for a header in a direction: the
 * arrow (aria-sort) comes with the rows of the same answer, and the table is no longer busy.
 */
export async function waitSorted(table: Locator, header: string, dir: 'ascending' | 'descending'): Promise<void> {
  await table
    .locator(`th[aria-sort="${dir}"]`)
    .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(header)}\\s*[▲▼]\\s*$`) })
    .waitFor();
  await table.locator('xpath=ancestor::*[@aria-busy][1]').and(table.page().locator('[aria-busy="false"]')).waitFor();
}

/** Clicks a sortable header until the server answers in that direction (a new header starts ascending). */
export async function sortTable(table: Locator, header: string, dir: 'ascending' | 'descending'): Promise<void> {
  const button = table.locator('thead').getByRole('button', { name: header, exact: true });
  await button.click();
  await waitSorted(table, header, 'ascending');
  if (dir === 'descending') {
    await button.click();
    await waitSorted(table, header, 'descending');
  }
}

/**
 * Holds the page's requests to `url` until `release()`: a test sees the busy state ('Creando...',
 * 'Exportando…') while the answer waits, then lets it through — instead of slowing the answer by
 * a guessed number of milliseconds. Requests after the release pass at once.
 */
export async function holdRequests(page: Page, url: string | RegExp): Promise<{ release: () => void }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  await page.route(url, async (route) => {
    await gate;
    await route.continue();
  });
  return { release: () => open() };
}

/**
 * The one fixed wait browser tests keep: proving that something did NOT happen (no request
 * left, nothing was sent) needs a span in which it would have. `ms` is that span: longer than
 * the page's own delay for the thing (e.g. the 1 s debounce before suggestions).
 */
export function absenceFor(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
