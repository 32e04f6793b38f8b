// Rentabilidad over HTTP on a hand-worked fixture (profit.clickhouse.test.ts runs it again on
// ClickHouse): Meta spend per ad and day joined to the zone revenue its attributed human visits
// earned, with one day whose zone report has not arrived; the monthly exchange rate, and what
// the answer says without it; sorting, groupings and the CSV export.
//
// Two days, three zones, two campaigns (C1: ad set S1, ad A1, keyword 'seguros'; C2: S2, A2,
// 'vuelos'). Human visits (bots are left out everywhere: the 10 bot hits on Z1 for C1 count nowhere):
// Days D1 and D2 are the first two of last month (below as their dates).
//   day        | zone | C1 | C2 | not attributed | all human | zone revenue | RPV
//   D1         | Z1   | 10 |  5 |      15        |    30     | 20 + 10 = 30 | 30 / 30 = 1.00
//   D1         | Z2   |  4 |  8 |      12        |    24     | 12           | 12 / 24 = 0.50
//   D1         | Z3   |  0 |  5 |       5        |    10     |  5           |  5 / 10 = 0.50
//   D2         | Z1   |  6 |  0 |       4        |    10     | no report    | trailing: 30 / 30 = 1.00 (estimado)
//   D2         | Z2   |  0 |  4 |       0        |     4     | no report    | trailing: 12 / 24 = 0.50 (estimado)
//   D2         | Z3   |  2 |  0 |       0        |     2     | no report    | trailing:  5 / 10 = 0.50 (estimado)
// (Z8 earned 100 on D1 without a single visit: it counts for no campaign.)
// Estimated revenue:
//   C1 = 10×1.00 + 4×0.50 (day 1: 12.00) + 6×1.00 + 2×0.50 (day 2: 7.00) = 19.00 over 22 visits (8 estimated)
//   C2 = 5×1.00 + 8×0.50 + 5×0.50 (day 1: 11.50) + 4×0.50 (day 2: 2.00) = 13.50 over 22 visits (4 estimated)
// Zone TQ (impression-weighted): Z1 (0.8×1000 + 0.5×500) / 1500 = 0.70, Z2 0.60, Z3 none (not counted); day 2 takes day 1's.
//   C1 TQ = (10×0.70 + 4×0.60 + 6×0.70) / (10 + 4 + 6) = 13.6 / 20 = 0.68
//   C2 TQ = (5×0.70 + 8×0.60 + 4×0.60) / (5 + 8 + 4) = 10.7 / 17 = 0.629411…
// Spend (EUR; that month at 1.10 USD per EUR):
//   A1: 8.00 (2,000 impr., 20 clicks) + 6.00 (1,500, 15) = 14.00 EUR = 15.40 USD, 35 clicks
//   A2: 10.00 (3,000, 25) + 10.00 (2,500, 20)           = 20.00 EUR = 22.00 USD, 45 clicks
// Profit, ROI, ROAS, CPC and break-even CPC:
//   C1: 19.00 − 15.40 = 3.60; ROI 3.60 / 15.40 = 23.3766 %; ROAS 19.00 / 15.40 = 1.2338; RPV 19 / 22 = 0.8636;
//       CPC 15.40 / 35 = 0.44; break-even CPC 19.00 / 35 = 0.542857
//   C2: 13.50 − 22.00 = −8.50 (losing); ROI −8.50 / 22.00 = −38.6364 %; ROAS 0.6136; RPV 13.5 / 22 = 0.6136;
//       CPC 22 / 45 = 0.488889; break-even CPC 13.50 / 45 = 0.30
//   Total: revenue 32.50, spend 37.40, profit −4.90, ROI −13.1016 %, break-even CPC 32.50 / 80 = 0.40625
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonNumber, type Api, type ProfitRow } from '@adops/core';
import { startTestServer, failure, type TestServer } from './helpers.js';
import { D1, D2, LAST_MONTH, loadProfitFixture } from './profit-fixture.js';

// The first two days of last month: inside the events' retention (and ClickHouse's TTL), in one month.
let s: TestServer;
let admin: Api & { token: string };
const RANGE = { start_date: D1, end_date: D2 };

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.admin();
  await loadProfitFixture(s.app.services.warehouse);
});
afterAll(() => s.close());

