// Browser tests of the referrer-spam list on the Referrers screen (admins, beside the IVT table):
// the maintained list's size and how many domains are flagged; a domain added or a maintained
// one taken out shows at once in the list and the count, and is undone from its row; a domain
// the server refuses shows its Spanish detail and changes nothing; a long list is searched and
// paged; 1440 and 390 px wide; staff never see the list nor ask for it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { formatInt } from '@adops/core';
import { ADMIN, startHarness, type Harness, widerThanScreen } from './harness.js';

let h: Harness;
const STAFF = { email: 'ana-spam@example.com', password: 'una-clave-larga-1' };

beforeAll(async () => {
  h = await startHarness();
  const admin = await h.server.admin();
  await admin.admin.createUser({ first_name: 'Ana', last_name: 'Gómez', email: STAFF.email, password: STAFF.password });
});
afterAll(async () => {
  await h?.close();
});

const card = (page: Page) => page.locator('section').filter({ has: page.getByRole('heading', { name: 'Lista de spam de referrers' }) });
const form = (page: Page) => page.getByRole('form', { name: 'Cambiar la lista de spam' });
const row = (page: Page, domain: string) => card(page).locator(`tr[data-domain="${domain}"]`);
const total = (page: Page) => card(page).getByTestId('spam-total').innerText();
const serverList = async () => (await h.server.admin()).referrers.spamList();

async function openList(page: Page) {
  await page.goto('/referrers');
  await page.getByRole('button', { name: 'Ver tráfico inválido (IVT) por zona y publisher y lista de spam' }).click();
  await card(page).getByTestId('spam-summary').waitFor();
}

