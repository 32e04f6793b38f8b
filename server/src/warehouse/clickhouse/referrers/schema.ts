// Tables of referrer traffic on ClickHouse (created by migrations.ts):
// - referrer_event: raw events, MergeTree ordered by (seen_at, id) — every report and log query
//   reads a time range, and the log's order is seen_at then id — partitioned by month, with a
//   min/max index on id for stream resume (id ranges).
// - referrer_daily: the daily rollup of the distinct-referrer report for events retention took
//   out of the raw table, each row tagged with the retention run (its cutoff and last id) that
//   wrote it.
// - referrer_event_watermark: one row per retention run: its cutoff and the highest id it rolled
//   up. Inserting it is the run's commit: raw events with seen_at < cutoff and id ≤ last_id stop
//   counting (they are in referrer_daily), daily rows of runs without a watermark never count.
//   Months wholly rolled up are then dropped as partitions; the TTL (retention.ts) is a backstop.
// - referrer_event_key (migration 3): the idempotency keys of stored events (client event ids,
//   and one per ingest request sent with an Idempotency-Key), ReplacingMergeTree ordered by the
//   key so a lookup reads one granule per key; filled by a materialized view from the event_key
//   column (a batch's keys, one per line, on its first event), so events and keys arrive in the
//   same INSERT; daily partitions
//   dropped whole by a TTL past the idempotency window.
import { REFERRER_LIMITS } from '@adops/core';
import type { ClickHouseDb } from '../db.js';
import type { SqlDb } from '../../sql/db.js';

/** What the read conditions below need of the warehouse: its tables' names. */
type Tables = Pick<SqlDb, 't'>;

export const referrerTables = (db: ClickHouseDb): string[] => [
  `CREATE TABLE IF NOT EXISTS ${db.t('referrer_event')} (
  id UInt64,
  seen_at DateTime64(3, 'UTC'),
  zone_id String,
  parent_domain Nullable(String),
  referrer Nullable(String),
  keyword Nullable(String),
  ip Nullable(String),
  country Nullable(String),
  publisher Nullable(String),
  advertiser Nullable(String),
  INDEX id_range id TYPE minmax GRANULARITY 1
) ENGINE = MergeTree
PARTITION BY toYYYYMM(seen_at)
ORDER BY (seen_at, id)
SETTINGS ttl_only_drop_parts = 1`,
  `CREATE TABLE IF NOT EXISTS ${db.t('referrer_daily')} (
  day Date32,
  zone_id String,
  parent_domain Nullable(String),
  referrer Nullable(String),
  publisher Nullable(String),
  advertiser Nullable(String),
  first_seen DateTime64(3, 'UTC'),
  last_seen DateTime64(3, 'UTC'),
  hits UInt64,
  cutoff DateTime64(3, 'UTC'),
  last_id UInt64
) ENGINE = MergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (day, zone_id)`,
  `CREATE TABLE IF NOT EXISTS ${db.t('referrer_event_watermark')} (cutoff DateTime64(3, 'UTC'), last_id UInt64)
ENGINE = MergeTree ORDER BY cutoff`,
];

