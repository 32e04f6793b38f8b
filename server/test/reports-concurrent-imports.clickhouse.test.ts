// Zone-report imports of the same days at two API instances at once, on one ClickHouse: each
// instance is its own warehouse object (its own ClickHouseDb, so its own in-process write queue)
// on the same engine and database. Whatever order their statements interleave in, once both
// commits are done every day's current rollup must sum exactly what the stored rows (FINAL) sum —
// reports read the rollup, row listings and zone filters read the rows.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ClickHouseClient, createClient } from '@clickhouse/client';
import { openClickHouseWarehouse } from '../src/warehouse/clickhouse/index.js';
import type { ClickHouseDb } from '../src/warehouse/clickhouse/db.js';
import type { ZoneReportRecord } from '../src/warehouse/index.js';
import { type ClickHouseHttp, startClickHouseHttp } from './clickhouse-http.js';
import { chdbClient } from './helpers.js';
import { expectSame, importRows, randomRows } from './warehouse-contract.js';

// chdb runs one engine per process: both "instances" share it (a database per test).
const { client } = await chdbClient('chdb-concurrent');
let databases = 0;

/** The query of a new version (schema.ts nextVersion). */
const NEXT_VERSION = /SELECT greatest\(toUInt64\(toUnixTimestamp64Micro\(now64\(6\)\)\)/;

/** A statement of an import's commit an instance can be held at (the `nth` statement matching). */
const STEPS: Record<string, { at: RegExp; nth?: number }> = {
  'before its rows insert': { at: /^\s*INSERT INTO `\w+`\.`zone_report` \(/ },
  'before taking its rollup version': { at: NEXT_VERSION, nth: 2 },
  'before its rollup build': { at: /^\s*INSERT INTO `\w+`\.`zone_report_rollup` \(/ },
  'before its day switch': { at: /^\s*INSERT INTO `\w+`\.`zone_report_day` \(/ },
};

/** A promise with its resolve function. */
function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A client as one instance sees it, with its statements passed through `around`
 * (which may wait before or after running them, or change their SQL).
 */
function wrappedClient(base: ClickHouseClient, around: (sql: string, run: (sql: string) => Promise<unknown>) => Promise<unknown>): ClickHouseClient {
  return new Proxy(base, {
    get(target, key) {
      if (key === 'command' || key === 'query') {
        const method = Reflect.get(target, key, target) as (p: { query: string }) => Promise<unknown>;
        return (params: { query: string }) => around(params.query, (query) => method.call(target, { ...params, query }));
      }
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The client held once at the `nth` statement matching `at` until `release()`; `reached` resolves when it gets there. */
function heldClient(base: ClickHouseClient, at: RegExp, nth = 1) {
  const reached = signal();
  const gate = signal();
  let seen = 0;
  const held = wrappedClient(base, async (sql, run) => {
    if (at.test(sql) && ++seen === nth) {
      reached.resolve();
      await gate.promise;
    }
    return run(sql);
  });
  return { client: held, reached: reached.promise, release: gate.resolve };
}

const row = (date: string, zone_id: string, revenue: number, r: Partial<ZoneReportRecord> = {}): ZoneReportRecord => ({
  date,
  advertiser: 'AdNova',
  publisher: 'PubA',
  zone_id,
  geo: 'ES',
  source: 'search',
  domain: 'a.com',
  impressions: 1000,
  monetized_impressions: 900,
  clicks: 10,
  revenue,
  rate_applied: 0.7,
  p_revenue: revenue * 0.7,
  margin: revenue * 0.3,
  tq: 0.5,
  ...r,
});

interface DaySums {
  date: string;
  rows: number;
  impressions: number;
  clicks: number;
  revenue: number;
}

/** Per day: what the current rollup sums, and what the stored rows (FINAL) sum. */
async function daySums(db: ClickHouseDb): Promise<{ rollup: DaySums[]; rows: DaySums[] }> {
  const sums = 'count() AS rows, sum(impressions) AS impressions, sum(clicks) AS clicks, round(sum(revenue), 6) AS revenue';
  const rows = await db.all<DaySums>(`SELECT toString(date) AS date, ${sums} FROM ${db.t('zone_report')} FINAL GROUP BY date ORDER BY date`);
  const rollup = await db.all<DaySums>(
    `SELECT toString(date) AS date, sum(rows) AS rows, sum(impressions) AS impressions, sum(clicks) AS clicks,
            round(sum(revenue), 6) AS revenue
       FROM ${db.t('zone_report_rollup')}
      WHERE (date, version) IN (SELECT date, max(version) FROM ${db.t('zone_report_day')} GROUP BY date)
      GROUP BY date ORDER BY date`,
  );
  return { rollup, rows };
}

/**
 * Instance B (on `second`) is held at `at` in the middle of its commit while instance A (on
 * `first`) imports the same day start to end; then B finishes. Both on one fresh database.
 */
async function importWhileHeld(first: ClickHouseClient, second: ClickHouseClient, at: RegExp, nth?: number): Promise<void> {
  const database = `concurrent${++databases}`;
  const held = heldClient(second, at, nth);
  const a = await openClickHouseWarehouse(first, { database });
  const b = await openClickHouseWarehouse(held.client, { database });
  try {
    // A day both imports touch (different zones, and one zone both send), one only B touches.
    await importRows(a, [row('2026-05-01', 'Z-1', 1), row('2026-05-02', 'Z-1', 1)]);
    const importB = importRows(b, [row('2026-05-01', 'Z-2', 20), row('2026-05-01', 'Z-3', 300), row('2026-05-03', 'Z-2', 5)]);
    await held.reached;
    await importRows(a, [row('2026-05-01', 'Z-4', 4000), row('2026-05-01', 'Z-3', 50_000)]);
    held.release();
    await importB;

    const { rollup, rows } = await daySums(a.db);
    expect(rollup).toEqual(rows);
    expect(rows.map((d) => d.rows)).toEqual([4, 1, 1]);
    // Reports (the rollup) at either instance agree with the rows (FINAL, rollup off).
    const raw = await openClickHouseWarehouse(first, { database, rollup: false });
    try {
      const range = { start_date: '2026-05-01', end_date: '2026-05-03' };
      const expected = await raw.zoneReports.totals(range);
      expectSame(await a.zoneReports.totals(range), expected);
      expectSame(await b.zoneReports.totals(range), expected);
    } finally {
      await raw.close();
    }
  } finally {
    held.release();
    await b.close();
    await a.close();
  }
}

/** Imports of random rows over the same few days, half at each instance, all at once. */
async function importManyAtOnce(first: ClickHouseClient, second: ClickHouseClient): Promise<void> {
  const database = `concurrent${++databases}`;
  const a = await openClickHouseWarehouse(first, { database });
  const b = await openClickHouseWarehouse(second, { database });
  try {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const batches = Array.from({ length: 12 }, () => randomRows(rand, 40));
    await Promise.all(batches.map((rows, i) => importRows(i % 2 === 0 ? a : b, rows)));
    const { rollup, rows } = await daySums(a.db);
    expect(rollup).toEqual(rows);
  } finally {
    await b.close();
    await a.close();
  }
}

describe('ClickHouse: imports of the same day at two instances at once', () => {
  for (const [step, { at, nth }] of Object.entries(STEPS)) {
    test(`the rollup sums every row when one instance is held ${step} while the other imports the same day`, () =>
      importWhileHeld(client, client, at, nth));
  }

  test('two builds of the same day under the same version (the same microsecond) are not summed together', async () => {
    // Each instance is held as it is about to take its rollup version (both rows inserted), then
    // both are answered the same version — as two queries in the same microsecond would be. Later
    // versions come from the clock as usual.
    let tie = 0;
    const instance = () => {
      const before = signal();
      const go = signal();
      let seen = 0;
      const c = wrappedClient(client, async (sql, run) => {
        if (!NEXT_VERSION.test(sql) || ++seen !== 2) return run(sql);
        before.resolve();
        await go.promise;
        return run(`SELECT toUInt64(${tie}) AS v`);
      });
      return { client: c, before: before.promise, go: go.resolve, versions: () => seen };
    };
    const ha = instance();
    const hb = instance();
    const database = `concurrent${++databases}`;
    const a = await openClickHouseWarehouse(ha.client, { database });
    const b = await openClickHouseWarehouse(hb.client, { database });
    try {
      const importA = importRows(a, [row('2026-06-01', 'Z-1', 1), row('2026-06-02', 'Z-1', 2)]);
      const importB = importRows(b, [row('2026-06-01', 'Z-2', 30)]);
      await Promise.all([ha.before, hb.before]);
      tie = Number((await a.db.one<{ v: number }>(`SELECT max(version) + 1 AS v FROM ${a.db.t('zone_report_pending')}`))?.v);
      ha.go();
      hb.go();
      await Promise.all([importA, importB]);
      // At least one of them saw the other's rollup rows under its version and built again.
      expect(ha.versions() + hb.versions()).toBeGreaterThan(4);
      const { rollup, rows } = await daySums(a.db);
      expect(rollup).toEqual(rows);
      expect(rows.map((d) => d.rows)).toEqual([2, 1]);
    } finally {
      ha.go();
      hb.go();
      await b.close();
      await a.close();
    }
  });

  test('many imports of overlapping days from two instances, interleaved freely, leave the rollup equal to the rows', () =>
    importManyAtOnce(client, client));
});

// Two clients of their own, as two API processes have, on one engine served over HTTP.
describe('ClickHouse over HTTP: imports of the same day at two instances at once', () => {
  let server: ClickHouseHttp;
  let first: ClickHouseClient;
  let second: ClickHouseClient;
  beforeAll(async () => {
    server = await startClickHouseHttp();
    first = createClient({ url: server.url });
    second = createClient({ url: server.url });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await server?.stop();
  });

  for (const step of ['before its rows insert', 'before taking its rollup version']) {
    test(`the rollup sums every row when one instance is held ${step}`, () => importWhileHeld(first, second, STEPS[step].at, STEPS[step].nth));
  }
  test('many imports from two instances at once leave the rollup equal to the rows', () => importManyAtOnce(first, second));
});
