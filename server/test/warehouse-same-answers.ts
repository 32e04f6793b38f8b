// Whether two warehouses answer the same (a rollup or a page cut against the plain query, one
// engine against another) on random rows: every read of the contract under many filters, sorts
// and pages. Used by the engine and read-plan tests through warehouse-contract.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SortState } from '@adops/core';
import { prng } from '../src/sandbox/demo/prng.js';
import type { Dimension, Filters, Warehouse, ZoneReportRecord } from '../src/warehouse/index.js';
import { importRows } from './warehouse-contract-helpers.js';

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

    test.each([
      ['the day descending, by day × zone × geo (a token page)', ['date', 'zone_id', 'geo'], [{ key: 'date', dir: 'desc' }]],
      [
        'the day ascending then revenue, by zone × day',
        ['zone_id', 'date'],
        [
          { key: 'date', dir: 'asc' },
          { key: 'revenue', dir: 'desc' },
        ],
      ],
    ] as Array<[string, Dimension[], SortState[]]>)('pages of groups led by %s equal the plain query’s', async (_name, by, order) => {
      for (const filters of [FILTERS[0], FILTERS[1], { ...FILTERS[0], zone_id: '10' }]) {
        const all = await raw.zoneReports.groups({ filters, by, order });
        expect(all.rows.length).toBeGreaterThan(10);
        for (const [offset, limit] of [
          [0, 25],
          [Math.floor(all.rows.length / 2), 40],
          [all.rows.length - 5, 25],
          [all.rows.length + 3, 10],
          [7, 1],
        ])
          expectSame(await rolled.zoneReports.groups({ filters, by, order, offset, limit }), {
            rows: all.rows.slice(offset, offset + limit),
            total: all.total,
          });
      }
    });
  });
}
