// Rentabilidad on the money fixture (money-fixture.ts): a campaign sends visits to every
// zone-day of November 2025, its spend is synced on every day but 25/11 (Clickora's 1,3334).
// Rentabilidad gives each day the cents the Ad Report gives it, the month's revenue is the
// Dashboard's and Finance's $4,00 (synced days plus the unsynced day's revenue set apart), the
// unsynced day is listed with no spend — never 0 — and the profit export's revenue column adds up
// to the total to the cent. Spend is in the network's currency, so each row's profit is its
// revenue minus its spend as shown.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROFIT_METRICS, formatMoney, parseCsv, roundTo, type Api, type ProfitRow, type ProfitTable } from '@adops/core';
import { startTestServer, type TestServer } from './helpers.js';
import { getJson, postZoneReport } from './reports-fixture.js';
import { FIXTURE, NOVEMBER } from './money-fixture.js';
import { event } from './warehouse-contract.js';
import type { AdSpendRecord } from '../src/warehouse/index.js';

const CM = { campaign_id: 'CM', adset_id: 'SM', ad_id: 'AM', keyword: 'dinero' };
/** The fixture's November zone-days (date, zone) and the USD spend synced for each; 25/11 has none. */
const DAYS: Array<[string, string, number | null]> = [
  ['2025-11-03', 'N-1', 0.1],
  ['2025-11-04', 'N-4', 1],
  ['2025-11-10', 'N-2', 0.45],
  ['2025-11-17', 'N-3', 0.2],
  ['2025-11-20', 'N-5', 0.67],
  ['2025-11-25', 'N-6', null],
];
const UNSYNCED = '2025-11-25';

let s: TestServer;
let admin: Api & { token: string };
const get = (path: string, query: Record<string, string>) => getJson(s, admin.token, path, query);

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.admin();
  expect((await postZoneReport(s, admin.token, FIXTURE)).status).toBe(200);
  const w = s.app.services.warehouse;
  // Three human visits from the campaign to each zone-day: the day's own RPV values them all.
  let id = 1;
  await w.referrers.append(
    DAYS.flatMap(([day, zone_id]) => [0, 1, 2].map((i) => event(id++, Date.parse(`${day}T09:00:00Z`) + i * 1000, { zone_id, ...CM }))),
  );
  await w.spend.upsert(
    DAYS.flatMap(([date, , spend]): AdSpendRecord[] =>
      spend === null
        ? []
        : [
            {
              date,
              account_id: 'act_1',
              ...CM,
              campaign_name: 'Campaña dinero',
              adset_name: 'Conjunto',
              ad_name: 'Anuncio',
              spend,
              impressions: 100,
              clicks: 5,
              currency: 'USD',
            },
          ],
    ),
  );
  // A sync covered the rest of the month (days without spend are a real 0 there), not 25/11.
  await s.app.services.completeness.recordSync(NOVEMBER.start_date, '2025-11-24');
  await s.app.services.completeness.recordSync('2025-11-26', NOVEMBER.end_date);
});
afterAll(() => s?.close());

const byDay = async (): Promise<ProfitTable> => admin.profit.table({ ...NOVEMBER, by: 'day', sort: 'key:asc' });
const shown = (v: number | null | undefined) => (v === null || v === undefined ? null : formatMoney(v));

describe('Rentabilidad gives the money fixture the cents of every other screen', () => {
  test('each day’s revenue is the Ad Report’s for that day; the unsynced day is listed, its spend unknown (not 0)', async () => {
    const t = await byDay();
    expect(t.totals.unsynced_days).toEqual([UNSYNCED]);
    const rows = Object.fromEntries(t.rows.map((r) => [r.key, r])) as Record<string, ProfitRow>;
    expect(Object.keys(rows).sort()).toEqual(DAYS.map(([d]) => d));
    for (const [day, , spend] of DAYS) {
      const report = (await get('/api/ad-report/zone-details', { start_date: day, end_date: day })).body.totals.revenue;
      expect(shown(rows[day].revenue), day).toBe(shown(report));
      expect(rows[day].visits).toBe(3);
      if (spend === null) {
        expect(rows[day]).toMatchObject({ spend: null, profit: null, roi: null, spend_unsynced: true });
      } else {
        expect(rows[day]).toMatchObject({ spend, spend_unsynced: false });
        // One currency: profit is the revenue shown minus the spend shown, to the cent.
        expect(shown(rows[day].profit), day).toBe(formatMoney(roundTo(roundTo(rows[day].revenue, 2)! - roundTo(spend, 2)!, 2)));
      }
    }
  });

  test('the month’s revenue is the Dashboard’s and Finance’s $4,00: the synced days’ plus the unsynced day’s, set apart', async () => {
    const t = await admin.profit.table({ ...NOVEMBER, by: 'campaign' });
    // 4.0000 − 1.3334 over the synced days; the unsynced day's 1.3334 is apart, never a free profit.
    expect([shown(t.totals.revenue), shown(t.totals.unsynced_revenue)]).toEqual(['$2,67', '$1,33']);
    expect(t.totals.spend).toBeCloseTo(2.42, 9);
    expect(shown(t.totals.profit)).toBe('$0,25');
    const dashboard = (await get('/api/dashboard/overview', NOVEMBER)).body.summary.revenue;
    const finance = (await get('/api/finance/advertisers', NOVEMBER)).body.totals.total;
    expect([shown(t.totals.revenue! + t.totals.unsynced_revenue), shown(dashboard), shown(finance)]).toEqual(['$4,00', '$4,00', '$4,00']);
  });

  test('the export’s revenue column adds up to the month’s revenue to the cent; the unsynced day’s spend is empty, not 0', async () => {
    const res = await s.fetch('/api/profit', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...NOVEMBER, by: 'day', format: 'csv' }),
    });
    expect(res.status).toBe(200);
    const [head, ...rows] = parseCsv((await res.text()).replace(/^\uFEFF/, ''), ',');
    const col = (label: string) => head.indexOf(label);
    const revenue = rows.reduce((sum, cells) => sum + Number(cells[col(PROFIT_METRICS.revenue.label)]), 0);
    expect(roundTo(revenue, 2)).toBe(4);
    const unsynced = rows.find((cells) => cells[col(PROFIT_METRICS.revenue.label)] === '1.3334')!;
    expect(unsynced[col(PROFIT_METRICS.spend.label)]).toBe('');
    expect(unsynced[col('Gasto sin sincronizar')]).toBe('sí');
  });
});
