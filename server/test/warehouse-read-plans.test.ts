// Why zone-level reads stay fast over a long range, shown by the statements the engines run and
// their plans (no timers); that they answer what the plain queries answer is the contract's
// (describeSameAnswers). A page is cut before it is sorted (zone-report/get-rows.ts): led by the
// day, it reads the rollup's rows per day, then only the days that hold it; led by a stored
// number, it sorts only the rows at or past its last row's value (ClickHouse: of their keys). A DuckDB zone search of
// digits is a filter of the scan, not a join (sql/filters.ts). A page led by a ratio of counts
// (CTR) whose first rows tie at 0 reads only the days up to its last row's. ClickHouse tests the filters on the natural
// key before FINAL (PREWHERE). 'Top Zones' sums the zone months and weeks
// for a range's whole months and the whole weeks at its ends (zone-report/get-top-earners.ts), and answers what the stored rows
// answer after imports that replace rows. A page of groups by day and zone led by the day sums
// only the days that hold it (zone-report/get-groups.ts). A DuckDB page is one scan of its days (no late
// materialization's second scan of the whole table for the page's rowids).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addDays, weekdayIndex } from '@adops/core';
import { openClickHouseWarehouse } from '../src/warehouse/clickhouse/index.js';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import type { Params } from '../src/warehouse/sql/binder.js';
import type { SqlDb } from '../src/warehouse/sql/db.js';
import type { Warehouse } from '../src/warehouse/index.js';
import { chdbClient } from './helpers.js';
import { prng } from '../src/sandbox/demo/prng.js';
import { expectSame, importRows, randomRows } from './warehouse-contract.js';
import { zoneSpans } from '../src/warehouse/zone-report/get-top-earners.js';

const { client } = await chdbClient('page-cuts');

/** Nine days of random rows (2026-04-01 … 09), a few thousand of them (a repeated key: the last one stored). */
const ROWS = randomRows(prng(29), 3000);
const NINE_DAYS = { start_date: '2026-04-01', end_date: '2026-04-09' };

/** Records the statements a warehouse runs (they still run on its engine). */
function recording(db: SqlDb): Array<{ sql: string; params: Params }> {
  const seen: Array<{ sql: string; params: Params }> = [];
  const all = db.all.bind(db);
  Object.assign(db, {
    all: (sql: string, params: Params = {}) => {
      seen.push({ sql, params });
      return all(sql, params);
    },
  });
  return seen;
}

const engines: Array<[string, () => Promise<Warehouse & { db: SqlDb }>]> = [
  ['DuckDB', () => openDuckDbWarehouse(':memory:')],
  ['ClickHouse', () => openClickHouseWarehouse(client, { database: 'cuts' })],
];

