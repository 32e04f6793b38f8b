// Zone-report imports: rows are appended (DuckDB appender) into a temp staging table on a
// connection of the import's own, so parsing a large upload never holds the writer; the merge
// — delete the stored rows with a staged natural key, insert the staged rows in date order —
// runs as one transaction with the rewrite of the touched days' rollup, serialised with every
// other write through the writer queue.
import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import { type Db, readAll, run } from '../db.js';
import type { ZoneReportCommit, ZoneReportImport, ZoneReportRecord } from '../../types.js';
import { ZONE_MONTHS_DELETE_SQL, ZONE_MONTHS_REWRITE_SQL, ZONE_REPORT_COLUMNS_SQL, rollupInsertSql, zonesInsertSql } from './schema.js';
import { ZONE_NATURAL_KEY, ZONE_REPORT_COLUMNS } from '../../types.js';

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

export async function beginZoneReportImport(db: Db): Promise<ZoneReportImport> {
  const conn = await db.connect();
  let appender: DuckDBAppender | null = null;
  let closed = false;
  const closeAppender = () => {
    if (!appender) return;
    const a = appender;
    appender = null;
    a.closeSync();
  };
  try {
    await conn.run(`CREATE OR REPLACE TEMP TABLE zone_report_staging (seq BIGINT NOT NULL, ${ZONE_REPORT_COLUMNS_SQL})`);
    appender = await conn.createAppender('zone_report_staging', null, 'temp');
  } catch (e) {
    db.release(conn);
    throw e;
  }
  let staged = 0;

  return {
    add(record, seq) {
      if (!appender) throw new Error('import already committed or closed');
      appendRecord(appender, record, seq);
      staged++;
    },

    async commit(listLimit = 1000) {
      closeAppender(); // flushes what is buffered
      if (staged === 0) return { inserted: 0, replaced: 0, repeated: [], repeated_total: 0 };
      const repeated = await repeatedKeys(conn, Math.max(1, listLimit));
      // The last staged row of a key wins; the batch is sorted by date for the zone maps.
      await conn.run(
        `CREATE OR REPLACE TEMP TABLE zone_report_batch AS
           SELECT ${COLUMNS} FROM zone_report_staging
           QUALIFY row_number() OVER (PARTITION BY ${KEY} ORDER BY seq DESC) = 1
           ORDER BY date`,
      );
      await conn.run('DROP TABLE zone_report_staging');
      const span = await conn.runAndReadAll('SELECT min(date)::VARCHAR AS first, max(date)::VARCHAR AS last, count(*) AS n FROM zone_report_batch');
      const [first, last, n] = span.getRows()[0] as [string, string, bigint];
      const total = Number(n);
      return db.serialWrite(async () => {
        await conn.run('BEGIN TRANSACTION');
        try {
          const span = { first, last };
          const removed = await run(
            conn,
            `DELETE FROM zone_report USING zone_report_batch b
              WHERE zone_report.date BETWEEN $first::DATE AND $last::DATE AND ${KEY_MATCH}`,
            span,
          );
          await conn.run(`INSERT INTO zone_report (${COLUMNS}) SELECT ${COLUMNS} FROM zone_report_batch`);
          // The rollup of every day the batch touched, summed again from the stored rows.
          const days = `date BETWEEN $first::DATE AND $last::DATE AND date IN (SELECT DISTINCT date FROM zone_report_batch)`;
          await run(conn, `DELETE FROM zone_report_rollup WHERE ${days}`, span);
          await run(conn, rollupInsertSql(`WHERE ${days}`), span);
          await run(conn, zonesInsertSql(`WHERE ${days}`), span);
          await conn.run(ZONE_MONTHS_DELETE_SQL);
          await run(conn, ZONE_MONTHS_REWRITE_SQL, span);
          await conn.run('COMMIT');
          const replaced = Number(removed.rowsChanged);
          return { inserted: total - replaced, replaced, ...repeated };
        } catch (e) {
          await conn.run('ROLLBACK').catch(() => undefined);
          throw e;
        }
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
