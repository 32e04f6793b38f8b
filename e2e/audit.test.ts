// Browser test of 'Auditoría': an admin finds it beside Users, sees the changes newest first,
// filters them, opens a row to read before and after, pages, downloads the CSV; it fits 1440
// and 390 px; staff never reach it.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.server.admin();
  await admin.admin.createUser({ first_name: 'Ana', last_name: 'Gómez', email: 'ana@example.com', password: 'una-clave-larga-1' });
  const beto = await admin.admin.createUser({ first_name: 'Beto', email: 'beto@example.com', password: 'una-clave-larga-1' });
  await admin.admin.updateUser({ id: beto.id, first_name: 'Roberto' });
  await admin.publishers.set({ name: 'Diario Norte', revenue_share: 0.6 });
  await admin.admin.createToken({ publisher_name: 'Diario Norte' }); // a known publisher's token
  for (let i = 0; i < 30; i++) await admin.publishers.set({ name: 'Diario Norte', revenue_share: 0.5 + i / 100 });
});
afterAll(async () => {
  await h?.close();
});

describe('Auditoría', () => {
  for (const width of [1440, 390]) {
    test(`an admin opens it from the menu, filters, reads a change's before and after, pages and downloads the CSV, at ${width} px`, async () => {
      const page = await h.newPage({ viewport: { width, height: 900 } });
      await h.signIn(page, ADMIN.email, ADMIN.password);
      if (width < 768) await page.getByRole('button', { name: 'Abrir menú' }).click();
      await page.getByRole('link', { name: 'Auditoría', exact: true }).click();
      await page.waitForURL('**/admin/audit');
      await page.getByRole('heading', { name: 'Auditoría' }).waitFor();

      // Newest first: the last revenue-share change is on top; 36 entries in two pages of 25.
      // A table from md up, a list of blocks below it: the rows on screen.
      const rows = page.locator('[data-testid=audit-row]:visible');
      await rows.first().waitFor();
      await expect.poll(() => page.getByTestId('audit-count').textContent()).toBe('36 entradas');
      await page.getByLabel('Mostrar').selectOption('25');
      await expect.poll(() => rows.count()).toBe(25);
      expect(await rows.first().textContent()).toContain('Revenue share modificado');
      await page.getByRole('button', { name: 'Siguiente' }).click();
      await expect.poll(() => rows.count()).toBe(11);
      expect(await rows.last().textContent()).toContain('sistema');

      // Filter: who and what.
      await page.getByLabel('Acción').selectOption({ label: 'Usuario modificado' });
      await page.getByLabel('Quién').fill('admin@test');
      await page.getByRole('button', { name: 'Aplicar' }).click();
      await expect.poll(() => page.getByTestId('audit-count').textContent()).toBe('1 entrada');
      await page.getByRole('button', { name: 'Ver' }).click();
      const details = page.locator('[data-testid=audit-details]:visible');
      await details.waitFor();
      expect(await details.textContent()).toContain('"first_name": "Beto"');
      expect(await details.textContent()).toContain('"first_name": "Roberto"');
      expect(await details.textContent()).toContain('beto@example.com');

      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await h.screenshot(page, `audit-${width}`);

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar CSV' }).click()]);
      expect(download.suggestedFilename()).toBe('auditoria.csv');
      const csv = (await readFile((await download.path())!, 'utf8'))
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n');
      expect(csv[0]).toBe('at,actor,actor_id,ip,action,target_kind,target_id,target_label,before,after,request_id');
      expect(csv).toHaveLength(2);
      expect(csv[1]).toContain('user.update');

      // Limpiar brings every entry back.
      await page.getByRole('button', { name: 'Limpiar' }).click();
      await expect.poll(() => page.getByTestId('audit-count').textContent()).toBe('36 entradas');
      expect(h.pageErrors(page)).toEqual([]);
    });
  }

  test('the filters, page and page size live in the URL: a reload and a shared link show the same entries', async () => {
    const page = await h.newPage();
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin/audit');
    await expect.poll(() => page.getByTestId('audit-count').textContent()).toBe('36 entradas');
    expect(new URL(page.url()).search).toBe('');
    await page.getByLabel('Acción').selectOption({ label: 'Usuario modificado' });
    await page.getByLabel('Quién').fill('admin@test');
    await page.getByRole('button', { name: 'Aplicar' }).click();
    await expect.poll(() => page.getByTestId('audit-count').textContent()).toBe('1 entrada');
    const query = new URL(page.url()).searchParams;
    expect([query.get('action'), query.get('actor')]).toEqual(['user.update', 'admin@test']);

    await page.reload();
    await expect.poll(() => page.getByTestId('audit-count').textContent()).toBe('1 entrada');
    expect(await page.getByLabel('Quién').inputValue()).toBe('admin@test');

    // The page and page size too.
    await page.goto('/admin/audit?size=25&page=2');
    await expect.poll(() => page.locator('[data-testid=audit-row]:visible').count()).toBe(11);
    expect(await page.getByLabel('Mostrar').inputValue()).toBe('25');

    // A reversed range is said under the dates and asks nothing.
    await page.getByLabel('Desde', { exact: true }).fill('10/03/2024');
    await page.getByLabel('Hasta', { exact: true }).fill('01/03/2024');
    await page.getByRole('button', { name: 'Aplicar' }).click();
    await page.getByRole('alert').filter({ hasText: 'La fecha de inicio debe ser anterior o igual a la de fin' }).waitFor();
    expect(new URL(page.url()).searchParams.get('since')).toBeNull();
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('staff see no Auditoría link and are sent away from the page', async () => {
    const page = await h.newPage();
    await h.signIn(page, 'ana@example.com', 'una-clave-larga-1');
    const nav = page.getByRole('navigation', { name: 'Principal' });
    await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Auditoría' }).count()).toBe(0);
    // The admin guard sends them to /login, which a signed-in user leaves for /dashboard.
    await page.goto('/admin/audit');
    await page.waitForURL('**/dashboard');
    expect(await page.getByRole('heading', { name: 'Auditoría' }).count()).toBe(0);
  });
});
