// ClickHouse's zone months: each month's revenue and margin (of the rows with revenue) per
// publisher × zone, for the Dashboard's 'Top Zones' of a long range (zone-report/get-top-earners.ts)
// — DuckDB's zone_report_zone_month, versioned like the day rollup (schema.ts): a month's rows
// carry the version of the rollup build that wrote them, zone_report_month records each month's
// current version, and superseded versions are deleted afterwards. Every rollup build rewrites
// the months of its days from the stored rows (FINAL) under its own version, before it switches
// anything, so the build that wins a month (the highest version) read every row committed
// before it, as for days.
import type { ClickHouseDb } from '../db.js';

export const zoneMonthTables = (db: ClickHouseDb): string[] => [
  `CREATE TABLE IF NOT EXISTS ${db.t('zone_report_zone_month')} (
  month Date32,
  version UInt64,
  publisher String,
  zone_id String,
  revenue Float64,
  margin Float64
) ENGINE = MergeTree
ORDER BY (month, version, publisher, zone_id)`,
  `CREATE TABLE IF NOT EXISTS ${db.t('zone_report_month')} (month Date32, version UInt64)
ENGINE = ReplacingMergeTree(version) ORDER BY month`,
];

/** The first days of the months of `days`, sorted. */
export const monthsOf = (days: readonly string[]): string[] => [...new Set(days.map((d) => `${d.slice(0, 7)}-01`))].sort();

/**
 * Writes the zone months of `months` (first days) from the stored rows as version `v`, not yet
 * current. Answers false when another build wrote some of them under the same version too.
 */
export async function writeZoneMonths(db: ClickHouseDb, months: readonly string[], v: number): Promise<boolean> {
  if (months.length === 0) return true;
  const params = { first: months[0], last: months[months.length - 1], months: [...months], v };
  await db.command(
    `INSERT INTO ${db.t('zone_report_zone_month')} (month, version, publisher, zone_id, revenue, margin)
     SELECT toStartOfMonth(date) AS m, {v:UInt64}, publisher, zone_id, sum(revenue), sumIf(margin, revenue != 0)
     FROM ${db.t('zone_report')} FINAL
     WHERE date BETWEEN {first:Date32} AND toLastDayOfMonth({last:Date32}) AND toStartOfMonth(date) IN {months:Array(Date32)}
     GROUP BY m, publisher, zone_id`,
    params,
  );
  const twice = await db.one<{ twice: number }>(
    `SELECT count() > uniqExact(month, publisher, zone_id) AS twice FROM ${db.t('zone_report_zone_month')}
     WHERE month IN {months:Array(Date32)} AND version = {v:UInt64}`,
    params,
  );
  return !Number(twice?.twice);
}

/** Makes version `v` of `months` current (one insert), then deletes their older versions. */
export async function switchZoneMonths(db: ClickHouseDb, months: readonly string[], v: number): Promise<void> {
  if (months.length === 0) return;
  const params = { months: [...months], v };
  await db.command(`INSERT INTO ${db.t('zone_report_month')} (month, version) SELECT arrayJoin({months:Array(Date32)}), {v:UInt64}`, params);
  await db.command(`DELETE FROM ${db.t('zone_report_zone_month')} WHERE month IN {months:Array(Date32)} AND version < {v:UInt64}`, params);
}

/** The months holding stored days (the day rollup's) that have no zone months yet: a warehouse from before them. */
export async function monthsWithout(db: ClickHouseDb): Promise<string[]> {
  const rows = await db.all<{ month: string }>(
    `SELECT DISTINCT toString(toStartOfMonth(date)) AS month FROM ${db.t('zone_report_day')}
     WHERE toStartOfMonth(date) NOT IN (SELECT month FROM ${db.t('zone_report_month')}) ORDER BY month`,
  );
  return rows.map((r) => r.month);
}
