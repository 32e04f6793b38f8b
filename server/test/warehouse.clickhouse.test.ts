// The warehouse contract on ClickHouse, run on the real engine embedded in this process (chdb
// through the official client: the production adapter code unchanged), with its rollup on and
// off; the proof that it answers what DuckDB answers after replacing imports; and what is
// ClickHouse's own: replaced rows before and after merges, migrations, hostile text as data.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { chdbPath, openClickHouseWarehouse } from '../src/warehouse/clickhouse/index.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { ClickHouseDb } from '../src/warehouse/clickhouse/db.js';
import { MIGRATIONS, migrate } from '../src/warehouse/clickhouse/migrations.js';
import { repairRollup } from '../src/warehouse/clickhouse/zone-report/schema.js';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import { createWarehouse, type ReferrerEvent, type Warehouse, type ZoneReportRecord } from '../src/warehouse/index.js';
import { ZONE_FIXTURE, describeSameAnswers, describeWarehouseContract, event, importRows } from './warehouse-contract.js';
import { chdbClient } from './helpers.js';

// chdb runs one engine (one data path) per process: one path for this file, a database per warehouse.
const { client, dir } = await chdbClient('chdb');
let databases = 0;
const open = (options: { rollup?: boolean } = {}) => openClickHouseWarehouse(client, { database: `w${++databases}`, ...options });

describeWarehouseContract('ClickHouse', () => open());
describeWarehouseContract('ClickHouse without its rollup', () => open({ rollup: false }));
describeSameAnswers(
  'ClickHouse answers what DuckDB answers',
  () => open(),
  () => openDuckDbWarehouse(':memory:', { rollup: false }),
);

const RANGE = { start_date: '2026-03-01', end_date: '2026-03-03' };
const count = async (db: ClickHouseDb, sql: string) => Number((await db.one<{ n: number }>(`SELECT count() AS n FROM ${sql}`))?.n);

describe('ClickHouse: a replaced row', () => {
  let w: Warehouse & { db: ClickHouseDb };
  let raw: Warehouse;
  beforeAll(async () => {
    w = await open();
    raw = await openClickHouseWarehouse(client, { database: w.db.database, rollup: false });
    await importRows(w, ZONE_FIXTURE);
  });
  afterAll(async () => {
    await raw.close();
    await w.close();
  });

  /** What every report of the range must answer once R2 is replaced (revenue 4 → 40, domain b.com → b2.com). */
  async function expectReplaced(x: Warehouse) {
    expect(await x.zoneReports.countRows()).toBe(6);
    expect((await x.zoneReports.totals(RANGE)).revenue).toBeCloseTo(58, 9);
    expect((await x.zoneReports.totals(RANGE)).rows).toBe(5);
    const domains = await x.zoneReports.groups({ filters: RANGE, by: ['domain'], order: [{ key: 'domain', dir: 'asc' }] });
    expect(domains.rows.map((d) => [d.domain, d.revenue, d.rows])).toEqual([
      ['a.com', 10, 2],
      ['b.com', 6, 1],
      ['b2.com', 40, 1],
      ['c.com', 2, 1],
    ]);
    const advertisers = await x.zoneReports.topEarners(RANGE, 5);
    expect(advertisers.advertisers.find((a) => a.advertiser === 'BidSphere')?.revenue).toBe(40);
    expect((await x.zoneReports.rows({ filters: { ...RANGE, zone_id: 'Z-200' }, order: [] })).map((r) => [r.revenue, r.domain])).toEqual([
      [40, 'b2.com'],
    ]);
  }

  test('is not counted twice before any merge, nor after OPTIMIZE … FINAL', async () => {
    await w.db.command(`SYSTEM STOP MERGES ${w.db.t('zone_report')}`);
    try {
      expect(await importRows(w, [{ ...ZONE_FIXTURE[1], revenue: 40, margin: 12, domain: 'b2.com' }])).toMatchObject({ inserted: 0, replaced: 1 });
      // Both versions are still stored: reads deduplicate them (FINAL), the rollup was rewritten.
      expect(await count(w.db, w.db.t('zone_report'))).toBe(7);
      await expectReplaced(w);
      await expectReplaced(raw);
    } finally {
      await w.db.command(`SYSTEM START MERGES ${w.db.t('zone_report')}`);
    }
    await w.db.command(`OPTIMIZE TABLE ${w.db.t('zone_report')} FINAL`);
    expect(await count(w.db, w.db.t('zone_report'))).toBe(6);
    await expectReplaced(w);
    await expectReplaced(raw);
  });

  test('leaves one rollup version per day: the superseded one is deleted', async () => {
    const versions = await w.db.all<{ date: string; n: number }>(
      `SELECT toString(date) AS date, uniqExact(version) AS n FROM ${w.db.t('zone_report_rollup')} GROUP BY date ORDER BY date`,
    );
    expect(versions).toEqual([
      { date: '2026-02-28', n: 1 },
      { date: '2026-03-01', n: 1 },
      { date: '2026-03-02', n: 1 },
      { date: '2026-03-03', n: 1 },
    ]);
  });

  test('an import cut between its rows and its rollup is repaired (once its mark is old enough to be abandoned)', async () => {
    // As a crash would leave it: the day marked pending and its rows inserted, the rollup not rewritten.
    const v = Number((await w.db.one<{ v: number }>(`SELECT max(version) + 1 AS v FROM ${w.db.t('zone_report_pending')}`))?.v);
    await w.db.command(`INSERT INTO ${w.db.t('zone_report_pending')} VALUES ('2026-03-03', {v:UInt64})`, { v });
    await w.db.command(
      `INSERT INTO ${w.db.t('zone_report')} SELECT * REPLACE (revenue * 2 AS revenue, {v:UInt64} AS version) FROM ${w.db.t('zone_report')} FINAL WHERE date = '2026-03-03'`,
      { v },
    );
    expect((await raw.zoneReports.totals(RANGE)).revenue).toBeCloseTo(64, 9);
    expect((await w.zoneReports.totals(RANGE)).revenue).toBeCloseTo(58, 9); // the stale rollup
    // Opening again within the grace leaves it to the commit that may still be under way elsewhere.
    const reopened = await openClickHouseWarehouse(client, { database: w.db.database });
    try {
      expect((await reopened.zoneReports.totals(RANGE)).revenue).toBeCloseTo(58, 9);
      expect(await repairRollup(reopened.db, 0)).toEqual(['2026-03-03']);
      expect((await reopened.zoneReports.totals(RANGE)).revenue).toBeCloseTo(64, 9);
      expect(await repairRollup(reopened.db, 0)).toEqual([]);
    } finally {
      await reopened.close();
    }
  });
});

