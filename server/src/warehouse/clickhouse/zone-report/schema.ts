// The zone_report fact table on ClickHouse and its derived tables (created by migrations.ts):
// - zone_report: ReplacingMergeTree(version) ordered by the natural key (date, advertiser,
//   publisher, zone_id, geo, source), partitioned by month. A re-imported row is inserted with a
//   higher version and replaces the old one; reads use FINAL (see sql.ts) so they are right
//   before any merge.
// - zone_report_rollup: the additive sums per day × advertiser × publisher × geo × source ×
//   domain, written explicitly at import (never a materialized view: an MV sees inserts only, so
//   a replaced row would be counted twice). Each day's rows carry the version of the import that
//   wrote them; zone_report_day records each day's current version, and a single insert there
//   switches a day to its new rollup at once. Superseded versions are deleted afterwards.
//   Several API instances may import the same day at once (each serialises only its own
//   writes), so a rollup's version is taken only once the rows it must sum are stored
//   (rebuildRollup): a build whose version is higher started reading after every lower version
//   was taken, hence after the rows of every import that took one — the build that wins the
//   switch (the highest version) has read every row committed before it. Two builds of the same
//   day under the same version (the same microsecond) would add up twice: that is detected
//   after the insert and built again under a new version.
// - zone_report_zone_month / zone_report_month and zone_report_zone_week / zone_report_week: each
//   month's and ISO week's sums per publisher × zone, and zone_report_key_month /
//   zone_report_key_month_current: every report sum per month × report dimension but the day,
//   rewritten with the days of each build under its version (zone-periods.ts).
// - zone_report_pending: the days (and version) an import is about to change, written before
//   the rows: a day whose pending version stayed ahead of its current one for PENDING_GRACE_MS (a
//   crash between the rows and the rollup) has its rollup rebuilt at the next open or commit.
import { SUM_KEYS, sumColumnsSql } from '@adops/core';
import type { ClickHouseDb } from '../db.js';
import { sumsSql } from '../../sql/formulas.js';
import { CLICKHOUSE } from '../../sql/dialect.js';

import { ZONE_NATURAL_KEY } from '../../types.js';
import { ZONE_PERIODS, ZONE_PERIOD_KEYS, periodsOf, periodsWithout, switchZonePeriods, writeZonePeriods } from './zone-periods.js';

/** Column definitions (money Float64: the same IEEE doubles DuckDB stores and sums). */
export const ZONE_REPORT_COLUMNS_SQL = `
  date Date32,
  advertiser String,
  publisher String,
  zone_id String,
  geo String,
  source String,
  domain String,
  impressions Int64,
  monetized_impressions Nullable(Int64),
  clicks Int64,
  revenue Float64,
  rate_applied Nullable(Float64),
  p_revenue Float64,
  margin Float64,
  tq Nullable(Float64)`;

/** The rollup's grain: every report dimension but the zone. */
export const ROLLUP_DIMENSIONS = ['date', 'advertiser', 'publisher', 'geo', 'source', 'domain'] as const;

export const zoneReportTables = (db: ClickHouseDb): string[] => [
  `CREATE TABLE IF NOT EXISTS ${db.t('zone_report')} (${ZONE_REPORT_COLUMNS_SQL},
  version UInt64
) ENGINE = ReplacingMergeTree(version)
PARTITION BY toYYYYMM(date)
ORDER BY (${ZONE_NATURAL_KEY.join(', ')})`,
  `CREATE TABLE IF NOT EXISTS ${db.t('zone_report_rollup')} (
  date Date32,
  advertiser String,
  publisher String,
  geo String,
  source String,
  domain String,
  version UInt64,
${sumColumnsSql('clickhouse')}
) ENGINE = MergeTree
PARTITION BY toYYYYMM(date)
ORDER BY (date, version, advertiser, publisher, geo, source, domain)`,
  `CREATE TABLE IF NOT EXISTS ${db.t('zone_report_day')} (date Date32, version UInt64)
ENGINE = ReplacingMergeTree(version) ORDER BY date`,
  `CREATE TABLE IF NOT EXISTS ${db.t('zone_report_pending')} (date Date32, version UInt64)
ENGINE = ReplacingMergeTree(version) ORDER BY date`,
];

const DIMS = ROLLUP_DIMENSIONS.join(', ');
/** The rollup's sum columns: the registry's report sums (sumColumnsSql writes their types). */
const SUM_COLUMNS = SUM_KEYS.join(', ');

/** The next import version: after every version written, and the server's clock in µs. */
export async function nextVersion(db: ClickHouseDb): Promise<number> {
  const row = await db.one<{ v: number }>(
    `SELECT greatest(toUInt64(toUnixTimestamp64Micro(now64(6))), (SELECT max(version) FROM ${db.t('zone_report_pending')}) + 1) AS v`,
  );
  return Number(row?.v);
}

/** Builds of one set of days tried before giving up (each retry follows a version another build took too). */
const REBUILD_ATTEMPTS = 5;

/**
 * Rebuilds the rollup of `days` from the rows stored now: a version taken now (after the
 * rows this caller wrote, see the module comment), marked pending, then `rewriteRollup`.
 * Answers the version the days were switched to.
 */
export async function rebuildRollup(db: ClickHouseDb, days: readonly string[]): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const v = await nextVersion(db);
    await markPending(db, days, v);
    if (await rewriteRollup(db, days, v)) return v;
    if (attempt >= REBUILD_ATTEMPTS) throw new Error(`zone_report_rollup: no unique version for ${days.length} day(s) after ${attempt} attempts`);
    // A random pause, so that two builds retrying in step do not take the same version again.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * attempt));
  }
}