describe.each(engines)('%s: pages of a long range', (engine, open) => {
  let w: Warehouse & { db: SqlDb };
  beforeAll(async () => {
    w = await open();
    await importRows(w, ROWS);
  });
  afterAll(() => w.close());

  test('reads the rollup’s rows per day, then sorts only the days that hold the page', async () => {
    const lastDay = (await w.zoneReports.rows({ filters: { start_date: '2026-04-09', end_date: '2026-04-09' }, order: [] })).length;
    const seen = recording(w.db);
    const page = await w.zoneReports.rows({ filters: NINE_DAYS, order: [{ key: 'date', dir: 'desc' }], limit: 25, offset: lastDay - 5 });
    expect(page.map((r) => r.date)).toEqual([...Array(5).fill('2026-04-09'), ...Array(20).fill('2026-04-08')]);
    expect(seen).toHaveLength(2);
    expect(seen[0].sql).toMatch(/zone_report_rollup/);
    // The page's own statement is bound to the two days it spans, not to the nine asked for.
    expect(Object.values(seen[1].params)).toEqual(expect.arrayContaining(['2026-04-08', '2026-04-09']));
    expect(Object.values(seen[1].params)).not.toContain('2026-04-01');
  });

  test('a page led by the day with a zone search (no rollup) finds its last row’s day in the first week, then reads only the days from there', async () => {
    const filters = { ...NINE_DAYS, zone_id: '10' };
    const lastDay = (await w.zoneReports.rows({ filters: { ...filters, start_date: '2026-04-09' }, order: [] })).length;
    const seen = recording(w.db);
    const page = await w.zoneReports.rows({ filters, order: [{ key: 'date', dir: 'desc' }], limit: 10, offset: lastDay - 5 });
    expect(page.map((r) => r.date)).toEqual([...Array(5).fill('2026-04-09'), ...Array(5).fill('2026-04-08')]);
    expect(seen).toHaveLength(2);
    expect(seen[0].sql).toMatch(/LIMIT 1 OFFSET/);
    // That day is looked for in the order's first week before the whole range.
    expect(Object.values(seen[0].params)).toEqual(expect.arrayContaining(['2026-04-03', '2026-04-09']));
    expect(Object.values(seen[1].params)).toEqual(expect.arrayContaining(['2026-04-08', '2026-04-09']));
    expect(Object.values(seen[1].params)).not.toContain('2026-04-01');
  });

  test('a page of groups by day and zone led by the day counts each day’s groups first (no sums), then sums only the days that hold it', async () => {
    const by = ['date', 'zone_id', 'geo'] as const;
    const lastDay = (await w.zoneReports.groups({ filters: { ...NINE_DAYS, start_date: '2026-04-09' }, by: [...by], order: [] })).total;
    const seen = recording(w.db);
    const page = await w.zoneReports.groups({
      filters: NINE_DAYS,
      by: [...by],
      order: [{ key: 'date', dir: 'desc' }],
      limit: 10,
      offset: lastDay - 4,
    });
    expect(page.rows.map((r) => r.date)).toEqual([...Array(4).fill('2026-04-09'), ...Array(6).fill('2026-04-08')]);
    expect(seen).toHaveLength(2);
    expect(seen[0].sql).not.toMatch(/sum\(/);
    expect(Object.values(seen[1].params)).toEqual(expect.arrayContaining(['2026-04-08', '2026-04-09']));
    expect(Object.values(seen[1].params)).not.toContain('2026-04-01');
  });

  test('a page led by revenue reads its last row’s revenue first, then only the rows at or above it', async () => {
    const seen = recording(w.db);
    const page = await w.zoneReports.rows({ filters: NINE_DAYS, order: [{ key: 'revenue', dir: 'desc' }], limit: 25, offset: 25 });
    expect(seen).toHaveLength(2);
    expect(seen[0].sql).toMatch(/LIMIT 1 OFFSET/);
    expect(Object.values(seen[1].params)).toContain(page[24].revenue);
    expect(seen[1].sql).toMatch(/revenue >= /);
    // ClickHouse: FINAL merges only the keys of the stored rows at or above it, read without FINAL.
    if (engine === 'ClickHouse') expect(seen[1].sql).toMatch(/\(date, advertiser, publisher, zone_id, geo, source\) IN \(SELECT date, advertiser/);
  });

  test('a page led by CTR ascending whose rows tie (no clicks) finds the day of its last row without clicks first, then reads only the days up to it', async () => {
    const seen = recording(w.db);
    const page = await w.zoneReports.rows({ filters: NINE_DAYS, order: [{ key: 'ctr', dir: 'asc' }], limit: 10, offset: 0 });
    expect(page).toHaveLength(10);
    expect(page.every((r) => r.clicks === 0)).toBe(true);
    // A look for ten rows without clicks, the day of the tenth of them (in the first week: no row's CTR computed), then the page.
    expect(seen).toHaveLength(3);
    expect(seen[0].sql).toMatch(/clicks = 0/);
    expect(seen[1].sql).toMatch(/clicks = 0/);
    expect(seen[1].sql).toMatch(/ORDER BY date ASC LIMIT 1 OFFSET/);
    expect(seen[1].sql).not.toMatch(/NULLIF|nullIf|\//);
    expect(Object.values(seen[1].params)).not.toContain(NINE_DAYS.end_date);
    // The page's statement is bound to the range up to its last row's day, not to the nine days.
    const last = page[9].date;
    expect(last < NINE_DAYS.end_date).toBe(true);
    expect(Object.values(seen[2].params)).toEqual(expect.arrayContaining([NINE_DAYS.start_date, last]));
    expect(Object.values(seen[2].params)).not.toContain(NINE_DAYS.end_date);
    // Fewer rows without clicks than the page needs: the look alone, then the page over the nine days.
    const many = recording(w.db);
    await w.zoneReports.rows({ filters: NINE_DAYS, order: [{ key: 'ctr', dir: 'asc' }], limit: 25, offset: 1000 });
    expect(many).toHaveLength(2);
    expect(Object.values(many[1].params)).toContain(NINE_DAYS.end_date);
    // Descending (ratios rarely tie at their top), the page reads the whole range in one statement.
    const desc = recording(w.db);
    await w.zoneReports.rows({ filters: NINE_DAYS, order: [{ key: 'ctr', dir: 'desc' }], limit: 10, offset: 0 });
    expect(desc).toHaveLength(1);
    expect(Object.values(desc[0].params)).toContain(NINE_DAYS.end_date);
  });
});

describe('ClickHouse: reads of the current rows', () => {
  let w: Warehouse & { db: SqlDb };
  beforeAll(async () => {
    w = await openClickHouseWarehouse(client, { database: 'prewhere' });
    await importRows(w, ROWS);
  });
  afterAll(() => w.close());

  test('filters on the natural key are PREWHERE, tested before FINAL merges versions; the domain after it', async () => {
    const seen = recording(w.db);
    await w.zoneReports.totalsAndOptions({ ...NINE_DAYS, zone_id: '10', publisher: 'Pub A', domain: 'a.com' });
    await w.zoneReports.rows({ filters: { ...NINE_DAYS, zone_id: '10', domain: 'a.com' }, order: [], limit: 10, offset: 0 });
    for (const { sql } of seen) {
      const [, pre, post] = /FINAL\s+PREWHERE (.*?)\s+WHERE (.*)$/s.exec(sql) ?? [];
      expect(pre).toMatch(/date BETWEEN .* AND position\(zone_id, .*\) > 0/);
      expect(pre).not.toMatch(/domain/);
      expect(post).toMatch(/^domain = /);
    }
    expect(seen[0].sql).toMatch(/publisher = .* WHERE domain/s);
  });
});

describe('DuckDB: pages led by a number, zone searches', () => {
  let w: Warehouse & { db: SqlDb };
  beforeAll(async () => {
    w = await openDuckDbWarehouse(':memory:');
    await importRows(w, ROWS);
  });
  afterAll(() => w.close());

  /** The rows each sort (TOP_N, ORDER_BY) of a statement was handed, from DuckDB's own profile of it. */
  async function sortedRows(sql: string, params: Params): Promise<number[]> {
    const [row] = await w.db.all<{ explain_value: string }>(`EXPLAIN (ANALYZE, FORMAT json) ${sql}`, params);
    type Node = { operator_name?: string; operator_cardinality?: number; children?: Node[] };
    const counts: number[] = [];
    const walk = (node: Node) => {
      const children = node.children ?? [];
      if (['TOP_N', 'ORDER_BY'].includes(node.operator_name?.trim() ?? ''))
        counts.push(children.reduce((n, child) => n + Number(child.operator_cardinality ?? 0), 0));
      for (const child of children) walk(child);
    };
    walk(JSON.parse(row.explain_value));
    return counts;
  }

  test('a page led by revenue finds its last row’s revenue first, and the sort then reads only the rows at or above it', async () => {
    const stored = await w.zoneReports.rows({ filters: NINE_DAYS, order: [] });
    const seen = recording(w.db);
    const page = await w.zoneReports.rows({ filters: NINE_DAYS, order: [{ key: 'revenue', dir: 'desc' }], limit: 25, offset: 25 });
    expect(page).toHaveLength(25);
    expect(seen).toHaveLength(2);
    const cut = page[24].revenue;
    expect(Object.values(seen[1].params)).toContain(cut);
    // Every sort of the page's statement is handed the few rows at or above the cut (revenues rarely tie), not thousands.
    const sorts = await sortedRows(seen[1].sql, seen[1].params);
    expect(sorts.length).toBeGreaterThan(0);
    const atOrAbove = stored.filter((r) => r.revenue >= cut).length;
    expect(atOrAbove).toBeLessThan(60);
    expect(stored.length).toBeGreaterThan(2000);
    for (const n of sorts) expect(n).toBeLessThanOrEqual(atOrAbove);
  });

  test('a page is read in one scan of its days: no second pass over the whole table for the page’s rowids', async () => {
    const seen = recording(w.db);
    const page = await w.zoneReports.rows({
      filters: NINE_DAYS,
      order: [
        { key: 'date', dir: 'desc' },
        { key: 'revenue', dir: 'desc' },
      ],
      limit: 25,
      offset: 0,
    });
    expect(page).toHaveLength(25);
    const [row] = await w.db.all<{ explain_value: string }>(`EXPLAIN ${seen[seen.length - 1].sql}`, seen[seen.length - 1].params);
    // Late materialization joins the top-N's rowids back to a scan of zone_report that the date does not narrow.
    expect(row.explain_value).not.toMatch(/rowid/);
    expect(row.explain_value.match(/SEQ_SCAN|TABLE_SCAN/g)).toHaveLength(1);
  });

  test('a page’s zone search of digits filters the scan itself, the sums of every match join the zone list', async () => {
    const seen = recording(w.db);
    const filters = { ...NINE_DAYS, zone_id: '10' };
    const page = await w.zoneReports.rows({ filters, order: [{ key: 'revenue', dir: 'desc' }], limit: 25, offset: 0 });
    expect(page.length).toBeGreaterThan(0);
    const [row] = await w.db.all<{ explain_value: string }>(`EXPLAIN ${seen[seen.length - 1].sql}`, seen[seen.length - 1].params);
    expect(row.explain_value).toMatch(/contains\(zone_id/);
    expect(row.explain_value).not.toMatch(/zone_report_zones/);
    // Text with letters is matched on the lower-cased list of zones (once per zone, not per row).
    const cased = recording(w.db);
    await w.zoneReports.rows({ filters: { ...NINE_DAYS, zone_id: 'Z-9' }, order: [], limit: 25, offset: 0 });
    expect(cased[cased.length - 1].sql).toMatch(/zone_report_zones/);
    const header = recording(w.db);
    await w.zoneReports.totalsAndOptions(filters);
    expect(header[0].sql).toMatch(/zone_report_zones/);
  });

  test('a ratio (CTR) descending is sorted in one read: computing it is the cost a first read would pay twice', async () => {
    const seen = recording(w.db);
    await w.zoneReports.rows({ filters: NINE_DAYS, order: [{ key: 'ctr', dir: 'desc' }], limit: 25, offset: 0 });
    expect(seen).toHaveLength(1);
  });
});

/** Both engines, ClickHouse's in a database of its own (`database`), so two suites' imports never meet. */
const monthEngines = (database: string): Array<[string, () => Promise<Warehouse & { db: SqlDb }>]> => [
  ['DuckDB', () => openDuckDbWarehouse(':memory:')],
  ['ClickHouse', () => openClickHouseWarehouse(client, { database })],
];

/** Random rows moved over March to May, row by row, each on the day `step` apart from the last within its month (April has no 31st). */
const spreadOverMonths = (rows: typeof ROWS, step: number) =>
  rows.map((r, i) => ({ ...r, date: `2026-0${3 + (i % 3)}-${String(1 + ((i * step) % 31)).padStart(2, '0')}`.replace(/-0?4-31$/, '-04-30') }));

describe('a range cut into whole months, whole weeks and days', () => {
  test('months first, then the whole weeks (Monday to Sunday) left at each end, then the days', () => {
    expect(zoneSpans('2026-03-20', '2026-05-05')).toEqual({
      months: { start: '2026-04-01', end: '2026-04-01' },
      weeks: [{ start: '2026-03-23', end: '2026-03-23' }],
      days: [
        { start: '2026-03-20', end: '2026-03-22' },
        { start: '2026-03-30', end: '2026-03-31' },
        { start: '2026-05-01', end: '2026-05-05' },
      ],
    });
    // 30 days to a Friday: four weeks and two days at the ends, no month.
    expect(zoneSpans('2026-10-29', '2026-11-27')).toEqual({
      months: undefined,
      weeks: [{ start: '2026-11-02', end: '2026-11-16' }],
      days: [
        { start: '2026-10-29', end: '2026-11-01' },
        { start: '2026-11-23', end: '2026-11-27' },
      ],
    });
    expect(zoneSpans('2026-03-03', '2026-03-08')).toBeUndefined();
  });
});

describe.each(monthEngines('months'))('%s: Top Zones of whole months', (_engine, open) => {
  let rolled: Warehouse & { db: SqlDb };
  let raw: Warehouse & { db: SqlDb };
  /** Rows over March to May, then a second import replacing many of them. */
  const spread = (rows: typeof ROWS) => spreadOverMonths(rows, 7);
  beforeAll(async () => {
    rolled = await open();
    raw = await openDuckDbWarehouse(':memory:', { rollup: false });
    const first = spread(ROWS);
    const second = spread(randomRows(prng(2929), 3000));
    for (const w of [rolled, raw]) {
      await importRows(w, first);
      await importRows(w, second);
    }
  });
  afterAll(async () => {
    await rolled.close();
    await raw.close();
  });

  test('a range with whole months reads their zone months, and ranks what the rows rank', async () => {
    const ranges = [
      { start_date: '2026-04-01', end_date: '2026-04-30' },
      { start_date: '2026-03-20', end_date: '2026-05-05' },
      { start_date: '2026-03-01', end_date: '2026-05-31' },
      { start_date: '2026-03-05', end_date: '2026-03-25' },
      { start_date: '2026-03-20', end_date: '2026-05-05', publisher: 'Pub Ñ' },
      { start_date: '2026-03-20', end_date: '2026-05-05', zone_id: '10' },
      { start_date: '2026-03-20', end_date: '2026-05-05', zone_id: 'Z-9' },
      { start_date: '2026-03-20', end_date: '2026-05-05', geo: 'MX' },
    ];
    for (const f of ranges) {
      const expected = await raw.zoneReports.topEarners(f, 10);
      expect(expected.zones.length).toBeGreaterThan(0);
      expectSame(await rolled.zoneReports.topEarners(f, 10), expected);
    }
    const seen = recording(rolled.db);
    await rolled.zoneReports.topEarners(ranges[1], 10);
    expect(seen[0].sql).toMatch(/zone_report_zone_month/);
    // The whole weeks within a month, or left at a range's ends, from the zone weeks.
    expect(seen[0].sql).toMatch(/zone_report_zone_week/);
    const weeks = recording(rolled.db);
    await rolled.zoneReports.topEarners(ranges[3], 10);
    expect(weeks[0].sql).toMatch(/zone_report_zone_week/);
    expect(weeks[0].sql).not.toMatch(/zone_report_zone_month/);
    // Under a filter the months and weeks do not keep, the rows are summed.
    const rows = recording(rolled.db);
    await rolled.zoneReports.topEarners(ranges[7], 10);
    expect(rows[0].sql).not.toMatch(/zone_report_zone_(month|week)/);
  });

  test('ranges of whole weeks and days, after imports that replace rows, rank what the rows rank', async () => {
    for (const f of [
      { start_date: '2026-03-02', end_date: '2026-03-29' },
      { start_date: '2026-03-04', end_date: '2026-04-02' },
      { start_date: '2026-04-27', end_date: '2026-05-10' },
      { start_date: '2026-03-09', end_date: '2026-03-15', publisher: 'Pub Ñ' },
      { start_date: '2026-03-04', end_date: '2026-04-02', zone_id: '1' },
    ]) {
      const expected = await raw.zoneReports.topEarners(f, 25);
      expect(expected.zones.length).toBeGreaterThan(0);
      expectSame(await rolled.zoneReports.topEarners(f, 25), expected);
    }
  });
});

describe.each(monthEngines('key_months'))('%s: a zone search of whole months', (_engine, open) => {
  let rolled: Warehouse & { db: SqlDb };
  let raw: Warehouse & { db: SqlDb };
  /** Rows over March to May, then a second import replacing many of them. */
  const spread = (rows: typeof ROWS) => spreadOverMonths(rows, 11);
  beforeAll(async () => {
    rolled = await open();
    raw = await openDuckDbWarehouse(':memory:', { rollup: false });
    for (const w of [rolled, raw]) {
      await importRows(w, spread(ROWS));
      await importRows(w, spread(randomRows(prng(3131), 2000)));
    }
  });
  afterAll(async () => {
    await rolled.close();
    await raw.close();
  });

  const searches = [
    { start_date: '2026-03-20', end_date: '2026-05-05', zone_id: '10' },
    { start_date: '2026-03-01', end_date: '2026-05-31', zone_id: 'z-' },
    { start_date: '2026-04-01', end_date: '2026-04-30', zone_id: '2000' },
    { start_date: '2026-03-20', end_date: '2026-05-05', zone_id: '10', geo: 'MX' },
    { start_date: '2026-03-20', end_date: '2026-05-05', zone_id: '1', advertiser: 'AdNova', domain: 'a.com' },
  ];

  test('the totals and the Geo / Source options come from the key months and the days at the ends, as the rows answer them', async () => {
    for (const f of searches) {
      const expected = await raw.zoneReports.totalsAndOptions(f);
      if (f.geo === undefined) expect(expected.totals.rows).toBeGreaterThan(0);
      const seen = recording(rolled.db);
      expectSame(await rolled.zoneReports.totalsAndOptions(f), expected);
      expectSame(await rolled.zoneReports.totals(f), await raw.zoneReports.totals(f));
      expect(seen.map((q) => q.sql).join('\n')).toMatch(/zone_report_key_month/);
    }
  });

  test('without a whole month in the range, or without a zone search, the key months are not read', async () => {
    const seen = recording(rolled.db);
    const partial = { start_date: '2026-03-05', end_date: '2026-04-20', zone_id: '10' };
    expectSame(await rolled.zoneReports.totalsAndOptions(partial), await raw.zoneReports.totalsAndOptions(partial));
    await rolled.zoneReports.totals({ start_date: '2026-03-01', end_date: '2026-05-31' });
    expect(seen.map((q) => q.sql).join('\n')).not.toMatch(/zone_report_key_month/);
  });

  test('an import replacing a day of a month changes its key month', async () => {
    const f = searches[0];
    const before = await rolled.zoneReports.totals(f);
    const day = spread(ROWS).filter((r) => r.date === '2026-04-15' && r.zone_id.includes('10'));
    expect(day.length).toBeGreaterThan(0);
    const doubled = day.map((r) => ({ ...r, impressions: r.impressions * 2 + 1, revenue: r.revenue * 2 + 1 }));
    for (const w of [rolled, raw]) await importRows(w, doubled);
    const after = await rolled.zoneReports.totals(f);
    expect(after.impressions).toBeGreaterThan(before.impressions);
    expectSame(after, await raw.zoneReports.totals(f));
  });
});

/** A derived table of zone periods, and a read that uses it once built. */
const periodTables: Array<[string, { table: string; version: string; read: (w: Warehouse) => Promise<unknown> }]> = [
  [
    'zone weeks',
    { table: 'zone_report_zone_week', version: '3', read: (w) => w.zoneReports.topEarners({ start_date: '2026-04-06', end_date: '2026-04-12' }, 10) },
  ],
  [
    'key months',
    {
      table: 'zone_report_key_month',
      version: '4',
      read: (w) => w.zoneReports.totalsAndOptions({ start_date: '2026-04-01', end_date: '2026-04-30', zone_id: '10' }),
    },
  ],
];

describe.each(periodTables)('DuckDB: %s of a warehouse from before them', (_name, { table, version, read }) => {
  test('are built at the next start from the stored rows', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'adops-periods-'));
    const raw = await openDuckDbWarehouse(':memory:', { rollup: false });
    try {
      const old = await openDuckDbWarehouse(dir);
      await importRows(old, ROWS);
      // As a data dir from before the table: no such table, its derived tables at the version before it.
      await old.db.exec(`DROP TABLE ${table}; UPDATE warehouse_meta SET value = '${version}' WHERE name = 'rollup'`);
      await old.close();
      const w = await openDuckDbWarehouse(dir);
      try {
        await importRows(raw, ROWS);
        const seen = recording(w.db);
        expectSame(await read(w), await read(raw));
        expect(seen[0].sql).toContain(table);
      } finally {
        await w.close();
      }
    } finally {
      await raw.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('ClickHouse: zone months, weeks and key months of a warehouse from before them', () => {
  test('are built at the next open from the stored rows', async () => {
    const w = await openClickHouseWarehouse(client, { database: 'before_months' });
    await importRows(w, ROWS);
    // As a warehouse made before migrations 8, 11 and 12: their tables empty.
    for (const t of [
      'zone_report_zone_month',
      'zone_report_month',
      'zone_report_zone_week',
      'zone_report_week',
      'zone_report_key_month',
      'zone_report_key_month_current',
    ])
      await w.db.command(`TRUNCATE TABLE ${w.db.t(t)}`);
    await w.close();
    const again = await openClickHouseWarehouse(client, { database: 'before_months' });
    const raw = await openDuckDbWarehouse(':memory:', { rollup: false });
    try {
      await importRows(raw, ROWS);
      const april = { start_date: '2026-04-01', end_date: '2026-04-30' };
      expectSame(await again.zoneReports.topEarners(april, 10), await raw.zoneReports.topEarners(april, 10));
      expect(await again.db.all(`SELECT toString(month) AS month FROM ${again.db.t('zone_report_month')} FINAL`)).toEqual([{ month: '2026-04-01' }]);
      // A week for each Monday of the stored days (two weeks of them here).
      const weeks = await again.db.all<{ week: string }>(`SELECT toString(week) AS week FROM ${again.db.t('zone_report_week')} FINAL ORDER BY week`);
      const mondays = [...new Set(ROWS.map((r) => addDays(r.date, -weekdayIndex(r.date))))].sort();
      expect(mondays.length).toBeGreaterThan(1);
      expect(weeks.map((r) => r.week)).toEqual(mondays);
      const week = { start_date: '2026-04-06', end_date: '2026-04-12' };
      const seen = recording(again.db);
      expectSame(await again.zoneReports.topEarners(week, 10), await raw.zoneReports.topEarners(week, 10));
      expect(seen[0].sql).toMatch(/zone_report_zone_week/);
      const search = { ...april, zone_id: '10' };
      const searched = recording(again.db);
      expectSame(await again.zoneReports.totalsAndOptions(search), await raw.zoneReports.totalsAndOptions(search));
      expect(searched[0].sql).toMatch(/zone_report_key_month/);
    } finally {
      await again.close();
      await raw.close();
    }
  });
});
