// A ClickHouse zone-report import holds a bounded number of rows whatever the file's size:
// parsing outruns ClickHouse's inserts, so the import makes the reader wait while a chunk is on
// its way instead of queueing every chunk of the file in memory behind it.
import { Readable } from 'node:stream';
import { expect, test, vi } from 'vitest';
import { ZoneReportIngest } from '../src/services/ingest-zone-report.js';
import { openClickHouseWarehouse } from '../src/warehouse/clickhouse/index.js';
import { type ClickHouseZoneReportImport, STAGE_PREFIX, beginZoneReportImport } from '../src/warehouse/clickhouse/zone-report/import.js';
import { ZONE_REPORT_COLUMNS } from '../src/warehouse/types.js';
import { nextVersion } from '../src/warehouse/clickhouse/zone-report/schema.js';
import { writeZonePeriods } from '../src/warehouse/clickhouse/zone-report/zone-periods.js';
import { prng } from '../src/sandbox/demo/prng.js';
import { importRows, randomRows } from './warehouse-contract.js';
import { chdbClient } from './helpers.js';

const { client } = await chdbClient('chdb-import-memory');
/** Rows an import sends at once here (small, so that a small file spans many chunks). */
const CHUNK = 500;

test.each([2_000, 8_000])('a %i-row CSV holds at most two chunks of rows at once, and every row is stored', async (rows) => {
  const w = await openClickHouseWarehouse(client, { database: `rows${rows}` });
  try {
    let started: ClickHouseZoneReportImport | undefined;
    const ingest = new ZoneReportIngest(
      { ...w.zoneReports, beginImport: async () => (started = await beginZoneReportImport(w.db, CHUNK)) },
      async () => new Map(),
      () => undefined,
    );
    const lines = Array.from({ length: rows }, (_, i) => `2026-03-01,AdNova,PubA,Z-${i},100,1,2`);
    // The whole file in one piece: every line is parsed before the reader would wait for input.
    const csv = Buffer.from(['date,advertiser,publisher,zone_id,impressions,clicks,revenue', ...lines].join('\n'));
    const answer = await ingest.ingestBody(Readable.from([csv]), { contentType: 'text/csv' });
    expect(answer).toMatchObject({ inserted: rows, replaced: 0, rejected_total: 0 });
    expect(await w.zoneReports.countRows()).toBe(rows);
    expect((await w.zoneReports.totals({ start_date: '2026-03-01', end_date: '2026-03-01' })).revenue).toBe(2 * rows);
    expect(started?.peakRows).toBeLessThanOrEqual(2 * CHUNK);
  } finally {
    await w.close();
  }
});