export const eventKeyTables = (db: ClickHouseDb): string[] => [
  `ALTER TABLE ${db.t('referrer_event')} ADD COLUMN IF NOT EXISTS event_key String DEFAULT ''`,
  `CREATE TABLE IF NOT EXISTS ${db.t('referrer_event_key')} (key String, added_at DateTime64(3, 'UTC'))
ENGINE = ReplacingMergeTree(added_at)
PARTITION BY toDate(added_at)
ORDER BY key
TTL toDateTime(added_at) + toIntervalDay(${REFERRER_LIMITS.idempotencyDays})
SETTINGS ttl_only_drop_parts = 1`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db.t('referrer_event_key_mv')} TO ${db.t('referrer_event_key')} AS
SELECT arrayJoin(splitByChar('\\n', event_key)) AS key, now64(3, 'UTC') AS added_at FROM ${db.t('referrer_event')} WHERE event_key != ''`,
];

/**
 * Migration 4: bot and spam traffic apart. Events carry is_bot and the reason they were flagged;
 * rollup rows carry is_bot (retention keeps flagged and human hits apart). Rows stored before are
 * human (DEFAULT false).
 */
export const botTrafficColumns = (db: ClickHouseDb): string[] => [
  `ALTER TABLE ${db.t('referrer_event')} ADD COLUMN IF NOT EXISTS is_bot Bool DEFAULT false, ADD COLUMN IF NOT EXISTS reason LowCardinality(Nullable(String))`,
  `ALTER TABLE ${db.t('referrer_daily')} ADD COLUMN IF NOT EXISTS is_bot Bool DEFAULT false`,
];

/**
 * Migration 5: the Meta attribution of a visit (the beacon's cid, asid, adid, plc) on its event;
 * events stored before have none (NULL).
 */
export const attributionColumns = (db: ClickHouseDb): string[] => [
  `ALTER TABLE ${db.t('referrer_event')} ADD COLUMN IF NOT EXISTS campaign_id Nullable(String), ADD COLUMN IF NOT EXISTS adset_id Nullable(String), ADD COLUMN IF NOT EXISTS ad_id Nullable(String), ADD COLUMN IF NOT EXISTS placement LowCardinality(Nullable(String))`,
];

/**
 * Migration 7: human visits per zone and UTC quarter hour, for the profit rule's zone visits
 * (zone values every minute, Rentabilidad), which otherwise count 8 days or more of raw events per
 * read. A local day starts on a quarter hour in every zone in use today, so a day's visits are a
 * sum of whole quarter hours. Filled by a materialized view, in the same INSERT as the events
 * (SummingMergeTree: read with sum()). Nothing is backfilled: zone_visits_since records from when
 * every event is in the table — the epoch on an empty warehouse, else a quarter hour 10 to 25
 * minutes past both the latest event stored and now (an INSERT under way while the view was
 * created is not in it; ingest takes no event more than 5 minutes past its instance's clock) —
 * and readers count raw events before that instant (quarterHourFrom). Two instances migrating
 * together each add a row computed after the view exists; the latest is used, and any instant
 * after the view's creation is safe. (No reader runs before its own migration has added one.)
 */
export const zoneVisitTables = (db: ClickHouseDb): string[] => [
  `CREATE TABLE IF NOT EXISTS ${db.t('zone_visits_15m')} (bucket DateTime('UTC'), zone_id String, visits UInt64)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (bucket, zone_id)
SETTINGS ttl_only_drop_parts = 1`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db.t('zone_visits_15m_mv')} TO ${db.t('zone_visits_15m')} AS
SELECT toStartOfFifteenMinutes(seen_at) AS bucket, zone_id, count() AS visits FROM ${db.t('referrer_event')} WHERE NOT is_bot GROUP BY bucket, zone_id`,
  `CREATE TABLE IF NOT EXISTS ${db.t('zone_visits_since')} (since DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY since`,
  `INSERT INTO ${db.t('zone_visits_since')} (since)
SELECT if(count() = 0, toDateTime64(0, 3, 'UTC'), toStartOfFifteenMinutes(greatest(max(seen_at), now64(3, 'UTC')) + toIntervalMinute(25)))
FROM ${db.t('referrer_event')}`,
];

/**
 * A table of human visits per UTC hour (SummingMergeTree, read with sum()), each hour's four
 * quarters in q0…q3, filled by a materialized view in the events' INSERT, with `keys` beside the
 * hour (`key` columns and their types; `select`: each key's expression over referrer_event) and
 * `where` the events it counts. A zone whose days start on the hour sums an hour's quarters; one
 * whose days start on a quarter hour spreads them over their own days (profit/get-profit-parts.ts).
 * Nothing is backfilled: `<name>_since` records from when every event is in it — the epoch on an
 * empty warehouse, else an hour 10 to 70 minutes past both the latest event stored and now (as
 * zone_visits_since above) — and readers count what is before that instant some other way (hourFrom).
 */
function hourlyVisitTables(
  db: ClickHouseDb,
  name: string,
  keys: ReadonlyArray<{ key: string; type: string; select?: string }>,
  where: string,
  settings = '',
): string[] {
  const cols = keys.map((k) => `${k.key} ${k.type}`).join(', ');
  const names = keys.map((k) => k.key).join(', ');
  const selects = keys.map((k) => (k.select ? `${k.select} AS ${k.key}` : k.key)).join(', ');
  return [
    `CREATE TABLE IF NOT EXISTS ${db.t(name)} (hour DateTime('UTC'), ${cols}, q0 UInt64, q1 UInt64, q2 UInt64, q3 UInt64)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(hour)
ORDER BY (hour, ${names})
SETTINGS ttl_only_drop_parts = 1${settings}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db.t(`${name}_mv`)} TO ${db.t(name)} AS
SELECT toStartOfHour(seen_at) AS hour, ${selects},
       countIf(toMinute(seen_at) < 15) AS q0, countIf(toMinute(seen_at) BETWEEN 15 AND 29) AS q1,
       countIf(toMinute(seen_at) BETWEEN 30 AND 44) AS q2, countIf(toMinute(seen_at) >= 45) AS q3
FROM ${db.t('referrer_event')} WHERE ${where}
GROUP BY hour, ${names}`,
    `CREATE TABLE IF NOT EXISTS ${db.t(`${name}_since`)} (since DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY since`,
    `INSERT INTO ${db.t(`${name}_since`)} (since)
SELECT if(count() = 0, toDateTime64(0, 3, 'UTC'), toStartOfHour(greatest(max(seen_at), now64(3, 'UTC')) + toIntervalMinute(70)))
FROM ${db.t('referrer_event')}`,
  ];
}

