// Campaign metrics over HTTP: Meta's campaigns with insights for a range, status filters,
// cursor paging, has_data, query validation and Graph failures (against the Meta sandbox).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { CampaignTable, jsonNumber, type CampaignInsight } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';
import type { MetaSandbox } from '../src/sandbox/meta/index.js';
import { MetaApiError, MetaClient } from '../src/providers/meta/client.js';
import { SANDBOX_ACCOUNT, SANDBOX_TOKEN } from '../src/providers/index.js';

let s: TestServer;
let token: string;
let sandbox: MetaSandbox;

beforeAll(async () => {
  s = await startTestServer();
  token = (await s.admin()).token;
  sandbox = s.app.services.campaigns.providers.metaSandbox!;
});
afterAll(() => s.close());
beforeEach(() => {
  sandbox.requests.length = 0;
  sandbox.maxPageSize = 25;
  sandbox.clearFailures();
});

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function insights(query: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const res = await s.fetch(`/api/facebook-campaigns/insights?${new URLSearchParams(query)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: await res.json() };
}
/** The whole list (one page of up to 500). */
const rows = async (query: Record<string, string>): Promise<CampaignInsight[]> => {
  const r = await insights({ page_size: '500', ...query });
  expect(r.status).toBe(200);
  return CampaignTable.parse(r.body).rows;
};
const sandboxCampaigns = (status?: string) => [...sandbox.objects.values()].filter((o) => o.type === 'campaign' && (!status || o.status === status));

describe('campaign metrics', () => {
  test('lists every active campaign across small pages, without duplicates', async () => {
    sandbox.maxPageSize = 4;
    const list = await rows({ from_date: day(-30), to_date: day(-1), status: 'ACTIVE' });
    const expected = sandboxCampaigns('ACTIVE');
    expect(list.length).toBe(expected.length);
    expect(new Set(list.map((c) => c.id))).toEqual(new Set(expected.map((c) => c.id)));
    expect(list.every((c) => c.effective_status === 'ACTIVE')).toBe(true);
    const pages = sandbox.requestsTo('campaigns.list');
    expect(pages.length).toBe(Math.ceil(expected.length / 4));
    // Each further page asks for the cursor Meta gave.
    for (let i = 1; i < pages.length; i++)
      expect(pages[i].params.after).toBe((pages[i - 1].answer as { paging: { cursors: { after: string } } }).paging.cursors.after);
  });

  test('asks Meta for the range’s insights and the status filter', async () => {
    await rows({ from_date: '2025-03-01', to_date: '2025-03-31', status: 'PAUSED' });
    const params = sandbox.requestsTo('campaigns.list')[0].params;
    expect(params.fields).toBe(
      "id,name,effective_status,created_time,insights.time_range({'since':'2025-03-01','until':'2025-03-31'}){impressions,clicks,spend,account_currency}",
    );
    expect(params.effective_status).toEqual(['PAUSED']);
    sandbox.requests.length = 0;
    await rows({ from_date: '2025-03-01', to_date: '2025-03-31', status: 'ALL' });
    expect(sandbox.requestsTo('campaigns.list')[0].params.effective_status).toBeUndefined();
  });

  test('Todas, Activas and Pausadas partition the account’s campaigns', async () => {
    const q = { from_date: day(-7), to_date: day(-1) };
    const all = await rows({ ...q, status: 'ALL' });
    const active = await rows({ ...q, status: 'ACTIVE' });
    const paused = await rows({ ...q, status: 'PAUSED' });
    expect(paused.every((c) => c.effective_status === 'PAUSED')).toBe(true);
    expect(active.length + paused.length).toBe(all.length);
    expect(all.length).toBe(sandboxCampaigns().length);
    // Without a status the list shows the active ones (SPEC §9 default).
    expect((await rows(q)).map((c) => c.id)).toEqual(active.map((c) => c.id));
  });

  test('maps Meta’s text metrics to numbers and a range’s totals add up day by day', async () => {
    const two = await rows({ from_date: day(-3), to_date: day(-2), status: 'ALL' });
    const first = await rows({ from_date: day(-3), to_date: day(-3), status: 'ALL' });
    const second = await rows({ from_date: day(-2), to_date: day(-2), status: 'ALL' });
    const withData = two.filter((c) => c.has_data);
    expect(withData.length).toBeGreaterThan(3);
    for (const c of withData) {
      expect(typeof c.impressions).toBe('number');
      expect(typeof c.clicks).toBe('number');
      expect(typeof c.account_spend).toBe('number');
      expect(c.account_currency).toBe('EUR');
      expect(Number.isInteger(c.impressions) && c.impressions > 0).toBe(true);
      expect(Math.round(c.account_spend * 100)).toBeCloseTo(c.account_spend * 100, 6);
      const a = first.find((x) => x.id === c.id)!;
      const b = second.find((x) => x.id === c.id)!;
      expect(c.impressions).toBe(a.impressions + b.impressions);
      expect(c.clicks).toBe(a.clicks + b.clicks);
      expect(c.account_spend).toBeCloseTo(a.account_spend + b.account_spend, 2);
    }
    for (const c of two) {
      expect(c.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(c.name).toBeTruthy();
    }
  });

  test('a campaign without delivery in the range has has_data false and zero metrics', async () => {
    // A campaign just created from the console is paused: it has never delivered.
    const res = await s.fetch('/api/create-campaign/', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: (() => {
        const f = new FormData();
        for (const [k, v] of Object.entries({
          keyword: 'nueva',
          headline: 'H',
          body: 'B',
          alias: 'n1',
          image_url: '/api/sandbox/pixabay-images/forest.png',
        }))
          f.append(k, v);
        return f;
      })(),
    });
    expect(res.status).toBe(201);
    const { campaign_id } = await res.json();
    const list = await rows({ from_date: day(-30), to_date: day(0), status: 'PAUSED' });
    expect(list.find((c) => c.id === campaign_id)).toMatchObject({
      has_data: false,
      clicks: 0,
      impressions: 0,
      account_spend: 0,
      effective_status: 'PAUSED',
    });
    // Far in the past no campaign of the account had started yet.
    const old = await rows({ from_date: '2001-01-01', to_date: '2001-01-31', status: 'ALL' });
    expect(old.length).toBeGreaterThan(0);
    expect(old.every((c) => !c.has_data && c.impressions === 0)).toBe(true);
  });

  test('a rate limit on the listing is retried; a Graph error answers 502 with its message', async () => {
    sandbox.failNext('campaigns.list', { message: '(#17) User request limit reached', code: 17 });
    expect((await rows({ from_date: day(-2), to_date: day(-1) })).length).toBeGreaterThan(0);
    expect(sandbox.requestsTo('campaigns.list')).toHaveLength(2);

    sandbox.failNext('campaigns.list', {
      message: '(#200) Ad account owner has NOT grant ads_management or ads_read permission',
      code: 200,
      error_user_msg: 'No tienes permiso para ver esta cuenta publicitaria.',
    });
    const r = await insights({ from_date: day(-2), to_date: day(-1) });
    expect(r).toEqual({ status: 502, body: { detail: 'No tienes permiso para ver esta cuenta publicitaria.' } });
  });
});

describe('one currency: spend in the network’s, the ad account’s beside it', () => {
  test('spend is Rentabilidad’s (synced, converted at the month’s rate), so profit = revenue − spend as shown; Meta’s own EUR amount comes beside', async () => {
    const api = await s.admin();
    const from = day(-3);
    const to = day(-2);
    // Before any sync the network's spend is unknown, never Meta's EUR amount dressed as dollars.
    const before = await rows({ from_date: from, to_date: to, status: 'ALL' });
    const delivered = before.filter((c) => c.has_data && c.account_spend > 0);
    expect(delivered.length).toBeGreaterThan(2);
    for (const c of delivered) expect(c.spend).toBeNull();

    const months = [...new Set([from, to].map((d) => d.slice(0, 7)))];
    await api.profit.setRates({ rates: months.map((month) => ({ month, currency: 'EUR', rate: 1.1 })) });
    await api.profit.syncSpend({ start_date: from, end_date: to });
    const t = CampaignTable.parse((await insights({ from_date: from, to_date: to, status: 'ALL', page_size: '500' })).body);
    const profit = await api.profit.table({ by: 'campaign', start_date: from, end_date: to, page_size: 500 });
    const profitSpend = new Map(profit.rows.map((r) => [r.key, r.spend]));
    expect(t.totals.currency).toBe('USD');
    for (const c of t.rows.filter((x) => x.has_data && x.account_spend > 0)) {
      expect(c.account_currency).toBe('EUR');
      // The same figure Rentabilidad shows for the campaign, and Meta's EUR at 1,1.
      expect(c.spend).toBe(profitSpend.get(c.id));
      expect(c.spend!).toBeCloseTo(c.account_spend * 1.1, 3);
      expect(c.profit!).toBeCloseTo(c.revenue - c.spend!, 3);
      if (c.clicks > 0) expect(c.cpc!).toBeCloseTo(c.spend! / c.clicks, 3);
    }
    expect(t.totals.spend!).toBeCloseTo(
      t.rows.reduce((sum, c) => sum + (c.spend ?? 0), 0),
      3,
    );
    expect(t.totals.profit!).toBeCloseTo(t.totals.revenue - t.totals.spend!, 3);
  });
});

describe('the campaign metrics table', () => {
  test('20 campaigns a page, newest first, with totals over every campaign of the range', async () => {
    const q = { from_date: day(-7), to_date: day(-1), status: 'ALL' };
    const all = await rows(q);
    const t = CampaignTable.parse((await insights(q)).body);
    expect(t.page_size).toBe(20);
    expect(t.rows).toEqual(all.slice(0, 20));
    expect([...all.map((c) => c.created_at)].sort().reverse()).toEqual(all.map((c) => c.created_at));
    expect(t.totals.campaigns).toBe(all.length);
    expect(t.totals.without_data).toBe(all.filter((c) => !c.has_data).length);
    expect(t.totals.impressions).toBe(all.reduce((sum, c) => sum + c.impressions, 0));
    expect(t.totals.clicks).toBe(all.reduce((sum, c) => sum + c.clicks, 0));
    expect(t.totals.account_spend).toBeCloseTo(
      all.reduce((sum, c) => sum + c.account_spend, 0),
      6,
    );
    expect(t.totals.account_currency).toBe('EUR');
    // Ratios of the sums, never averages: CPC = spend / clicks, CTR = clicks / impressions × 100
    // (each answered to 4 decimals, computed from the exact sums).
    expect(t.totals.ctr).toBe(jsonNumber((t.totals.clicks / t.totals.impressions) * 100));
    if (t.totals.spend !== null) expect(t.totals.cpc).toBeCloseTo(t.totals.spend / t.totals.clicks, 3);
    for (const c of all.filter((x) => x.clicks > 0 && x.spend !== null)) expect(c.cpc).toBeCloseTo(c.spend! / c.clicks, 3);
  });

  test('sorts the whole list by any column (missing values last) and pages without overlap', async () => {
    const q = { from_date: day(-7), to_date: day(-1), status: 'ALL' };
    const bySpend = await rows({ ...q, sort: 'account_spend:desc' });
    expect(bySpend.map((c) => c.account_spend)).toEqual([...bySpend.map((c) => c.account_spend)].sort((a, b) => b - a));
    const pages = [];
    for (let page = 1; page <= Math.ceil(bySpend.length / 5); page++)
      pages.push(...CampaignTable.parse((await insights({ ...q, sort: 'account_spend:desc', page_size: '5', page: String(page) })).body).rows);
    expect(pages.map((c) => c.id)).toEqual(bySpend.map((c) => c.id));
    const byCpc = await rows({ ...q, sort: 'cpc:asc' });
    const firstNull = byCpc.findIndex((c) => c.cpc === null);
    if (firstNull >= 0) expect(byCpc.slice(firstNull).every((c) => c.cpc === null)).toBe(true);
  });

  test('format=csv exports every campaign of the list', async () => {
    const q = { from_date: day(-7), to_date: day(-1), status: 'ALL' };
    const all = await rows(q);
    const res = await s.fetch(`/api/facebook-campaigns/insights?${new URLSearchParams({ ...q, format: 'csv', page_size: '1' })}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toBe(
      'campaign_id,name,status,impressions,clicks,ctr,spend,account_spend,account_currency,cpc,cpm,revenue,profit,roi,has_data,created_at',
    );
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(all.map((c) => c.id));
  });

  test('a sort key the list does not have is refused', async () => {
    const r = await insights({ from_date: day(-2), to_date: day(-1), sort: 'margin' });
    expect(r.status).toBe(400);
    expect((r.body as { detail: string }).detail).toMatch(/^Orden: columna de orden no válida/);
  });
});

