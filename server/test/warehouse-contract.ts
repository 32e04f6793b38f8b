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
import type { SortState, Sums } from '@adops/core';
import { prng } from '../src/sandbox/demo/prng.js';
import { EventKeyConflict, type Dimension, type Filters, type ReferrerEvent, type Warehouse, type ZoneReportRecord } from '../src/warehouse/index.js';

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
const by = (key: string, dir: 'asc' | 'desc' = 'asc'): SortState => ({ key, dir });

/** Sums with floating-point tolerance on money. */
function expectSums(actual: Sums, expected: Sums): void {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [k, v] of Object.entries(expected)) expect(actual[k as keyof Sums], k).toBeCloseTo(v, 9);
}
const sums = (s: Partial<Sums>): Sums => ({
  rows: 0,
  impressions: 0,
  monetized_impressions: 0,
  ctr_base: 0,
  clicks: 0,
  revenue: 0,
  p_revenue: 0,
  margin: 0,
  tq_weighted: 0,
  tq_weight: 0,
  ...s,
});

export async function importRows(w: Warehouse, rows: readonly ZoneReportRecord[]) {
  const load = await w.zoneReports.beginImport();
  try {
    rows.forEach((r, i) => {
      load.add(r, i);
    });
    return await load.commit();
  } finally {
    await load.close();
  }
}

async function collect<T>(chunks: AsyncIterable<readonly T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of chunks) out.push(...chunk);
  return out;
}

const zones = (rows: Array<{ zone_id?: string }>) => rows.map((r) => r.zone_id);

