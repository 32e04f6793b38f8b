// No staff data leaves for a third party: on every main screen (staff and admin), every request
// the browser makes goes to the server itself (127.0.0.1) or stays in the page (data:, blob:).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ADMIN, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const SCREENS = [
  '/dashboard',
  '/ad-report',
  '/demand',
  '/finance',
  '/profit',
  '/referrers',
  '/logs',
  '/alerts',
  '/apis',
  '/fb-campaigns',
  '/create-campaigns',
  '/change-password',
  '/admin-users',
  '/admin/audit',
];

test('no request leaves 127.0.0.1 from the sign-in page or any main screen', async () => {
  const page = await h.newPage();
  const requests: string[] = [];
  page.context().on('request', (r) => requests.push(r.url()));
  await page.goto('/login');
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await page.getByTestId('avatar-initials').waitFor();
  for (const screen of SCREENS) {
    await page.goto(screen);
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe(screen);
  }
  expect(requests.length).toBeGreaterThan(SCREENS.length);
  const own = new URL(h.url).origin;
  const elsewhere = requests.filter((url) => !url.startsWith(`${own}/`) && !/^(data|blob):/.test(url));
  expect(elsewhere).toEqual([]);
  expect(h.pageErrors(page)).toEqual([]);
});
