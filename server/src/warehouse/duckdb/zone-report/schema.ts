// The zone_report fact table: one row per natural key (date, advertiser, publisher, zone_id,
// geo, source). Money is DOUBLE, counts BIGINT; rows are inserted in date order so DuckDB's
// per-row-group min/max (zone maps) let a date range skip the rest of the table.
// zone_report_rollup holds the additive sums per day × advertiser × publisher × geo × source ×
// domain: every aggregate without a zone reads it (about 100× fewer rows). Imports rewrite the
// rollup of the days they touch in the same transaction, so it never disagrees with the rows.
// zone_report_zone_month holds each month's revenue and margin (of the rows with revenue) per
// publisher × zone: the Dashboard's 'Top Zones' of a long range sums these for its whole months
// and the stored rows only for the days at its ends (zone-report/get-top-earners.ts). Imports
// rewrite the months they touch in the same transaction. zone_report_zone_week holds the same
// sums per ISO week (Monday first): the days at a range's ends that make whole weeks are summed
// from it (a 30-day range: three or four weeks of zones and at most nine days of rows instead of 30).
// zone_report_key_month holds every report sum per month × every report dimension but the day
// (advertiser, publisher, zone, geo, source, domain), and the margin of its rows with revenue: a zone search's
// totals and options sum it for the range's whole months (a twentieth of the rows) and the
// stored rows for the days at its ends (zone-report/key-months.ts). The zone months are summed
// from it, not from the rows again. Imports change the key months and zone weeks they touch by
// what their days' rows changed (zonePeriodsChangeSql), in the same transaction.
// zone_report_zones lists every zone id stored: a zone search matches the list first, then
// joins, instead of testing the substring on every stored row (40% faster at 10 million rows;
// a page of rows tests digits in the scan, see sql/filters.ts).
import { SUM_KEYS, sumColumnsSql } from '@adops/core';
import type { Db } from '../db.js';
import { DUCKDB } from '../../sql/dialect.js';
import { sumsSql } from '../../sql/formulas.js';
import { KEY_MONTH_DIMENSIONS } from '../../types.js';

/** Column definitions; key text columns are NOT NULL ('' for an unknown geo or source). */
export const ZONE_REPORT_COLUMNS_SQL = `
  date DATE NOT NULL,
  advertiser VARCHAR NOT NULL,
  publisher VARCHAR NOT NULL,
  zone_id VARCHAR NOT NULL,
  geo VARCHAR NOT NULL,
  source VARCHAR NOT NULL,
  domain VARCHAR NOT NULL,
  impressions BIGINT NOT NULL,
  monetized_impressions BIGINT,
  clicks BIGINT NOT NULL,
  revenue DOUBLE NOT NULL,
  rate_applied DOUBLE,
  p_revenue DOUBLE NOT NULL,
  margin DOUBLE NOT NULL,
  tq DOUBLE`;

/** The rollup's grain: every report dimension but the zone. */
export const ROLLUP_DIMENSIONS = ['date', 'advertiser', 'publisher', 'geo', 'source', 'domain'] as const;

const ROLLUP_SQL = `
  date DATE NOT NULL,
  advertiser VARCHAR NOT NULL,
  publisher VARCHAR NOT NULL,
  geo VARCHAR NOT NULL,
  source VARCHAR NOT NULL,
  domain VARCHAR NOT NULL,
${sumColumnsSql('duckdb')}`;

const DIMS = ROLLUP_DIMENSIONS.join(', ');
/** The rollup's sums of stored rows. */
const ROLLUP_SUMS_SQL = sumsSql(DUCKDB, false);

/**
 * INSERT … SELECT of the rollup rows of stored rows matching `where` (fixed SQL, bound
 * parameters); `from` another table of zone_report's columns (an import's batch) instead.
 */
