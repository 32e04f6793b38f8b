// Budgets with sense, over HTTP against the Meta sandbox: the ad account's currency and minimum,
// the server's cap (ADOPS_MAX_DAILY_BUDGET) and confirmation threshold, the bid's limits,
// refusals said in words and in units that leave Meta untouched, and currencies Meta counts in
// whole units (no 100× budget on a JPY account).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BudgetLimits, LocalCampaign } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';
import { MetaSandbox } from '../src/sandbox/meta/index.js';
import { ConfigError, loadConfig } from '../src/config.js';

const ASSETS = fileURLToPath(new URL('../assets/sandbox-images/', import.meta.url));
const base = { keyword: 'seguros hogar', headline: 'Seguro de hogar', body: 'Compara precios.', alias: 'hog01' };
let png: Buffer;

beforeAll(async () => {
  png = await readFile(path.join(ASSETS, 'forest.png'));
});

/** A signed-in admin's view of one server: the limits, a creation, the local records. */
async function client(server: TestServer) {
  const token = (await server.admin()).token;
  const headers = { authorization: `Bearer ${token}` };
  return {
    limits: async () => {
      const res = await server.fetch('/api/campaigns/budget-limits', { headers });
      return { status: res.status, body: (await res.json()) as BudgetLimits & { detail?: string } };
    },
    create: async (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [k, v] of Object.entries({ ...base, ...fields })) form.append(k, v);
      form.append('image', new Blob([png], { type: 'image/png' }), 'foto.png');
      const res = await server.fetch('/api/create-campaign/', { method: 'POST', headers, body: form });
      return { status: res.status, body: (await res.json()) as { detail?: string; adset_id?: string } };
    },
    records: async () => (await (await server.fetch('/api/campaigns', { headers })).json()) as LocalCampaign[],
  };
}

describe('an ad account in euros, with the default settings', () => {
  let s: TestServer;
  let api: Awaited<ReturnType<typeof client>>;
  let sandbox: MetaSandbox;
  beforeAll(async () => {
    s = await startTestServer();
    api = await client(s);
    sandbox = s.app.services.campaigns.providers.metaSandbox!;
  });
  afterAll(() => s.close());

  test('the limits are the account’s currency and Meta’s minimum, a cap of 1.000 a day and confirmation above 100, read from Meta once', async () => {
    sandbox.requests.length = 0;
    const first = await api.limits();
    expect(first).toEqual({
      status: 200,
      body: {
        currency: 'EUR',
        decimals: 2,
        min_daily_budget: 1,
        max_daily_budget: 1000,
        confirm_daily_budget_above: 100,
        min_bid: 0.01,
        bid_budget_ratio: 5,
      },
    });
    expect(sandbox.requests.map((r) => `${r.method} ${r.edge}`).sort()).toEqual(['GET account', 'GET minimum_budgets']);
    await api.limits();
    await api.create({ daily_budget: '2,00' });
    expect(sandbox.requests.filter((r) => r.method === 'GET')).toHaveLength(2);
  });

  test.each([
    ['1.000,01', 'El presupuesto diario no puede superar 1.000,00 EUR'],
    ['100.000,00', 'El presupuesto diario no puede superar 1.000,00 EUR'],
    ['100000', 'El presupuesto diario no puede superar 1.000,00 EUR'],
    ['0,99', 'El presupuesto diario debe ser de al menos 1,00 EUR'],
    ['0', 'El presupuesto diario debe ser de al menos 1,00 EUR'],
  ])('a daily budget of %s is refused in words and in units, and nothing reaches Meta', async (daily_budget, detail) => {
    await api.limits();
    const objects = sandbox.objects.size;
    const records = await api.records();
    sandbox.requests.length = 0;
    const res = await api.create({ daily_budget });
    expect(res).toEqual({ status: 400, body: { detail } });
    expect(sandbox.requests).toEqual([]);
    expect(sandbox.objects.size).toBe(objects);
    expect(await api.records()).toEqual(records);
  });

  test.each([
    ['1,00', '0', 'La puja CPC debe ser de al menos 0,01 EUR'],
    [
      '1,00',
      '0,21',
      'Con un presupuesto diario de 1,00 EUR la puja CPC puede ser de 0,20 EUR como mucho (Meta pide un presupuesto de al menos 5 veces la puja)',
    ],
  ])('with a daily budget of %s a bid of %s is refused in words and nothing reaches Meta', async (daily_budget, bid_amount, detail) => {
    await api.limits();
    sandbox.requests.length = 0;
    expect(await api.create({ daily_budget, bid_amount })).toEqual({ status: 400, body: { detail } });
    expect(sandbox.requests).toEqual([]);
  });

  test('the cap itself, the minimum and the largest bid it allows are accepted, and reach Meta in cents', async () => {
    for (const [daily_budget, bid_amount, cents] of [
      ['1.000,00', '200', ['100000', '20000']],
      ['1', '0,20', ['100', '20']],
      ['1,50', '0.05', ['150', '5']],
    ] as const) {
      const res = await api.create({ daily_budget, bid_amount });
      expect(res.status).toBe(201);
      const adset = sandbox.objects.get(res.body.adset_id!)!;
      expect([adset.params.daily_budget, adset.params.bid_amount]).toEqual(cents);
    }
  });
});

