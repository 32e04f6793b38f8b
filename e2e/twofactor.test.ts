// Two-factor sign-in in the browser: enrolment in 'Cambiar contraseña' (QR code shown under the
// strict CSP, the secret as text, the app's first code, the recovery codes once) at 390 px,
// then signing in with the code at 1440 px; an admin sees who has it on in Usuarios and turns it
// off for a user who lost their phone; and with ADOPS_REQUIRE_2FA=admins an admin is sent to
// enrol before anything else.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, startHarness, type Harness } from './harness.js';
import { awayFromStepEdge, totpCode } from '../server/test/totp-codes.js';

beforeEach(() => awayFromStepEdge(8));

/** No element wider than the window (nothing to scroll sideways). */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** From the 'Verificación en dos pasos' card: starts the enrolment with the password, checks the QR code, types the app's code; the recovery codes shown. */
async function enrolInPage(h: Harness, page: Page, password: string, shot: string): Promise<{ secret: string; recovery: string[] }> {
  // Without the password the browser keeps the form (a required field); a wrong one is the server's 400.
  await page.getByLabel('Tu contraseña (para confirmar que eres tú)').fill('not-the-password');
  await page.getByRole('button', { name: 'Activar verificación en dos pasos' }).click();
  await page.getByRole('alert').getByText('La contraseña actual no es correcta').waitFor();
  await page.getByLabel('Tu contraseña (para confirmar que eres tú)').fill(password);
  await page.getByRole('button', { name: 'Activar verificación en dos pasos' }).click();
  const qr = page.getByRole('img', { name: 'Código QR para la app de autenticación' });
  await qr.waitFor();
  // The QR code really rendered (a data: image the CSP allows), not a broken image.
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const secret = (await page.getByTestId('totp-secret').innerText()).replaceAll(' ', '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(await fitsWidth(page)).toBe(true);
  await h.screenshot(page, shot);
  await page.getByLabel('Código de 6 dígitos que muestra la app').fill('000000' === (await totpCode(secret, -1)) ? '111111' : '000000');
  await page.getByRole('button', { name: 'Confirmar y activar' }).click();
  await page.getByText('El código no es correcto').waitFor();
  await page.getByLabel('Código de 6 dígitos que muestra la app').fill(await totpCode(secret, -1));
  await page.getByRole('button', { name: 'Confirmar y activar' }).click();
  await page.getByRole('status').filter({ hasText: 'Verificación en dos pasos activada' }).waitFor();
  const recovery = await page.getByRole('list', { name: 'Códigos de recuperación' }).getByRole('listitem').allInnerTexts();
  return { secret, recovery };
}

describe('two-factor sign-in', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.close());

  test('a user turns it on in Cambiar contraseña at 390 px, then signs in with the code at 1440 px', async () => {
    const email = 'dos.pasos@test.local';
    const password = 'dos-pasos-segura-1';
    await h.server.app.services.users.create({ first_name: 'Dos', last_name: 'Pasos', email, password, is_admin: false });

    const phone = await h.newPage({ viewport: { width: 390, height: 844 } });
    await h.signIn(phone, email, password);
    await phone.goto('/change-password');
    await phone.getByRole('heading', { name: 'Verificación en dos pasos' }).waitFor();
    const { secret, recovery } = await enrolInPage(h, phone, password, '2fa-enrol-390');
    expect(recovery).toHaveLength(10);
    for (const code of recovery) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(await fitsWidth(phone)).toBe(true);
    await h.screenshot(phone, '2fa-recovery-codes-390');
    await phone.getByRole('button', { name: 'Ya los he guardado' }).click();
    await phone.getByText('Te quedan 10 códigos de recuperación', { exact: false }).waitFor();
    expect(h.pageErrors(phone)).toEqual([]);

    const desk = await h.newPage({ viewport: { width: 1440, height: 900 } });
    await desk.goto('/login');
    await desk.getByLabel('Email').fill(email);
    await desk.getByLabel('Contraseña').fill(password);
    await desk.getByRole('button', { name: 'Entrar' }).click();
    // The password was right: the code field appears, with no error.
    const codeField = desk.getByLabel('Código de verificación');
    await codeField.waitFor();
    expect(await desk.getByRole('alert').count()).toBe(0);
    await h.screenshot(desk, '2fa-login-code-1440');
    await codeField.fill('000000' === (await totpCode(secret)) ? '111111' : '000000');
    await desk.getByRole('button', { name: 'Entrar' }).click();
    await desk.getByRole('alert').getByText('El código de verificación no es correcto o ya se usó.').waitFor();
    await codeField.fill(await totpCode(secret));
    await desk.getByRole('button', { name: 'Entrar' }).click();
    await desk.waitForURL('**/dashboard');
    await h.screenshot(desk, '2fa-signed-in-1440');
    expect(h.pageErrors(desk)).toEqual([]);
  });

  test('an admin sees who has 2FA on in Usuarios and turns it off for a user who lost their phone; then the password alone signs in', async () => {
    const email = 'sin.telefono@test.local';
    const password = 'sin-telefono-segura-1';
    await h.server.app.services.users.create({ first_name: 'Sin', last_name: 'Teléfono', email, password, is_admin: false });
    const user = await h.server.as(email, password);
    const { secret } = await user.auth.totpBegin({ password });
    await user.auth.totpConfirm({ code: await totpCode(secret, -1) });

    const page = await h.newPage({ viewport: { width: 1440, height: 900 } });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin-users');
    const row = page.locator(`tr[data-email="${email}"]`);
    await row.getByTitle('Verificación en dos pasos activada').waitFor();
    // The admin's own row (2FA off) has neither the badge nor the button.
    const adminRow = page.locator(`tr[data-email="${ADMIN.email}"]`);
    expect(await adminRow.getByRole('button', { name: 'Quitar 2FA' }).count()).toBe(0);
    await h.screenshot(page, '2fa-admin-users-1440');
    await row.getByRole('button', { name: 'Quitar 2FA' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Verificación en dos pasos desactivada para ${email}` })
      .waitFor();
    expect(dialogs).toEqual([`¿Desactivar la verificación en dos pasos de ${email}? Entrará solo con su contraseña hasta que la vuelva a activar.`]);
    expect(await row.getByTitle('Verificación en dos pasos activada').count()).toBe(0);
    expect(await row.getByRole('button', { name: 'Quitar 2FA' }).count()).toBe(0);
    expect(h.pageErrors(page)).toEqual([]);

    // The user signs in with the password only: no code is asked.
    const own = await h.newPage({ viewport: { width: 390, height: 844 } });
    await own.goto('/login');
    await own.getByLabel('Email').fill(email);
    await own.getByLabel('Contraseña').fill(password);
    await own.getByRole('button', { name: 'Entrar' }).click();
    await own.waitForURL('**/dashboard');
    expect(await own.getByLabel('Código de verificación').count()).toBe(0);
    const entries = await h.server.app.services.store.audit.query({ action: 'user.2fa_reset' }, 'asc', 0, 10);
    expect(entries.rows).toEqual([expect.objectContaining({ actor_email: ADMIN.email, target_label: email })]);
  });

  test('a browser that signed in before still gets in after eleven wrong passwords from elsewhere; a new browser is told to wait', async () => {
    const email = 'conocida@test.local';
    const password = 'conocida-segura-1';
    await h.server.app.services.users.create({ first_name: 'Cono', last_name: 'Cida', email, password, is_admin: false });
    const known = await h.newPage({ viewport: { width: 1440, height: 900 } });
    await h.signIn(known, email, password);
    // Eleven guesses, each from its own address, close the account to unknown devices.
    for (let i = 0; i < 11; i++)
      await h.server.app.services.auth.login(email, `guess-${i}`, { ip: `192.0.2.${i + 1}`, userAgent: 'x' }).catch(() => undefined);
    const stranger = await h.newPage({ viewport: { width: 390, height: 844 } });
    await stranger.goto('/login');
    await stranger.getByLabel('Email').fill(email);
    await stranger.getByLabel('Contraseña').fill(password);
    await stranger.getByRole('button', { name: 'Entrar' }).click();
    await stranger.getByRole('alert').getByText('Demasiados intentos fallidos. Espera unos minutos e inténtalo de nuevo.').waitFor();
    // The known browser, its session gone, signs in again: its HttpOnly cookie vouches for it.
    expect(await known.evaluate(() => document.cookie)).not.toContain('adops_device');
    await known.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await h.signIn(known, email, password);
    expect(h.pageErrors(known)).toEqual([]);
  });

  test("another admin sees the protected admin's 2FA and sessions but has no button to remove or end them", async () => {
    const email = 'segunda.admin@test.local';
    const password = 'segunda-admin-segura-1';
    await h.server.app.services.users.create({ first_name: 'Segunda', last_name: 'Admin', email, password, is_admin: true });
    const protectedAdmin = await h.server.admin();
    const { secret } = await protectedAdmin.auth.totpBegin({ password: ADMIN.password });
    await protectedAdmin.auth.totpConfirm({ code: await totpCode(secret, -1) });
    const page = await h.newPage({ viewport: { width: 1440, height: 900 } });
    await h.signIn(page, email, password);
    await page.goto('/admin-users');
    const adminRow = page.locator(`tr[data-email="${ADMIN.email}"]`);
    await adminRow.getByTitle('Verificación en dos pasos activada').waitFor();
    expect(await adminRow.getByRole('button', { name: 'Quitar 2FA' }).count()).toBe(0);
    await adminRow.getByRole('button', { name: 'Sesiones' }).click();
    const sessions = page.getByRole('region', { name: `Sesiones de ${ADMIN.email}` });
    await sessions.getByText('Solo el administrador protegido puede cerrar sus sesiones.').waitFor();
    await sessions.locator('tr[data-session]').first().waitFor();
    expect(await sessions.getByRole('button', { name: /Cerrar/ }).count()).toBe(0);
    await h.screenshot(page, '2fa-protected-admin-readonly-1440');
    expect(h.pageErrors(page)).toEqual([]);
  });
});

describe('ADOPS_REQUIRE_2FA=admins', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ require2fa: 'admins' });
  });
  afterAll(() => h?.close());

  test('an admin without 2FA is sent to Cambiar contraseña, told why, and gets the console back once it is on', async () => {
    const page = await h.newPage({ viewport: { width: 1440, height: 900 } });
    await h.signIn(page, ADMIN.email, ADMIN.password);
    // The dashboard's calls answer 403 totp_setup_required: the web goes to enrol.
    await page.waitForURL('**/change-password');
    await page.getByText('Tu cuenta debe tener activada la verificación en dos pasos.').waitFor();
    await enrolInPage(h, page, ADMIN.password, '2fa-required-enrol-1440');
    await page.getByRole('button', { name: 'Ya los he guardado' }).click();
    await page.goto('/admin-users');
    await page.getByRole('heading', { level: 1, name: 'Usuarios y tokens' }).waitFor();
    await page.getByText(ADMIN.email).nth(1).waitFor();
    expect(page.url()).toMatch(/\/admin-users$/);
    expect(h.pageErrors(page)).toEqual([]);
  });
});