/** The rows of a set of days: bound as `first`, `last` (the set's bounds, which prune partitions) and `days`. */
export const IN_DAYS = 'date BETWEEN {first:Date32} AND {last:Date32} AND date IN {days:Array(Date32)}';

/**
 * Rewrites the rollup of `days` from the stored rows as version `v`: the new rows, then the
 * switch of those days to `v` (one insert), then the deletion of their older versions. Answers
 * false, without switching, when another build wrote rollup rows of these days under the same
 * version (they would be summed together): the caller builds again under a newer version,
 * whose deletion of older versions removes both.
 */
export async function rewriteRollup(db: ClickHouseDb, days: readonly string[], v: number): Promise<boolean> {
  if (days.length === 0) return true;
  const sorted = [...days].sort();
  const span = { first: sorted[0], last: sorted[sorted.length - 1] };
  const params = { first: span.first, last: span.last, days: sorted, v };
  // A week's days a statement: FINAL merges every part holding the days it reads, and holds a
  // buffer of each (~4 MB for the small parts an import writes, 25,000 rows each, db.ts) — over
  // a 1 M-row import's 40 days and the rows they replace, past the engine's 128 MB.
  for (const week of weeksOf(sorted)) {
    await db.command(
      `INSERT INTO ${db.t('zone_report_rollup')} (${DIMS}, version, ${SUM_COLUMNS})
       SELECT ${DIMS}, {v:UInt64}, ${sumsSql(CLICKHOUSE, false)}
       FROM ${db.t('zone_report')} FINAL WHERE ${IN_DAYS}
       GROUP BY ${DIMS}`,
      { first: week[0], last: week[week.length - 1], days: week, v },
    );
  }
  // One build writes each group once; a group twice under v means a second build took v too.
  const twice = await db.one<{ twice: number }>(
    `SELECT count() > uniqExact(${DIMS}) AS twice FROM ${db.t('zone_report_rollup')} WHERE ${IN_DAYS} AND version = {v:UInt64}`,
    params,
  );
  if (Number(twice?.twice)) return false;
  // The zone months and weeks of these days (zone-periods.ts), switched before the days: a crash
  // in between leaves the days pending, and their repair rewrites them all.
  for (const period of ZONE_PERIOD_KEYS) {
    const starts = periodsOf(period, sorted);
    if (!(await writeZonePeriods(db, period, starts, v))) return false;
    await switchZonePeriods(db, period, starts, v);
  }
  await db.command(`INSERT INTO ${db.t('zone_report_day')} (date, version) SELECT arrayJoin({days:Array(Date32)}), {v:UInt64}`, params);
  await db.command(`DELETE FROM ${db.t('zone_report_rollup')} WHERE ${IN_DAYS} AND version < {v:UInt64}`, params);
  return true;
}

/** Sorted days cut into the runs of each ISO week (Monday first). */
function weeksOf(sorted: readonly string[]): string[][] {
  const weeks = new Map<string, string[]>();
  for (const day of sorted) {
    const monday = ZONE_PERIODS.week.first(day);
    const week = weeks.get(monday);
    if (week) week.push(day);
    else weeks.set(monday, [day]);
  }
  return [...weeks.values()];
}

/** Records that `days` are about to change under version `v` (see the module comment). */
export async function markPending(db: ClickHouseDb, days: readonly string[], v: number): Promise<void> {
  await db.command(`INSERT INTO ${db.t('zone_report_pending')} (date, version) SELECT arrayJoin({days:Array(Date32)}), {v:UInt64}`, {
    days: [...days],
    v,
  });
}

/** How old a pending mark must be before it counts as abandoned (a commit of another instance may still be under way). */
export const PENDING_GRACE_MS = 15 * 60_000;

/**
 * Rebuilds the rollup of every day an interrupted import left behind its rows: marked pending
 * under a version newer than the day's current one, at least `graceMs` ago (versions are the
 * server clock in µs).
 */
export async function repairRollup(db: ClickHouseDb, graceMs = PENDING_GRACE_MS): Promise<string[]> {
  const rows = await db.all<{ date: string }>(
    `SELECT toString(p.date) AS date FROM
       (SELECT date, max(version) AS v FROM ${db.t('zone_report_pending')} GROUP BY date) AS p
       LEFT JOIN (SELECT date, max(version) AS v FROM ${db.t('zone_report_day')} GROUP BY date) AS d ON p.date = d.date
     WHERE p.v > d.v AND p.v <= toUInt64(toUnixTimestamp64Micro(now64(6))) - {grace:UInt64}`,
    { grace: graceMs * 1000 },
  );
  const days = rows.map((r) => r.date);
  if (days.length === 0) return [];
  await rebuildRollup(db, days);
  return days;
}

/** Builds the zone months and weeks a warehouse from before them lacks (every period with stored days), under a version of their own. */
export async function buildMissingZonePeriods(db: ClickHouseDb): Promise<string[]> {
  const built: string[] = [];
  for (const period of ZONE_PERIOD_KEYS) {
    const starts = await periodsWithout(db, period);
    if (starts.length === 0) continue;
    for (let attempt = 1; ; attempt++) {
      const v = await nextVersion(db);
      if (await writeZonePeriods(db, period, starts, v)) {
        await switchZonePeriods(db, period, starts, v);
        built.push(...starts.map((s) => `${period} ${s}`));
        break;
      }
      if (attempt >= REBUILD_ATTEMPTS) throw new Error(`zone ${period}s: no unique version for ${starts.length} of them after ${attempt} attempts`);
    }
  }
  return built;
}
