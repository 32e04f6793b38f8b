// DuckDB's derived tables (day rollup, zone list, key months, zone months and weeks) rebuilt at
// start from the stored rows — a data directory from before them, or rows loaded straight into
// zone_report — one month at a time: one statement over every row grouped 100 M rows' key months
// in one hash table, past the default 128 MB engine limit, and the warehouse did not open.
// What the imports keep is what a rebuild makes: an import of days never stored adds their sums to
// the months and weeks that hold them (key months, zone weeks), one replacing rows sums those
// periods again from their rows.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addDays } from '@adops/core';
import { prng } from '../src/sandbox/demo/prng.js';
import { Db } from '../src/warehouse/duckdb/db.js';
import { openDuckDbWarehouse } from '../src/warehouse/duckdb/index.js';
import { ensureZoneReportSchema } from '../src/warehouse/duckdb/zone-report/schema.js';
import { importRows, randomRows } from './warehouse-contract.js';

/** The derived tables. */
const DERIVED = ['zone_report_rollup', 'zone_report_zones', 'zone_report_key_month', 'zone_report_zone_month', 'zone_report_zone_week'];
/** A table's rows in one order, money rounded to 6 decimals (sums may add in another order). */
const rowsOf = async (db: Db, table: string) =>
  (await db.all<Record<string, unknown>>(`SELECT * FROM ${table} ORDER BY ALL`)).map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v])),
  );
/** As rows loaded straight into zone_report: the derived tables empty, never built. */
const forget = (db: Db) => db.exec(`${DERIVED.map((t) => `DELETE FROM ${t};`).join(' ')} DELETE FROM warehouse_meta`);

// 1 February 2026 is a Sunday: its week starts on 26 January, a month without rows.
const rand = prng(1129);
const ROWS = randomRows(rand, 2500).map((r) => ({ ...r, date: addDays('2026-02-01', Math.floor(rand() * 74)) }));

describe('DuckDB: derived tables rebuilt at start', () => {
  let dir: string;
  /** The derived tables as the imports kept them. */
  const kept: Record<string, unknown[]> = {};
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'adops-rebuild-'));
    const w = await openDuckDbWarehouse(dir);
    try {
      // Days up to a Tuesday mid-March, then the days after it (added to March and to that week),
      // then a few rows of February again with other figures, half of them on another domain (not
      // part of the key: their key months move), replaced.
      await importRows(
        w,
        ROWS.filter((r) => r.date < '2026-03-10'),
      );
      await importRows(
        w,
        ROWS.filter((r) => r.date >= '2026-03-10'),
      );
      const again = ROWS.filter((r) => r.date < '2026-02-20').slice(0, 50);
      const changed = again.map((r, i) => ({
        ...r,
        revenue: r.revenue + 1,
        impressions: r.impressions + 7,
        domain: i % 2 ? 'otro.example' : r.domain,
      }));
      expect(await importRows(w, changed)).toMatchObject({ replaced: 50 });
      for (const table of DERIVED) kept[table] = await rowsOf(w.db, table);
      await forget(w.db);
    } finally {
      await w.close();
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test('hold what the imports kept, the week before the first month’s rows too', async () => {
    expect(kept.zone_report_zone_week[0]).toMatchObject({ week: '2026-01-26' });
    const w = await openDuckDbWarehouse(dir);
    try {
      for (const table of DERIVED) expect(await rowsOf(w.db, table), table).toEqual(kept[table]);
    } finally {
      await w.close();
    }
  });

  test('each statement of the rebuild reads one month’s rows (each week with the month of its Monday)', async () => {
    const db = await Db.open(dir);
    try {
      await forget(db);
      const inserts: Array<{ sql: string; month: string }> = [];
      const serialWrite = db.serialWrite.bind(db);
      Object.assign(db, {
        serialWrite: (work: (c: unknown) => Promise<unknown>) =>
          serialWrite((c) =>
            work(
              new Proxy(c, {
                get: (target, name) =>
                  name === 'run'
                    ? (sql: string, params?: Record<string, string>) => {
                        if (/^\s*INSERT INTO zone_report_(?!.*warehouse_meta)/.test(sql)) inserts.push({ sql, month: String(params?.month) });
                        return target.run(sql, params as never);
                      }
                    : Reflect.get(target, name).bind(target),
              }),
            ),
          ),
      });
      await ensureZoneReportSchema(db);
      // January (the Monday of 1 February's week), February, March, April: five tables a month.
      const months = ['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01'];
      expect(inserts.map((i) => i.month)).toEqual(months.flatMap((m) => Array<string>(5).fill(m)));
      for (const { sql } of inserts) expect(sql).toMatch(/WHERE date BETWEEN \$month::DATE AND last_day\(\$month::DATE\)/);
    } finally {
      await db.close();
    }
  });
});
