// The profit rule on DuckDB and ClickHouse alike. 'Valor' of a zone on a day (zoneValues): a
// reported day's RPV is its revenue ÷ its human visits; a day without its zone report takes the
// zone's trailing RPV over the 7 days before it that have a report — the 7th day before counts,
// the 8th does not — and a zone whose days before were all unreported has no value (unknown),
// while one seen on a reported day its report leaves out is worth 0 there.
//
// Fixture (UTC; T = 2026-03-10 has no zone report):
//   Z-edge   T-8 reported: 800 over 8 visits (RPV 100)   T-7 reported: 70 over 7 visits (RPV 10)   → T: 70 / 7 = 10
//   Z-dark   T-1 (no zone report at all that day): 5 visits                                       → T: unknown (null)
//   Z-left   T-2 (reported, but not for this zone): 4 visits                                      → T: 0 / 4 = 0
//   Z-edge on T-7 (reported): its own day's value is 10, TQ 0.8
// And the profit query by the same rule: a visit on T is worth Z-edge's 10; by keyword, an ad's
// spend on a day is shared among the keywords of its visits that day (3 'seguros' + 1 'vuelos'
// share 100 as 75 + 25), all of it unshared (no keyword) on a day it had no visits.
import { describe, expect, test } from 'vitest';
import { addDays } from '@adops/core';
import type { Warehouse } from '../src/warehouse/index.js';
import { bothWarehouses, zoneReportRow } from './helpers.js';
import { event, importRows } from './warehouse-contract.js';

const T = '2026-03-10';
const day = (k: number) => addDays(T, -k);

const engines = bothWarehouses('profit-rule');

async function fixture(w: Warehouse): Promise<void> {
  await importRows(w, [
    zoneReportRow(day(8), 'Z-edge', { revenue: 800, impressions: 1000, tq: 0.5 }),
    zoneReportRow(day(7), 'Z-edge', { revenue: 70, impressions: 1000, tq: 0.8 }),
    zoneReportRow(day(2), 'Z-other', { revenue: 50 }),
  ]);
  let id = 0;
  const visits = (n: number, zone: string, on: string) =>
    Array.from({ length: n }, (_, i) => event(++id, Date.parse(`${on}T12:00:00Z`) + i * 1000, { zone_id: zone }));
  await w.referrers.append([
    ...visits(8, 'Z-edge', day(8)),
    ...visits(7, 'Z-edge', day(7)),
    ...visits(4, 'Z-left', day(2)),
    ...visits(5, 'Z-dark', day(1)),
  ]);
}

const valuesOn = async (w: Warehouse, on: string) =>
  Object.fromEntries((await w.profit.zoneValues({ day: on, tz: 'UTC' })).map((v) => [v.zone_id, { rpv: v.rpv, tq: v.tq, estimated: v.estimated }]));

