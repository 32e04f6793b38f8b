// The warehouse contract: every method of the Warehouse interface against a fixture whose
// answers are worked out by hand below. Every engine runs it (warehouse.contract.test.ts), so
// reports read the same on DuckDB and on any engine that claims to implement the interface.
//
// Zone reports (the reports-fixture rows with their derived money already filled in):
//  row | date       | advertiser | publisher | zone  | geo | source | domain | impr | m.impr | clicks | revenue | rate | p_rev | margin | tq
//  R1  | 2026-03-01 | AdNova     | PubA      | Z-100 | ES  | search | a.com  | 1000 |  800   |   20   |   10    | 0.6  |   6   |   4    | 0.8
//  R2  | 2026-03-01 | BidSphere  | PubB      | Z-200 | MX  | social | b.com  | 2000 |  —     |   10   |    4    | 0.7  |  2.8  |  1.2   | —
//  R3  | 2026-03-02 | AdNova     | PubA      | Z-101 | ES  | social | a.com  |    0 |  0     |    0   |    0    | 0.6  |   0   |   0    | 0.5
//  R4  | 2026-03-02 | Clickora   | PubC      | Z-300 | US  | search | c.com  |  500 |  500   |    5   |    2    | 1.5  |   3   |  −1    | 0.2
//  R5  | 2026-03-03 | AdNova     | PubB      | Z-201 | MX  | search | b.com  | 3000 | 1500   |   45   |    6    | 0.5  |   3   |   3    | 0.9
//  R6  | 2026-02-28 | AdNova     | PubA      | Z-100 | ES  | search | a.com  | 9999 | 9999   |   99   |   99    | 0.6  |  59.4 |  39.6  | 0.1
// CTR base per row: monetized impressions when > 0, else impressions: 800, 2000, 0, 500, 1500, 9999.
// TQ weight: tq × impressions over rows with tq > 0 and impressions > 0 (R2 has no tq, R3 no impressions).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SortState } from '@adops/core';
import type { Warehouse, ZoneReportRecord } from '../src/warehouse/index.js';
import { describeReferrerContract } from './warehouse-contract-events.js';
import { by, collect, expectSums, importRows, stripDims, sums, zones } from './warehouse-contract-helpers.js';

export { EVENT_FIXTURE, event } from './warehouse-contract-events.js';
export { importRows } from './warehouse-contract-helpers.js';
export { describeSameAnswers, expectSame, randomRows } from './warehouse-same-answers.js';

const record = (r: Partial<ZoneReportRecord> & Pick<ZoneReportRecord, 'date' | 'zone_id'>): ZoneReportRecord => ({
  advertiser: 'AdNova',
  publisher: 'PubA',
  geo: 'ES',
  source: 'search',
  domain: 'a.com',
  impressions: 0,
  monetized_impressions: null,
  clicks: 0,
  revenue: 0,
  rate_applied: null,
  p_revenue: 0,
  margin: 0,
  tq: null,
  ...r,
});

export const ZONE_FIXTURE: ZoneReportRecord[] = [
  record({
    date: '2026-03-01',
    zone_id: 'Z-100',
    impressions: 1000,
    monetized_impressions: 800,
    clicks: 20,
    revenue: 10,
    rate_applied: 0.6,
    p_revenue: 6,
    margin: 4,
    tq: 0.8,
  }),
  record({
    date: '2026-03-01',
    advertiser: 'BidSphere',
    publisher: 'PubB',
    zone_id: 'Z-200',
    geo: 'MX',
    source: 'social',
    domain: 'b.com',
    impressions: 2000,
    clicks: 10,
    revenue: 4,
    rate_applied: 0.7,
    p_revenue: 2.8,
    margin: 1.2,
  }),
  record({ date: '2026-03-02', zone_id: 'Z-101', source: 'social', monetized_impressions: 0, rate_applied: 0.6, tq: 0.5 }),
  record({
    date: '2026-03-02',
    advertiser: 'Clickora',
    publisher: 'PubC',
    zone_id: 'Z-300',
    geo: 'US',
    domain: 'c.com',
    impressions: 500,
    monetized_impressions: 500,
    clicks: 5,
    revenue: 2,
    rate_applied: 1.5,
    p_revenue: 3,
    margin: -1,
    tq: 0.2,
  }),
  record({
    date: '2026-03-03',
    publisher: 'PubB',
    zone_id: 'Z-201',
    geo: 'MX',
    domain: 'b.com',
    impressions: 3000,
    monetized_impressions: 1500,
    clicks: 45,
    revenue: 6,
    rate_applied: 0.5,
    p_revenue: 3,
    margin: 3,
    tq: 0.9,
  }),
  record({
    date: '2026-02-28',
    zone_id: 'Z-100',
    impressions: 9999,
    monetized_impressions: 9999,
    clicks: 99,
    revenue: 99,
    rate_applied: 0.6,
    p_revenue: 59.4,
    margin: 39.6,
    tq: 0.1,
  }),
];