describe('the Meta client', () => {
  test('a token Meta does not accept fails with Graph’s OAuth error (code 190), not retried', async () => {
    const client = new MetaClient({ apiBase: sandbox.url, apiVersion: 'v24.0', accessToken: 'not-the-token', adAccountId: SANDBOX_ACCOUNT });
    const error = await client.listCampaigns({ since: day(-2), until: day(-1) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MetaApiError);
    expect((error as MetaApiError).code).toBe(190);
    expect((error as MetaApiError).detail).toMatch(/access token/i);
    expect(sandbox.requestsTo('campaigns.list')).toHaveLength(1);
  });

  test('another ad account’s id is refused by Graph with subcode 33', async () => {
    const client = new MetaClient({ apiBase: sandbox.url, apiVersion: 'v24.0', accessToken: SANDBOX_TOKEN, adAccountId: '999' });
    const error = (await client.createCampaign({ name: 'x', objective: 'OUTCOME_TRAFFIC' }).catch((e: unknown) => e)) as MetaApiError;
    expect(error.graph).toMatchObject({ code: 100, error_subcode: 33 });
    expect(error.graph.fbtrace_id).toBeTruthy();
  });
});

describe('metrics query validation', () => {
  test.each([
    [{ to_date: '2025-01-02' }, 'Fecha de inicio: es obligatorio'],
    [{ from_date: '2025-01-01' }, 'Fecha de fin: es obligatorio'],
    [{ from_date: '01/02/2025', to_date: '2025-01-02' }, 'Fecha de inicio: debe ser una fecha AAAA-MM-DD'],
    [{ from_date: '2025-02-30', to_date: '2025-03-02' }, 'Fecha de inicio: debe ser una fecha AAAA-MM-DD'],
    [{ from_date: '2025-01-05', to_date: '2025-01-02' }, 'La fecha de inicio debe ser anterior o igual a la de fin'],
    [{ from_date: '2020-01-01', to_date: '2025-01-02' }, 'El rango admite como mucho 800 días'],
    [{ from_date: '2025-01-01', to_date: '2025-01-02', status: 'DELETED' }, 'Estado: debe ser ACTIVE, PAUSED o ALL'],
    [{ from_date: "2025-01-01'}){spend}", to_date: '2025-01-02' }, 'Fecha de inicio: debe ser una fecha AAAA-MM-DD'],
  ])('%j is refused', async (query, detail) => {
    const r = await insights(query as Record<string, string>);
    expect(r).toEqual({ status: 400, body: { detail } });
    expect(sandbox.requests).toHaveLength(0);
  });

  test('the screen’s Spanish status labels are understood', async () => {
    const paused = await rows({ from_date: day(-2), to_date: day(-1), status: 'Pausadas' });
    expect(paused.length).toBeGreaterThan(0);
    expect(paused.every((c) => c.effective_status === 'PAUSED')).toBe(true);
  });

  test('repeated and oversized query values are refused', async () => {
    const rep = await s.fetch('/api/facebook-campaigns/insights?from_date=2025-01-01&from_date=2025-01-02&to_date=2025-01-03', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(rep.status).toBe(400);
    const long = await insights({ from_date: '2025-01-01', to_date: '2025-01-02', status: 'A'.repeat(5000) });
    expect(long.status).toBe(400);
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('local campaign records', () => {
  test('GET /api/campaigns lists what this console created, newest first, with who created it', async () => {
    const list = (await (await s.fetch('/api/campaigns', { headers: { authorization: `Bearer ${token}` } })).json()) as Array<{
      campaign_id: string;
      created_by: string;
      created_at: string;
    }>;
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((c) => c.created_by === 'admin@test.local' && c.campaign_id)).toBe(true);
    const times = list.map((c) => c.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });
});
