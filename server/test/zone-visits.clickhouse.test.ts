// The profit rule's zone visits on ClickHouse come from zone_visits_15m (human visits per zone and
// quarter hour, filled by a materialized view) from the instant it holds every event on, and from
// the raw events before it. A warehouse upgraded with events already stored backfills nothing:
// its visits before the view's start still count once, from the raw events, and those after once,
// from the quarter hours — a late arrival stamped before that start included. Retention drops the
// quarter hours' months it has wholly rolled up, as it drops the raw events'. Real engine (chdb).
import { expect, test } from 'vitest';
import { zonedParts } from '@adops/core';
import { openClickHouseWarehouse } from '../src/warehouse/clickhouse/index.js';
import { ClickHouseDb } from '../src/warehouse/clickhouse/db.js';
import { MIGRATIONS, migrate } from '../src/warehouse/clickhouse/migrations.js';
import { chdbClient, zoneReportRow } from './helpers.js';
import { event, importRows } from './warehouse-contract.js';

const { client } = await chdbClient('zone-visits');
let databases = 0;

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

/** A whole-hour zone (Etc/GMT's signs are inverted) in which `ms` is around midday. */
function middayZone(ms: number): string {
  const offset = 12 - new Date(ms).getUTCHours();
  return offset >= 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

test('a warehouse upgraded with events stored: visits before the quarter hours start count from the raw events, after it from the quarter hours, each once', async () => {
  const db = new ClickHouseDb(client, `upgraded${++databases}`, true, false);
  await migrate(
    db,
    MIGRATIONS.filter((m) => m.version < 7),
  );
  const stored = Date.now() - HOUR;
  await db.insert('referrer_event', [
    { id: 1, seen_at: iso(stored), zone_id: 'Z1' },
    { id: 2, seen_at: iso(stored + 1000), zone_id: 'Z1' },
    { id: 3, seen_at: iso(stored + 2000), zone_id: 'Z1', is_bot: true },
  ]);

  const w = await openClickHouseWarehouse(client, { database: db.database });
  try {
    const since = Date.parse(
      `${String((await w.db.one<{ s: string }>(`SELECT toString(max(since)) AS s FROM ${w.db.t('zone_visits_since')}`))?.s)}Z`,
    );
    // On a quarter hour, at least 10 minutes past the latest event stored and past now.
    expect(since % (15 * 60_000)).toBe(0);
    expect(since - Date.now()).toBeGreaterThanOrEqual(9 * 60_000);
    expect(since - Date.now()).toBeLessThanOrEqual(25 * 60_000);

    // After the upgrade: a late arrival stamped before the start, and visits after it (ingest
    // would refuse these as future, the warehouse takes them as they come).
    await w.referrers.append([
      event(4, since - 60_000, { zone_id: 'Z1' }),
      event(5, since, { zone_id: 'Z1' }),
      event(6, since + HOUR, { zone_id: 'Z1' }),
      event(7, since + HOUR, { zone_id: 'Z1', is_bot: true }),
    ]);
    const tz = middayZone(since);
    const p = zonedParts(since, tz);
    const day = `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
    await importRows(w, [zoneReportRow(day, 'Z1', { revenue: 50 })]);

    // 5 human visits: 2 stored before, the late one, 2 after the start.
    const values = await w.profit.zoneValues({ day, tz });
    expect(values.find((v) => v.zone_id === 'Z1')).toMatchObject({ rpv: 10, estimated: false });
  } finally {
    await w.close();
  }
});

test('retention drops the months of quarter hours it rolled up wholly, and their TTL follows the events’', async () => {
  const database = `retained${++databases}`;
  const w = await openClickHouseWarehouse(client, { database });
  try {
    const partitions = async () =>
      (
        await w.db.all<{ p: string }>(
          `SELECT DISTINCT partition AS p FROM system.parts WHERE database = {db:String} AND table = 'zone_visits_15m' AND active ORDER BY p`,
          { db: w.db.database },
        )
      ).map((r) => r.p);
    await w.referrers.append([
      event(1, Date.parse('2026-01-20T10:00:00Z'), { zone_id: 'Z1' }),
      event(2, Date.parse('2026-02-20T10:00:00Z'), { zone_id: 'Z1' }),
      event(3, Date.parse('2026-03-05T10:00:00Z'), { zone_id: 'Z1' }),
    ]);
    expect(await partitions()).toEqual(['202601', '202602', '202603']);
    expect(await w.referrers.rollUpBefore(Date.parse('2026-03-02T00:00:00Z'))).toEqual({ deleted: 2, rolledUp: 2 });
    expect(await partitions()).toEqual(['202603']);
  } finally {
    await w.close();
  }
  // (Set only now: a TTL of 120 days would have dropped these events of 2026 at once.)
  const kept = await openClickHouseWarehouse(client, { database, eventTtlDays: 120 });
  try {
    const table = await kept.db.one<{ e: string }>(
      `SELECT engine_full AS e FROM system.tables WHERE database = {db:String} AND name = 'zone_visits_15m'`,
      {
        db: database,
      },
    );
    expect(table?.e).toContain('TTL bucket + toIntervalDay(120)');
  } finally {
    await kept.close();
  }
});
