// Browser tests of the admin screens and the password change: users (create, edit, sessions),
// publisher tokens, and changing one's own password. Sign-in, guards and the shell are in
// foundation.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { presetRange } from '@adops/core';
import { ADMIN, createUser, knownPublisher, startHarness, uniqueEmail, uniqueName, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** Collects the text of every alert() and answers it (accept / dismiss for confirm()). */
function answerDialogs(page: Page, accept = true): string[] {
  const seen: string[] = [];
  page.on('dialog', (d) => {
    seen.push(d.message());
    void (accept ? d.accept() : d.dismiss());
  });
  return seen;
}

describe('admin: users', () => {
  test('an admin creates a user, edits it inline with Guardar, and deletes it after confirming', async () => {
    const page = await h.newPage();
    const dialogs = answerDialogs(page, true);
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin-users');
    const email = uniqueEmail('nuevo');
    const form = page.getByRole('form', { name: 'Crear usuario' });
    await form.getByLabel('Nombre').fill('Lucía');
    await form.getByLabel('Apellido').fill('Gómez');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Contraseña').fill('lucia-pass-123');
    await form.getByLabel('Es administrador').check();
    await form.getByRole('button', { name: 'Crear usuario' }).click();

    const row = page.locator(`tr[data-email="${email}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('Lucía');
    expect(await row.textContent()).toContain('Admin');
    expect(await form.getByLabel('Email').inputValue()).toBe('');

    await row.getByRole('button', { name: 'Editar' }).click();
    await row.getByLabel('Nombre').fill('Lucía María');
    await row.getByLabel('Apellido').fill(''); // empty: not sent, keeps 'Gómez'
    await h.screenshot(page, 'admin-users-editing');
    await row.getByRole('button', { name: 'Guardar' }).click();
    await row.getByRole('button', { name: 'Editar' }).waitFor();
    expect(await row.locator('td').allTextContents()).toEqual(expect.arrayContaining(['Lucía María', 'Gómez', email]));
    const admin = await h.server.admin();
    const stored = (await admin.admin.listUsers()).find((u) => u.email === email)!;
    expect(stored).toMatchObject({ first_name: 'Lucía María', last_name: 'Gómez', is_admin: true });
    // The password was left empty, so the old one still works.
    await expect(h.server.as(email, 'lucia-pass-123')).resolves.toHaveProperty('token');

    await row.getByRole('button', { name: 'Eliminar' }).click();
    await row.waitFor({ state: 'detached' });
    expect(dialogs.at(-1)).toContain(email);
    expect((await admin.admin.listUsers()).some((u) => u.email === email)).toBe(false);
  });

  test("'Sesiones' lists a user's open sessions; an admin ends one, then all, and those tokens stop working", async () => {
    const user = await createUser(h, 'sesiones');
    const laptop = await h.server.as(user.email, user.password);
    const phone = await h.server.as(user.email, user.password);
    const status = (token: string) => fetch(`${h.url}/api/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    const page = await h.newPage();
    const dialogs = answerDialogs(page, true);
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin-users');
    const row = page.locator(`tr[data-email="${user.email}"]`);
    await row.getByRole('button', { name: 'Sesiones' }).click();
    const panel = page.getByRole('region', { name: `Sesiones de ${user.email}` });
    const sessions = panel.locator('tr[data-session]');
    await expect.poll(() => sessions.count()).toBe(2);
    for (const header of ['Dispositivo', 'IP', 'Inicio', 'Último uso', 'Expira']) await panel.getByRole('columnheader', { name: header }).waitFor();
    expect(await sessions.first().textContent()).toContain('127.0.0.1');
    await h.screenshot(page, 'admin-users-sessions');

    await sessions.first().getByRole('button', { name: 'Cerrar sesión' }).click();
    await panel.getByText('Sesión cerrada').waitFor();
    await expect.poll(() => sessions.count()).toBe(1);
    expect(dialogs.at(-1)).toContain('¿Cerrar esta sesión?');
    expect([await status(laptop.token), await status(phone.token)].sort()).toEqual([200, 401]);

    await h.server.as(user.email, user.password);
    // Closed and opened again: a fresh list.
    await row.getByRole('button', { name: 'Sesiones' }).click();
    await panel.waitFor({ state: 'detached' });
    await row.getByRole('button', { name: 'Sesiones' }).click();
    await expect.poll(() => sessions.count()).toBe(2);
    await panel.getByRole('button', { name: 'Cerrar todas' }).click();
    await panel.getByText('No tiene sesiones abiertas.').waitFor();
    expect(dialogs.at(-1)).toContain(`todas las sesiones de ${user.email}`);
    expect(await status(laptop.token)).toBe(401);
    expect(await status(phone.token)).toBe(401);
  });

  test("at 390 px a user's sessions are blocks that fit the phone, each with its 'Cerrar sesión'", async () => {
    const user = await createUser(h, 'sesiones-movil');
    await h.server.as(user.email, user.password);
    const page = await h.newPage({ viewport: { width: 390, height: 844 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin-users');
    await page.locator(`tr[data-email="${user.email}"]`).getByRole('button', { name: 'Sesiones' }).click();
    const panel = page.getByRole('region', { name: `Sesiones de ${user.email}` });
    const card = panel.locator('li[data-session-card]');
    await card.first().waitFor();
    expect(await card.count()).toBe(1);
    expect(await card.first().textContent()).toMatch(/Inicio .* · Último uso .* · Expira /);
    await card.first().getByRole('button', { name: 'Cerrar sesión' }).waitFor();
    const box = await panel.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await h.screenshot(page, 'admin-users-sessions-390');
  });

  test('Cancelar leaves a user unchanged and dismissing the confirmation keeps it', async () => {
    const user = await createUser(h, 'conservar');
    const page = await h.newPage();
    const dialogs = answerDialogs(page, false);
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin-users');
    const row = page.locator(`tr[data-email="${user.email}"]`);
    await row.getByRole('button', { name: 'Editar' }).click();
    await row.getByLabel('Nombre').fill('Cambiado');
    await row.getByRole('button', { name: 'Cancelar' }).click();
    expect(await row.locator('td').first().textContent()).toBe('conservar');
    await row.getByRole('button', { name: 'Eliminar' }).click();
    expect(dialogs).toHaveLength(1);
    await page.waitForTimeout(200);
    expect(await row.count()).toBe(1);
    const admin = await h.server.admin();
    expect((await admin.admin.listUsers()).find((u) => u.id === user.id)?.first_name).toBe('conservar');
  });

  test('creating a user with an e-mail already registered shows ❌ and the server detail', async () => {
    const page = await h.newPage();
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin-users');
    const form = page.getByRole('form', { name: 'Crear usuario' });
    await form.getByLabel('Nombre').fill('Otro');
    await form.getByLabel('Email').fill(ADMIN.email);
    await form.getByLabel('Contraseña').fill('other-pass-123');
    await form.getByRole('button', { name: 'Crear usuario' }).click();
    const alert = form.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('❌ Ya existe un usuario con ese email');
  });

  test("a refused field shows the server's words without the field's key, after an icon", async () => {
    const page = await h.newPage();
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin-users');
    const form = page.getByRole('form', { name: 'Crear usuario' });
    await form.getByLabel('Nombre').fill('Corta');
    await form.getByLabel('Email').fill('corta@test.local');
    await form.getByLabel('Contraseña').fill('abc');
    // The browser's own minlength check would stop the form first: let the server answer.
    await form.getByLabel('Contraseña').evaluate((el) => el.removeAttribute('minlength'));
    await form.getByRole('button', { name: 'Crear usuario' }).click();
    const alert = form.getByRole('alert');
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text).toMatch(/^❌ La contraseña/);
    expect(text).not.toMatch(/password|first_name|email:/);
    expect(await alert.locator('svg[role="img"]').count()).toBe(1);
  });

  test('an update the server refuses says "Error al actualizar usuario" in the row, no browser dialog, until closed', async () => {
    const user = await createUser(h, 'choque');
    const page = await h.newPage();
    const dialogs = answerDialogs(page);
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin-users');
    const row = page.locator(`tr[data-email="${user.email}"]`);
    await row.getByRole('button', { name: 'Editar' }).click();
    await row.getByLabel('Email').fill(ADMIN.email);
    await row.getByRole('button', { name: 'Guardar' }).click();
    const problem = row.getByRole('alert');
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/^❌ Error al actualizar usuario: /);
    expect(await problem.locator('svg[role="img"]').count()).toBe(1);
    expect(dialogs).toEqual([]);
    await row.getByRole('button', { name: 'Guardar' }).waitFor();
    await row.getByRole('button', { name: 'Cerrar' }).click();
    await problem.waitFor({ state: 'detached' });
  });

  test('an admin demoted since signing in sees "No autorizado" instead of the user list', async () => {
    const user = await createUser(h, 'degradado', 'demoted-pass-123', true);
    const page = await h.newPage();
    await h.signIn(page, user.email, user.password);
    const admin = await h.server.admin();
    await admin.admin.updateUser({ id: user.id, is_admin: false });
    await page.goto('/admin-users');
    const banner = page.getByRole('alert').first();
    await banner.waitFor();
    expect(await banner.textContent()).toBe('No autorizado');
    expect(await page.getByText('No hay usuarios registrados aún.').count()).toBe(0);
  });

  test('the protected admin row is read-only: no Editar and no delete, only its sessions', async () => {
    const page = await h.newPage();
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin-users');
    const row = page.locator(`tr[data-email="${ADMIN.email}"]`);
    await row.waitFor();
    expect(await row.getByRole('button').allTextContents()).toEqual(['Sesiones']);
    expect(await row.textContent()).toContain('Solo lectura');
    expect(await row.textContent()).toContain('Protegido');
    await h.screenshot(page, 'admin-users');
  });
});

describe('admin: publisher tokens', () => {
  const tokenRow = (page: Page, name: string) => page.locator(`tr[data-publisher="${name}"]`);
  const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

  test('a created token appears; Copiar URL copies its publisher-data URL for yesterday and shows ✅ Copiado for 2 s', async () => {
    const page = await h.newPage();
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin-users');
    const name = uniqueName('Publisher');
    await knownPublisher(h, name);
    await page.getByLabel('Nombre del publisher').fill(`  ${name}  `);
    await page.getByRole('button', { name: 'Crear token' }).click();
    const row = tokenRow(page, name);
    await row.waitFor();
    expect(await page.getByLabel('Nombre del publisher').inputValue()).toBe('');
    const admin = await h.server.admin();
    const token = (await admin.admin.listTokens()).find((t) => t.publisher_name === name)!.token;

    await row.getByRole('button', { name: 'Copiar URL' }).click();
    await row.getByRole('button', { name: '✅ Copiado' }).waitFor();
    const browserTz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const yesterday = presetRange('ayer', new Date(), browserTz).from;
    const copied = new URL(await clipboard(page));
    expect(copied.origin + copied.pathname).toBe(`${h.url}/api/publisher/data`);
    expect(Object.fromEntries(copied.searchParams)).toEqual({ start_date: yesterday, end_date: yesterday, token });
    await h.screenshot(page, 'admin-tokens-copied');
    await row.getByRole('button', { name: 'Copiar URL' }).waitFor({ timeout: 3500 });
  });

  test('Renovar replaces the token and Eliminar removes it after confirming', async () => {
    const page = await h.newPage();
    const dialogs = answerDialogs(page, true);
    await h.signIn(page, ADMIN.email, ADMIN.password);
    const admin = await h.server.admin();
    const name = uniqueName('Renovable');
    await knownPublisher(h, name);
    const before = await admin.admin.createToken({ publisher_name: name });
    await page.goto('/admin-users');
    const row = tokenRow(page, name);
    await row.getByRole('button', { name: 'Renovar' }).click();
    await expect.poll(async () => (await admin.admin.listTokens()).find((t) => t.publisher_name === name)?.token).not.toBe(before.token);
    const after = (await admin.admin.listTokens()).find((t) => t.publisher_name === name)!;
    await row.getByRole('button', { name: 'Copiar URL' }).click();
    await row.getByRole('button', { name: '✅ Copiado' }).waitFor();
    expect(new URL(await clipboard(page)).searchParams.get('token')).toBe(after.token);
    expect(await tokenRow(page, name).count()).toBe(1);

    await row.getByRole('button', { name: 'Eliminar' }).click();
    await row.waitFor({ state: 'detached' });
    expect(dialogs.at(-1)).toContain(name);
    expect((await admin.admin.listTokens()).some((t) => t.publisher_name === name)).toBe(false);
  });

  test('an empty publisher name is said under the field, with no browser dialog, and creates nothing', async () => {
    const page = await h.newPage();
    const dialogs = answerDialogs(page);
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin-users');
    const admin = await h.server.admin();
    const count = (await admin.admin.listTokens()).length;
    let posted = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/admin/publisher-tokens')) posted++;
    });
    await page.getByLabel('Nombre del publisher').fill('   ');
    await page.getByRole('button', { name: 'Crear token' }).click();
    await page.locator('#publisher-name-error').getByText('El nombre del publisher no puede estar vacío.').waitFor();
    expect(await page.getByLabel('Nombre del publisher').getAttribute('aria-invalid')).toBe('true');
    expect(dialogs).toEqual([]);
    expect(posted).toBe(0);
    expect((await admin.admin.listTokens()).length).toBe(count);
  });

  test('a second token for the same publisher says "Error al crear token" on the page, not in a dialog', async () => {
    const page = await h.newPage();
    const dialogs = answerDialogs(page);
    await h.signIn(page, ADMIN.email, ADMIN.password);
    const admin = await h.server.admin();
    const name = uniqueName('Duplicado');
    await knownPublisher(h, name);
    await admin.admin.createToken({ publisher_name: name });
    await page.goto('/admin-users');
    await tokenRow(page, name).waitFor();
    await page.getByLabel('Nombre del publisher').fill(name);
    await page.getByRole('button', { name: 'Crear token' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^❌ Error al crear token/ })
      .waitFor();
    expect(dialogs).toEqual([]);
    expect(await tokenRow(page, name).count()).toBe(1);
  });
});

describe('change password', () => {
  test('a correct current password changes it, clears the fields and shows success for 3 s', async () => {
    const user = await createUser(h, 'clave');
    const page = await h.newPage();
    await h.signIn(page, user.email, user.password);
    await page.goto('/change-password');
    await page.getByLabel('Contraseña actual').fill(user.password);
    await page.getByLabel('Nueva contraseña').fill('brand-new-pass-789');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    const ok = page.getByText('✅ Contraseña actualizada con éxito');
    await ok.waitFor();
    await h.screenshot(page, 'change-password-ok');
    expect(await page.getByLabel('Contraseña actual').inputValue()).toBe('');
    expect(await page.getByLabel('Nueva contraseña').inputValue()).toBe('');
    await expect(h.server.as(user.email, 'brand-new-pass-789')).resolves.toHaveProperty('token');
    await expect(h.server.as(user.email, user.password)).rejects.toMatchObject({ status: 401 });
    await ok.waitFor({ state: 'detached', timeout: 4000 });
  });

  test('after the change this browser stays signed in (fresh token, same storage); an older session elsewhere ends', async () => {
    const user = await createUser(h, 'clave-sesion');
    const elsewhere = await h.server.as(user.email, user.password);
    const page = await h.newPage();
    await h.signIn(page, user.email, user.password);
    const before = await page.evaluate(() => localStorage.getItem('adops_token'));
    await page.waitForTimeout(1100); // iat has whole-second resolution
    await page.goto('/change-password');
    await page.getByLabel('Contraseña actual').fill(user.password);
    await page.getByLabel('Nueva contraseña').fill('fresh-session-pass-1');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.getByText('✅ Contraseña actualizada con éxito').waitFor();
    const after = await page.evaluate(() => localStorage.getItem('adops_token'));
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    // A screen that calls the API keeps working instead of bouncing to /login.
    await page.goto('/dashboard');
    await page.waitForTimeout(1500);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await expect(elsewhere.auth.me()).rejects.toMatchObject({ status: 401 });
  });

  test('a wrong current password shows ❌ and the server detail, which stays past 3 s, and changes nothing', async () => {
    const user = await createUser(h, 'clave-mal');
    const page = await h.newPage();
    await page.clock.install();
    await h.signIn(page, user.email, user.password);
    await page.goto('/change-password');
    await page.getByLabel('Contraseña actual').fill('wrong-current-1');
    await page.getByLabel('Nueva contraseña').fill('brand-new-pass-789');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('❌ La contraseña actual no es correcta');
    // No flash: it is there until the user acts.
    await page.clock.fastForward(10_000);
    expect(await alert.textContent()).toBe('❌ La contraseña actual no es correcta');
    await expect(h.server.as(user.email, user.password)).resolves.toHaveProperty('token');
  });

  test('with the stored token gone it says "No estás autenticado." and sends nothing', async () => {
    const page = await h.newPage();
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/change-password');
    await page.getByLabel('Contraseña actual').waitFor();
    let posted = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/change-password')) posted++;
    });
    await page.evaluate(() => localStorage.removeItem('adops_token'));
    await page.getByLabel('Contraseña actual').fill(ADMIN.password);
    await page.getByLabel('Nueva contraseña').fill('brand-new-pass-789');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('❌ No estás autenticado.');
    expect(posted).toBe(0);
  });
});