describe('ClickHouse: schema migrations', () => {
  test('apply each version once, in order; a new one alone; reopening keeps the data', async () => {
    const db = new ClickHouseDb(client, `fresh${++databases}`, true, false);
    expect(await migrate(db)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await migrate(db)).toEqual([]);
    const extra = [
      ...MIGRATIONS,
      {
        version: 99,
        name: 'a test table',
        statements: (d: ClickHouseDb) => [`CREATE TABLE ${d.t('extra')} (x UInt8) ENGINE = MergeTree ORDER BY x`],
      },
    ];
    // Not IF NOT EXISTS: a second run would fail.
    expect(await migrate(db, extra)).toEqual([99]);
    expect(await migrate(db, extra)).toEqual([]);
    expect(await db.all(`SELECT version, count() AS n FROM ${db.t('schema_migrations')} GROUP BY version ORDER BY version`)).toEqual(
      [...MIGRATIONS.map((m) => m.version), 99].map((version) => ({ version, n: 1 })),
    );

    const w = await openClickHouseWarehouse(client, { database: db.database });
    await importRows(w, ZONE_FIXTURE);
    await w.close();
    const again = await openClickHouseWarehouse(client, { database: db.database });
    expect(await again.zoneReports.countRows()).toBe(6);
    await again.close();
  });

  test('the event TTL is set from the options and changed only when it differs', async () => {
    const database = `w${++databases}`;
    const engine = async (x: { db: ClickHouseDb }) =>
      (
        await x.db.one<{ e: string }>('SELECT engine_full AS e FROM system.tables WHERE database = {db:String} AND name = {t:String}', {
          db: database,
          t: 'referrer_event',
        })
      )?.e;
    const w = await openClickHouseWarehouse(client, { database, eventTtlDays: 120 });
    expect(await engine(w)).toContain('TTL toDateTime(seen_at) + toIntervalDay(120)');
    await w.close();
    const w2 = await openClickHouseWarehouse(client, { database, eventTtlDays: 60 });
    expect(await engine(w2)).toContain('TTL toDateTime(seen_at) + toIntervalDay(60)');
    await w2.close();
  });
});

