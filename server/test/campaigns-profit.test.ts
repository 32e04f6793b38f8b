// Fb Campaigns' revenue, profit and ROI columns over HTTP, against the Meta sandbox: each
// campaign's figures are Rentabilidad's (the same profit query, spend synced from Meta and
// converted with the monthly rates), with totals; a missing rate leaves profit and ROI unknown
// and names the month and currency, as the Rentabilidad answer does.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addDays, type Api, type CampaignInsight, type CampaignTable } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';
import { event, importRows } from './warehouse-contract.js';
import type { ReferrerEvent, ZoneReportRecord } from '../src/warehouse/index.js';

let s: TestServer;
let admin: Api & { token: string };

const today = new Date().toISOString().slice(0, 10);
const FROM = addDays(today, -6);
const TO = addDays(today, -2);
const DAYS = [0, 1, 2, 3, 4].map((d) => addDays(FROM, d));
const MONTHS = [...new Set(DAYS.map((d) => d.slice(0, 7)))];
const RANGE = { from_date: FROM, to_date: TO, status: 'ALL' as const, page_size: 500 };

/** The campaigns sent visits: the first ad of the first three campaigns the sandbox has ads for. */
let sent: string[] = [];

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.admin();
  const sandbox = s.app.services.campaigns.providers.metaSandbox!;
  const byCampaign = new Map<string, ReturnType<typeof sandbox.ads>[number]>();
  for (const ad of sandbox.ads()) if (!byCampaign.has(ad.campaign_id)) byCampaign.set(ad.campaign_id, ad);
  const ads = [...byCampaign.values()].slice(0, 3);
  sent = ads.map((a) => a.campaign_id);
  // One zone earning 100 a day over 100 human visits (RPV 1.00): 60, 6 and 1 visits a day from the three campaigns.
  const zones: ZoneReportRecord[] = DAYS.map((date) => ({
    date,
    advertiser: 'AdNova',
    publisher: 'PubA',
    zone_id: 'Z1',
    geo: 'ES',
    source: 'social',
    domain: 'a.com',
    impressions: 5000,
    monetized_impressions: null,
    clicks: 50,
    revenue: 100,
    rate_applied: 0.7,
    p_revenue: 70,
    margin: 30,
    tq: 0.8,
  }));
  await importRows(s.app.services.warehouse, zones);
  const events: ReferrerEvent[] = [];
  for (const day of DAYS) {
    const add = (n: number, extra: Partial<ReferrerEvent>) => {
      for (let i = 0; i < n; i++)
        events.push(event(events.length + 1, Date.parse(`${day}T10:00:00Z`) + events.length * 1000, { zone_id: 'Z1', ...extra }));
    };
    for (const [i, ad] of ads.entries())
      add([60, 6, 1][i], { campaign_id: ad.campaign_id, adset_id: ad.adset_id, ad_id: ad.ad_id, keyword: ad.keyword, placement: null });
    add(100 - 67, {});
  }
  await s.app.services.warehouse.referrers.append(events);
  await admin.profit.syncSpend({ start_date: FROM, end_date: TO });
});
afterAll(() => s.close());

const byId = (rows: CampaignInsight[]) => Object.fromEntries(rows.map((r) => [r.id, r]));

describe('Fb Campaigns: revenue, profit and ROI per campaign', () => {
  test('without the months’ exchange rates, revenue is shown, profit and ROI are unknown and the missing rates are named', async () => {
    const t: CampaignTable = await admin.campaigns.insights(RANGE);
    expect(t.totals.missing_rates).toEqual(MONTHS.map((month) => ({ month, currency: 'EUR' })));
    expect(t.totals.currency).toBe('USD');
    const spent = t.rows.filter((r) => r.account_spend > 0);
    expect(spent.length).toBeGreaterThan(0);
    // Without a rate the network's spend is unknown too: never the account's euros shown as dollars.
    for (const r of spent) expect(r).toMatchObject({ spend: null, profit: null, roi: null, missing_rate: true, account_currency: 'EUR' });
    expect(byId(t.rows)[sent[0]].revenue).toBeCloseTo(60 * 5, 9);
    expect(t.totals.profit).toBeNull();
    expect(t.totals.revenue).toBeCloseTo(67 * 5, 9);
  });

  test('with the rates, each campaign’s revenue, profit and ROI are Rentabilidad’s, and the totals are the profit answer’s', async () => {
    await admin.profit.setRates({ rates: MONTHS.map((month) => ({ month, currency: 'EUR', rate: 1.1 })) });
    const t = await admin.campaigns.insights(RANGE);
    const p = await admin.profit.table({ by: 'campaign', start_date: FROM, end_date: TO, page_size: 500 });
    expect(t.totals.missing_rates).toEqual([]);
    const rows = byId(t.rows);
    for (const pr of p.rows) {
      const c = rows[pr.key!];
      expect(c, pr.key!).toBeDefined();
      expect(c.revenue).toBeCloseTo(pr.revenue!, 9);
      expect(c.profit).toBeCloseTo(pr.profit!, 9);
      expect(c.roi).toBeCloseTo(pr.roi!, 9);
      // The list's Gasto is Rentabilidad's (Meta's EUR converted at 1,10), so profit = revenue − spend as shown.
      expect(c.spend).toBe(pr.spend);
      expect(c.spend!).toBeCloseTo(c.account_spend * 1.1, 3);
      expect(c.profit!).toBeCloseTo(c.revenue - c.spend!, 3);
    }
    // A campaign that spent with no visits loses all it spent (ROI −100 %).
    const silent = t.rows.find((r) => r.account_spend > 0 && !sent.includes(r.id));
    expect(silent?.profit).toBeCloseTo(-silent!.account_spend * 1.1, 3);
    expect(silent?.roi).toBeCloseTo(-100, 9);
    expect(t.totals.revenue).toBeCloseTo(p.totals.revenue!, 9);
    expect(t.totals.profit).toBeCloseTo(p.totals.profit!, 9);
    expect(t.totals.roi).toBeCloseTo(p.totals.roi!, 9);
  });

  test('sorts by profit on the server, and the CSV carries revenue, profit and ROI', async () => {
    const t = await admin.campaigns.insights({ ...RANGE, sort: 'profit:asc' });
    const profits = t.rows.map((r) => r.profit).filter((v): v is number => v !== null);
    expect(profits).toEqual([...profits].sort((a, b) => a - b));
    const res = await s.fetch(
      `/api/facebook-campaigns/insights?${new URLSearchParams({ from_date: FROM, to_date: TO, status: 'ALL', format: 'csv' })}`,
      {
        headers: { authorization: `Bearer ${admin.token}` },
      },
    );
    expect(res.status).toBe(200);
    const [header, ...lines] = (await res.text()).trim().split(/\r?\n/);
    const cols = header.split(',');
    expect(cols).toEqual(expect.arrayContaining(['revenue', 'profit', 'roi']));
    const top = lines.map((l) => l.split(',')).find((c) => c[0] === sent[0])!;
    expect(Number(top[cols.indexOf('revenue')])).toBeCloseTo(300, 2);
    expect(Number(top[cols.indexOf('profit')])).toBeCloseTo(byId(t.rows)[sent[0]].profit!, 2);
  });
});