export const rollupInsertSql = (where: string, from = 'zone_report') =>
  `INSERT INTO zone_report_rollup SELECT ${DIMS}, ${ROLLUP_SUMS_SQL} FROM ${from} ${where} GROUP BY ${DIMS} ORDER BY date`;

const KEY_DIMS = KEY_MONTH_DIMENSIONS.join(', ');

const KEY_MONTH_SQL = `
  month DATE NOT NULL,
${KEY_MONTH_DIMENSIONS.map((d) => `  ${d} VARCHAR NOT NULL`).join(',\n')},
${sumColumnsSql('duckdb')},
  earning_margin DOUBLE NOT NULL`;

/** The margin of the rows with revenue (a row of 0 revenue adds to no zone's figures in Top Zones). */
const EARNING_MARGIN = 'coalesce(sum(margin) FILTER (WHERE revenue <> 0), 0)';

/**
 * The periods kept per zone, each keyed by its first day: the key months (every report sum per
 * month × report dimension but the day), the zone months and the ISO weeks' (Monday first) zones
 * (revenue and margin of rows with revenue per publisher × zone). `unit` is the period's
 * calendar unit, and `sums` the SELECT of its rows for the stored rows matching `where` — the
 * zone months' from the key months of those rows' months, which are rewritten first. `added`: the
 * dimensions and sums of the periods summed from the rows, whose sums add up (zonePeriodsChangeSql).
 */
const ZONE_PERIODS = {
  key_month: {
    table: 'zone_report_key_month',
    unit: 'month',
    added: { dims: KEY_DIMS, sums: [...SUM_KEYS, 'earning_margin'] },
    sums: (where: string) =>
      `SELECT date_trunc('month', date)::DATE AS month, ${KEY_DIMS}, ${sumsSql(DUCKDB, false)}, ${EARNING_MARGIN} AS earning_margin
         FROM zone_report ${where} GROUP BY ALL`,
  },
  month: {
    table: 'zone_report_zone_month',
    unit: 'month',
    sums: (where: string) =>
      `SELECT month, publisher, zone_id, sum(revenue) AS revenue, sum(earning_margin) AS margin
         FROM zone_report_key_month WHERE month IN (SELECT DISTINCT date_trunc('month', date)::DATE FROM zone_report ${where})
        GROUP BY ALL`,
  },
  week: {
    table: 'zone_report_zone_week',
    unit: 'week',
    added: { dims: 'publisher, zone_id', sums: ['revenue', 'margin'] },
    sums: (where: string) =>
      `SELECT date_trunc('week', date)::DATE AS week, publisher, zone_id, sum(revenue) AS revenue, ${EARNING_MARGIN} AS margin
         FROM zone_report ${where} GROUP BY ALL`,
  },
} as const;
export type ZonePeriod = keyof typeof ZONE_PERIODS;
/** Every zone period, in the order imports and a rebuild rewrite them (the key months before the zone months summed from them). */
export const ZONE_PERIOD_KEYS = Object.keys(ZONE_PERIODS) as ZonePeriod[];

/** The periods of the batch being imported (`batch`: its staging or sorted table), as the first day of each. */
const batchPeriods = (period: ZonePeriod, batch: string) => `SELECT DISTINCT date_trunc('${ZONE_PERIODS[period].unit}', date)::DATE FROM ${batch}`;

/** Deletes the zone periods an import touches (written again by zonePeriodsChangeSql or zonePeriodsRewriteSql in the same transaction). */
export const zonePeriodsDeleteSql = (period: ZonePeriod, batch: string) =>
  `DELETE FROM ${ZONE_PERIODS[period].table} WHERE ${ZONE_PERIODS[period].unit} IN (${batchPeriods(period, batch)})`;

/** INSERT … SELECT of the zone periods of stored rows matching `where` (fixed SQL, bound parameters). */
export const zonePeriodsInsertSql = (period: ZonePeriod, where: string) =>
  `INSERT INTO ${ZONE_PERIODS[period].table} ${ZONE_PERIODS[period].sums(where)} ORDER BY ${ZONE_PERIODS[period].unit}`;