describe('admin: the referrer-spam list', () => {
  test('adding a domain, taking a maintained one out and undoing both show at once; a refused domain shows the server’s detail (1440 px)', async () => {
    const page = await h.newPage({ viewport: { width: 1440, height: 900 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await openList(page);
    const start = await serverList();
    expect(start.added).toEqual([]);
    const shipped = formatInt(start.shipped);
    expect(await card(page).getByTestId('spam-summary').innerText()).toContain(`La lista mantenida (${start.source}) trae ${shipped} dominios`);
    expect(await total(page)).toBe(`${formatInt(start.total)} dominios marcados`);
    expect(await card(page).getByTestId('spam-changes-count').innerText()).toContain('La red no ha añadido ni quitado dominios');

    // A new domain (typed with capitals and spaces: the server normalises it).
    await form(page).getByLabel('Dominio').fill('  Spam-Nuevo.Example.com ');
    await form(page).getByRole('button', { name: 'Marcar como spam' }).click();
    await row(page, 'spam-nuevo.example.com').waitFor();
    expect(await row(page, 'spam-nuevo.example.com').innerText()).toContain('Añadido por la red');
    expect(await card(page).getByRole('status').innerText()).toContain('spam-nuevo.example.com se marca como spam desde ahora');
    expect(await total(page)).toBe(`${formatInt(start.total + 1)} dominios marcados`);
    expect(await form(page).getByLabel('Dominio').inputValue()).toBe('');
    expect((await serverList()).added).toEqual(['spam-nuevo.example.com']);

    // A domain of the maintained list taken out.
    await form(page).getByLabel('Dominio').fill('semalt.com');
    await form(page).getByRole('button', { name: 'Dejar de marcar' }).click();
    await row(page, 'semalt.com').waitFor();
    expect(await row(page, 'semalt.com').innerText()).toContain('Quitado de la lista mantenida');
    expect(await total(page)).toBe(`${formatInt(start.total)} dominios marcados`);
    expect(await card(page).getByTestId('spam-changes-count').innerText()).toBe('1 añadido · 1 quitado');

    // Refused by the server: its detail, in Spanish and without the field key; the typed text stays.
    await form(page).getByLabel('Dominio').fill("' OR 1=1 --");
    await form(page).getByRole('button', { name: 'Marcar como spam' }).click();
    const alert = card(page).getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe("Error al cambiar la lista de spam: El dominio «' OR 1=1 --» no es un nombre de host como spam.example.com");
    expect(await form(page).getByLabel('Dominio').inputValue()).toBe("' OR 1=1 --");
    expect(await serverList()).toMatchObject({ added: ['spam-nuevo.example.com'], removed: ['semalt.com'] });
    await page.evaluate(() => window.scrollTo(0, 0));
    await h.screenshot(page, 'spam-list-1440');

    // Both undone from their rows; the error goes with the next change.
    await row(page, 'semalt.com').getByRole('button', { name: 'Volver a marcar semalt.com' }).click();
    await row(page, 'semalt.com').waitFor({ state: 'detached' });
    expect(await card(page).getByRole('alert').count()).toBe(0);
    await row(page, 'spam-nuevo.example.com').getByRole('button', { name: 'Quitar spam-nuevo.example.com' }).click();
    await row(page, 'spam-nuevo.example.com').waitFor({ state: 'detached' });
    expect(await card(page).getByTestId('spam-changes-count').innerText()).toContain('La red no ha añadido ni quitado dominios');
    expect(await total(page)).toBe(`${formatInt(start.total)} dominios marcados`);
    expect(await serverList()).toMatchObject({ added: [], removed: [] });
    expect(h.pageErrors(page)).toEqual([]);
  });

  test('a long list is paged 20 at a time and searched; it fits a 390 px phone', async () => {
    const admin = await h.server.admin();
    const domains = Array.from({ length: 25 }, (_, i) => `lote${String(i).padStart(2, '0')}.spam.example.net`);
    await admin.referrers.updateSpamList({ add: [...domains, 'casino-bonus.example.org'], remove: ['semalt.com'] });
    try {
      const page = await h.newPage({ viewport: { width: 390, height: 844 } });
      await h.signIn(page, ADMIN.email, ADMIN.password);
      await openList(page);
      const table = card(page).getByTestId('spam-table');
      expect(await table.locator('tbody tr').count()).toBe(20);
      expect(await card(page).getByText('Página 1 de 2').count()).toBe(1);
      await card(page).getByRole('button', { name: 'Siguiente' }).click();
      await card(page).getByText('Página 2 de 2').waitFor();
      expect(await table.locator('tbody tr').count()).toBe(7);

      await card(page).getByLabel('Buscar dominio').fill('CASINO');
      await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
      expect(await row(page, 'casino-bonus.example.org').count()).toBe(1);
      expect(await card(page).getByTestId('spam-changes-count').innerText()).toBe('26 añadidos · 1 quitado · 1 coincide con «CASINO»');
      expect(
        await card(page)
          .getByText(/Página \d de \d/)
          .count(),
      ).toBe(0);

      await card(page).getByLabel('Buscar dominio').fill('lote1');
      await expect.poll(() => table.locator('tbody tr').count()).toBe(10);
      // Nothing sticks out sideways on a phone.
      const wide = await widerThanScreen(page);
      expect(wide).toEqual([]);
      // Each row's button is on screen, not past the table's edge.
      const quitar = row(page, 'lote10.spam.example.net').getByRole('button', { name: 'Quitar lote10.spam.example.net' });
      expect((await quitar.boundingBox())!.x + (await quitar.boundingBox())!.width).toBeLessThanOrEqual(390);
      await card(page).getByLabel('Buscar dominio').fill('semalt');
      const back = row(page, 'semalt.com').getByRole('button', { name: 'Volver a marcar semalt.com' });
      await back.waitFor();
      expect((await back.boundingBox())!.x + (await back.boundingBox())!.width).toBeLessThanOrEqual(390);
      await card(page).getByLabel('Buscar dominio').fill('');
      await card(page).getByRole('button', { name: 'Siguiente' }).click();
      await row(page, 'semalt.com').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.evaluate(() => window.scrollTo(0, 0));
      await h.screenshot(page, 'spam-list-390');
      expect(h.pageErrors(page)).toEqual([]);
    } finally {
      await admin.referrers.updateSpamList({ remove: [...domains, 'casino-bonus.example.org'], add: ['semalt.com'] });
    }
  });

  test('staff see the IVT table but not the list, and never ask for it', async () => {
    const page = await h.newPage();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/admin/referrer-spam')) asked.push(r.url());
    });
    await h.signIn(page, STAFF.email, STAFF.password);
    await page.goto('/referrers');
    await page.getByRole('button', { name: 'Ver tráfico inválido (IVT) por zona y publisher', exact: true }).click();
    await page.getByTestId('ivt-table').waitFor();
    await page.getByRole('button', { name: 'Ocultar tráfico inválido (IVT)', exact: true }).waitFor();
    expect(await page.getByRole('heading', { name: 'Lista de spam de referrers' }).count()).toBe(0);
    expect(asked).toEqual([]);
  });
});
