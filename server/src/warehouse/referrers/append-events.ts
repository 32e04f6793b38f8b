// Appends one batch of referrer events through the DuckDB appender on the writer connection;
// the appender's flush commits the batch as one transaction.
import { DuckDBTimestampValue, type DuckDBAppender } from '@duckdb/node-api';
import type { Db } from '../db.js';
import type { ReferrerEvent } from './types.js';

const text = (a: DuckDBAppender, v: string | null) => (v === null ? a.appendNull() : a.appendVarchar(v));

export function appendEvents(db: Db, events: readonly ReferrerEvent[]): Promise<void> {
  if (events.length === 0) return Promise.resolve();
  return db.serialWrite(async (conn) => {
    const a = await conn.createAppender('referrer_event');
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
  });
}
