// Versioned schema migrations: schema_migrations records each applied version; opening the
// warehouse applies the missing ones in order, each once. Statements are idempotent (IF NOT
// EXISTS) so a migration cut short by a crash is simply run again, and two instances starting
// together end with one row per version (ReplacingMergeTree on the version).
import type { ClickHouseDb } from './db.js';
import { zoneReportTables } from './zone-report/schema.js';
import { keyMonthTables, zoneMonthTables, zoneWeekTables } from './zone-report/zone-periods.js';
import {
  attributedVisitTables,
  attributionColumns,
  botTrafficColumns,
  eventKeyTables,
  referrerTables,
  zoneHourTables,
  zoneVisitTables,
} from './referrers/schema.js';
import { adSpendTables } from './spend/schema.js';

export interface Migration {
  version: number;
  name: string;
  statements: (db: ClickHouseDb) => string[];
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'zone_report, its rollup and day versions', statements: zoneReportTables },
  { version: 2, name: 'referrer events, daily rollup and retention watermark', statements: referrerTables },
  { version: 3, name: 'idempotency keys of referrer events', statements: eventKeyTables },
  { version: 4, name: 'bot and spam traffic flagged on referrer events and their rollup', statements: botTrafficColumns },
  { version: 5, name: 'Meta attribution (campaign, ad set, ad, placement) on referrer events', statements: attributionColumns },
  { version: 6, name: 'Meta spend per ad and day', statements: adSpendTables },
  { version: 7, name: 'human visits per zone and quarter hour', statements: zoneVisitTables },
  { version: 8, name: 'zone months: revenue and margin per month, publisher and zone', statements: zoneMonthTables },
  { version: 9, name: 'human visits from Meta ads per hour, zone, campaign, ad set, ad and keyword', statements: attributedVisitTables },
  { version: 10, name: 'human visits per zone and hour', statements: zoneHourTables },
  { version: 11, name: 'zone weeks: revenue and margin per ISO week, publisher and zone', statements: zoneWeekTables },
  { version: 12, name: 'key months: every report sum per month and report dimension but the day', statements: keyMonthTables },
];

/** Creates the database and schema_migrations when missing, then applies what is missing; answers the versions applied now. */
export async function migrate(db: ClickHouseDb, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const exists = await db.one('SELECT 1 AS ok FROM system.databases WHERE name = {db:String}', { db: db.database });
  if (!exists) await db.command(`CREATE DATABASE IF NOT EXISTS \`${db.database}\``);
  await db.command(
    `CREATE TABLE IF NOT EXISTS ${db.t('schema_migrations')} (
       version UInt32, name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3)
     ) ENGINE = ReplacingMergeTree ORDER BY version`,
  );
  const done = new Set((await db.all<{ version: number }>(`SELECT DISTINCT version FROM ${db.t('schema_migrations')}`)).map((r) => r.version));
  const applied: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(m.version)) continue;
    for (const statement of m.statements(db)) await db.command(statement);
    await db.insert('schema_migrations', [{ version: m.version, name: m.name }]);
    applied.push(m.version);
  }
  return applied;
}
