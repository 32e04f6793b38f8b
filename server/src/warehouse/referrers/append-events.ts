// Commits one batch of referrer events on the writer connection: the rows go through the
// DuckDB appender into a per-connection temp staging table (in memory, quick, blocks the event
// loop only while appending), then one INSERT … SELECT moves them into referrer_event as a
// single transaction — that commit (WAL write and sync) runs off the event loop.
import { DuckDBTimestampValue, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
import type { Db } from '../db.js';
import type { ReferrerEvent } from './types.js';

const STAGE = 'referrer_event_stage';
const staged = new WeakSet<DuckDBConnection>();

const text = (a: DuckDBAppender, v: string | null) => (v === null ? a.appendNull() : a.appendVarchar(v));

export function appendEvents(db: Db, events: readonly ReferrerEvent[]): Promise<void> {
  if (events.length === 0) return Promise.resolve();
  return db.serialWrite(async (conn) => {
    if (!staged.has(conn)) {
      await conn.run(`CREATE TEMP TABLE IF NOT EXISTS ${STAGE} AS SELECT * FROM referrer_event LIMIT 0`);
      staged.add(conn);
    }
    try {
      const a = await conn.createAppender(STAGE, null, 'temp');
      try {
        for (const e of events) {
          a.appendBigInt(BigInt(e.id));
          a.appendTimestamp(new DuckDBTimestampValue(BigInt(e.seen_ms) * 1000n));
          a.appendVarchar(e.zone_id);
          text(a, e.parent_domain);
          text(a, e.referrer);
          text(a, e.keyword);
          text(a, e.ip);
          text(a, e.country);
          text(a, e.publisher);
          text(a, e.advertiser);
          a.endRow();
        }
        a.flushSync();
      } catch (e) {
        a.clear();
        throw e;
      } finally {
        a.closeSync();
      }
      await conn.run(`INSERT INTO referrer_event SELECT * FROM temp.${STAGE}`);
    } finally {
      await conn.run(`DELETE FROM temp.${STAGE}`);
    }
  });
}
