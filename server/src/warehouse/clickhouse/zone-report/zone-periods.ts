// ClickHouse's zone periods: each month's and each ISO week's (Monday first) revenue and margin
// (of the rows with revenue) per publisher × zone, for the Dashboard's 'Top Zones' of a long range
// (zone-report/get-top-earners.ts: a range's whole months from the months, the whole weeks left at
// its ends from the weeks, the days left from the rows), and every report sum per month × report
// dimension but the day, for a zone search's totals (zone-report/key-months.ts) — DuckDB's
// zone_report_zone_month, zone_report_zone_week and zone_report_key_month, versioned like the day
// rollup (schema.ts): a period's rows carry the version of the rollup build that wrote them,
// zone_report_month / zone_report_week / zone_report_key_month_current record each period's
// current version, and superseded versions are deleted afterwards. Every rollup build rewrites
// the periods of its days from the stored rows (FINAL) under its own version, before it switches
// anything, so the build that wins a period (the highest version) read every row committed before
// it, as for days.
import { SUM_KEYS, addDays, endOfMonth, startOfMonth, sumColumnsSql, weekdayIndex } from '@adops/core';
import type { ClickHouseDb } from '../db.js';
import { CLICKHOUSE } from '../../sql/dialect.js';
import { sumsSql } from '../../sql/formulas.js';
import { KEY_MONTH_DIMENSIONS } from '../../types.js';
import { isWarehouseMemoryRefusal } from '../../memory-refusal.js';

const ZONE_DIMS = ['publisher', 'zone_id'];
const ZONE_SUMS = { columns: 'revenue, margin', select: 'sum(revenue), sumIf(margin, revenue != 0)', types: '  revenue Float64,\n  margin Float64' };

/**
 * Each period: its rows' table, the table of its current versions, its first day in SQL and in
 * JS, the column holding it, its grain's dimensions and its sums (columns, their SELECT from the
 * stored rows, their types).
 */
export const ZONE_PERIODS = {
  month: {
    rows: 'zone_report_zone_month',
    current: 'zone_report_month',
    column: 'month',
    start: 'toStartOfMonth',
    first: (day: string) => startOfMonth(day),
    dims: ZONE_DIMS,
    sums: ZONE_SUMS,
  },
  week: {
    rows: 'zone_report_zone_week',
    current: 'zone_report_week',
    column: 'week',
    start: 'toMonday',
    first: (day: string) => addDays(day, -weekdayIndex(day)),
    dims: ZONE_DIMS,
    sums: ZONE_SUMS,
  },
  key_month: {
    rows: 'zone_report_key_month',
    current: 'zone_report_key_month_current',
    column: 'month',
    start: 'toStartOfMonth',
    first: (day: string) => startOfMonth(day),
    dims: KEY_MONTH_DIMENSIONS,
    sums: { columns: SUM_KEYS.join(', '), select: sumsSql(CLICKHOUSE, false), types: sumColumnsSql('clickhouse') },
  },
} as const;
export type ZonePeriod = keyof typeof ZONE_PERIODS;
export const ZONE_PERIOD_KEYS = Object.keys(ZONE_PERIODS) as ZonePeriod[];

const periodTables = (db: ClickHouseDb, period: ZonePeriod): string[] => {
  const p = ZONE_PERIODS[period];
  return [
    `CREATE TABLE IF NOT EXISTS ${db.t(p.rows)} (
  ${p.column} Date32,
  version UInt64,
${p.dims.map((d) => `  ${d} String,`).join('\n')}
${p.sums.types}
) ENGINE = MergeTree
ORDER BY (${p.column}, version, ${p.dims.join(', ')})`,
    `CREATE TABLE IF NOT EXISTS ${db.t(p.current)} (${p.column} Date32, version UInt64)
ENGINE = ReplacingMergeTree(version) ORDER BY ${p.column}`,
  ];
};

/** Migration 8: the zone months. */
export const zoneMonthTables = (db: ClickHouseDb): string[] => periodTables(db, 'month');
/** Migration 11: the zone weeks (built at the next open for the days stored before: buildMissingZonePeriods). */
export const zoneWeekTables = (db: ClickHouseDb): string[] => periodTables(db, 'week');
/** Migration 12: the key months (built at the next open for the days stored before: buildMissingZonePeriods). */
export const keyMonthTables = (db: ClickHouseDb): string[] => periodTables(db, 'key_month');

/** The first days of the periods of `days`, sorted. */
export const periodsOf = (period: ZonePeriod, days: readonly string[]): string[] =>
  [...new Set(days.map((d) => ZONE_PERIODS[period].first(d)))].sort();

/**
 * Groups one statement of a period's rewrite sums at most: a period with more (its current
 * version's count) is summed in parts, each the zones of one value of a hash of the zone id. At
 * 100 M rows a month's key months are ~620,000 groups of six texts: summed at once past the
 * embedded engine's 128 MB (and its 256 MB), so every import into a stored month failed; in
 * fifths, a fifth was still refused beside an import; in tenths, each took ~1 s (a read of the
 * month's rows) within 128 MB.
 */
