// Zone-report imports: rows are staged into a table of the import's own, inserted in chunks
// while the upload is still being parsed. One chunk is on its way at a time: when the next is
// full before it is confirmed, add() hands back a promise the reader waits on, so a file of any
// size holds at most two chunks of rows (parsing is faster than inserting, and without the wait
// every chunk of the file queued up in memory behind the first). The commit
// — serialised with every other write of this process — counts the staged keys already stored,
// records the days it will touch (zone_report_pending), inserts the last staged row of each key
// with a new version (ReplacingMergeTree: it replaces the stored one, FINAL reads see only it),
// then rewrites the rollup of those days under a version taken after that insert, so imports of
// the same day at other instances at the same time cannot leave a rollup without their rows
// (schema.ts). ClickHouse has no multi-table transaction:
// between the rows insert and the rollup switch, rollup-read aggregates still show the previous
// day; a failure there is repaired by the next commit or the next open.
import { randomUUID } from 'node:crypto';
import type { ClickHouseDb } from '../db.js';
import type { ZoneReportCommit, ZoneReportImport } from '../../types.js';
import { IN_DAYS, ZONE_REPORT_COLUMNS_SQL, markPending, nextVersion, rebuildRollup, repairRollup } from './schema.js';
import { ZONE_NATURAL_KEY, ZONE_REPORT_COLUMNS } from '../../types.js';

const COLUMNS = ZONE_REPORT_COLUMNS.join(', ');
/** A stage table's columns: the row's position in the file, then the zone report's. */
const STAGE_COLUMNS = ['seq', ...ZONE_REPORT_COLUMNS] as const;
const KEY = ZONE_NATURAL_KEY.join(', ');
/** Staged rows sent to ClickHouse at once. */
const CHUNK_ROWS = 20_000;
/** Stage tables are named with this prefix; leftovers of a crashed process are dropped at open. */
export const STAGE_PREFIX = 'zone_report_stage_';

/** Date32 holds 1900-01-01 … 2299-12-31; a date outside it would be clamped silently, so it is refused. */
function checkDate(date: string): void {
  const year = Number(date.slice(0, 4));
  if (!(year >= 1900 && year <= 2299)) throw new Error(`date: ${date} fuera del rango del almacén (1900–2299)`);
}

/** A ClickHouse import, with the most rows it held at once (staged but not yet confirmed by ClickHouse). */
export interface ClickHouseZoneReportImport extends ZoneReportImport {
  readonly peakRows: number;
}

export async function beginZoneReportImport(db: ClickHouseDb, chunkRows = CHUNK_ROWS): Promise<ClickHouseZoneReportImport> {
  const stage = `${STAGE_PREFIX}${randomUUID().replace(/-/g, '')}`;
  await db.command(`CREATE TABLE ${db.t(stage)} (seq UInt64, ${ZONE_REPORT_COLUMNS_SQL}) ENGINE = MergeTree ORDER BY tuple()`);
  // Each staged row as its values in STAGE_COLUMNS' order (db.insertColumns).
  let buffer: unknown[][] = [];
  // The chunk on its way (resolved once ClickHouse confirmed it, or failed) and its size.
  let sending: Promise<void> = Promise.resolve();
  let inFlight = 0;
  let peakRows = 0;
  let failed: unknown;
  let staged = 0;
  let state: 'open' | 'committed' | 'closed' = 'open';

  /** Sends the buffer once the chunk before it is confirmed; resolves when it is on its way. */
  const send = async (): Promise<void> => {
    await sending;
    if (failed) throw failed;
    if (buffer.length === 0 || state === 'closed') return;
    const rows = buffer;
    buffer = [];
    inFlight = rows.length;
    sending = db.insertColumns(stage, STAGE_COLUMNS, rows).then(
      () => {
        inFlight = 0;
      },
      (e) => {
        inFlight = 0;
        failed ??= e;
      },
    );
  };

  return {
    get peakRows() {
      return peakRows;
    },

    add(record, seq) {
      if (state !== 'open') throw new Error('import already committed or closed');
      checkDate(record.date);
      buffer.push([seq, ...ZONE_REPORT_COLUMNS.map((c) => record[c])]);
      staged++;
      if (buffer.length + inFlight > peakRows) peakRows = buffer.length + inFlight;
      return buffer.length >= chunkRows ? send() : undefined;
    },

    async commit(listLimit = 1000) {
      if (state !== 'open') throw new Error('import already committed or closed');
      state = 'committed';
      await send();
      await sending;
      if (failed) throw failed;
      if (staged === 0) return { inserted: 0, replaced: 0, repeated: [], repeated_total: 0 };
      const repeated = await repeatedKeys(db, stage, listLimit);
      return db.serialWrite(async () => {
        await repairRollup(db); // days an earlier commit of this process left half done
        const span = await db.one<{ first: string; last: string; days: string[] }>(
          `SELECT toString(min(date)) AS first, toString(max(date)) AS last, arrayMap(d -> toString(d), groupUniqArray(date)) AS days
           FROM ${db.t(stage)}`,
        );
        if (!span) throw new Error('staged rows missing');
        // The keys it replaces: the staged keys less those the insert adds to the days' current rows.
        const before = await currentRows(db, span);
        const v = await nextVersion(db);
        await markPending(db, span.days, v);
        // The last staged row of a key wins (highest seq): the rows a later one of their key
        // supersedes — only among the repeated keys, few — are left out; the rest go as staged, unsorted.
        const superseded = `SELECT s.seq FROM ${db.t(stage)} AS s
          INNER JOIN (${repeatedGroups(db, stage, 'max(seq) AS last_seq')}) AS r USING (${KEY})
          WHERE s.seq != r.last_seq`;
        await db.command(
          `INSERT INTO ${db.t('zone_report')} (${COLUMNS}, version)
           SELECT ${COLUMNS}, {v:UInt64} FROM ${db.t(stage)}
           ${repeated.repeated_total > 0 ? `WHERE seq NOT IN (${superseded})` : ''}`,
          { v },
        );
        // The rollup under a version taken now, after these rows: not `v`, which another
        // instance's import of the same day may have passed while these rows were on their way.
        await rebuildRollup(db, span.days);
        const inserted = (await currentRows(db, span)) - before;
        return { inserted, replaced: staged - repeated.repeated_total - inserted, ...repeated };
      });
    },

    async close() {
      if (state === 'closed') return;
      state = 'closed';
      buffer = [];
      await sending;
      await db.command(`DROP TABLE IF EXISTS ${db.t(stage)}`);
    },
  };
}