describe.each(engines)('the profit rule on %s', (_name, open) => {
  test('an unreported day: the trailing 7 reported days (the 8th before left out); unknown without one; 0 where the report leaves the zone out', async () => {
    const w = await open();
    try {
      await fixture(w);
      const values = await valuesOn(w, T);
      expect(values['Z-edge']).toEqual({ rpv: 10, tq: 0.8, estimated: true });
      expect(values['Z-dark']).toEqual({ rpv: null, tq: null, estimated: true });
      expect(values['Z-left']).toMatchObject({ rpv: 0, estimated: true });
    } finally {
      await w.close();
    }
  });

  test('the profit query values a visit on that day by the same rule, with the days before the range in its window', async () => {
    const w = await open();
    try {
      await fixture(w);
      await w.referrers.append([event(1000, Date.parse(`${T}T15:00:00Z`), { zone_id: 'Z-edge', campaign_id: 'C1', adset_id: 'S1', ad_id: 'A1' })]);
      const parts = await w.profit.parts({ by: 'day', from: day(1), to: T, tz: 'UTC' });
      expect(parts.visits).toEqual([expect.objectContaining({ key: T, visits: 1, revenue: 10, estimated_visits: 1 })]);
      expect(parts.estimatedDays).toEqual([T]);
    } finally {
      await w.close();
    }
  });

  test('by keyword, an ad-day’s spend is shared among its keywords by their visits; an ad-day without visits keeps it unshared', async () => {
    const w = await open();
    try {
      const ad = { campaign_id: 'C1', adset_id: 'S1', ad_id: 'A1' };
      const at = (k: number) => Date.parse(`${day(7)}T09:00:00Z`) + k * 1000;
      await w.referrers.append([
        ...[0, 1, 2].map((k) => event(k + 1, at(k), { zone_id: 'Z-edge', ...ad, keyword: 'seguros' })),
        event(4, at(3), { zone_id: 'Z-edge', ...ad, keyword: 'vuelos' }),
      ]);
      const spend = (date: string, amount: number) => ({
        date,
        account_id: 'act_1',
        ...ad,
        campaign_name: 'Campaña',
        adset_name: 'Conjunto',
        ad_name: 'Anuncio',
        spend: amount,
        impressions: 1000,
        clicks: 20,
        currency: 'EUR',
      });
      await w.spend.upsert([spend(day(7), 100), spend(day(6), 40)]);
      const parts = await w.profit.parts({ by: 'keyword', from: day(7), to: day(6), tz: 'UTC' });
      const byKey = Object.fromEntries(parts.spend.map((p) => [String(p.key), { spend: p.spend, clicks: p.clicks }]));
      expect(byKey).toEqual({ seguros: { spend: 75, clicks: 15 }, vuelos: { spend: 25, clicks: 5 }, null: { spend: 40, clicks: 20 } });
    } finally {
      await w.close();
    }
  });

  test('events retention rolled up stop counting as visits, a quarter hour astride the cutoff included; a late arrival before the cutoff counts', async () => {
    const w = await open();
    try {
      const at = (hhmm: string, on = T) => Date.parse(`${on}T${hhmm}:00Z`);
      await importRows(w, [zoneReportRow(T, 'Z1', { revenue: 50 }), zoneReportRow(day(20), 'Z1', { revenue: 50 })]);
      await w.referrers.append([
        event(1, at('09:00', day(20)), { zone_id: 'Z1' }),
        ...[0, 1, 2, 3].map((k) => event(2 + k, at('08:00') + k * 60_000, { zone_id: 'Z1' })),
        event(6, at('12:05'), { zone_id: 'Z1' }),
        event(7, at('12:10'), { zone_id: 'Z1' }),
        ...[0, 1, 2].map((k) => event(8 + k, at('16:00') + k * 60_000, { zone_id: 'Z1' })),
      ]);
      await w.referrers.rollUpBefore(at('12:07'));
      await w.referrers.append([event(20, at('09:00'), { zone_id: 'Z1' })]);
      // Counted: 12:10, the three at 16:00 and the late 09:00 — 5 visits for 50.
      expect((await valuesOn(w, T)).Z1).toMatchObject({ rpv: 10, estimated: false });
    } finally {
      await w.close();
    }
  });

  test('a zone whose day did not start on a quarter hour (Monrovia, −0:44:30 until 1972) still counts each visit on its own day', async () => {
    const w = await open();
    try {
      const tz = 'Africa/Monrovia';
      const midnight = Date.parse('1971-06-02T00:44:30Z'); // 1971-06-02 00:00 there
      await importRows(w, [zoneReportRow('1971-06-01', 'Z1', { revenue: 30 }), zoneReportRow('1971-06-02', 'Z1', { revenue: 30 })]);
      await w.referrers.append([
        event(1, midnight - 1000, { zone_id: 'Z1' }),
        event(2, midnight, { zone_id: 'Z1' }),
        event(3, midnight + 60_000, { zone_id: 'Z1' }),
        event(4, midnight + 120_000, { zone_id: 'Z1' }),
      ]);
      const on = async (d: string) => (await w.profit.zoneValues({ day: d, tz })).find((v) => v.zone_id === 'Z1')?.rpv;
      expect(await on('1971-06-01')).toBe(30);
      expect(await on('1971-06-02')).toBe(10);
    } finally {
      await w.close();
    }
  });

  test('a reported day: its own revenue ÷ its own visits', async () => {
    const w = await open();
    try {
      await fixture(w);
      expect((await valuesOn(w, day(7)))['Z-edge']).toEqual({ rpv: 10, tq: 0.8, estimated: false });
    } finally {
      await w.close();
    }
  });
});