/** The rows of an import's days (`days`: a table of them; $first / $last their first and last day). */
const ofDays = (days: string) => `WHERE date BETWEEN $first::DATE AND $last::DATE AND date IN (SELECT date FROM ${days})`;

/** The periods whose sums add up (key months and zone weeks): an import changes them by what its days' rows changed (zonePeriodsChangeSql). */
export const addsUp = (period: ZonePeriod): boolean => 'added' in ZONE_PERIODS[period];

/**
 * The periods summed from other periods (the zone months, from the key months) that an import
 * touches, summed again: those of the months of its days (`days`, a table of them; $first / $last
 * their first and last day).
 */
export function zonePeriodsRewriteSql(period: ZonePeriod, days: string): string {
  if (addsUp(period)) throw new Error(`${period}: summed from the rows, changed by zonePeriodsChangeSql`);
  return zonePeriodsInsertSql(period, ofDays(days));
}

/** The temp table of a period's sums of an import's days before it (zonePeriodsBeforeSql). */
const beforeTable = (period: ZonePeriod) => `zone_report_${period}_before`;

/** Keeps a period's sums of the rows of an import's days as they are before its rows are stored (`days`: the batch). */
export const zonePeriodsBeforeSql = (period: ZonePeriod, days: string) =>
  `CREATE OR REPLACE TEMP TABLE ${beforeTable(period)} AS ${ZONE_PERIODS[period].sums(ofDays(days))}`;

/**
 * The statements changing a period that adds up by what an import changed (`days`: a table of its
 * days): each touched period's sums, plus those days' rows now, minus their rows before when any
 * were stored (`before`, kept by zonePeriodsBeforeSql) — instead of summing every row of those
 * periods again: a day of 250,000 rows into a month of 7 M read the month, and at 100 M rows ran
 * out of the default 128 MB (413). A key month whose rows all moved to another domain (not part of
 * the natural key) is left out: its row count is exact.
 */
export function zonePeriodsChangeSql(period: ZonePeriod, days: string, before: boolean): string[] {
  const p = ZONE_PERIODS[period];
  if (!('added' in p)) throw new Error(`${period}: not summed from the rows`);
  const { dims, sums } = p.added;
  const unit = p.unit;
  const periods = batchPeriods(period, days);
  const parts = [
    `SELECT ${unit}, ${dims}, ${sums.join(', ')} FROM ${p.table} WHERE ${unit} IN (${periods})`,
    p.sums(ofDays(days)),
    ...(before ? [`SELECT ${unit}, ${dims}, ${sums.map((c) => `-${c}`).join(', ')} FROM ${beforeTable(period)}`] : []),
  ];
  return [
    `CREATE OR REPLACE TEMP TABLE zone_report_period_sums AS
     SELECT ${unit}, ${dims}, ${sums.map((c) => `sum(${c}) AS ${c}`).join(', ')} FROM (
       ${parts.join('\n       UNION ALL\n       ')})
     GROUP BY ALL
     ${(sums as readonly string[]).includes('rows') ? 'HAVING sum(rows) <> 0' : ''}`,
    zonePeriodsDeleteSql(period, days),
    `INSERT INTO ${p.table} SELECT * FROM zone_report_period_sums ORDER BY ${unit}`,
    'DROP TABLE zone_report_period_sums',
    ...(before ? [`DROP TABLE ${beforeTable(period)}`] : []),
  ];
}

/** Adds the zone ids of rows matching `where` (of `from`, zone_report unless said) that the list lacks (fixed SQL, bound parameters). */
export const zonesInsertSql = (where: string, from = 'zone_report') =>
  `INSERT INTO zone_report_zones SELECT DISTINCT zone_id FROM ${from} ${where} EXCEPT SELECT zone_id FROM zone_report_zones`;

