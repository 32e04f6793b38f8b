// What the Fb Campaigns browser tests share (campaigns.test.ts, campaign-budget.test.ts,
// campaign-metrics.test.ts): a harness with the Meta sandbox, the creator's form controls and the
// requests a page sends.
import { afterAll, beforeAll, expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { Api } from '@adops/core';
import { ADMIN, startHarness, type Harness } from './harness.js';
import type { MetaSandbox } from '../server/src/sandbox/meta/index.js';

/** The file's harness, its admin and Meta sandbox, started before its tests and closed after them. */
export function campaignHarness(): { readonly h: Harness; readonly admin: Api & { token: string }; readonly sandbox: MetaSandbox } {
  const state = {} as { h: Harness; admin: Api & { token: string }; sandbox: MetaSandbox };
  beforeAll(async () => {
    state.h = await startHarness();
    state.admin = await state.h.server.admin();
    state.sandbox = state.h.server.app.services.campaigns.providers.metaSandbox!;
  });
  afterAll(async () => {
    await state.h?.close();
  });
  return state;
}

/** Requests the page sends to one API path, with the time each left. */
export function requestsTo(page: Page, pathname: string): Array<{ url: URL; at: number; method: string }> {
  const seen: Array<{ url: URL; at: number; method: string }> = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === pathname) seen.push({ url, at: Date.now(), method: r.method() });
  });
  return seen;
}

/** The campaign creator, signed in as the admin, once its amounts show the ad account's currency. */
export async function openCreator(h: Harness, options?: Parameters<Harness['newPage']>[0]): Promise<Page> {
  const page = await h.newPage(options);
  await h.signIn(page, ADMIN.email, ADMIN.password);
  await page.goto('/create-campaigns');
  await page.getByRole('heading', { name: 'Crear Campaña en Facebook' }).waitFor();
  // The amounts are labelled with the ad account's currency once the server has said it.
  await page.getByLabel(/^Presupuesto diario \(EUR\)/).waitFor();
  return page;
}

/** A form control by its label (required ones end in '*'). */
export const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`));
export const submitButton = (page: Page) =>
  page.getByRole('form', { name: 'Crear campaña' }).getByRole('button', { name: /^(Crear campaña|Creando\.\.\.)$/ });
export const suggestionButtons = (page: Page) => page.getByTestId('image-suggestions').getByRole('button');

/** Types a keyword and waits until the suggested copy has filled the form and images show. */
export async function typeKeyword(admin: Api, page: Page, keyword: string) {
  const copy = await admin.campaigns.generateCopy({ keyword });
  await field(page, 'Keyword').pressSequentially(keyword, { delay: 30 });
  await expect.poll(() => field(page, 'Título (headline)').inputValue(), { timeout: 5000 }).toBe(copy.headline);
  await suggestionButtons(page).first().waitFor();
  return copy;
}
