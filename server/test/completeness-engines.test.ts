// What the profit query and 'Valor' make of incomplete days, on DuckDB and ClickHouse alike: a
// day whose zone report is partial counts as not reported — its RPV is the zone's trailing one,
// so its estimate grows with its visits and never falls, and it is left out of later days'
// trailing windows; the days a query sets apart come back flagged (spend and visits); and the
// light lists of days with stored spend and with a zone report.
//
// Fixture (UTC, zone Z1; T is today): T-7 … T-1 have final reports of 10 over 10 human visits
// each (RPV 1.00); T's report arrived early with 5 for what were then 10 visits (RPV 0.50 if it
// counted), and 10 more visits come after the first read.
import { describe, expect, test } from 'vitest';
import { addDays, todayIn } from '@adops/core';
import type { AdSpendRecord, ReferrerEvent, Warehouse } from '../src/warehouse/index.js';
import { bothWarehouses, zoneReportRow } from './helpers.js';
import { event, importRows } from './warehouse-contract.js';

const T = todayIn('UTC');
const day = (k: number) => addDays(T, -k);
const C1 = { campaign_id: 'C1', adset_id: 'S1', ad_id: 'A1' };

let nextId = 1;
/** `n` human visits to Z1 on `on` from campaign C1, a second apart from `fromSecond`. */
const visits = (n: number, on: string, fromSecond = 0): ReferrerEvent[] =>
  Array.from({ length: n }, (_, i) => event(nextId++, Date.parse(`${on}T00:00:00Z`) + (fromSecond + i) * 1000, { zone_id: 'Z1', ...C1 }));

const spend = (date: string, amount: number): AdSpendRecord => ({
  date,
  account_id: 'act_1',
  ...C1,
  campaign_name: 'Campaña',
  adset_name: 'Conjunto',
  ad_name: 'Anuncio',
  spend: amount,
  impressions: 100,
  clicks: 10,
  currency: 'USD',
});

async function fixture(w: Warehouse): Promise<void> {
  await importRows(w, [...[7, 6, 5, 4, 3, 2, 1].map((k) => zoneReportRow(day(k), 'Z1', { revenue: 10 })), zoneReportRow(T, 'Z1', { revenue: 5 })]);
  await w.referrers.append([...[7, 6, 5, 4, 3, 2, 1].flatMap((k) => visits(10, day(k))), ...visits(10, T)]);
}

const todayRevenue = async (w: Warehouse, partialDays?: string[]) => {
  const parts = await w.profit.parts({ by: 'day', from: T, to: T, tz: 'UTC', partialDays });
  return parts.visits.find((v) => v.key === T);
};
const valueToday = async (w: Warehouse, partialDays?: string[]) =>
  (await w.profit.zoneValues({ day: T, tz: 'UTC', partialDays })).find((v) => v.zone_id === 'Z1');

const engines = bothWarehouses('completeness');