describe('ClickHouse: idempotency keys', () => {
  const keyedEvent = (id: number): ReferrerEvent => event(id, Date.parse('2026-03-02T10:00:00Z') + id, { zone_id: '9' });
  const since = () => Date.now() - 7 * 86_400_000;

  test('a database made before them (migrations 1–2, events stored) gains them at open; its events stay', async () => {
    const db = new ClickHouseDb(client, `old${++databases}`, true, false);
    expect(
      await migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= 2),
      ),
    ).toEqual([1, 2]);
    await db.insert('referrer_event', [
      { id: 1, seen_at: '2026-03-02 10:00:00.000', zone_id: '9' },
      { id: 2, seen_at: '2026-03-02 10:00:01.000', zone_id: '9' },
    ]);
    const w = await openClickHouseWarehouse(client, { database: db.database });
    try {
      expect(await w.db.all(`SELECT version FROM ${w.db.t('schema_migrations')} ORDER BY version`)).toEqual(
        MIGRATIONS.map((m) => ({ version: m.version })),
      );
      expect(await w.referrers.countEvents()).toBe(2);
      await w.referrers.append([keyedEvent(3)], { keys: ['e:after-upgrade'], since: since() });
      expect(await w.referrers.seenKeys(['e:after-upgrade'], since())).toEqual(new Set(['e:after-upgrade']));
      expect(await w.referrers.maxEventId()).toBe(3);
    } finally {
      await w.close();
    }
  });

  test('keys arrive with their events (one INSERT, through the materialized view) and leave by TTL after 7 days', async () => {
    const w = await open();
    const sent = vi.spyOn(w.db.client, 'insert');
    try {
      await w.referrers.append([keyedEvent(1), keyedEvent(2)], { keys: ['e:a', 'b:batch'], since: since() });
      // One INSERT, its rows as arrays of values (JSONCompactEachRow: a minute of beacon traffic,
      // 12,000 events, took a third less time and CPU than as JSONEachRow's objects).
      expect(sent.mock.calls.map(([p]) => [p.table, p.format])).toEqual([[w.db.t('referrer_event'), 'JSONCompactEachRow']]);
      expect(await w.db.all(`SELECT event_key FROM ${w.db.t('referrer_event')} ORDER BY id`)).toEqual([
        { event_key: 'e:a\nb:batch' },
        { event_key: '' },
      ]);
      expect(await w.db.all(`SELECT key FROM ${w.db.t('referrer_event_key')} ORDER BY key`)).toEqual([{ key: 'b:batch' }, { key: 'e:a' }]);
      const table = await w.db.one<{ e: string }>('SELECT engine_full AS e FROM system.tables WHERE database = {db:String} AND name = {t:String}', {
        db: w.db.database,
        t: 'referrer_event_key',
      });
      expect(table?.e).toContain('ReplacingMergeTree');
      expect(table?.e).toContain('TTL toDateTime(added_at) + toIntervalDay(7)');
      // Retention leaves expiry to the TTL.
      expect(await w.referrers.expireKeys(Date.now() + 86_400_000)).toBe(0);
    } finally {
      sent.mockRestore();
      await w.close();
    }
  });
});

describe('ClickHouse: hostile text is data', () => {
  const HOSTILE = [
    "O'Brien",
    'back\\slash \\',
    '"quoted"',
    "'); DROP TABLE zone_report; --",
    '{p0:String}',
    '%_*?',
    'tab\there',
    'line\nbreak',
    'Ñandú 😀 عربى',
    '\\N',
    'NULL',
    '\u0000zero',
  ];
  let w: Warehouse & { db: ClickHouseDb };
  beforeAll(async () => {
    w = await open();
  });
  afterAll(() => w.close());

  test('zone-report text round-trips, filters match it exactly, lists show it', async () => {
    const rows: ZoneReportRecord[] = HOSTILE.map((text, i) => ({
      ...ZONE_FIXTURE[0],
      advertiser: text,
      publisher: `${text}/p`,
      zone_id: `${text}#${i}`,
      domain: text,
      geo: text,
      revenue: i + 1,
    }));
    expect(await importRows(w, rows)).toEqual({ inserted: HOSTILE.length, replaced: 0, repeated: [], repeated_total: 0 });
    const stored = await w.zoneReports.rows({ filters: RANGE, order: [{ key: 'revenue', dir: 'asc' }] });
    expect(stored).toEqual(rows);
    for (const [i, text] of HOSTILE.entries()) {
      expect((await w.zoneReports.totals({ ...RANGE, advertiser: text })).revenue).toBe(i + 1);
      expect((await w.zoneReports.totals({ ...RANGE, domain: text, geo: text })).rows).toBe(1);
      expect((await w.zoneReports.totals({ ...RANGE, zone_id: `${text}#${i}` })).rows).toBe(1);
    }
    const values = await w.zoneReports.dimensionValues();
    expect([...values.advertisers].sort()).toEqual([...HOSTILE].sort());
    expect(await w.zoneReports.countRows()).toBe(HOSTILE.length);
  });

  test('referrer text round-trips and filters match it exactly', async () => {
    const t = Date.parse('2026-03-02T10:00:00Z');
    const events: ReferrerEvent[] = HOSTILE.map((text, i) => ({
      id: i + 1,
      seen_ms: t + i,
      seen_at: new Date(t + i).toISOString(),
      zone_id: `${text}#${i}`,
      parent_domain: text,
      referrer: `https://x.test/?q=${text}`,
      keyword: text,
      ip: '10.0.0.1',
      country: 'ES',
      publisher: text,
      advertiser: text,
      is_bot: false,
      reason: null,
    }));
    await w.referrers.append(events);
    const range = { from: t - 1, to: t + 1000 };
    const log = await w.referrers.logs({ filter: range, order: [{ key: 'id', dir: 'asc' }] });
    expect(log.rows).toEqual(events.map(({ seen_ms: _s, publisher: _p, advertiser: _a, ...rest }) => rest));
    for (const text of HOSTILE) {
      expect((await w.referrers.referrers({ filter: { ...range, parentDomain: text, publisher: text }, order: [] })).total).toBe(1);
    }
  });
});