/** Referrer events: instants relative to a fixed day, ids in ingest order. */
const T0 = Date.parse('2026-03-10T00:00:00Z');
const at = (day: number, h: number, m = 0) => T0 + day * 86_400_000 + (h * 60 + m) * 60_000;
/** A referrer event seen at `ms`: the given fields, the rest null. */
export function event(id: number, ms: number, e: Partial<ReferrerEvent> & Pick<ReferrerEvent, 'zone_id'>): ReferrerEvent {
  return {
    id,
    seen_ms: ms,
    seen_at: new Date(ms).toISOString(),
    parent_domain: null,
    referrer: null,
    keyword: null,
    ip: null,
    country: null,
    publisher: null,
    advertiser: null,
    is_bot: false,
    reason: null,
    ...e,
  };
}
export const EVENT_FIXTURE: ReferrerEvent[] = [
  event(1, at(-3, 10), {
    zone_id: '1001',
    referrer: 'https://news.example.com/a',
    parent_domain: 'news.example.com',
    keyword: 'k1',
    ip: '10.0.0.1',
    country: 'ES',
    publisher: 'Pub A',
    advertiser: 'Adv X',
  }),
  event(2, at(-2, 9), {
    zone_id: '1001',
    referrer: 'https://news.example.com/a',
    parent_domain: 'news.example.com',
    publisher: 'Pub A',
    advertiser: 'Adv X',
  }),
  event(3, at(-1, 8), {
    zone_id: '1001',
    referrer: 'https://news.example.com/a',
    parent_domain: 'news.example.com',
    publisher: 'Pub A',
    advertiser: 'Adv X',
  }),
  event(4, at(-2, 12), {
    zone_id: '1001',
    referrer: 'https://news.example.com/b',
    parent_domain: 'news.example.com',
    publisher: 'Pub A',
    advertiser: 'Adv X',
  }),
  event(5, at(-2, 13), {
    zone_id: '1002',
    referrer: 'https://blog.example.org/x',
    parent_domain: 'blog.example.org',
    publisher: 'Pub A',
    advertiser: 'Adv Y',
  }),
  event(6, at(-1, 7), {
    zone_id: '2001',
    referrer: 'https://news.example.com/a',
    parent_domain: 'news.example.com',
    publisher: 'Pub B',
    advertiser: 'Adv X',
  }),
  event(7, at(-1, 9, 30), { zone_id: '2001', parent_domain: 'direct.example', publisher: 'Pub B', advertiser: 'Adv X' }),
  event(8, at(-1, 10), { zone_id: '10010', referrer: 'https://news.example.com/a', parent_domain: 'news.example.com' }),
];
const ALL_EVENTS = { from: at(-3, 0), to: at(0, 0) - 1 };

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

    test('an import closed without commit stores nothing', async () => {
      const load = await w.zoneReports.beginImport();
      load.add(record({ date: '2026-05-01', zone_id: 'GONE', revenue: 5 }), 0);
      await load.close();
      expect((await w.zoneReports.totals({ start_date: '2026-05-01', end_date: '2026-05-01' })).rows).toBe(0);
      expect(await importRows(w, [])).toEqual({ inserted: 0, replaced: 0, repeated: [], repeated_total: 0 });
    });
  });

  describe(`${engine}: referrer events`, () => {
    let w: Warehouse;
    beforeAll(async () => {
      w = await open();
      expect(await w.referrers.maxEventId()).toBe(0);
      await w.referrers.append(EVENT_FIXTURE.slice(0, 5));
      await w.referrers.append(EVENT_FIXTURE.slice(5));
    });
    afterAll(() => w.close());

    test('appended events are counted and continue the id sequence', async () => {
      expect(await w.referrers.countEvents()).toBe(8);
      expect(await w.referrers.maxEventId()).toBe(8);
    });

    test('the report: one row per zone, source and referrer, newest first, with hits and first seen', async () => {
      const r = await w.referrers.referrers({ filter: ALL_EVENTS, order: [] });
      expect(r.total).toBe(6);
      expect(r.hits).toBe(8);
      expect(r.rows.map((x) => [x.zone_id, x.referrer, x.hits])).toEqual([
        ['10010', 'https://news.example.com/a', 1],
        ['2001', null, 1],
        ['1001', 'https://news.example.com/a', 3],
        ['2001', 'https://news.example.com/a', 1],
        ['1002', 'https://blog.example.org/x', 1],
        ['1001', 'https://news.example.com/b', 1],
      ]);
      expect(r.rows[2]).toEqual({
        zone_id: '1001',
        parent_domain: 'news.example.com',
        referrer: 'https://news.example.com/a',
        seen_at: new Date(at(-1, 8)).toISOString(),
        first_seen: new Date(at(-3, 10)).toISOString(),
        hits: 3,
      });
    });

    test('the report’s filters, order and pages', async () => {
      const filtered = await w.referrers.referrers({ filter: { ...ALL_EVENTS, zoneId: '1001' }, order: [] });
      expect(filtered.rows.map((x) => x.zone_id)).toEqual(['10010', '1001', '1001']);
      const pubA = await w.referrers.referrers({ filter: { ...ALL_EVENTS, publisher: 'Pub A', parentDomain: 'news.example.com' }, order: [] });
      expect(pubA.rows.map((x) => x.referrer)).toEqual(['https://news.example.com/a', 'https://news.example.com/b']);
      const byHits = await w.referrers.referrers({ filter: ALL_EVENTS, order: [by('hits', 'desc')], limit: 2, offset: 1 });
      // 1001/a has 3; ties at 1 hit by zone (character by character: 1001 < 10010 < 1002), source, referrer.
      expect(byHits.rows.map((x) => `${x.zone_id} ${x.referrer}`)).toEqual(['1001 https://news.example.com/b', '10010 https://news.example.com/a']);
      expect(byHits.total).toBe(6);
      expect((await w.referrers.referrers({ filter: ALL_EVENTS, order: [], limit: 5, offset: 50 })).total).toBe(6);
      expect(await collect(w.referrers.streamReferrers({ filter: ALL_EVENTS, order: [by('hits', 'desc')] }))).toEqual(
        (await w.referrers.referrers({ filter: ALL_EVENTS, order: [by('hits', 'desc')] })).rows,
      );
    });

    test('the log: raw events newest first, counted, pinned to an id, sorted by any column', async () => {
      const log = await w.referrers.logs({ filter: ALL_EVENTS, order: [] });
      expect(log.rows.map((e) => e.id)).toEqual([8, 7, 3, 6, 5, 4, 2, 1]);
      expect(log.total).toBe(8);
      expect(log.latestId).toBe(8);
      expect(log.rows[7]).toEqual({
        id: 1,
        zone_id: '1001',
        parent_domain: 'news.example.com',
        referrer: 'https://news.example.com/a',
        seen_at: new Date(at(-3, 10)).toISOString(),
        keyword: 'k1',
        ip: '10.0.0.1',
        country: 'ES',
        is_bot: false,
        reason: null,
      });
      const pinned = await w.referrers.logs({ filter: ALL_EVENTS, order: [], beforeId: 5, limit: 2, offset: 1 });
      expect(pinned.rows.map((e) => e.id)).toEqual([5, 4]);
      expect(pinned.total).toBe(5);
      const byZone = await w.referrers.logs({ filter: ALL_EVENTS, order: [by('zone_id', 'desc')] });
      expect(byZone.rows.map((e) => e.id)).toEqual([7, 6, 5, 8, 4, 3, 2, 1]);
      expect(await collect(w.referrers.streamLogs({ filter: ALL_EVENTS, order: [] }))).toEqual(log.rows);
      const narrow = await w.referrers.logs({ filter: { from: at(-2, 12), to: at(-2, 13) }, order: [] });
      expect(narrow.rows.map((e) => e.id)).toEqual([5, 4]);
    });

    test('filter options and resuming after an id', async () => {
      expect(await w.referrers.filterOptions(100)).toEqual({
        parentDomains: ['blog.example.org', 'direct.example', 'news.example.com'],
        publishers: ['Pub A', 'Pub B'],
        advertisers: ['Adv X', 'Adv Y'],
      });
      expect((await w.referrers.eventsAfter(5, 9, 100)).map((e) => e.id)).toEqual([6, 7, 8]);
      // The newest `limit` of them, still in id order.
      expect((await w.referrers.eventsAfter(0, 9, 2)).map((e) => e.id)).toEqual([7, 8]);
    });

    test('retention rolls old events into the daily rollup: the report still lists them, the log does not', async () => {
      const before = await w.referrers.referrers({ filter: ALL_EVENTS, order: [] });
      const result = await w.referrers.rollUpBefore(at(-1, 0));
      expect(result.deleted).toBe(4); // events 1, 2, 4, 5
      expect(await w.referrers.countEvents()).toBe(4);
      expect(await w.referrers.maxEventId()).toBe(8);
      const after = await w.referrers.referrers({ filter: ALL_EVENTS, order: [] });
      expect(after.rows).toEqual(before.rows);
      expect(after.hits).toBe(8);
      expect((await w.referrers.logs({ filter: ALL_EVENTS, order: [] })).rows.map((e) => e.id)).toEqual([8, 7, 3, 6]);
    });
  });

  describe(`${engine}: bot and spam traffic`, () => {
    const DAY = 86_400_000;
    const base = Date.UTC(2026, 2, 10, 12);
    const flagged: ReferrerEvent[] = [
      event(101, base, { zone_id: 'z1', publisher: 'P', referrer: 'https://a.test/', is_bot: false, reason: null }),
      event(102, base + 1, { zone_id: 'z1', publisher: 'P', referrer: 'https://a.test/', is_bot: true, reason: 'user_agent' }),
      event(103, base + 2, { zone_id: 'z1', publisher: 'P', referrer: 'https://spam.test/', is_bot: true, reason: 'spam_referrer' }),
      event(104, base + 3, { zone_id: 'z2', publisher: 'P', referrer: 'https://b.test/', is_bot: false, reason: null }),
      event(105, base + 4, { zone_id: 'z3', publisher: null, referrer: 'https://c.test/', is_bot: true, reason: 'unknown_zone' }),
    ];
    const range = { from: base - DAY, to: base + DAY };
    let w: Warehouse;
    beforeAll(async () => {
      w = await open();
      await w.referrers.append(flagged);
    });
    afterAll(() => w.close());

    test('flagged events are left out of the report and the log unless includeBots, and keep their reason', async () => {
      expect((await w.referrers.referrers({ filter: range, order: [] })).hits).toBe(2);
      expect((await w.referrers.referrers({ filter: { ...range, includeBots: true }, order: [] })).hits).toBe(5);
      expect((await w.referrers.logs({ filter: range, order: [] })).rows.map((e) => e.id)).toEqual([104, 101]);
      const all = await w.referrers.logs({ filter: { ...range, includeBots: true }, order: [] });
      expect(all.rows.map((e) => [e.id, e.is_bot, e.reason])).toEqual([
        [105, true, 'unknown_zone'],
        [104, false, null],
        [103, true, 'spam_referrer'],
        [102, true, 'user_agent'],
        [101, false, null],
      ]);
      expect((await w.referrers.eventsAfter(100, 200, 10)).map((e) => e.reason)).toEqual([null, 'user_agent', 'spam_referrer', null, 'unknown_zone']);
    });

    test('the IVT sums per zone and per publisher count every event, before and after retention rolls them up', async () => {
      const byZone = async () => (await w.referrers.ivt({ filter: range, by: 'zone', order: [] })).rows;
      const expected = [
        { zone_id: 'z1', publisher: 'P', hits: 3, bot_hits: 2 },
        { zone_id: 'z3', publisher: null, hits: 1, bot_hits: 1 },
        { zone_id: 'z2', publisher: 'P', hits: 1, bot_hits: 0 },
      ];
      expect(await byZone()).toEqual(expected);
      const pubs = await w.referrers.ivt({ filter: range, by: 'publisher', order: [{ key: 'hits', dir: 'desc' }] });
      expect(pubs).toEqual({
        rows: [
          { zone_id: null, publisher: 'P', hits: 4, bot_hits: 2 },
          { zone_id: null, publisher: null, hits: 1, bot_hits: 1 },
        ],
        total: 2,
        hits: 5,
        bot_hits: 3,
      });
      const byRate = await w.referrers.ivt({ filter: range, by: 'zone', order: [{ key: 'ivt_rate', dir: 'asc' }], limit: 2 });
      expect(byRate.rows.map((r) => r.zone_id)).toEqual(['z2', 'z1']);
      expect(await collect(w.referrers.streamIvt({ filter: range, by: 'zone', order: [] }))).toEqual(expected);
      await w.referrers.rollUpBefore(base + DAY);
      expect(await w.referrers.countEvents()).toBe(0);
      expect(await byZone()).toEqual(expected);
      expect((await w.referrers.referrers({ filter: range, order: [] })).hits).toBe(2);
    });
  });

  describe(`${engine}: idempotency keys of referrer events`, () => {
    const DAY = 86_400_000;
    /** The window the service passes (7 days back from now). */
    const windowStart = () => Date.now() - 7 * DAY;
    const keyed = (id: number) => event(id, at(-1, 9, id % 60), { zone_id: '9001', referrer: `https://k.example/${id}` });
    const HOSTILE_KEY = `e:O'Brien "x" \\ {p0:String} '); DROP TABLE referrer_event_key; --`;
    let w: Warehouse;
    beforeAll(async () => {
      w = await open();
      await w.referrers.append([keyed(1), keyed(2), keyed(3)], { keys: ['e:one', HOSTILE_KEY], since: windowStart() });
    });
    afterAll(() => w.close());

    test('an appended batch stores its events and its keys: they are found within the window, others are not', async () => {
      expect(await w.referrers.countEvents()).toBe(3);
      expect(await w.referrers.seenKeys(['e:one', HOSTILE_KEY, 'e:two', 'b:other'], windowStart())).toEqual(new Set(['e:one', HOSTILE_KEY]));
      expect(await w.referrers.seenKeys([], windowStart())).toEqual(new Set());
      // A window that starts after the keys were stored: they have expired.
      expect(await w.referrers.seenKeys(['e:one', HOSTILE_KEY], Date.now() + 60_000)).toEqual(new Set());
    });

    test('a batch with a key stored within the window is refused whole: EventKeyConflict names it, nothing is stored', async () => {
      const refused = w.referrers.append([keyed(4), keyed(5)], { keys: ['e:new', 'e:one'], since: windowStart() });
      await expect(refused).rejects.toBeInstanceOf(EventKeyConflict);
      await refused.catch((e: EventKeyConflict) => expect([...e.keys]).toEqual(['e:one']));
      expect(await w.referrers.countEvents()).toBe(3);
      expect(await w.referrers.maxEventId()).toBe(3);
      expect(await w.referrers.seenKeys(['e:new'], windowStart())).toEqual(new Set());
    });

    test('an expired key may be stored again, and is then found within the new window', async () => {
      await w.referrers.append([keyed(6)], { keys: ['e:one'], since: Date.now() + 1 });
      expect(await w.referrers.countEvents()).toBe(4);
      expect(await w.referrers.seenKeys(['e:one'], windowStart())).toEqual(new Set(['e:one']));
    });

    test('thousands of keys in one batch are all stored and all found', async () => {
      const events = Array.from({ length: 2500 }, (_, i) => keyed(100 + i));
      const keys = events.map((e) => `b:${e.id.toString(36)}-${'x'.repeat(40)}`);
      await w.referrers.append(events, { keys, since: windowStart() });
      // A key stored twice in one append (the service never sends that) is harmless.
      expect(await w.referrers.countEvents()).toBe(2504);
      const seen = await w.referrers.seenKeys([...keys, 'b:absent'], windowStart());
      expect(seen.size).toBe(2500);
      expect(seen.has('b:absent')).toBe(false);
      // Appends without keys are unchanged: no key stored, nothing refused.
      await w.referrers.append([keyed(3000)]);
      await w.referrers.append([keyed(3001)], { keys: [], since: windowStart() });
      expect(await w.referrers.countEvents()).toBe(2506);
    });

    test('a keyed batch stores its text as sent: quotes, backslashes, new lines and JSON in every field', async () => {
      const hostile = `O'Brien "x" \\ \n\t{p0:String} {"a":1} '); DROP TABLE referrer_event; -- ñ €`;
      const e = {
        ...event(4000, at(-1, 10, 0), { zone_id: `z ${hostile}` }),
        parent_domain: `d ${hostile}`,
        referrer: `https://h.example/?q=${hostile}`,
        keyword: hostile,
        ip: '2001:db8::1',
        country: 'ES',
        publisher: `p ${hostile}`,
        advertiser: `a ${hostile}`,
        is_bot: true,
        reason: 'user_agent' as const,
        campaign_id: `c ${hostile}`,
        adset_id: `s ${hostile}`,
        ad_id: `ad ${hostile}`,
        placement: `pl ${hostile}`,
      };
      // Keys are printable ASCII (event ids and Idempotency-Key headers are checked so).
      const key = `e:${HOSTILE_KEY}\\n"}`;
      await w.referrers.append([e], { keys: [key], since: windowStart() });
      const [stored] = await w.referrers.eventsAfter(3999, 4001, 10);
      expect(stored).toMatchObject({ ...e, seen_at: expect.any(String) });
      expect(await w.referrers.seenKeys([key], windowStart())).toEqual(new Set([key]));
    });

    test('a large keyed batch (long text, hundreds of keys) with one key taken is refused whole too', async () => {
      const long = 'l'.repeat(2000);
      const events = Array.from({ length: 300 }, (_, i) => ({ ...keyed(6000 + i), referrer: `https://k.example/${i}/${long}` }));
      const keys = events.map((e) => `e:large-${e.id}`);
      const before = await w.referrers.countEvents();
      const refused = w.referrers.append(events, { keys: [...keys, 'e:one'], since: windowStart() });
      await expect(refused).rejects.toBeInstanceOf(EventKeyConflict);
      await refused.catch((e: EventKeyConflict) => expect([...e.keys]).toEqual(['e:one']));
      expect(await w.referrers.countEvents()).toBe(before);
      await w.referrers.append(events, { keys, since: windowStart() });
      expect(await w.referrers.countEvents()).toBe(before + 300);
      expect((await w.referrers.seenKeys(keys, windowStart())).size).toBe(300);
      await expect(w.referrers.append([keyed(6500)], { keys: [keys[299]], since: windowStart() })).rejects.toThrow(EventKeyConflict);
    });

    test('keys outlive retention of their events within the window', async () => {
      const old = event(5000, Date.UTC(2001, 0, 1), { zone_id: '9002' });
      await w.referrers.append([old], { keys: ['e:kept-after-retention'], since: windowStart() });
      await w.referrers.rollUpBefore(Date.UTC(2002, 0, 1));
      expect((await w.referrers.eventsAfter(4999, 5001, 10)).length).toBe(0);
      expect(await w.referrers.seenKeys(['e:kept-after-retention'], windowStart())).toEqual(new Set(['e:kept-after-retention']));
      await expect(
        w.referrers.append([event(5001, Date.now(), { zone_id: '9002' })], { keys: ['e:kept-after-retention'], since: windowStart() }),
      ).rejects.toThrow(EventKeyConflict);
    });
  });
}