describe.each(engines)('incomplete days on %s', (_name, open) => {
  test('a partial day’s estimate is its visits × the trailing RPV: it grows as visits are added between two reads and never falls', async () => {
    const w = await open();
    try {
      await fixture(w);
      const first = await todayRevenue(w, [T]);
      expect(first).toMatchObject({ visits: 10, revenue: 10, estimated_visits: 10 });
      expect(await valueToday(w, [T])).toMatchObject({ rpv: 1, estimated: true });
      expect((await w.profit.parts({ by: 'day', from: T, to: T, tz: 'UTC', partialDays: [T] })).estimatedDays).toEqual([T]);

      await w.referrers.append(visits(10, T, 100));
      const second = await todayRevenue(w, [T]);
      expect(second).toMatchObject({ visits: 20, revenue: 20, estimated_visits: 20 });
      expect(second!.revenue).toBeGreaterThanOrEqual(first!.revenue);
      expect(await valueToday(w, [T])).toMatchObject({ rpv: 1, estimated: true });

      // Read as final, the early report's 5 is all the day earned however many visits come: what the flag prevents.
      expect(await todayRevenue(w)).toMatchObject({ visits: 20, revenue: 5, estimated_visits: 0 });
      expect(await valueToday(w)).toMatchObject({ rpv: 0.25, estimated: false });
    } finally {
      await w.close();
    }
  });

  test('a partial day is left out of the next days’ trailing window', async () => {
    const w = await open();
    try {
      await fixture(w);
      // Yesterday's report is known incomplete: 1 over 10 visits. Today has no report at all here.
      await importRows(w, [zoneReportRow(day(1), 'Z1', { revenue: 1 })]);
      await w.referrers.append(visits(5, addDays(T, 1)));
      const tomorrow = addDays(T, 1);
      const read = async (partialDays?: string[]) =>
        (await w.profit.parts({ by: 'day', from: tomorrow, to: tomorrow, tz: 'UTC', partialDays })).visits.find((v) => v.key === tomorrow);
      // Today (T) is partial too. Counted: T-6 … T-2, 50 over 50 visits: RPV 1.00.
      expect(await read([day(1), T])).toMatchObject({ visits: 5, revenue: 5, estimated_visits: 5 });
      // Counted as final, yesterday and today pull it down: (50 + 1 + 5) ÷ (50 + 10 + 10).
      expect((await read())!.revenue).toBeCloseTo((5 * 56) / 70, 9);
    } finally {
      await w.close();
    }
  });

  test('spend and visits of the days set apart come back flagged; the others not', async () => {
    const w = await open();
    try {
      await fixture(w);
      await w.spend.upsert([spend(day(2), 4), spend(day(1), 6)]);
      for (const by of ['campaign', 'keyword'] as const) {
        const parts = await w.profit.parts({ by, from: day(2), to: day(1), tz: 'UTC', apartDays: [day(1)] });
        const visitsBy = Object.fromEntries(parts.visits.map((v) => [String(v.apart), { visits: v.visits, revenue: v.revenue }]));
        expect(visitsBy, by).toEqual({ false: { visits: 10, revenue: 10 }, true: { visits: 10, revenue: 10 } });
        const spendBy = Object.fromEntries(parts.spend.map((p) => [String(p.apart), p.spend]));
        expect(spendBy, by).toEqual({ false: 4, true: 6 });
      }
      const none = await w.profit.parts({ by: 'campaign', from: day(2), to: day(1), tz: 'UTC' });
      expect(none.visits.map((v) => [v.visits, v.apart])).toEqual([[20, false]]);
      // (Two rows when the days fall in two months.)
      expect(none.spend.every((p) => !p.apart)).toBe(true);
      expect(none.spend.reduce((sum, p) => sum + p.spend, 0)).toBe(10);
    } finally {
      await w.close();
    }
  });

  test('per day, a campaign’s parts are its days’ own and add up to the range’s (the alert rules sum the days they count)', async () => {
    const w = await open();
    try {
      await fixture(w);
      await w.spend.upsert([spend(day(3), 4), spend(day(2), 6), { ...spend(day(2), 1), ad_id: 'A2' }]);
      const q = { by: 'campaign' as const, from: day(3), to: day(1), tz: 'UTC', partialDays: [T] };
      const perDay = await w.profit.parts({ ...q, perDay: true });
      const whole = await w.profit.parts(q);
      expect(perDay.visits.map((v) => [v.day, v.key, v.visits, v.revenue]).sort()).toEqual([
        [day(3), 'C1', 10, 10],
        [day(2), 'C1', 10, 10],
        [day(1), 'C1', 10, 10],
      ]);
      expect(perDay.spend.map((p) => [p.day, p.key, p.spend]).sort()).toEqual([
        [day(3), 'C1', 4],
        [day(2), 'C1', 7],
      ]);
      const sum = (xs: ReadonlyArray<{ spend?: number; revenue?: number }>, k: 'spend' | 'revenue') => xs.reduce((t, x) => t + (x[k] ?? 0), 0);
      expect(sum(perDay.spend, 'spend')).toBe(sum(whole.spend, 'spend'));
      expect(sum(perDay.visits, 'revenue')).toBeCloseTo(sum(whole.visits, 'revenue'), 9);
      expect(whole.visits.every((v) => v.day === null)).toBe(true);
    } finally {
      await w.close();
    }
  });

  test('the days of a range with stored spend, and with a zone report', async () => {
    const w = await open();
    try {
      await fixture(w);
      await w.spend.upsert([spend(day(5), 1), spend(day(3), 2), { ...spend(day(3), 3), ad_id: 'A2' }, spend(day(9), 1)]);
      expect(await w.spend.days({ from: day(6), to: T })).toEqual([day(5), day(3)]);
      expect(await w.zoneReports.days({ from: day(8), to: day(6) })).toEqual([day(7), day(6)]);
      expect(await w.zoneReports.days({ from: addDays(T, 1), to: addDays(T, 3) })).toEqual([]);
    } finally {
      await w.close();
    }
  });
});