describe('a cap set by ADOPS_MAX_DAILY_BUDGET', () => {
  test('is what the limits say and what the server refuses above, with its own confirmation threshold', async () => {
    const s = await startTestServer({ dailyBudget: loadConfig({ ADOPS_MAX_DAILY_BUDGET: '50', ADOPS_CONFIRM_DAILY_BUDGET: '20.50' }).dailyBudget });
    try {
      const api = await client(s);
      expect((await api.limits()).body).toMatchObject({ max_daily_budget: 50, confirm_daily_budget_above: 20.5 });
      expect(await api.create({ daily_budget: '50,01' })).toEqual({
        status: 400,
        body: { detail: 'El presupuesto diario no puede superar 50,00 EUR' },
      });
      expect((await api.create({ daily_budget: '50' })).status).toBe(201);
    } finally {
      await s.close();
    }
  });

  test.each([
    [{ ADOPS_MAX_DAILY_BUDGET: 'mil' }, 'ADOPS_MAX_DAILY_BUDGET must be an amount'],
    [{ ADOPS_MAX_DAILY_BUDGET: '1.000' }, 'ADOPS_MAX_DAILY_BUDGET must be an amount'],
    [{ ADOPS_MAX_DAILY_BUDGET: '0' }, 'ADOPS_MAX_DAILY_BUDGET must be an amount from 0.01'],
    [{ ADOPS_CONFIRM_DAILY_BUDGET: '-5' }, 'ADOPS_CONFIRM_DAILY_BUDGET must be an amount'],
    [
      { ADOPS_MAX_DAILY_BUDGET: '500', ADOPS_CONFIRM_DAILY_BUDGET: '600' },
      'ADOPS_CONFIRM_DAILY_BUDGET (600) must not exceed ADOPS_MAX_DAILY_BUDGET (500)',
    ],
  ])('a bad setting %j stops the server at start, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  test('defaults to 1000 a day with confirmation above a tenth of the cap', () => {
    expect(loadConfig({}).dailyBudget).toEqual({ max: 1000, confirmAbove: 100 });
    expect(loadConfig({ ADOPS_MAX_DAILY_BUDGET: '250' }).dailyBudget).toEqual({ max: 250, confirmAbove: 25 });
    expect(loadConfig({ ADOPS_CONFIRM_DAILY_BUDGET: '0' }).dailyBudget).toEqual({ max: 1000, confirmAbove: 0 });
  });
});

describe('an ad account in a currency Meta counts in whole units (JPY)', () => {
  let meta: MetaSandbox;
  let s: TestServer;
  let api: Awaited<ReturnType<typeof client>>;
  beforeAll(async () => {
    meta = await MetaSandbox.start({ accessToken: 'jpy-token', adAccountId: 'act_77', currency: 'JPY', minDailyBudget: 150, seedCampaigns: 0 });
    s = await startTestServer({
      meta: { accessToken: 'jpy-token', adAccountId: 'act_77', apiBase: meta.url, apiVersion: 'v24.0' },
      dailyBudget: { max: 100_000, confirmAbove: 10_000 },
    });
    api = await client(s);
  });
  afterAll(async () => {
    await s.close();
    await meta.close();
  });

  test('budgets are whole yen, sent to Meta as they are (not in hundredths), and decimals are refused', async () => {
    expect((await api.limits()).body).toMatchObject({ currency: 'JPY', decimals: 0, min_daily_budget: 150, min_bid: 1, max_daily_budget: 100_000 });
    const res = await api.create({ daily_budget: '2.000,00', bid_amount: '40' });
    expect(res.status).toBe(201);
    const adset = meta.objects.get(res.body.adset_id!)!;
    expect([adset.params.daily_budget, adset.params.bid_amount]).toEqual(['2000', '40']);

    const before = meta.objects.size;
    expect(await api.create({ daily_budget: '2000', bid_amount: '0,50' })).toEqual({
      status: 400,
      body: { detail: 'La puja CPC en JPY no lleva decimales' },
    });
    expect(await api.create({ daily_budget: '149', bid_amount: '1' })).toEqual({
      status: 400,
      body: { detail: 'El presupuesto diario debe ser de al menos 150 JPY' },
    });
    expect(await api.create({ daily_budget: '100.000,01', bid_amount: '1' })).toEqual({
      status: 400,
      body: { detail: 'El presupuesto diario en JPY no lleva decimales' },
    });
    expect(await api.create({ daily_budget: '100001', bid_amount: '1' })).toEqual({
      status: 400,
      body: { detail: 'El presupuesto diario no puede superar 100.000 JPY' },
    });
    expect(meta.objects.size).toBe(before);
  });
});

describe('when Meta does not say', () => {
  test('a failed read of the account answers 502 in words, creates nothing, and is asked again next time', async () => {
    const s = await startTestServer();
    try {
      const api = await client(s);
      const sandbox = s.app.services.campaigns.providers.metaSandbox!;
      sandbox.failNext('minimum_budgets', { message: '(#200) Permissions error', code: 200, error_user_msg: 'Falta el permiso ads_read.' });
      expect(await api.create({})).toEqual({
        status: 502,
        body: { detail: 'No se pudo leer la moneda y el presupuesto mínimo de la cuenta publicitaria de Meta: Falta el permiso ads_read.' },
      });
      expect(sandbox.requests.filter((r) => r.method !== 'GET')).toEqual([]);
      expect(await api.records()).toEqual([]);
      expect((await api.limits()).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