function stripDims(g: Record<string, unknown>): Sums {
  const { date: _d, month: _m, advertiser: _a, publisher: _p, zone_id: _z, geo: _g, source: _s, domain: _o, ...rest } = g;
  return rest as unknown as Sums;
}

/** Random rows over a few days with small dimensions (blanks included), money with many decimals. */
export function randomRows(rand: () => number, n: number): ZoneReportRecord[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  return Array.from({ length: n }, () => {
    const impressions = Math.floor(rand() * 5000);
    const revenue = Math.round(rand() * 50 * 1e6) / 1e6 - (rand() < 0.03 ? 10 : 0);
    const p = Math.round(revenue * 0.7 * 1e6) / 1e6;
    return {
      date: `2026-04-${String(1 + Math.floor(rand() * 9)).padStart(2, '0')}`,
      advertiser: pick(['AdNova', 'BidSphere', 'Clickora', 'Ñandú Ads', 'adnova']),
      publisher: pick(['Pub A', 'Pub B', 'Pub C', 'Pub Ñ']),
      zone_id: pick(['100', '101', '102', 'Z-9', 'z-10', '2000']),
      geo: pick(['ES', 'MX', 'US', '']),
      source: pick(['search', 'social', '']),
      domain: pick(['a.com', 'b.com', 'c.es', '']),
      impressions,
      monetized_impressions: rand() < 0.2 ? null : Math.floor(impressions * rand()),
      clicks: Math.floor(rand() * 100),
      revenue,
      rate_applied: 0.7,
      p_revenue: p,
      margin: revenue - p,
      tq: rand() < 0.15 ? null : rand() < 0.1 ? 0 : Math.round(rand() * 1000) / 1000,
    };
  });
}

