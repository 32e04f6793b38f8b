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
import type { ZoneReportImport, ZoneReportRecord } from '../../types.js';
import { ZONE_REPORT_COLUMNS_SQL, markPending, nextVersion, rebuildRollup, repairRollup } from './schema.js';
import { ZONE_NATURAL_KEY, ZONE_REPORT_COLUMNS } from '../../types.js';

const COLUMNS = ZONE_REPORT_COLUMNS.join(', ');
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
  let buffer: Array<ZoneReportRecord & { seq: number }> = [];
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
    sending = db.insert(stage, rows).then(
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
      buffer.push({ seq, ...record });
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
      // Staged rows whose key an earlier staged row had (the last one is stored, below).
      const repeatedRows = await db.all<{ seq: number; first_seq: number; total: number }>(
        `SELECT seq, first_seq, count() OVER () AS total
           FROM (SELECT seq, min(seq) OVER (PARTITION BY ${KEY}) AS first_seq FROM ${db.t(stage)})
          WHERE seq != first_seq
          ORDER BY seq
          LIMIT {limit:UInt32}`,
        { limit: Math.max(1, listLimit) },
      );
      const repeated = {
        repeated: repeatedRows.map((r) => ({ seq: Number(r.seq), first_seq: Number(r.first_seq) })),
        repeated_total: repeatedRows.length ? Number(repeatedRows[0].total) : 0,
      };
      return db.serialWrite(async () => {
        await repairRollup(db); // days an earlier commit of this process left half done
        const span = await db.one<{ first: string; last: string; days: string[]; n: number }>(
          `SELECT toString(min(date)) AS first, toString(max(date)) AS last,
                  arrayMap(d -> toString(d), groupUniqArray(date)) AS days, uniqExact(${KEY}) AS n
           FROM ${db.t(stage)}`,
        );
        if (!span) throw new Error('staged rows missing');
        const stored = await db.one<{ n: number }>(
          `SELECT count() AS n FROM ${db.t('zone_report')} FINAL
           WHERE date BETWEEN {first:Date32} AND {last:Date32} AND (${KEY}) IN (SELECT ${KEY} FROM ${db.t(stage)})`,
          { first: span.first, last: span.last },
        );
        const replaced = Number(stored?.n ?? 0);
        const v = await nextVersion(db);
        await markPending(db, span.days, v);
        // The last staged row of a key wins (highest seq).
        await db.command(
          `INSERT INTO ${db.t('zone_report')} (${COLUMNS}, version)
           SELECT ${COLUMNS}, {v:UInt64} FROM ${db.t(stage)}
           ORDER BY ${KEY}, seq DESC
           LIMIT 1 BY ${KEY}`,
          { v },
        );
        // The rollup under a version taken now, after these rows: not `v`, which another
        // instance's import of the same day may have passed while these rows were on their way.
        await rebuildRollup(db, span.days);
        return { inserted: Number(span.n) - replaced, replaced, ...repeated };
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

/** Drops stage tables a crashed process left behind (older than a day). */
export async function dropStaleStages(db: ClickHouseDb): Promise<void> {
  const stale = await db.all<{ name: string }>(
    `SELECT name FROM system.tables
     WHERE database = {db:String} AND startsWith(name, {prefix:String}) AND metadata_modification_time < now() - INTERVAL 1 DAY`,
    { db: db.database, prefix: STAGE_PREFIX },
  );
  for (const { name } of stale) if (/^[a-z_0-9]+$/.test(name)) await db.command(`DROP TABLE IF EXISTS ${db.t(name)}`);
}