describe('ClickHouse: retention', () => {
  const day = (d: string, id: number): ReferrerEvent => ({
    id,
    seen_ms: Date.parse(`${d}T12:00:00Z`),
    seen_at: `${d}T12:00:00.000Z`,
    zone_id: '7',
    parent_domain: 'p.test',
    referrer: 'https://p.test/',
    keyword: null,
    ip: null,
    country: null,
    publisher: 'Pub',
    advertiser: null,
  });
  const ALL = { from: Date.parse('2026-01-01T00:00:00Z'), to: Date.parse('2026-04-01T00:00:00Z') };

  test('drops wholly rolled-up months, and rolls up late events of an old day in the next run', async () => {
    const w = await open();
    try {
      await w.referrers.append([day('2026-01-10', 1), day('2026-01-20', 2), day('2026-02-10', 3), day('2026-03-10', 4), day('2026-03-20', 5)]);
      expect(await w.referrers.rollUpBefore(Date.parse('2026-03-15T00:00:00Z'))).toEqual({ deleted: 4, rolledUp: 4 });
      // January and February are gone from disk; March stays (uncounted before the cutoff) until it is wholly behind it.
      expect(await count(w.db, w.db.t('referrer_event'))).toBe(2);
      expect(await w.referrers.countEvents()).toBe(1);
      expect((await w.referrers.logs({ filter: ALL, order: [] })).rows.map((e) => e.id)).toEqual([5]);
      // A late event of an old day: counted raw until the next run rolls it up.
      await w.referrers.append([day('2026-01-15', 6)]);
      expect((await w.referrers.logs({ filter: ALL, order: [] })).rows.map((e) => e.id)).toEqual([5, 6]);
      expect((await w.referrers.referrers({ filter: ALL, order: [] })).hits).toBe(6);
      expect(await w.referrers.rollUpBefore(Date.parse('2026-03-15T00:00:00Z'))).toEqual({ deleted: 1, rolledUp: 1 });
      expect((await w.referrers.referrers({ filter: ALL, order: [] })).hits).toBe(6);
      expect(await w.referrers.countEvents()).toBe(1);
      expect(await w.referrers.maxEventId()).toBe(6);
      // An earlier cutoff never moves the watermark back.
      expect(await w.referrers.rollUpBefore(Date.parse('2026-01-01T00:00:00Z'))).toEqual({ deleted: 0, rolledUp: 0 });
    } finally {
      await w.close();
    }
  });
});