const RANGE = { start_date: '2026-03-01', end_date: '2026-03-03' };
const FEB_MAR = { start_date: '2026-02-01', end_date: '2026-03-31' };

/**
 * Runs the contract against one engine. `open` gives a fresh, empty warehouse each time it is
 * called; `close` releases it.
 */
export function describeWarehouseContract(engine: string, open: () => Promise<Warehouse>): void {
  describe(`${engine}: zone reports`, () => {
    let w: Warehouse;
    beforeAll(async () => {
      w = await open();
      expect(await importRows(w, ZONE_FIXTURE)).toEqual({ inserted: 6, replaced: 0, repeated: [], repeated_total: 0 });
    });
    afterAll(() => w.close());

    test('countRows counts every stored row', async () => {
      expect(await w.zoneReports.countRows()).toBe(6);
    });

    test('totals sum every matching row (each sum worked out by hand)', async () => {
      expectSums(
        await w.zoneReports.totals(RANGE),
        sums({
          rows: 5,
          impressions: 6500,
          monetized_impressions: 2800,
          ctr_base: 4800,
          clicks: 80,
          revenue: 22,
          p_revenue: 14.8,
          margin: 7.2,
          tq_weighted: 3600,
          tq_weight: 4500,
        }),
      );
      expectSums(
        await w.zoneReports.totals(FEB_MAR),
        sums({
          rows: 6,
          impressions: 16499,
          monetized_impressions: 12799,
          ctr_base: 14799,
          clicks: 179,
          revenue: 121,
          p_revenue: 74.2,
          margin: 46.8,
          tq_weighted: 4599.9,
          tq_weight: 14499,
        }),
      );
      // The zone filter is a case-insensitive substring: R1 and R3 (R3's base is its 0 impressions).
      expectSums(
        await w.zoneReports.totals({ ...RANGE, zone_id: 'z-10' }),
        sums({
          rows: 2,
          impressions: 1000,
          monetized_impressions: 800,
          ctr_base: 800,
          clicks: 20,
          revenue: 10,
          p_revenue: 6,
          margin: 4,
          tq_weighted: 800,
          tq_weight: 1000,
        }),
      );
      expectSums(
        await w.zoneReports.totals({ ...RANGE, advertiser: 'AdNova', geo: 'MX' }),
        sums({
          rows: 1,
          impressions: 3000,
          monetized_impressions: 1500,
          ctr_base: 1500,
          clicks: 45,
          revenue: 6,
          p_revenue: 3,
          margin: 3,
          tq_weighted: 2700,
          tq_weight: 3000,
        }),
      );
      expectSums(await w.zoneReports.totals({ start_date: '2025-01-01', end_date: '2025-01-31' }), sums({}));
      // Text filters are values, never patterns.
      for (const zone_id of ['%', '_', "' OR 1=1 --"]) expect((await w.zoneReports.totals({ ...RANGE, zone_id })).rows).toBe(0);
    });

    test('groups by day: sums per day, the count of groups, the Dashboard’s CTR base on request', async () => {
      const days = await w.zoneReports.groups({ filters: RANGE, by: ['date'], order: [by('date')] });
      expect(days.total).toBe(3);
      expect(days.rows.map((d) => d.date)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
      expectSums(
        stripDims(days.rows[0]),
        sums({
          rows: 2,
          impressions: 3000,
          monetized_impressions: 800,
          ctr_base: 2800,
          clicks: 30,
          revenue: 14,
          p_revenue: 8.8,
          margin: 5.2,
          tq_weighted: 800,
          tq_weight: 1000,
        }),
      );
      expectSums(
        stripDims(days.rows[1]),
        sums({
          rows: 2,
          impressions: 500,
          monetized_impressions: 500,
          ctr_base: 500,
          clicks: 5,
          revenue: 2,
          p_revenue: 3,
          margin: -1,
          tq_weighted: 100,
          tq_weight: 500,
        }),
      );
    });

    test.each<[string, SortState[], string[]]>([
      [
        'revenue descending',
        [by('revenue', 'desc')],
        ['2026-03-01 PubA', '2026-03-03 PubB', '2026-03-01 PubB', '2026-03-02 PubC', '2026-03-02 PubA'],
      ],
      // CTR (a registry formula): 03-03 PubB 3, 03-01 PubA 2.5, PubC 1, 03-01 PubB 0.5; 03-02 PubA has no base → last both ways.
      [
        'a derived metric, descending',
        [by('ctr', 'desc')],
        ['2026-03-03 PubB', '2026-03-01 PubA', '2026-03-02 PubC', '2026-03-01 PubB', '2026-03-02 PubA'],
      ],
      [
        'a derived metric, ascending',
        [by('ctr', 'asc')],
        ['2026-03-01 PubB', '2026-03-02 PubC', '2026-03-01 PubA', '2026-03-03 PubB', '2026-03-02 PubA'],
      ],
      // RS% needs revenue above 0: 03-02 PubA (revenue 0) last.
      ['RS% descending', [by('rs_percent', 'desc')], ['2026-03-03 PubB', '2026-03-01 PubA', '2026-03-01 PubB', '2026-03-02 PubC', '2026-03-02 PubA']],
      [
        'TQ ascending (no TQ last)',
        [by('tq', 'asc')],
        ['2026-03-02 PubC', '2026-03-01 PubA', '2026-03-03 PubB', '2026-03-01 PubB', '2026-03-02 PubA'],
      ],
      [
        'a dimension, ties by the others',
        [by('publisher')],
        ['2026-03-01 PubA', '2026-03-02 PubA', '2026-03-01 PubB', '2026-03-03 PubB', '2026-03-02 PubC'],
      ],
      [
        'a dimension descending, ties still ascending',
        [by('publisher', 'desc')],
        ['2026-03-02 PubC', '2026-03-01 PubB', '2026-03-03 PubB', '2026-03-01 PubA', '2026-03-02 PubA'],
      ],
      // Every group holds one row: the day decides, then the publisher.
      [
        'a sum, then a dimension',
        [by('rows', 'desc'), by('date', 'desc')],
        ['2026-03-03 PubB', '2026-03-02 PubA', '2026-03-02 PubC', '2026-03-01 PubA', '2026-03-01 PubB'],
      ],
    ])('groups by day × publisher ordered by %s', async (_what, order, expected) => {
      const g = await w.zoneReports.groups({ filters: RANGE, by: ['date', 'publisher'], order });
      expect(g.rows.map((r) => `${r.date} ${r.publisher}`)).toEqual(expected);
      expect(g.total).toBe(5);
    });

    test('a page of groups and the count of all of them; a page past the end is empty with the count', async () => {
      const q = { filters: RANGE, by: ['date', 'publisher'] as const, order: [by('revenue', 'desc')] };
      const page = await w.zoneReports.groups({ ...q, limit: 2, offset: 1 });
      expect(page.rows.map((r) => `${r.date} ${r.publisher}`)).toEqual(['2026-03-03 PubB', '2026-03-01 PubB']);
      expect(page.total).toBe(5);
      expect(await w.zoneReports.groups({ ...q, limit: 2, offset: 10 })).toEqual({ rows: [], total: 5 });
      expect(await w.zoneReports.groups({ ...q, filters: { start_date: '2025-01-01', end_date: '2025-01-31' } })).toEqual({ rows: [], total: 0 });
    });

    test('groups by month and by month × advertiser', async () => {
      const months = await w.zoneReports.groups({ filters: FEB_MAR, by: ['month'], order: [by('month')] });
      expect(months.rows.map((m) => [m.month, m.revenue])).toEqual([
        ['2026-02', 99],
        ['2026-03', 22],
      ]);
      const cells = await w.zoneReports.groups({ filters: FEB_MAR, by: ['month', 'advertiser'], order: [by('month'), by('revenue', 'desc')] });
      expect(cells.rows.map((c) => [c.month, c.advertiser, c.revenue])).toEqual([
        ['2026-02', 'AdNova', 99],
        ['2026-03', 'AdNova', 16],
        ['2026-03', 'BidSphere', 4],
        ['2026-03', 'Clickora', 2],
      ]);
    });

    test('groups by zone, geo, source and domain, under filters', async () => {
      const byZone = await w.zoneReports.groups({ filters: RANGE, by: ['zone_id'], order: [by('revenue', 'desc')] });
      expect(byZone.rows.map((z) => [z.zone_id, z.revenue])).toEqual([
        ['Z-100', 10],
        ['Z-201', 6],
        ['Z-200', 4],
        ['Z-300', 2],
        ['Z-101', 0],
      ]);
      const byGeo = await w.zoneReports.groups({ filters: { ...RANGE, source: 'search' }, by: ['geo'], order: [by('geo')] });
      expect(byGeo.rows.map((g) => [g.geo, g.revenue])).toEqual([
        ['ES', 10],
        ['MX', 6],
        ['US', 2],
      ]);
      const publisherZones = await w.zoneReports.groups({
        filters: { ...FEB_MAR, publisher: 'PubA' },
        by: ['date', 'zone_id', 'geo'],
        order: [by('date', 'desc')],
      });
      expect(publisherZones.rows.map((r) => `${r.date} ${r.zone_id} ${r.geo}`)).toEqual([
        '2026-03-02 Z-101 ES',
        '2026-03-01 Z-100 ES',
        '2026-02-28 Z-100 ES',
      ]);
      const domains = await w.zoneReports.groups({ filters: FEB_MAR, by: ['domain'], order: [by('margin', 'desc')] });
      expect(domains.rows.map((d) => d.domain)).toEqual(['a.com', 'b.com', 'c.com']);
    });

    test('streamGroups yields every group of the query, in its order', async () => {
      const q = { filters: FEB_MAR, by: ['date', 'advertiser'] as const, order: [by('revenue', 'desc')] };
      const all = await collect(w.zoneReports.streamGroups(q));
      expect(all).toEqual((await w.zoneReports.groups(q)).rows);
      expect(all).toHaveLength(6);
    });

    test.each<[string, SortState[], string[]]>([
      ['no order: the natural key', [], ['Z-100', 'Z-200', 'Z-101', 'Z-300', 'Z-201']],
      ['the Ad Report’s: newest day, best earner', [by('date', 'desc'), by('revenue', 'desc')], ['Z-201', 'Z-300', 'Z-101', 'Z-100', 'Z-200']],
      ['revenue descending', [by('revenue', 'desc')], ['Z-100', 'Z-201', 'Z-200', 'Z-300', 'Z-101']],
      ['the reported tq ascending, none last', [by('tq', 'asc')], ['Z-300', 'Z-101', 'Z-100', 'Z-201', 'Z-200']],
      ['the reported tq descending, none still last', [by('tq', 'desc')], ['Z-201', 'Z-100', 'Z-101', 'Z-300', 'Z-200']],
      ['CTR of each row descending, no base last', [by('ctr', 'desc')], ['Z-201', 'Z-100', 'Z-300', 'Z-200', 'Z-101']],
      ['RS% ascending, no revenue last', [by('rs_percent', 'asc')], ['Z-300', 'Z-200', 'Z-100', 'Z-201', 'Z-101']],
      // P.Revenue: R1 6, R4 3, R5 3, R2 2.8, R3 0 — R4 and R5 tie: the natural key (date) decides.
      ['P.Revenue descending, ties by the natural key', [by('p_revenue', 'desc')], ['Z-100', 'Z-300', 'Z-201', 'Z-200', 'Z-101']],
      ['monetized impressions, the unreported last', [by('monetized_impressions', 'asc')], ['Z-101', 'Z-300', 'Z-100', 'Z-201', 'Z-200']],
      ['domain descending', [by('domain', 'desc')], ['Z-300', 'Z-200', 'Z-201', 'Z-100', 'Z-101']],
    ])('rows ordered by %s', async (_what, order, expected) => {
      expect(zones(await w.zoneReports.rows({ filters: RANGE, order }))).toEqual(expected);
    });

    test.each([
      [0, 2, ['Z-201', 'Z-300']],
      [1, 1, ['Z-300']],
      [2, 2, ['Z-101', 'Z-100']],
      [3, 5, ['Z-100', 'Z-200']],
      [4, 10, ['Z-200']],
      [5, 10, []],
    ])('a page of rows at offset %i, %i rows, day-led order', async (offset, limit, expected) => {
      const order = [by('date', 'desc'), by('revenue', 'desc')];
      expect(zones(await w.zoneReports.rows({ filters: RANGE, order, offset, limit }))).toEqual(expected);
      // The same page ascending by day.
      const asc = zones(await w.zoneReports.rows({ filters: RANGE, order: [by('date')] }));
      expect(zones(await w.zoneReports.rows({ filters: RANGE, order: [by('date')], offset, limit }))).toEqual(asc.slice(offset, offset + limit));
    });

    test('rows carry every stored field as stored', async () => {
      const [r2] = await w.zoneReports.rows({ filters: { ...RANGE, zone_id: 'Z-200' }, order: [] });
      expect(r2).toEqual(ZONE_FIXTURE[1]);
      const [r3] = await w.zoneReports.rows({ filters: { ...RANGE, zone_id: 'z-101' }, order: [] });
      expect(r3).toEqual(ZONE_FIXTURE[2]);
    });

    test('streamRows yields every matching row in the order', async () => {
      const order = [by('revenue', 'desc')];
      expect(await collect(w.zoneReports.streamRows({ filters: FEB_MAR, order }))).toEqual(await w.zoneReports.rows({ filters: FEB_MAR, order }));
      expect(await collect(w.zoneReports.streamRows({ filters: { ...RANGE, advertiser: 'Nadie' }, order }))).toEqual([]);
    });

    test('a stream left early releases the engine (the next queries answer)', async () => {
      for (let i = 0; i < 5; i++) {
        for await (const chunk of w.zoneReports.streamRows({ filters: FEB_MAR, order: [] })) {
          expect(chunk.length).toBeGreaterThan(0);
          break;
        }
      }
      expect(await w.zoneReports.countRows()).toBe(6);
    });

    test('top earners: zones (publisher × zone id, revenue ≠ 0) and advertisers, by revenue', async () => {
      expect(await w.zoneReports.topEarners(RANGE, 3)).toEqual({
        zones: [
          { publisher: 'PubA', zone_id: 'Z-100', revenue: 10, margin: 4 },
          { publisher: 'PubB', zone_id: 'Z-201', revenue: 6, margin: 3 },
          { publisher: 'PubB', zone_id: 'Z-200', revenue: 4, margin: 1.2 },
        ],
        advertisers: [
          { advertiser: 'AdNova', revenue: 16, margin: 7 },
          { advertiser: 'BidSphere', revenue: 4, margin: 1.2 },
          { advertiser: 'Clickora', revenue: 2, margin: -1 },
        ],
      });
    });

    test('the header: totals under every filter, geo and source options ignoring their own', async () => {
      const both = await w.zoneReports.totalsAndOptions({ ...RANGE, geo: 'MX', source: 'social' });
      expect({ geos: both.geos, sources: both.sources }).toEqual({ geos: ['ES', 'MX', 'US'], sources: ['search', 'social'] });
      // Only R2 is MX and social.
      expectSums(both.totals, sums({ rows: 1, impressions: 2000, ctr_base: 2000, clicks: 10, revenue: 4, p_revenue: 2.8, margin: 1.2 }));
      const clickora = await w.zoneReports.totalsAndOptions({ ...RANGE, advertiser: 'Clickora' });
      expect({ geos: clickora.geos, sources: clickora.sources }).toEqual({ geos: ['US'], sources: ['search'] });
      expect(clickora.totals.revenue).toBe(2);
      const zone = await w.zoneReports.totalsAndOptions({ ...RANGE, zone_id: '20', geo: 'MX' });
      expect({ geos: zone.geos, sources: zone.sources }).toEqual({ geos: ['MX'], sources: ['search', 'social'] });
      expectSums(zone.totals, await w.zoneReports.totals({ ...RANGE, zone_id: '20', geo: 'MX' }));
      for (const f of [
        RANGE,
        { ...RANGE, geo: 'ES' },
        { ...RANGE, zone_id: 'z-1', source: 'search' },
        { start_date: '2025-01-01', end_date: '2025-01-02' },
      ])
        expectSums((await w.zoneReports.totalsAndOptions(f)).totals, await w.zoneReports.totals(f));
    });

    test('dimension values list everything stored, sorted', async () => {
      expect(await w.zoneReports.dimensionValues()).toEqual({
        advertisers: ['AdNova', 'BidSphere', 'Clickora'],
        publishers: ['PubA', 'PubB', 'PubC'],
        geos: ['ES', 'MX', 'US'],
        sources: ['search', 'social'],
        domains: ['a.com', 'b.com', 'c.com'],
      });
    });

    test('busiest zones of the latest week and each zone’s owners', async () => {
      // The week up to 03-03 holds R6: Z-100 has 1000 + 9999; Z-101 (no impressions) is left out.
      expect((await w.zoneReports.busiestZones(10)).map((z) => [z.zone_id, z.impressions, z.publisher, z.geo, z.domain])).toEqual([
        ['Z-100', 10999, 'PubA', 'ES', 'a.com'],
        ['Z-201', 3000, 'PubB', 'MX', 'b.com'],
        ['Z-200', 2000, 'PubB', 'MX', 'b.com'],
        ['Z-300', 500, 'PubC', 'US', 'c.com'],
      ]);
      const owners = await w.zoneReports.zoneOwners();
      expect(Object.fromEntries(owners)).toEqual({
        'Z-100': { publisher: 'PubA', advertiser: 'AdNova' },
        'Z-101': { publisher: 'PubA', advertiser: 'AdNova' },
        'Z-200': { publisher: 'PubB', advertiser: 'BidSphere' },
        'Z-201': { publisher: 'PubB', advertiser: 'AdNova' },
        'Z-300': { publisher: 'PubC', advertiser: 'Clickora' },
      });
      // From a day on (an import's first): only the zones with rows then, each with its owner of
      // every row; Z-100 and Z-200, last seen on 03-01, are not read at all.
      expect(Object.fromEntries(await w.zoneReports.zoneOwners('2026-03-02'))).toEqual({
        'Z-101': owners.get('Z-101'),
        'Z-201': owners.get('Z-201'),
        'Z-300': owners.get('Z-300'),
      });
      expect(Object.fromEntries(await w.zoneReports.zoneOwners('2026-03-01'))).toEqual(Object.fromEntries(owners));
      expect((await w.zoneReports.zoneOwners('2026-03-04')).size).toBe(0);
    });
  });

  describe(`${engine}: imports`, () => {
    let w: Warehouse;
    beforeAll(async () => {
      w = await open();
      await importRows(w, ZONE_FIXTURE);
    });
    afterAll(() => w.close());

    test('a row with a stored key replaces it (domain is not part of the key); every aggregate follows', async () => {
      const r2 = { ...ZONE_FIXTURE[1], revenue: 40, margin: 12, domain: 'b2.com' };
      expect(await importRows(w, [r2])).toEqual({ inserted: 0, replaced: 1, repeated: [], repeated_total: 0 });
      expect(await w.zoneReports.countRows()).toBe(6);
      expect((await w.zoneReports.totals(RANGE)).revenue).toBeCloseTo(58, 9);
      const days = await w.zoneReports.groups({ filters: RANGE, by: ['date'], order: [by('date')] });
      expect(days.rows[0].revenue).toBeCloseTo(50, 9);
      const domains = await w.zoneReports.groups({ filters: RANGE, by: ['domain'], order: [by('domain')] });
      expect(domains.rows.map((d) => [d.domain, d.revenue])).toEqual([
        ['a.com', 10],
        ['b.com', 6],
        ['b2.com', 40],
        ['c.com', 2],
      ]);
      expect((await w.zoneReports.dimensionValues()).domains).toEqual(['a.com', 'b.com', 'b2.com', 'c.com']);
    });

    test('a key repeated within one import: the last one wins, and each repeat is named with the first row of its key', async () => {
      const base = record({ date: '2026-04-01', zone_id: 'DUP', revenue: 1 });
      expect(await importRows(w, [base, { ...base, revenue: 2 }, { ...base, revenue: 3, geo: 'MX' }])).toEqual({
        inserted: 2,
        replaced: 0,
        repeated: [{ seq: 1, first_seq: 0 }],
        repeated_total: 1,
      });
      const rows = await w.zoneReports.rows({ filters: { start_date: '2026-04-01', end_date: '2026-04-01' }, order: [by('geo')] });
      expect(rows.map((r) => [r.geo, r.revenue])).toEqual([
        ['ES', 2],
        ['MX', 3],
      ]);
      expect((await w.zoneReports.totals({ start_date: '2026-04-01', end_date: '2026-04-01' })).revenue).toBe(5);
    });

    test('repeated keys are listed by seq up to the commit\u2019s limit and all counted', async () => {
      const load = await w.zoneReports.beginImport();
      try {
        const a = record({ date: '2026-04-02', zone_id: 'REP-A', revenue: 1 });
        const b = record({ date: '2026-04-02', zone_id: 'REP-B', revenue: 1 });
        // seqs as lines of a file: A at 10, 12 and 40; B at 11 and 30; C once at 20.
        load.add(a, 10);
        load.add(b, 11);
        load.add({ ...a, revenue: 2 }, 12);
        load.add(record({ date: '2026-04-02', zone_id: 'REP-C', revenue: 1 }), 20);
        load.add({ ...b, revenue: 2 }, 30);
        load.add({ ...a, revenue: 3 }, 40);
        expect(await load.commit(2)).toEqual({
          inserted: 3,
          replaced: 0,
          repeated: [
            { seq: 12, first_seq: 10 },
            { seq: 30, first_seq: 11 },
          ],
          repeated_total: 3,
        });
      } finally {
        await load.close();
      }
      const rows = await w.zoneReports.rows({
        filters: { start_date: '2026-04-02', end_date: '2026-04-02', zone_id: 'REP-' },
        order: [by('zone_id')],
      });
      expect(rows.map((r) => [r.zone_id, r.revenue])).toEqual([
        ['REP-A', 3],
        ['REP-B', 2],
        ['REP-C', 1],
      ]);
    });

    test('texts are stored as written: quotes, backslashes, tabs, line breaks, accents and emoji; missing figures stay missing', async () => {
      const texts = ['Ñandú "Médias"', 'back\\slash \\N', 'tab\there', 'line\nbreak\r\n', "l'apostrophe [1,2]", '{"json": null} 🚀'];
      await importRows(
        w,
        texts.map((t, i) =>
          record({
            date: '2026-05-02',
            advertiser: t,
            zone_id: `TXT-${i} ${t}`,
            domain: t,
            monetized_impressions: null,
            rate_applied: null,
            tq: null,
          }),
        ),
      );
      const rows = await w.zoneReports.rows({ filters: { start_date: '2026-05-02', end_date: '2026-05-02' }, order: [by('zone_id')] });
      expect(rows.map((r) => [r.advertiser, r.zone_id, r.domain])).toEqual(texts.map((t, i) => [t, `TXT-${i} ${t}`, t]));
      expect(rows.every((r) => r.tq === null)).toBe(true);
    });

    test('an import closed without commit stores nothing', async () => {
      const load = await w.zoneReports.beginImport();
      load.add(record({ date: '2026-05-01', zone_id: 'GONE', revenue: 5 }), 0);
      await load.close();
      expect((await w.zoneReports.totals({ start_date: '2026-05-01', end_date: '2026-05-01' })).rows).toBe(0);
      expect(await importRows(w, [])).toEqual({ inserted: 0, replaced: 0, repeated: [], repeated_total: 0 });
    });
  });

  describeReferrerContract(engine, open);
}