/** The rows of one month ($month: its first day), and of the weeks whose Monday falls in it (the days around it bound the read). */
const IN_MONTH = 'WHERE date BETWEEN $month::DATE AND last_day($month::DATE)';
const WEEKS_OF_MONTH = `WHERE date BETWEEN $month::DATE AND last_day($month::DATE) + 6
   AND date_trunc('week', date)::DATE BETWEEN $month::DATE AND last_day($month::DATE)`;

/** Bumped when a derived table's definition changes: a start with an older one rebuilds them. */
const ROLLUP_VERSION = '5';

/**
 * Creates the tables when missing and (re)builds the rollup when it is missing or outdated
 * (a data directory from before it, or rows loaded straight into zone_report).
 * No primary key or ART index on zone_report: uniqueness of the natural key is kept by the
 * importer (delete matching keys + insert, in one transaction), far cheaper at tens of
 * millions of rows than maintaining a six-column index.
 */
export async function ensureZoneReportSchema(db: Db): Promise<void> {
  await db.serialWrite(async (c) => {
    await c.run(`CREATE TABLE IF NOT EXISTS zone_report (${ZONE_REPORT_COLUMNS_SQL})`);
    await c.run(`CREATE TABLE IF NOT EXISTS zone_report_rollup (${ROLLUP_SQL})`);
    await c.run('CREATE TABLE IF NOT EXISTS zone_report_zones (zone_id VARCHAR NOT NULL)');
    await c.run(
      'CREATE TABLE IF NOT EXISTS zone_report_zone_month (month DATE NOT NULL, publisher VARCHAR NOT NULL, zone_id VARCHAR NOT NULL, revenue DOUBLE NOT NULL, margin DOUBLE NOT NULL)',
    );
    await c.run(
      'CREATE TABLE IF NOT EXISTS zone_report_zone_week (week DATE NOT NULL, publisher VARCHAR NOT NULL, zone_id VARCHAR NOT NULL, revenue DOUBLE NOT NULL, margin DOUBLE NOT NULL)',
    );
    await c.run(`CREATE TABLE IF NOT EXISTS zone_report_key_month (${KEY_MONTH_SQL})`);
    await c.run('CREATE TABLE IF NOT EXISTS warehouse_meta (name VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)');
    const meta = await c.runAndReadAll(`SELECT value FROM warehouse_meta WHERE name = 'rollup'`);
    if (meta.getRows()[0]?.[0] === ROLLUP_VERSION) return;
    await c.run('BEGIN TRANSACTION');
    try {
      await c.run('DELETE FROM zone_report_rollup');
      await c.run('DELETE FROM zone_report_zones');
      for (const period of ZONE_PERIOD_KEYS) await c.run(`DELETE FROM ${ZONE_PERIODS[period].table}`);
      // A month at a time, each week with the month of its Monday (which may come before the
      // first month's rows): one statement over every row grouped 100 M rows' key months in one
      // hash table, past the default 128 MB, and the warehouse did not open.
      const months = (
        await c.runAndReadAll(`SELECT m::VARCHAR FROM (SELECT date_trunc('month', date)::DATE AS m FROM zone_report
                                UNION SELECT date_trunc('month', date_trunc('week', date))::DATE FROM zone_report) ORDER BY m`)
      ).getRows();
      for (const [month] of months) {
        const params = { month: String(month) };
        await c.run(rollupInsertSql(IN_MONTH), params);
        await c.run(zonesInsertSql(IN_MONTH), params);
        for (const period of ZONE_PERIOD_KEYS) await c.run(zonePeriodsInsertSql(period, period === 'week' ? WEEKS_OF_MONTH : IN_MONTH), params);
      }
      await c.run(`INSERT OR REPLACE INTO warehouse_meta VALUES ('rollup', '${ROLLUP_VERSION}')`);
      await c.run('COMMIT');
    } catch (e) {
      await c.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
  });
}