// Within the engine's memory limit whatever the file's size: no window over every staged row, no
// set or join table of every staged key, no GROUP BY of every key's six texts — each passed the
// default 128 MB on a 1 M-row import (HTTP 500), or a small limit on 200,000 rows.

/**
 * Staged rows whose key an earlier staged row had (the last one is stored), at most `limit`
 * listed, and how many in all. First grouped by a 64-bit hash of the key (8 bytes a key in the
 * hash table, not six texts): a file's usual answer, none, is then final; only the keys whose hash
 * came twice — repeated keys, or rarely a collision — are grouped by the key itself.
 */
async function repeatedKeys(db: ClickHouseDb, stage: string, limit: number): Promise<Pick<ZoneReportCommit, 'repeated' | 'repeated_total'>> {
  const candidates = Number((await db.one<{ n: number }>(`SELECT count() AS n FROM (${hashedTwice(db, stage)})`))?.n ?? 0);
  if (candidates === 0) return { repeated: [], repeated_total: 0 };
  const groups = repeatedGroups(db, stage, 'min(seq) AS first_seq, count() AS c');
  const total = Number((await db.one<{ n: number }>(`SELECT sum(c - 1) AS n FROM (${groups})`))?.n ?? 0);
  if (total === 0) return { repeated: [], repeated_total: 0 };
  const rows = await db.all<{ seq: number; first_seq: number }>(
    `SELECT s.seq AS seq, r.first_seq AS first_seq FROM ${db.t(stage)} AS s INNER JOIN (${groups}) AS r USING (${KEY})
      WHERE s.seq != r.first_seq ORDER BY seq LIMIT {limit:UInt32}`,
    { limit: Math.max(1, limit) },
  );
  return { repeated: rows.map((r) => ({ seq: Number(r.seq), first_seq: Number(r.first_seq) })), repeated_total: total };
}

/** The hashes of the keys staged more than once (and of colliding keys, rarely). */
const hashedTwice = (db: ClickHouseDb, stage: string) => `SELECT h FROM ${db.t(stage)} GROUP BY cityHash64(${KEY}) AS h HAVING count() > 1`;

/** The keys staged more than once, each with `aggregates` of its rows: only the rows whose key's hash came twice are grouped. */
const repeatedGroups = (db: ClickHouseDb, stage: string, aggregates: string) =>
  `SELECT ${KEY}, ${aggregates} FROM ${db.t(stage)} WHERE cityHash64(${KEY}) IN (${hashedTwice(db, stage)}) GROUP BY ${KEY} HAVING count() > 1`;

/** The current rows (one a key: FINAL, which merges as it reads) of the staged days; 0 without reading them when none is stored. */
async function currentRows(db: ClickHouseDb, span: { first: string; last: string; days: string[] }): Promise<number> {
  const params = { first: span.first, last: span.last, days: span.days };
  const any = await db.one<{ n: number }>(`SELECT count() AS n FROM ${db.t('zone_report')} WHERE ${IN_DAYS}`, params);
  if (Number(any?.n ?? 0) === 0) return 0;
  return Number((await db.one<{ n: number }>(`SELECT count() AS n FROM ${db.current('zone_report')} WHERE ${IN_DAYS}`, params))?.n ?? 0);
}

/** Drops stage tables a crashed process left behind (older than a day). */
export async function dropStaleStages(db: ClickHouseDb): Promise<void> {
  const stale = await db.all<{ name: string }>(
    `SELECT name FROM system.tables
     WHERE database = {db:String} AND startsWith(name, {prefix:String}) AND metadata_modification_time < now() - INTERVAL 1 DAY`,
    { db: db.database, prefix: STAGE_PREFIX },
  );
  for (const { name } of stale) if (/^[a-z_0-9]+$/.test(name)) await db.command(`DROP TABLE IF EXISTS ${db.t(name)}`);
}
