// An export sorts a window of rows at a time, not every row at once, on both engines: days for
// an order led by the date, value ranges for one led by a number (revenue, clicks, tq, CTR…).
// Windows of a few rows here (the server's are 160,000 on DuckDB, 80,000 on ClickHouse) must
// answer exactly the rows, in exactly the order, of the one plain sorted query — ties across a
// window's bound and missing values included — and an export that receives fewer rows than match
// fails instead of ending short. (ClickHouse exported in one query: 5 M rows failed at the
// default memory limit, and held 4.6 GB without one.)
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import { importRows } from './warehouse-contract-helpers.js';
import type { RowQuery, Warehouse, ZoneReportRecord } from '../src/warehouse/index.js';
import type { SqlDb } from '../src/warehouse/sql/db.js';
import { streamRows, whole } from '../src/warehouse/zone-report/get-rows.js';
import { bothWarehouses } from './helpers.js';

const DAYS = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04'];
const ADVERTISERS = ['AdNova', 'BidSphere', 'Clickora'];

/** 120 rows whose numbers repeat a lot (ties straddle any bound), tq missing on every fifth. */
function fixture(): ZoneReportRecord[] {
  const rows: ZoneReportRecord[] = [];
  for (let i = 0; i < 120; i++) {
    const revenue = (i % 9) * 1.25;
    rows.push({
      date: DAYS[i % DAYS.length],
      advertiser: ADVERTISERS[i % 3],
      publisher: `Pub ${i % 4}`,
      zone_id: `Z-${String(i).padStart(3, '0')}`,
      geo: 'ES',
      source: 'search',
      domain: 'a.com',
      impressions: 1000 + (i % 5) * 100,
      monetized_impressions: i % 7 === 0 ? null : 900,
      clicks: i % 4,
      revenue,
      rate_applied: 0.6,
      p_revenue: revenue * 0.6,
      margin: revenue * ((i % 5) / 10), // RS% takes five values (and none without revenue)
      tq: i % 5 === 0 ? null : (i % 6) / 10,
    });
  }
  return rows;
}

const RANGE = { start_date: DAYS[0], end_date: DAYS.at(-1) as string };

describe.each(bothWarehouses('export-windows'))('an export in windows (%s)', (engine, open) => {
  let w: Warehouse & { db: SqlDb };
  beforeAll(async () => {
    w = (await open()) as Warehouse & { db: SqlDb };
    await importRows(w, fixture());
  });
  afterAll(() => w.close());

  async function windowed(q: Omit<RowQuery, 'limit' | 'offset'>, windowRows: number) {
    const chunks: ZoneReportRecord[][] = [];
    for await (const chunk of streamRows(w.db, q, windowRows)) chunks.push(chunk);
    return { rows: chunks.flat(), chunks: chunks.length };
  }

  const orders: RowQuery['order'][] = [
    [{ key: 'revenue', dir: 'desc' }],
    [{ key: 'revenue', dir: 'asc' }],
    [{ key: 'tq', dir: 'desc' }],
    [{ key: 'tq', dir: 'asc' }],
    [{ key: 'clicks', dir: 'desc' }],
    [{ key: 'ctr', dir: 'desc' }],
    [{ key: 'rs_percent', dir: 'asc' }],
    [{ key: 'cpm', dir: 'asc' }],
    [{ key: 'date', dir: 'desc' }],
    [{ key: 'date', dir: 'asc' }],
  ];
  for (const order of orders)
    test(`sorted by ${order[0].key} ${order[0].dir}: the rows and order of the one plain sort, read in several windows`, async () => {
      for (const filters of [RANGE, { ...RANGE, advertiser: 'BidSphere' }]) {
        const plain = await w.zoneReports.rows({ filters, order });
        expect(plain.length).toBeGreaterThan(20);
        const { rows, chunks } = await windowed({ filters, order }, 7);
        expect(rows).toEqual(plain);
        // The cause: each window is its own query (a chunk or more each); one sort would be one chunk.
        expect(chunks).toBeGreaterThan(2);
        expect((await windowed({ filters, order }, 100_000)).chunks).toBe(1);
      }
    });

  test("the windows' bounds come from one pass of approximate quantiles, not an exact quantile's sort of the range", async () => {
    const read = vi.spyOn(w.db, 'one');
    try {
      await windowed({ filters: RANGE, order: [{ key: 'revenue', dir: 'desc' }] }, 7);
      const sql = read.mock.calls.map(([text]) => text).filter((text) => /quantile/.test(text));
      expect(sql).toHaveLength(1);
      expect(sql[0]).toMatch(engine === 'DuckDB' ? /approx_quantile\(/ : /quantilesTDigest\(/);
    } finally {
      read.mockRestore();
    }
  });

  test('an order led by text is one sort (a collation is not a range of values)', async () => {
    const order = [{ key: 'advertiser', dir: 'asc' as const }];
    const { rows, chunks } = await windowed({ filters: RANGE, order }, 7);
    expect(rows).toEqual(await w.zoneReports.rows({ filters: RANGE, order }));
    expect(chunks).toBe(1);
  });
});

describe('an export stream', () => {
  test('a stream that ends before every matching row was sent fails instead of ending short', async () => {
    const w = await openDuckDbWarehouse(':memory:');
    try {
      const cut = w.db.stream<{ i: number }>('SELECT i FROM range(5000) t(i)');
      const sent: number[] = [];
      await expect(
        (async () => {
          for await (const chunk of whole(cut, 6000)) sent.push(chunk.length);
        })(),
      ).rejects.toThrow(/after 5000 of 6000 rows/);
      expect(sent.reduce((a, b) => a + b, 0)).toBe(5000); // what came was passed on; the end is the error
      const rows: number[] = [];
      for await (const chunk of whole(w.db.stream<{ i: number }>('SELECT i FROM range(5000) t(i)'), 5000)) rows.push(chunk.length);
      expect(rows.reduce((a, b) => a + b, 0)).toBe(5000);
    } finally {
      await w.close();
    }
  });
});