describe('ClickHouse: chosen by configuration', () => {
  test('ADOPS_WAREHOUSE is duckdb by default; clickhouse needs ADOPS_CLICKHOUSE_URL and a plain database name', () => {
    expect(loadConfig({}).warehouse).toBe('duckdb');
    expect(() => loadConfig({ ADOPS_WAREHOUSE: 'clickhouse' })).toThrow(ConfigError);
    expect(() => loadConfig({ ADOPS_WAREHOUSE: 'clickhouse' })).toThrow(/ADOPS_CLICKHOUSE_URL/);
    expect(() => loadConfig({ ADOPS_WAREHOUSE: 'mysql' })).toThrow(/ADOPS_WAREHOUSE/);
    expect(() => loadConfig({ ADOPS_WAREHOUSE: 'clickhouse', ADOPS_CLICKHOUSE_URL: 'ftp://x' })).toThrow(/ADOPS_CLICKHOUSE_URL/);
    expect(() =>
      loadConfig({ ADOPS_WAREHOUSE: 'clickhouse', ADOPS_CLICKHOUSE_URL: 'http://ch:8123', ADOPS_CLICKHOUSE_DATABASE: 'a-b; DROP' }),
    ).toThrow(/ADOPS_CLICKHOUSE_DATABASE/);
    const c = loadConfig({
      ADOPS_WAREHOUSE: 'clickhouse',
      ADOPS_CLICKHOUSE_URL: 'https://ch.example:8443',
      ADOPS_CLICKHOUSE_USER: 'adops',
      ADOPS_CLICKHOUSE_PASSWORD: 'secret',
      ADOPS_CLICKHOUSE_DATABASE: 'facts',
    });
    expect(c.clickhouse).toEqual({ url: 'https://ch.example:8443', username: 'adops', password: 'secret', database: 'facts' });
    expect(loadConfig({ ADOPS_WAREHOUSE: 'clickhouse', ADOPS_CLICKHOUSE_URL: 'chdb:///var/lib/ch' }).clickhouse?.database).toBe('adops');
    expect(chdbPath('chdb:///var/lib/ch')).toBe('/var/lib/ch');
    expect(chdbPath('chdb://data/ch')).toBe(path.resolve('data/ch'));
    expect(chdbPath('chdb:')).toBe(':memory:');
  });

  test('createWarehouse opens ClickHouse for a chdb: URL (the same engine path)', async () => {
    const w = await createWarehouse({ dataDir: dir, warehouse: 'clickhouse', clickhouse: { url: `chdb://${dir}`, database: 'configured' } });
    try {
      expect(w.engine).toBe('clickhouse');
      await importRows(w, ZONE_FIXTURE);
      expect(await w.zoneReports.countRows()).toBe(6);
    } finally {
      await w.close();
    }
  });

  test('embedded, ADOPS_WAREHOUSE_MEMORY_LIMIT bounds every query: sorts and groups spill from half of it, inserts write small blocks', async () => {
    const setting = async (w: Warehouse, name: string) =>
      (await (w as Warehouse & { db: ClickHouseDb }).db.one<{ v: string }>('SELECT toString(getSetting({name:String})) AS v', { name }))?.v;
    const configured = (limit?: string) =>
      createWarehouse(
        loadConfig({
          ADOPS_DATA_DIR: dir,
          ADOPS_WAREHOUSE: 'clickhouse',
          ADOPS_CLICKHOUSE_URL: `chdb://${dir}`,
          ADOPS_CLICKHOUSE_DATABASE: 'bounded',
          ...(limit ? { ADOPS_WAREHOUSE_MEMORY_LIMIT: limit } : {}),
        }),
      );
    for (const [limit, bytes] of [
      ['96MB', 96_000_000],
      ['1GiB', 2 ** 30],
      [undefined, 128_000_000], // the default, as DuckDB's
    ] as const) {
      const w = await configured(limit);
      try {
        expect(await setting(w, 'max_memory_usage')).toBe(String(bytes));
        expect(await setting(w, 'max_bytes_before_external_sort')).toBe(String(bytes / 2));
        expect(await setting(w, 'max_bytes_before_external_group_by')).toBe(String(bytes / 2));
        // An INSERT … SELECT writes blocks of a 32nd of it (a million rows in one block passed the limit).
        expect(await setting(w, 'min_insert_block_size_bytes')).toBe(String(Math.floor(bytes / 32)));
        // Set once on the embedded engine's session, not sent again as SET statements before every query.
        const { client } = (w as Warehouse & { db: ClickHouseDb }).db;
        const sent = vi.spyOn(client, 'query');
        await w.zoneReports.countRows();
        expect(sent).toHaveBeenCalled();
        for (const [call] of sent.mock.calls) expect(call.clickhouse_settings).toEqual({});
        expect(await setting(w, 'prefer_column_name_to_alias')).toBe('true');
      } finally {
        vi.restoreAllMocks();
        await w.close();
      }
    }
    // A warehouse opened without a limit (a ClickHouse server's) keeps the engine's own settings.
    const plain = await open();
    expect(await setting(plain, 'max_memory_usage')).not.toBe('128000000');
    await plain.close();
  });
});