/**
 * Migration 9: human visits from Meta ads per hour, zone and attribution (campaign, ad set, ad,
 * keyword), for Rentabilidad's attributed visits, which otherwise count every raw event of the
 * range per read (a week of 10 M events: 3 M rows, ~200 ms of a 350 ms read; from the hours, 298 k
 * rows). Nullable keys (allow_nullable_key), so an ad set, ad or keyword missing stays NULL, not ''.
 * Readers count raw events before its start.
 */
export const attributedVisitTables = (db: ClickHouseDb): string[] =>
  hourlyVisitTables(
    db,
    'attributed_visits_1h',
    [
      { key: 'zone_id', type: 'String' },
      { key: 'campaign_id', type: 'String', select: 'assumeNotNull(campaign_id)' },
      { key: 'adset_id', type: 'Nullable(String)' },
      { key: 'ad_id', type: 'Nullable(String)' },
      { key: 'keyword', type: 'Nullable(String)' },
    ],
    'NOT is_bot AND campaign_id IS NOT NULL',
    ', allow_nullable_key = 1',
  );

/**
 * Migration 10: human visits per zone and hour, for the profit rule's zone visits: a quarter of
 * zone_visits_15m's rows to group (8 days of 2,000 zones: 384 k rows, not 1.37 M). Readers take
 * the hours from its start on, zone_visits_15m's quarter hours between that table's start and it,
 * and raw events before (get-profit-parts.ts, zone_counts).
 */
export const zoneHourTables = (db: ClickHouseDb): string[] =>
  hourlyVisitTables(db, 'zone_visits_1h', [{ key: 'zone_id', type: 'String' }], 'NOT is_bot');

/**
 * The instant from which a table of hourly visits (hourlyVisitTables) holds every counted visit
 * (needs `wm`): the view's start, or the first hour wholly after the retention cutoff if later.
 */
export const hourFrom = (db: Tables, table: 'attributed_visits_1h' | 'zone_visits_1h', wm = 'wm') =>
  `(SELECT greatest(max(since), toStartOfHour(tupleElement(${wm}, 1) + toIntervalMillisecond(3599999))) FROM ${db.t(`${table}_since`)})`;

/** The tables of visits per quarter hour or hour (a materialized view's each), and their time column: retention drops their months. */
export const VISIT_ROLLUPS = [
  { table: 'zone_visits_15m', time: 'bucket' },
  { table: 'attributed_visits_1h', time: 'hour' },
  { table: 'zone_visits_1h', time: 'hour' },
] as const;

/**
 * The instant from which zone_visits_15m holds every counted human visit (needs `wm`): the view's
 * start (zone_visits_since), or the first quarter hour wholly after the retention cutoff if later —
 * events rolled up by retention no longer count, and no quarter hour from then on holds one.
 */
export const quarterHourFrom = (db: Tables, wm = 'wm') =>
  `(SELECT greatest(max(since), toStartOfFifteenMinutes(tupleElement(${wm}, 1) + toIntervalMillisecond(899999))) FROM ${db.t('zone_visits_since')})`;

/** The latest retention run's (cutoff, last id): both only grow, so their maxima are one run's. */
export const watermarkSql = (db: Tables) => `(SELECT max(cutoff), max(last_id) FROM ${db.t('referrer_event_watermark')})`;

/** Raw events still counted: not rolled up by a retention run (`wm` is watermarkSql's tuple, aliased). */
export const liveEvent = (wm = 'wm') => `NOT (seen_at < tupleElement(${wm}, 1) AND id <= tupleElement(${wm}, 2))`;

/** Rollup rows of committed retention runs only (a run is its (cutoff, last id): one of them grows each run). */
export const committedDaily = (db: Tables) => `(cutoff, last_id) IN (SELECT cutoff, last_id FROM ${db.t('referrer_event_watermark')})`;
