// Zone-report imports: rows are appended (DuckDB appender) into a temp staging table on a
// connection of the import's own — 2,048 at a time as a data chunk whose columns are written
// whole (vectors.ts: a few native calls a column instead of one a value, which cost more than
// parsing the line); value by value only where a chunk cannot be used — so parsing a large upload never holds the writer; the merge
// — delete the stored rows with a staged natural key, insert the staged rows in date order —
// runs as one transaction with the rewrite of the touched days' rollup, serialised with every
// other write through the writer queue.
import duckdb from '@duckdb/node-bindings';
import { DuckDBDataChunk, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
import { type Db, readAll, run } from '../db.js';
import { isOutOfMemory } from '../../memory-refusal.js';
import type { ZoneReportCommit, ZoneReportImport, ZoneReportRecord } from '../../types.js';
import {
  ZONE_PERIOD_KEYS,
  ZONE_REPORT_COLUMNS_SQL,
  rollupInsertSql,
  addsUp,
  zonePeriodsBeforeSql,
  zonePeriodsChangeSql,
  zonePeriodsDeleteSql,
  zonePeriodsRewriteSql,
  zonesInsertSql,
} from './schema.js';
import { ZONE_NATURAL_KEY, ZONE_REPORT_COLUMNS } from '../../types.js';
import { LITTLE_ENDIAN, ROWS, int64, putInt64, setValidity, validity, validityBytes, writeText } from '../vectors.js';
import { dropValuesSql } from '../profit/visit-cache.js';
import { DomainError } from '../../../domain-errors.js';

const COLUMNS = ZONE_REPORT_COLUMNS.join(', ');
const KEY = ZONE_NATURAL_KEY.join(', ');
const KEY_MATCH = ZONE_NATURAL_KEY.map((c) => `zone_report.${c} = b.${c}`).join(' AND ');

function appendRecord(a: DuckDBAppender, r: ZoneReportRecord, seq: number): void {
  a.appendBigInt(BigInt(seq));
  a.appendVarchar(r.date);
  a.appendVarchar(r.advertiser);
  a.appendVarchar(r.publisher);
  a.appendVarchar(r.zone_id);
  a.appendVarchar(r.geo);
  a.appendVarchar(r.source);
  a.appendVarchar(r.domain);
  a.appendBigInt(BigInt(r.impressions));
  if (r.monetized_impressions === null) a.appendNull();
  else a.appendBigInt(BigInt(r.monetized_impressions));
  a.appendBigInt(BigInt(r.clicks));
  a.appendDouble(r.revenue);
  if (r.rate_applied === null) a.appendNull();
  else a.appendDouble(r.rate_applied);
  a.appendDouble(r.p_revenue);
  a.appendDouble(r.margin);
  if (r.tq === null) a.appendNull();
  else a.appendDouble(r.tq);
  a.endRow();
}

// ---- Column by column (data chunks) ----

/** zone_report_staging's column types in order (seq, then ZONE_REPORT_COLUMNS_SQL). */
const STAGING_TYPES = [
  'BIGINT', // seq
  'DATE',
  ...['VARCHAR', 'VARCHAR', 'VARCHAR', 'VARCHAR', 'VARCHAR', 'VARCHAR'], // advertiser … domain
  ...['BIGINT', 'BIGINT', 'BIGINT'], // impressions, monetized_impressions, clicks
  ...['DOUBLE', 'DOUBLE', 'DOUBLE', 'DOUBLE', 'DOUBLE'], // revenue, rate_applied, p_revenue, margin, tq
];
const TEXT: ReadonlyArray<readonly [number, (r: ZoneReportRecord) => string]> = [
  [2, (r) => r.advertiser],
  [3, (r) => r.publisher],
  [4, (r) => r.zone_id],
  [5, (r) => r.geo],
  [6, (r) => r.source],
  [7, (r) => r.domain],
];
const COUNTS: ReadonlyArray<readonly [number, (r: ZoneReportRecord) => number | null]> = [
  [8, (r) => r.impressions],
  [9, (r) => r.monetized_impressions],
  [10, (r) => r.clicks],
];
const AMOUNTS: ReadonlyArray<readonly [number, (r: ZoneReportRecord) => number | null]> = [
  [11, (r) => r.revenue],
  [12, (r) => r.rate_applied],
  [13, (r) => r.p_revenue],
  [14, (r) => r.margin],
  [15, (r) => r.tq],
];
const int32 = new Int32Array(ROWS);
const float64 = new Float64Array(ROWS);
const DAY_MS = 86_400_000;

/** A data chunk of the staging table's columns, or null when the appender's columns are not those (or the host is big-endian). */
function stagingChunk(a: DuckDBAppender): DuckDBDataChunk | null {
  if (!LITTLE_ENDIAN || a.columnCount !== STAGING_TYPES.length) return null;
  const types = STAGING_TYPES.map((_, c) => a.columnType(c));
  return types.every((t, c) => t.toString() === STAGING_TYPES[c]) ? DuckDBDataChunk.create(types) : null;
}

/** Validity of rows [0, n) from `get` (null: invalid); whether any row is null. */
function nullsOf(rows: readonly ZoneReportRecord[], n: number, get: (r: ZoneReportRecord) => number | null): boolean {
  let nulls = false;
  for (let i = 0; i < n; i++) {
    if (get(rows[i]) !== null) continue;
    if (!nulls) validity.fill(255, 0, validityBytes(n));
    nulls = true;
    validity[i >> 3] &= ~(1 << (i & 7));
  }
  return nulls;
}

/** Appends rows (at most ROWS) with their seqs as one data chunk. */
function appendChunk(a: DuckDBAppender, chunk: DuckDBDataChunk, rows: readonly ZoneReportRecord[], seqs: readonly number[]): void {
  const n = rows.length;
  chunk.reset();
  chunk.rowCount = n;
  const vector = (c: number) => duckdb.data_chunk_get_vector(chunk.chunk, c);
  for (let i = 0; i < n; i++) putInt64(i, seqs[i]);
  duckdb.copy_data_to_vector(vector(0), 0, int64.buffer, 0, n * 8);
  // DATE: days since 1970-01-01 (a file's lines come day by day: each day is computed once).
  let day = '';
  let days = 0;
  for (let i = 0; i < n; i++) {
    const d = rows[i].date;
    if (d !== day) {
      day = d;
      days = Math.round(Date.parse(`${d}T00:00:00Z`) / DAY_MS);
    }
    int32[i] = days;
  }
  duckdb.copy_data_to_vector(vector(1), 0, int32.buffer, 0, n * 4);
  for (const [c, get] of TEXT) writeText(vector(c), rows, 0, n, get);
  for (const [c, get] of COUNTS) {
    for (let i = 0; i < n; i++) putInt64(i, get(rows[i]) ?? 0);
    duckdb.copy_data_to_vector(vector(c), 0, int64.buffer, 0, n * 8);
    if (nullsOf(rows, n, get)) setValidity(vector(c), n);
  }
  for (const [c, get] of AMOUNTS) {
    for (let i = 0; i < n; i++) float64[i] = get(rows[i]) ?? 0;
    duckdb.copy_data_to_vector(vector(c), 0, float64.buffer, 0, n * 8);
    if (nullsOf(rows, n, get)) setValidity(vector(c), n);
  }
  a.appendDataChunk(chunk);
}

/** Whether any row is stored in the span's days (the check reads the date's per-row-group min/max only). */
async function anyStored(conn: DuckDBConnection, span: { first: string; last: string }): Promise<boolean> {
  const stored = await readAll(conn, 'SELECT EXISTS (SELECT 1 FROM zone_report WHERE date BETWEEN $first::DATE AND $last::DATE)', span);
  return stored.getRows()[0][0] === true;
}

/** Deletes the stored rows whose key `table` has, in its days; how many. */
async function deleteReplaced(conn: DuckDBConnection, table: string, span: { first: string; last: string }): Promise<number> {
  const removed = await run(
    conn,
    `DELETE FROM zone_report USING ${table} b
      WHERE zone_report.date BETWEEN $first::DATE AND $last::DATE AND ${KEY_MATCH}`,
    span,
  );
  return Number(removed.rowsChanged);
}

/**
 * Whether a key was staged more than once. First grouped by a 64-bit hash of the key, a quarter
 * of the cost of grouping its six columns (a file's usual answer, no, is then final); only when
 * two rows share a hash — a repeated key, or rarely a collision — are the keys themselves grouped.
 */
async function hasRepeatedKeys(conn: DuckDBConnection): Promise<boolean> {
  const repeated = async (by: string) =>
    (await conn.runAndReadAll(`SELECT EXISTS (SELECT 1 FROM zone_report_staging GROUP BY ${by} HAVING count(*) > 1)`)).getRows()[0][0] === true;
  return (await repeated(`hash(${KEY})`)) && repeated(KEY);
}

/** Staged rows whose key an earlier staged row had, with that first row's seq (at most `limit`, ≥ 1), and how many in all. */
async function repeatedKeys(conn: DuckDBConnection, limit: number): Promise<Pick<ZoneReportCommit, 'repeated' | 'repeated_total'>> {
  const reader = await readAll(
    conn,
    `SELECT seq, first_seq, count(*) OVER () AS total
       FROM (SELECT seq, min(seq) OVER (PARTITION BY ${KEY}) AS first_seq FROM zone_report_staging)
      WHERE seq <> first_seq
      ORDER BY seq
      LIMIT $limit`,
    { limit },
  );
  const rows = reader.getRows() as Array<[bigint, bigint, bigint]>;
  return {
    repeated: rows.map(([seq, first]) => ({ seq: Number(seq), first_seq: Number(first) })),
    repeated_total: rows.length ? Number(rows[0][2]) : 0,
  };
}

/**
 * An import DuckDB could not hold within its memory limit (a file of very many zones in one month
 * at a small ADOPS_WAREHOUSE_MEMORY_LIMIT) is refused in words — 413, nothing stored: its
 * transaction rolled back — instead of answering 500; any other failure as it is.
 */
function refusedForMemory(e: unknown): unknown {
  if (!isOutOfMemory(e)) return e;
  return new DomainError(
    'too_large',
    'El archivo no cabe de una vez en la memoria del almacén (ADOPS_WAREHOUSE_MEMORY_LIMIT): no se ha guardado nada. Divídelo en archivos más pequeños (por ejemplo, por días) o aumenta ese límite',
  );
}

/** The pause before a step of an import's commit that failed for the engine's memory is run once more (beginZoneReportImport's onceMore). */
export const MEMORY_RETRY_MS = 1_000;

export async function beginZoneReportImport(db: Db, retryAfterMs = MEMORY_RETRY_MS): Promise<ZoneReportImport> {
  const conn = await db.connect();
  let appender: DuckDBAppender | null = null;
  let closed = false;
  const closeAppender = () => {
    if (!appender) return;
    const a = appender;
    appender = null;
    a.closeSync();
  };
  let chunk: DuckDBDataChunk | null = null;
  try {
    await conn.run(`CREATE OR REPLACE TEMP TABLE zone_report_staging (seq BIGINT NOT NULL, ${ZONE_REPORT_COLUMNS_SQL})`);
    appender = await conn.createAppender('zone_report_staging', null, 'temp');
    chunk = stagingChunk(appender);
  } catch (e) {
    db.release(conn);
    throw e;
  }
  let staged = 0;
  // The staged rows' first and last day, and whether their days came in order.
  let first = '';
  let last = '';
  let ordered = true;
  // Rows waiting for a whole chunk.
  let rows: ZoneReportRecord[] = [];
  let seqs: number[] = [];
  const appendRows = () => {
    if (!appender || rows.length === 0) return;
    if (chunk) appendChunk(appender, chunk, rows, seqs);
    else for (let i = 0; i < rows.length; i++) appendRecord(appender, rows[i], seqs[i]);
    rows = [];
    seqs = [];
  };

  /**
   * Runs `work` once more after a pause when the engine could not hold it within its memory limit
   * while other work held that memory (a large warehouse's start, the zone owners read after an
   * import): each step retried leaves nothing behind when it fails (a read, a table created whole,
   * the transaction rolled back).
   */
  const onceMore = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (e) {
      if (!isOutOfMemory(e)) throw e;
      await new Promise((resolve) => setTimeout(resolve, retryAfterMs));
      return work();
    }
  };

  /** Merges the staged rows into the stored ones (see the file's head). */
  const merge = async (listLimit: number): Promise<ZoneReportCommit> => {
    appendRows();
    closeAppender(); // flushes what is buffered
    if (staged === 0) return { inserted: 0, replaced: 0, repeated: [], repeated_total: 0 };
    // A file without repeated keys, its days in order (the usual export), is merged straight
    // from the staging table: no window over its rows, no sorted copy of them.
    const repeats = await onceMore(() => hasRepeatedKeys(conn));
    const repeated = repeats ? await onceMore(() => repeatedKeys(conn, Math.max(1, listLimit))) : { repeated: [], repeated_total: 0 };
    let table = 'zone_report_staging';
    if (repeats || !ordered) {
      // The last staged row of a key wins; the batch is sorted by date for the zone maps.
      await onceMore(() =>
        conn.run(
          `CREATE OR REPLACE TEMP TABLE zone_report_batch AS
           SELECT ${COLUMNS} FROM zone_report_staging
           ${repeats ? `QUALIFY row_number() OVER (PARTITION BY ${KEY} ORDER BY seq DESC) = 1` : ''}
           ORDER BY date`,
        ),
      );
      await conn.run('DROP TABLE zone_report_staging');
      table = 'zone_report_batch';
    }
    const total = staged - repeated.repeated_total;
    const write = () =>
      db.serialWrite(async () => {
        await conn.run('BEGIN TRANSACTION');
        try {
          const span = { first, last };
          // Days never imported (the usual new file) have no stored row to replace: no join of
          // every staged key, no sums of those days from before. Otherwise the periods that add
          // up keep their sums of the batch's days as stored before, then the replaced rows go.
          const stored = await anyStored(conn, span);
          if (stored) for (const period of ZONE_PERIOD_KEYS) if (addsUp(period)) await run(conn, zonePeriodsBeforeSql(period, table), span);
          const replaced = stored ? await deleteReplaced(conn, table, span) : 0;
          await conn.run(`INSERT INTO zone_report (${COLUMNS}) SELECT ${COLUMNS} FROM ${table}`);
          // The rollup of every day the batch touched, summed again from the stored rows.
          const days = `date BETWEEN $first::DATE AND $last::DATE AND date IN (SELECT DISTINCT date FROM ${table})`;
          await run(conn, `DELETE FROM zone_report_rollup WHERE ${days}`, span);
          // Days with no row stored before hold the batch's rows only: their rollup and zone ids
          // are read from the batch, not from zone_report's rows of this transaction (slower to read back).
          const daysRows = stored ? 'zone_report' : table;
          await run(conn, rollupInsertSql(`WHERE ${days}`, daysRows), span);
          await run(conn, zonesInsertSql(`WHERE ${days}`, daysRows), span);
          // The batch's rows are stored now; what follows needs only its days. Dropped, its rows
          // (a temp table: in the engine's memory, spilled past it) no longer hold the memory the
          // zone periods' sums need: into an empty warehouse, a 500,000-row file was refused at
          // 128 MB on the key months' GROUP BY, with ~130 MB of batch held.
          await conn.run(`CREATE OR REPLACE TEMP TABLE zone_report_import_days AS SELECT DISTINCT date FROM ${table}`);
          await conn.run(`DROP TABLE ${table}`);
          const batchDays = 'zone_report_import_days';
          // Key months and zone weeks change by what the batch's days changed; zone months are
          // summed again from the key months.
          for (const period of ZONE_PERIOD_KEYS)
            if (addsUp(period)) for (const sql of zonePeriodsChangeSql(period, batchDays, stored)) await run(conn, sql, span);
            else {
              await conn.run(zonePeriodsDeleteSql(period, batchDays));
              await run(conn, zonePeriodsRewriteSql(period, batchDays), span);
            }
          // What the profit query kept of these days' visits was worth by the report they replace.
          for (const sql of dropValuesSql(`SELECT DISTINCT date FROM ${batchDays}`)) await conn.run(sql);
          await conn.run('COMMIT');
          return { inserted: total - replaced, replaced, ...repeated };
        } catch (e) {
          await conn.run('ROLLBACK').catch(() => undefined);
          throw e;
        }
      });
    // The transaction rolls back whole, so running it again stores and counts each row once.
    return onceMore(write);
  };

  return {
    add(record, seq) {
      if (!appender) throw new Error('import already committed or closed');
      const day = record.date; // YYYY-MM-DD: text order is date order
      if (day < last) ordered = false;
      else last = day;
      if (first === '' || day < first) first = day;
      rows.push(record);
      seqs.push(seq);
      staged++;
      if (rows.length !== ROWS) return;
      try {
        appendRows();
      } catch (e) {
        throw refusedForMemory(e); // the staging table's rows are the engine's memory too (then spilled)
      }
    },

    commit(listLimit = 1000) {
      return merge(listLimit).catch((e) => {
        throw refusedForMemory(e);
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      try {
        closeAppender();
      } catch {
        /* the connection goes anyway */
      }
      db.release(conn); // temp tables go with it
    },
  };
}