/** Numbers equal within rounding of sums taken in another order; everything else exactly. */
export function expectSame(actual: unknown, expected: unknown, path = ''): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    expect(Math.abs(actual - expected), `${path}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
  } else if (Array.isArray(expected)) {
    expect(Array.isArray(actual), path).toBe(true);
    expect((actual as unknown[]).length, `${path}.length`).toBe(expected.length);
    expected.forEach((e, i) => {
      expectSame((actual as unknown[])[i], e, `${path}[${i}]`);
    });
  } else if (expected && typeof expected === 'object') {
    expect(Object.keys(actual as object).sort(), path).toEqual(Object.keys(expected).sort());
    for (const [k, v] of Object.entries(expected)) expectSame((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
  } else expect(actual, path).toEqual(expected);
}

/**
 * The proof that two warehouses answer alike (a rollup and the stored rows, or two engines):
 * after random imports that replace many rows, every aggregate, option list and page of rows of
 * `actual` equals `expected`'s (money within rounding of sums taken in another order).
 */
export function describeSameAnswers(title: string, openActual: () => Promise<Warehouse>, openExpected: () => Promise<Warehouse>): void {
  describe(title, () => {
    let rolled: Warehouse;
    let raw: Warehouse;
    beforeAll(async () => {
      rolled = await openActual();
      raw = await openExpected();
      const rand = prng(20261124);
      // Five imports; later ones replace many keys of earlier ones (other domain, other money).
      for (let i = 0; i < 5; i++) {
        const batch = randomRows(rand, 1500);
        for (const w of [rolled, raw]) await importRows(w, batch);
      }
    });
    afterAll(async () => {
      await rolled.close();
      await raw.close();
    });

    const FILTERS: Filters[] = [
      { start_date: '2026-04-01', end_date: '2026-04-09' },
      { start_date: '2026-04-03', end_date: '2026-04-05', advertiser: 'AdNova' },
      { start_date: '2026-04-01', end_date: '2026-04-30', publisher: 'Pub Ñ', geo: 'MX' },
      { start_date: '2026-04-02', end_date: '2026-04-02', source: '', domain: 'c.es' },
      { start_date: '2026-03-01', end_date: '2026-03-31' },
    ];
    const GROUPINGS: Array<[Dimension[], SortState[]]> = [
      [[], []],
      [['date'], [{ key: 'date', dir: 'asc' }]],
      [['month'], []],
      [['date', 'publisher'], [{ key: 'revenue', dir: 'desc' }]],
      [['date', 'advertiser'], [{ key: 'ctr', dir: 'desc' }]],
      [['month', 'advertiser'], [{ key: 'advertiser', dir: 'desc' }]],
      [['geo', 'source'], [{ key: 'tq', dir: 'asc' }]],
      [['domain'], [{ key: 'rs_percent', dir: 'desc' }]],
      [['advertiser', 'publisher', 'geo', 'source', 'domain'], [{ key: 'margin', dir: 'asc' }]],
    ];

    test('both hold the same rows, many of them replaced by later imports', async () => {
      expect(await rolled.zoneReports.countRows()).toBe(await raw.zoneReports.countRows());
      expect(await rolled.zoneReports.countRows()).toBeGreaterThan(4000);
      expect(await rolled.zoneReports.countRows()).toBeLessThan(7500);
    });

    test.each(FILTERS.map((f) => [JSON.stringify(f), f] as const))('totals under %s', async (_name, f) => {
      expectSame(await rolled.zoneReports.totals(f), await raw.zoneReports.totals(f));
    });

    test.each(
      GROUPINGS.map(
        ([dims, order]) =>
          [`${dims.join(' × ') || 'everything'} by ${order.map((o) => `${o.key} ${o.dir}`).join(', ') || 'dimensions'}`, dims, order] as const,
      ),
    )('groups of %s, under every filter, paged and whole', async (_name, dims, order) => {
      for (const filters of FILTERS) {
        for (const page of [{}, { limit: 7, offset: 3 }]) {
          const q = { filters, by: dims, order, ...page };
          expectSame(await rolled.zoneReports.groups(q), await raw.zoneReports.groups(q));
        }
      }
    });

    test('top advertisers, dropdown options and dimension values', async () => {
      for (const f of FILTERS) {
        expectSame(await rolled.zoneReports.topEarners(f, 10), await raw.zoneReports.topEarners(f, 10));
        expectSame(await rolled.zoneReports.totalsAndOptions(f), await raw.zoneReports.totalsAndOptions(f));
      }
      expectSame(await rolled.zoneReports.dimensionValues(), await raw.zoneReports.dimensionValues());
    });

    test('pages of rows led by the day (read through the rollup’s day counts) equal the plain query’s', async () => {
      const filters = { start_date: '2026-04-01', end_date: '2026-04-09' };
      for (const dir of ['asc', 'desc'] as const) {
        const order = [
          { key: 'date', dir },
          { key: 'revenue', dir: 'desc' as const },
        ];
        const all = await raw.zoneReports.rows({ filters, order });
        for (const [offset, limit] of [
          [0, 25],
          [990, 40],
          [all.length - 5, 25],
          [1234, 1],
        ])
          expect(await rolled.zoneReports.rows({ filters, order, offset, limit })).toEqual(all.slice(offset, offset + limit));
      }
    });

    // Pages led by a stored number (or the day, under a zone search) are cut at their last row's
    // value first: ties at that value (integers, money repeated by later imports), missing values
    // last, a filtered range.
    test.each<[string, SortState[]]>([
      ['revenue descending', [{ key: 'revenue', dir: 'desc' }]],
      ['clicks ascending (many ties)', [{ key: 'clicks', dir: 'asc' }]],
      ['monetized impressions ascending, the unreported last', [{ key: 'monetized_impressions', dir: 'asc' }]],
      ['the reported tq descending, none last', [{ key: 'tq', dir: 'desc' }]],
      [
        'margin ascending, then the day',
        [
          { key: 'margin', dir: 'asc' },
          { key: 'date', dir: 'desc' },
        ],
      ],
      // A ratio's first rows tie (no clicks: CTR 0): the page reads the days up to its last row's.
      ['CTR ascending', [{ key: 'ctr', dir: 'asc' }]],
      [
        'CTR ascending, then the day ascending',
        [
          { key: 'ctr', dir: 'asc' },
          { key: 'date', dir: 'asc' },
        ],
      ],
      [
        'CTR ascending, then the day descending (not cut)',
        [
          { key: 'ctr', dir: 'asc' },
          { key: 'date', dir: 'desc' },
        ],
      ],
      ['CPM ascending (negative revenue first, few ties)', [{ key: 'cpm', dir: 'asc' }]],
      ['CTR descending', [{ key: 'ctr', dir: 'desc' }]],
      // With a zone search the rollup cannot count the days: the last row's day is read first.
      [
        'the day ascending, then revenue',
        [
          { key: 'date', dir: 'asc' },
          { key: 'revenue', dir: 'desc' },
        ],
      ],
    ])('pages of rows led by %s equal the plain query’s', async (_name, order) => {
      for (const filters of [FILTERS[0], FILTERS[1], { ...FILTERS[0], zone_id: '10' }]) {
        const all = await raw.zoneReports.rows({ filters, order });
        expect(all.length).toBeGreaterThan(20);
        for (const [offset, limit] of [
          [0, 25],
          [Math.floor(all.length / 2), 40],
          [all.length - 5, 25],
          [all.length + 3, 10],
          [7, 1],
        ])
          expect(await rolled.zoneReports.rows({ filters, order, offset, limit })).toEqual(all.slice(offset, offset + limit));
      }
    });
  });
}