const byKey = (rows: ProfitRow[]) => Object.fromEntries(rows.map((r) => [r.key, r]));

describe('Rentabilidad on the hand-worked fixture', () => {
  test('without the month’s exchange rate the answer says which is missing and leaves spend and profit unknown; revenue is still there', async () => {
    const t = await admin.profit.table({ ...RANGE, by: 'campaign' });
    expect(t.totals.missing_rates).toEqual([{ month: LAST_MONTH, currency: 'EUR' }]);
    const c1 = byKey(t.rows).C1;
    expect(c1).toMatchObject({ spend: null, profit: null, roi: null, roas: null, cpc: null, missing_rate: true, losing: false });
    expect(c1.revenue).toBeCloseTo(19, 9);
    expect(c1.break_even_cpc).toBe(jsonNumber(19 / 35));
    expect(t.totals.spend).toBeNull();
  });

  test('by campaign: revenue per visit × visits per zone, the day without a report estimated from the trailing RPV, profit, ROI and break-even CPC', async () => {
    const rates = await admin.profit.setRates({ rates: [{ month: LAST_MONTH, currency: 'eur', rate: 1.1 }] });
    expect(rates).toEqual({ currency: 'USD', rates: [{ month: LAST_MONTH, currency: 'EUR', rate: 1.1 }] });
    const t = await admin.profit.table({ ...RANGE, by: 'campaign' });
    expect(t.totals.missing_rates).toEqual([]);
    expect(t.totals.estimated_days).toEqual([D2]);
    expect(t.total_rows).toBe(2);
    // Default order: most spend first.
    expect(t.rows.map((r) => r.key)).toEqual(['C2', 'C1']);
    const { C1: c1, C2: c2 } = byKey(t.rows);
    expect(c1).toMatchObject({
      name: 'Campaña seguros',
      visits: 22,
      estimated_visits: 8,
      estimated: true,
      meta_clicks: 35,
      meta_impressions: 3500,
      losing: false,
    });
    expect(c1.revenue).toBeCloseTo(19, 9);
    expect(c1.spend).toBeCloseTo(15.4, 9);
    expect(c1.profit).toBeCloseTo(3.6, 9);
    expect(c1.roi).toBe(jsonNumber((3.6 / 15.4) * 100));
    expect(c1.roas).toBe(jsonNumber(19 / 15.4));
    expect(c1.rpv).toBe(jsonNumber(19 / 22));
    expect(c1.cpc).toBeCloseTo(0.44, 9);
    expect(c1.break_even_cpc).toBe(jsonNumber(19 / 35));
    expect(c1.tq).toBeCloseTo(0.68, 9);
    expect(c2).toMatchObject({ visits: 22, estimated_visits: 4, losing: true, meta_clicks: 45 });
    expect(c2.revenue).toBeCloseTo(13.5, 9);
    expect(c2.spend).toBeCloseTo(22, 9);
    expect(c2.profit).toBeCloseTo(-8.5, 9);
    expect(c2.roi).toBe(jsonNumber((-8.5 / 22) * 100));
    expect(c2.cpc).toBe(jsonNumber(22 / 45));
    expect(c2.break_even_cpc).toBeCloseTo(0.3, 9);
    expect(c2.tq).toBe(jsonNumber(10.7 / 17));
    expect(t.totals.revenue).toBeCloseTo(32.5, 9);
    expect(t.totals.spend).toBeCloseTo(37.4, 9);
    expect(t.totals.profit).toBeCloseTo(-4.9, 9);
    expect(t.totals.roi).toBe(jsonNumber((-4.9 / 37.4) * 100));
    expect(t.totals.break_even_cpc).toBe(jsonNumber(0.40625));
    expect(t.totals.visits).toBe(44);
  });

  test('by ad set, ad and keyword the same campaigns add up the same (each ad sends one keyword); rows name their parents', async () => {
    for (const [by, k1, k2] of [
      ['adset', 'S1', 'S2'],
      ['ad', 'A1', 'A2'],
      ['keyword', 'seguros', 'vuelos'],
    ] as const) {
      const rows = byKey((await admin.profit.table({ ...RANGE, by })).rows);
      expect(Object.keys(rows).sort(), by).toEqual([k1, k2]);
      expect(rows[k1].revenue).toBeCloseTo(19, 9);
      expect(rows[k1].spend).toBeCloseTo(15.4, 9);
      expect(rows[k2].profit).toBeCloseTo(-8.5, 9);
      expect(rows[k2].meta_clicks).toBeCloseTo(45, 9);
      if (by !== 'keyword') expect(rows[k1].campaign_id).toBe('C1');
      if (by === 'ad') expect(rows[k2].adset_id).toBe('S2');
    }
    const expanded = await admin.profit.table({ ...RANGE, by: 'ad', campaign_id: 'C2' });
    expect(expanded.rows.map((r) => r.key)).toEqual(['A2']);
    expect(expanded.totals.revenue).toBeCloseTo(13.5, 9);
  });

  test('by day: each day’s spend and revenue, the day without a zone report marked as an estimate', async () => {
    const t = await admin.profit.table({ ...RANGE, by: 'day' });
    expect(t.rows.map((r) => [r.key, r.estimated])).toEqual([
      [D1, false],
      [D2, true],
    ]);
    // Day 1: 12.00 + 11.50 = 23.50 earned, (8 + 10) × 1.10 = 19.80 spent; day 2: 7.00 + 2.00 = 9.00, (6 + 10) × 1.10 = 17.60.
    expect(t.rows[0].revenue).toBeCloseTo(23.5, 9);
    expect(t.rows[0].spend).toBeCloseTo(19.8, 9);
    expect(t.rows[1].revenue).toBeCloseTo(9, 9);
    expect(t.rows[1].spend).toBeCloseTo(17.6, 9);
    expect(t.rows[1].losing).toBe(true);
  });

  test('sorts by any figure and pages; the CSV export has every row with the registry’s columns', async () => {
    const t = await admin.profit.table({ ...RANGE, by: 'campaign', sort: 'profit:desc', page_size: 1, page: 2 });
    expect(t).toMatchObject({ total_rows: 2, page: 2, page_count: 2, sort: { key: 'profit', dir: 'desc' } });
    expect(t.rows.map((r) => r.key)).toEqual(['C2']);
    const res = await s.fetch('/api/profit', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...RANGE, by: 'campaign', format: 'csv', sort: 'roi:asc' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(`rentabilidad_campaign_${D1}_${D2}.csv`);
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe(
      'Campaña,Nombre,Gasto,Clics Meta,Impr. Meta,Visitas,Revenue est.,Beneficio,ROI %,ROAS,RPV,CPC,CPC equilibrio,TQ,Estimado,Sin tipo de cambio,Gasto sin sincronizar,Revenue días sin sincronizar',
    );
    expect(lines.slice(1)).toEqual([
      'C2,Campaña vuelos,22,45,5500,22,13.5,-8.5,-38.64,0.61,0.6136,0.4889,0.3,0.63,sí,no,no,0',
      'C1,Campaña seguros,15.4,35,3500,22,19,3.6,23.38,1.23,0.8636,0.44,0.5429,0.68,sí,no,no,0',
    ]);
  });

  test('bad input is a 400 in Spanish and changes nothing; a regular user may read but not set rates', async () => {
    expect((await failure(admin.profit.table({ start_date: D2, end_date: D1 }))).detail).toBe(
      'La fecha de inicio debe ser anterior o igual a la de fin',
    );
    expect((await failure(admin.profit.table({ ...RANGE, by: 'zona' as 'day' }))).detail).toBe(
      'Agrupar por: debe ser campaign, adset, ad, keyword o day',
    );
    expect((await failure(admin.profit.setRates({ rates: [{ month: '2026-13', currency: 'EUR', rate: 1 }] }))).detail).toContain('AAAA-MM');
    expect((await failure(admin.profit.setRates({ rates: [{ month: LAST_MONTH, currency: 'EURO', rate: 1 }] }))).detail).toContain(
      'código ISO de 3 letras',
    );
    expect((await failure(admin.profit.setRates({ rates: [{ month: LAST_MONTH, currency: 'EUR', rate: -1 }] }))).detail).toContain('mayor que 0');
    expect((await admin.profit.rates()).rates).toEqual([{ month: LAST_MONTH, currency: 'EUR', rate: 1.1 }]);
  });
});