export const GROUPS_PER_PART = 75_000;

/** The zones of one part of `parts` (placeholders or SQL numbers): one value of a hash of the zone id, so each zone is in one part. */
export const zonePartSql = (parts: string, part: string) => `cityHash64(zone_id) % ${parts} = ${part}`;

/** Parts tried at most: each failure for memory doubles them. */
const MAX_PARTS = 64;

/** The parts of a period's rewrite: by its current version's groups (one for a period not yet written). */
async function partsOf(db: ClickHouseDb, period: ZonePeriod, start: string, groupsPerPart: number): Promise<number> {
  const p = ZONE_PERIODS[period];
  const row = await db.one<{ n: number }>(
    `SELECT count() AS n FROM ${db.t(p.rows)}
     WHERE ${p.column} = {start:Date32} AND version = (SELECT max(version) FROM ${db.t(p.current)} WHERE ${p.column} = {start:Date32})`,
    { start },
  );
  return Math.min(MAX_PARTS, Math.max(1, Math.ceil(Number(row?.n ?? 0) / groupsPerPart)));
}

/**
 * Writes the zone periods starting on `starts` from the stored rows as version `v`, not yet
 * current: one statement per period, so each reads (FINAL) only its own days' parts — an import
 * writes its rows in parts of 25,000 (db.ts), and a FINAL over three months merged every part of
 * the three at once, past a 128 MB engine limit after a 1 M-row import — and one per part of its
 * zones when it has more groups than GROUPS_PER_PART (a part refused for memory: its period
 * written again in twice as many). Answers false when another build wrote some of them under the
 * same version too.
 */
export async function writeZonePeriods(
  db: ClickHouseDb,
  period: ZonePeriod,
  starts: readonly string[],
  v: number,
  groupsPerPart = GROUPS_PER_PART,
): Promise<boolean> {
  if (starts.length === 0) return true;
  const p = ZONE_PERIODS[period];
  const dims = p.dims.join(', ');
  for (const start of starts) {
    const write = (parts: number, part: number) =>
      db.command(
        `INSERT INTO ${db.t(p.rows)} (${p.column}, version, ${dims}, ${p.sums.columns})
         SELECT toDate32({start:Date32}), {v:UInt64}, ${dims}, ${p.sums.select}
         FROM ${db.t('zone_report')} FINAL
         WHERE date BETWEEN {start:Date32} AND {last:Date32} ${parts > 1 ? `AND ${zonePartSql('{parts:UInt64}', '{part:UInt64}')}` : ''}
         GROUP BY ${dims}`,
        { start, last: lastDay(period, start), v, parts, part },
      );
    for (let parts = await partsOf(db, period, start, groupsPerPart); ; parts *= 2) {
      try {
        for (let part = 0; part < parts; part++) await write(parts, part);
        break;
      } catch (e) {
        if (!isWarehouseMemoryRefusal(e) || parts >= MAX_PARTS) throw e;
        // What the refused attempt wrote goes; the period is written again in more parts.
        await db.command(`DELETE FROM ${db.t(p.rows)} WHERE ${p.column} = {start:Date32} AND version = {v:UInt64}`, { start, v });
      }
    }
  }
  const twice = await db.one<{ twice: number }>(
    `SELECT count() > uniqExact(${p.column}, ${dims}) AS twice FROM ${db.t(p.rows)}
     WHERE ${p.column} IN {starts:Array(Date32)} AND version = {v:UInt64}`,
    { starts: [...starts], v },
  );
  return !Number(twice?.twice);
}

/** The last day of the period starting on `start`. */
const lastDay = (period: ZonePeriod, start: string): string => (period === 'week' ? addDays(start, 6) : endOfMonth(start));

/** Makes version `v` of the periods starting on `starts` current (one insert), then deletes their older versions. */
export async function switchZonePeriods(db: ClickHouseDb, period: ZonePeriod, starts: readonly string[], v: number): Promise<void> {
  if (starts.length === 0) return;
  const p = ZONE_PERIODS[period];
  const params = { starts: [...starts], v };
  await db.command(`INSERT INTO ${db.t(p.current)} (${p.column}, version) SELECT arrayJoin({starts:Array(Date32)}), {v:UInt64}`, params);
  await db.command(`DELETE FROM ${db.t(p.rows)} WHERE ${p.column} IN {starts:Array(Date32)} AND version < {v:UInt64}`, params);
}

/** The periods holding stored days (the day rollup's) that have no zone periods yet: a warehouse from before them. */
export async function periodsWithout(db: ClickHouseDb, period: ZonePeriod): Promise<string[]> {
  const p = ZONE_PERIODS[period];
  const rows = await db.all<{ start: string }>(
    `SELECT DISTINCT toString(toDate32(${p.start}(date))) AS start FROM ${db.t('zone_report_day')}
     WHERE toDate32(${p.start}(date)) NOT IN (SELECT ${p.column} FROM ${db.t(p.current)}) ORDER BY start`,
  );
  return rows.map((r) => r.start);
}