// The commit stays within the engine's memory limit too (ADOPS_WAREHOUSE_MEMORY_LIMIT on the
// embedded engine, 128 MB by default): a 1 M-row import answered 500 there, first from a window
// over every staged row (min(seq) OVER (PARTITION BY key)), then from the IN set of every staged
// key, then from the insert's sort of every staged row into one block. Now the staged keys are
// grouped by their 64-bit hash (8 bytes a key; the keys themselves only where a hash came twice),
// the rows it replaces are counted from the days' current rows before and after the insert, and
// the staged rows go in as staged, in blocks of memorySettings' size (warehouse.clickhouse.test.ts).
// (bench:reports on ClickHouse imports the 1 M rows at 128 MB; here the statements themselves.)
test('an import commits without a window, a key set or a sort over every staged row; repeated keys and replaced rows counted as before', async () => {
  const w = await openClickHouseWarehouse(client, { database: 'bounded' });
  const statements: string[] = [];
  const bound: { sql: string; params?: Record<string, unknown> }[] = [];
  for (const name of ['all', 'command'] as const) {
    const run = w.db[name].bind(w.db) as (sql: string, params?: object) => Promise<never>;
    vi.spyOn(w.db, name).mockImplementation(((sql: string, params?: Record<string, unknown>) => {
      statements.push(sql);
      bound.push({ sql, params });
      return run(sql, params);
    }) as never);
  }
  const sent = vi.spyOn(w.db.client, 'insert');
  try {
    const ingest = new ZoneReportIngest(
      w.zoneReports,
      async () => new Map(),
      () => undefined,
    );
    const zones = 100;
    const rows = 50 * zones;
    const day = (d: number) => new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10);
    const line = (i: number, revenue: number) =>
      `${day(Math.floor(i / zones))},AdNova,Publisher ${i % 40},Z-${i % zones},ES,search,site${i % 40}.com,${1000 + (i % 7)},${i % 5},${revenue}`;
    const header = 'date,advertiser,publisher,zone_id,geo,source,domain,impressions,clicks,revenue';
    const file = (lines: string[]) => Readable.from([Buffer.from([header, ...lines].join('\n'))]);
    // Every key once, then the first ten keys again at the end (the last line of a key is kept).
    const first = Array.from({ length: rows }, (_, i) => line(i, 2));
    const answer = await ingest.ingestBody(file([...first, ...Array.from({ length: 10 }, (_, i) => line(i, 5))]), { contentType: 'text/csv' });
    expect(answer).toMatchObject({ inserted: rows, replaced: 0, rejected_total: 0, duplicates_total: 10 });
    expect(answer.duplicates[0]).toMatchObject({ line: rows + 2, first_line: 2 });
    const range = { start_date: day(0), end_date: day(49) };
    expect(await w.zoneReports.countRows()).toBe(rows);
    expect((await w.zoneReports.totals(range)).revenue).toBe(2 * rows + 3 * 10);
    // The same days again, every key and five new ones: all replaced but those.
    const again = await ingest.ingestBody(file([...first, ...Array.from({ length: 5 }, (_, i) => line(rows + i, 1))]), { contentType: 'text/csv' });
    expect(again).toMatchObject({ inserted: 5, replaced: rows, duplicates_total: 0 });
    expect((await w.zoneReports.totals({ start_date: day(0), end_date: day(50) })).revenue).toBe(2 * rows + 5);

    // The cause: what the commits ran over the staged rows.
    const onStage = statements.filter((sql) => sql.includes(STAGE_PREFIX) && !/^\s*(CREATE|DROP)/.test(sql));
    expect(onStage.length).toBeGreaterThan(0);
    for (const sql of onStage) {
      expect(sql).not.toMatch(/OVER \(/); // no window over every staged row
      expect(sql).not.toMatch(/IN \(SELECT date, advertiser, publisher, zone_id, geo, source FROM/); // no set of every staged key
      // The full key is grouped only where its hash came twice.
      if (/GROUP BY date, advertiser, publisher, zone_id, geo, source\b/.test(sql))
        expect(sql).toMatch(/cityHash64\(date, advertiser, publisher, zone_id, geo, source\) IN/);
    }
    const inserts = onStage.filter((sql) => /INSERT INTO `bounded`.`zone_report` /.test(sql));
    expect(inserts).toHaveLength(2);
    for (const sql of inserts) expect(sql).not.toMatch(/ORDER BY/); // staged rows go in unsorted

    // Staged rows go as arrays of values, not objects (JSONCompactEachRow: a third less of the
    // engine's parsing, the most of a large import's time on the embedded engine).
    const staged = sent.mock.calls.map(([p]) => p).filter((p) => p.table.includes(STAGE_PREFIX));
    expect(staged.length).toBeGreaterThan(0);
    for (const p of staged) {
      expect(p.format).toBe('JSONCompactEachRow');
      expect(p.columns).toEqual(['seq', ...ZONE_REPORT_COLUMNS]);
    }

    // The zone periods are rebuilt one period a statement, each reading (FINAL) only its own days:
    // over several months at once, FINAL merged every part of them together, past 128 MB after a
    // 1 M-row import (its rows arrive in parts of 25,000). Each import here spans January and February.
    for (const [table, periods] of [
      ['zone_report_zone_month', 2],
      ['zone_report_key_month', 2],
      ['zone_report_zone_week', 8],
    ] as const) {
      const rebuilds = bound.filter((q) => q.sql.includes(`INSERT INTO \`bounded\`.\`${table}\``));
      expect(rebuilds, table).toHaveLength(2 * periods);
      for (const { params } of rebuilds) {
        const [first, last] = [String(params?.start), String(params?.last)];
        expect(last > first, table).toBe(true);
        if (table === 'zone_report_zone_week') expect(Date.parse(last) - Date.parse(first)).toBe(6 * 86_400_000);
        else expect([first.slice(0, 7), first.slice(8)]).toEqual([last.slice(0, 7), '01']);
      }
    }
    // So is the day rollup, a week's days a statement (the first import's 50 days span 8 weeks).
    const rollups = bound.filter((q) => q.sql.includes('INSERT INTO `bounded`.`zone_report_rollup`'));
    expect(rollups).toHaveLength(2 * 8);
    for (const { params } of rollups) {
      const days = params?.days as string[];
      const monday = (d: string) => Date.parse(d) - ((new Date(d).getUTCDay() + 6) % 7) * 86_400_000;
      expect(new Set(days.map(monday)).size).toBe(1);
      expect([params?.first, params?.last]).toEqual([days[0], days[days.length - 1]]);
    }
  } finally {
    vi.restoreAllMocks();
    await w.close();
  }
});

// A period with more groups than a statement sums (GROUPS_PER_PART, by its current version) is
// summed in parts, each the zones of one value of a hash of the zone id: at 100 M rows a month's
// ~620,000 key-month groups were past the embedded engine's 128 MB (and 256 MB), so every import
// into a stored month failed. A part refused for memory has its period written again in twice as many.
test('a period of many groups is summed in parts of its zones, in twice as many after a refusal for memory; the sums are one statement’s', async () => {
  const w = await openClickHouseWarehouse(client, { database: 'parts' });
  try {
    const rand = prng(2911);
    await importRows(
      w,
      randomRows(rand, 1500).map((r, i) => ({ ...r, zone_id: `Z-${i % 211}` })),
    );
    /** The key months of April under version `v`, in one order, money to 6 decimals. */
    const april = async (v: number) =>
      (
        await w.db.all<Record<string, unknown>>(
          `SELECT * EXCEPT version FROM ${w.db.t('zone_report_key_month')} WHERE month = '2026-04-01' AND version = {v:UInt64} ORDER BY ALL`,
          { v },
        )
      ).map((r) => Object.fromEntries(Object.entries(r).map(([k, x]) => [k, typeof x === 'number' ? Math.round(x * 1e6) / 1e6 : x])));
    const [{ current }] = await w.db.all<{ current: number }>(
      `SELECT max(version) AS current FROM ${w.db.t('zone_report_key_month_current')} WHERE month = '2026-04-01'`,
    );
    const whole = await april(Number(current));
    expect(whole.length).toBeGreaterThan(300);
    const parts = Math.ceil(whole.length / 100);

    const inserts: Array<Record<string, unknown>> = [];
    const command = w.db.command.bind(w.db);
    let refuse = false;
    vi.spyOn(w.db, 'command').mockImplementation(async (sql: string, params?: Record<string, unknown>) => {
      if (sql.includes('INSERT INTO `parts`.`zone_report_key_month`')) {
        inserts.push(params ?? {});
        if (refuse && params?.part === 1) {
          refuse = false;
          throw Object.assign(new Error('Query memory limit exceeded'), { code: '241' });
        }
      }
      return command(sql, params);
    });
    const v1 = await nextVersion(w.db);
    expect(await writeZonePeriods(w.db, 'key_month', ['2026-04-01'], v1, 100)).toBe(true);
    expect(inserts.map((p) => [p.parts, p.part])).toEqual(Array.from({ length: parts }, (_, i) => [parts, i]));
    expect(await april(v1)).toEqual(whole);

    inserts.length = 0;
    refuse = true;
    const v2 = await nextVersion(w.db);
    expect(await writeZonePeriods(w.db, 'key_month', ['2026-04-01'], v2, 100)).toBe(true);
    // Parts 0 and 1 (refused), then the month again in twice as many.
    expect(inserts.map((p) => [p.parts, p.part])).toEqual([[parts, 0], [parts, 1], ...Array.from({ length: 2 * parts }, (_, i) => [2 * parts, i])]);
    expect(await april(v2)).toEqual(whole);
  } finally {
    vi.restoreAllMocks();
    await w.close();
  }
});
