// Browser tests of publisher keys on the admin screen: a token created with an expiry, allowed
// addresses and an hourly limit shows them, with its last use and request count; Editar changes
// them in place; a bad address is the server's Spanish detail; 1440 and 390 px wide.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, knownPublisher, startHarness, type Harness } from './harness.js';

let h: Harness;
let seq = 0;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const tokenRow = (page: Page, name: string) => page.locator(`tr[data-publisher="${name}"]`);
const form = (page: Page) => page.getByRole('form', { name: 'Crear token' });

function answerDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (d) => {
    seen.push(d.message());
    void d.accept();
  });
  return seen;
}

describe('admin: publisher keys', () => {
  test('created with an expiry, allowed IPs and a limit; uses and last use show; Editar changes them (1440 px)', async () => {
    const page = await h.newPage({ viewport: { width: 1440, height: 900 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin-users');
    const name = `Con límites ${++seq}`;
    await knownPublisher(h, name);
    await form(page).getByLabel('Nombre del publisher').fill(name);
    await form(page).getByLabel('Caduca el').fill('2099-03-15');
    await form(page).getByLabel('IPs permitidas').fill('127.0.0.1, 10.0.0.0/8 2001:db8::/32');
    await form(page).getByLabel('Límite por hora').fill('50');
    await form(page).getByRole('button', { name: 'Crear token' }).click();
    const row = tokenRow(page, name);
    await row.waitFor();
    expect(await form(page).getByLabel('IPs permitidas').inputValue()).toBe('');
    const token = (await (await h.server.admin()).admin.listTokens()).find((t) => t.publisher_name === name)!;
    expect(token).toMatchObject({ allowed_ips: ['127.0.0.1', '10.0.0.0/8', '2001:db8::/32'], rate_limit: 50 });
    expect(await row.locator('[data-col="ips"]').innerText()).toBe('127.0.0.1, 10.0.0.0/8, 2001:db8::/32');
    expect(await row.locator('[data-col="limit"]').innerText()).toBe('50');
    expect(await row.locator('[data-col="expires"]').innerText()).toMatch(/^\d{2}\/\d{2}\/2099/);
    expect(await row.locator('[data-col="requests"]').innerText()).toBe('0');
    expect(await row.locator('[data-col="last-used"]').innerText()).toBe('Nunca');

    // The publisher pulls twice; the admin sees it.
    for (let i = 0; i < 2; i++) {
      const res = await h.server.fetch('/api/publisher/data?start_date=2026-03-01&end_date=2026-03-01', {
        headers: { authorization: `Bearer ${token.token}` },
      });
      expect(res.status).toBe(200);
    }
    await page.reload();
    await expect.poll(() => tokenRow(page, name).locator('[data-col="requests"]').innerText()).toBe('2');
    expect(await tokenRow(page, name).locator('[data-col="last-used"]').innerText()).not.toBe('Nunca');

    await tokenRow(page, name).getByRole('button', { name: 'Editar' }).click();
    const editor = page.getByRole('form', { name: `Editar token de ${name}` });
    expect(await editor.getByLabel('Caduca el').inputValue()).toBe('2099-03-15');
    expect(await editor.getByLabel('Límite por hora').inputValue()).toBe('50');
    await editor.getByLabel('Límite por hora').fill('');
    await editor.getByLabel('IPs permitidas').fill('');
    await editor.getByLabel('Caduca el').fill('');
    await h.screenshot(page, 'admin-tokens-edit-1440');
    await editor.getByRole('button', { name: 'Guardar' }).click();
    await editor.waitFor({ state: 'detached' });
    const saved = tokenRow(page, name);
    expect(await saved.locator('[data-col="limit"]').innerText()).toBe('600 (por defecto)');
    expect(await saved.locator('[data-col="ips"]').innerText()).toBe('Todas');
    expect(await saved.locator('[data-col="expires"]').innerText()).toBe('Nunca');
    expect((await (await h.server.admin()).admin.listTokens()).find((t) => t.id === token.id)).toMatchObject({
      allowed_ips: [],
      rate_limit: null,
      expires_at: null,
      request_count: 2,
    });
    await h.screenshot(page, 'admin-tokens-1440');
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('a bad address says "Error al crear token" with the server’s detail, its field by its label, on the page, and creates nothing', async () => {
    const page = await h.newPage({ viewport: { width: 1440, height: 900 } });
    const dialogs = answerDialogs(page);
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin-users');
    const name = `Mal IP ${++seq}`;
    await knownPublisher(h, name);
    await form(page).getByLabel('Nombre del publisher').fill(name);
    await form(page).getByLabel('IPs permitidas').fill('10.0.0.0/33');
    await form(page).getByRole('button', { name: 'Crear token' }).click();
    const problem = page.getByRole('alert').filter({ hasText: 'Error al crear token' });
    await problem.waitFor();
    expect(await problem.textContent()).toBe(
      '❌ Error al crear token: IPs permitidas (1.ª): «10.0.0.0/33» no es una dirección IP ni un rango CIDR (IPv4 o IPv6)',
    );
    expect(dialogs).toEqual([]);
    expect((await (await h.server.admin()).admin.listTokens()).some((t) => t.publisher_name === name)).toBe(false);
  });

  test('at 390 px the form and the token table fit: the table scrolls in its own box', async () => {
    const admin = await h.server.admin();
    const name = `Móvil ${++seq}`;
    await knownPublisher(h, name);
    await admin.admin.createToken({ publisher_name: name, allowed_ips: ['203.0.113.0/24'], rate_limit: 10, expires_at: '2099-01-01' });
    const page = await h.newPage({ viewport: { width: 390, height: 844 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin-users');
    await page.getByRole('table', { name: 'API Tokens' }).waitFor();
    await form(page).getByLabel('Límite por hora').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    for (const label of ['Nombre del publisher', 'Caduca el', 'IPs permitidas', 'Límite por hora']) {
      const box = await form(page).getByLabel(label).boundingBox();
      expect(box, label).not.toBeNull();
      expect(box!.x + box!.width, label).toBeLessThanOrEqual(390);
    }
    await h.screenshot(page, 'admin-tokens-390');
    expect(h.pageErrors(page)).toEqual([]);
  });
});
