// Retention: rolls raw events seen before the cutoff into the daily rollup (one row per UTC day
// and distinct referrer), then commits the run by inserting its watermark (cutoff, highest id):
// from that insert on, those raw events no longer count and the rollup rows do — one insert, so
// no query sees both or neither. Months whose events are all rolled up are then dropped whole
// (DROP PARTITION, no row mutation); events of the cutoff's month stay on disk, uncounted, until
// their month is wholly behind it. Cutoffs and ids only grow: a run never moves the watermark back.
import type { ClickHouseDb } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';
import { VISIT_ROLLUPS, committedDaily } from './schema.js';
import type { RetentionResult } from '../../types.js';

export function rollUpOldEvents(db: ClickHouseDb, cutoffMs: number): Promise<RetentionResult> {
  return db.serialWrite(async () => {
    const events = db.t('referrer_event');
    const daily = db.t('referrer_daily');
    const previous = await db.one<{ cutoff: number; last_id: number; top: number }>(
      `SELECT toUnixTimestamp64Milli(max(cutoff)) AS cutoff, max(last_id) AS last_id, (SELECT max(id) FROM ${events}) AS top
       FROM ${db.t('referrer_event_watermark')}`,
    );
    const before = { cutoff: Number(previous?.cutoff ?? 0), lastId: Number(previous?.last_id ?? 0) };
    const run = { cutoff: Math.max(cutoffMs, before.cutoff), lastId: Math.max(Number(previous?.top ?? 0), before.lastId) };
    // Events of this run: before the cutoff, present now, and not rolled up by an earlier run
    // (late arrivals with an old seen_at but a newer id are rolled up by the next run).
    const runWhere = (b: Binder) =>
      `seen_at < ${b.instant(run.cutoff)} AND id <= ${b.bind(run.lastId, 'UInt64')}
       AND NOT (seen_at < ${b.instant(before.cutoff)} AND id <= ${b.bind(before.lastId, 'UInt64')})`;
    const c = new Binder(CLICKHOUSE);
    const deleted = Number((await db.one<{ n: number }>(`SELECT count() AS n FROM ${events} WHERE ${runWhere(c)}`, c.params))?.n ?? 0);
    if (deleted === 0) return { deleted: 0, rolledUp: 0 };

    // Rollup rows of a run that never committed (a crash before its watermark) would count
    // once a run with the same (cutoff, last id) commits: drop them first.
    const orphans = await db.one<{ n: number }>(`SELECT count() AS n FROM ${daily} WHERE NOT ${committedDaily(db)}`);
    if (Number(orphans?.n ?? 0) > 0) await db.command(`DELETE FROM ${daily} WHERE NOT ${committedDaily(db)}`);

    const r = new Binder(CLICKHOUSE);
    const tag = `${r.instant(run.cutoff)}, ${r.bind(run.lastId, 'UInt64')}`;
    await db.command(
      `INSERT INTO ${daily} (day, zone_id, parent_domain, referrer, publisher, advertiser, first_seen, last_seen, hits, cutoff, last_id, is_bot)
       SELECT toDate32(seen_at), zone_id, parent_domain, referrer, publisher, advertiser, min(seen_at), max(seen_at), count(), ${tag}, is_bot
       FROM ${events} WHERE ${runWhere(r)}
       GROUP BY toDate32(seen_at), zone_id, parent_domain, referrer, publisher, advertiser, is_bot`,
      r.params,
    );
    const w = new Binder(CLICKHOUSE);
    const rolled = await db.one<{ n: number }>(
      `SELECT count() AS n FROM ${daily} WHERE cutoff = ${w.instant(run.cutoff)} AND last_id = ${w.bind(run.lastId, 'UInt64')}`,
      w.params,
    );
    const m = new Binder(CLICKHOUSE);
    await db.command(
      `INSERT INTO ${db.t('referrer_event_watermark')} (cutoff, last_id) SELECT ${m.instant(run.cutoff)}, ${m.bind(run.lastId, 'UInt64')}`,
      m.params,
    );
    await dropRolledUpMonths(db, run);
    return { deleted, rolledUp: Number(rolled?.n ?? 0) };
  });
}

/** Drops the monthly partitions of referrer_event whose every event the watermark covers. */
async function dropRolledUpMonths(db: ClickHouseDb, run: { cutoff: number; lastId: number }): Promise<void> {
  const b = new Binder(CLICKHOUSE);
  const cutoff = b.instant(run.cutoff);
  const months = await db.all<{ p: string }>(
    `SELECT _partition_id AS p FROM ${db.t('referrer_event')}
     WHERE toYYYYMM(seen_at) < toYYYYMM(${cutoff})
     GROUP BY p
     HAVING max(seen_at) < ${cutoff} AND max(id) <= ${b.bind(run.lastId, 'UInt64')}`,
    b.params,
  );
  await dropMonths(db, 'referrer_event', months);
  // Quarter hours and hours before the cutoff are never read again (quarterHourFrom, attributedFrom): their months go too.
  for (const { table, time } of VISIT_ROLLUPS) {
    const q = new Binder(CLICKHOUSE);
    const quarters = await db.all<{ p: string }>(
      `SELECT DISTINCT _partition_id AS p FROM ${db.t(table)} WHERE toYYYYMM(${time}) < toYYYYMM(${q.instant(run.cutoff)})`,
      q.params,
    );
    await dropMonths(db, table, quarters);
  }
}

/** Drops a table's monthly partitions by id (YYYYMM; anything else is not one of ours). */
async function dropMonths(db: ClickHouseDb, table: string, months: ReadonlyArray<{ p: string }>): Promise<void> {
  for (const { p } of months) {
    if (/^\d{6}$/.test(p)) await db.command(`ALTER TABLE ${db.t(table)} DROP PARTITION ID '${p}'`);
  }
}

/**
 * The TTL backstop: raw events older than `days` are dropped by merges even if retention never
 * ran. A TTL cannot wait for the rollup, so `days` must exceed the retention period by the
 * longest outage of the API to ride out (createWarehouse adds 30 days). Applied only when changed.
 */
export async function ensureEventTtl(db: ClickHouseDb, days: number | undefined): Promise<void> {
  if (days === undefined) return;
  if (!Number.isInteger(days) || days < 1) throw new Error(`event TTL must be a whole number of days (got ${days})`);
  // The visits per quarter hour and hour (migrations 7 and 9) are the same events counted: the same TTL.
  for (const [name, time] of [['referrer_event', 'toDateTime(seen_at)'], ...VISIT_ROLLUPS.map((r) => [r.table, r.time])]) {
    const ttl = `${time} + toIntervalDay(${days})`;
    const table = await db.one<{ engine_full: string }>(
      'SELECT engine_full FROM system.tables WHERE database = {db:String} AND name = {name:String}',
      {
        db: db.database,
        name,
      },
    );
    if (!table?.engine_full.includes(`TTL ${ttl}`))
      await db.command(`ALTER TABLE ${db.t(name)} MODIFY TTL ${ttl} SETTINGS materialize_ttl_after_modify = 0`);
  }
}
