// The raw referrer log: events in the range, newest first.
import type { ReferrerLogRecord } from '@adops/core';
import type { Db } from '../db.js';
import { rawEventWhere } from './filter.js';
import type { RangeFilter } from './types.js';

export function getReferrerLogs(db: Db, f: RangeFilter, limit: number): Promise<ReferrerLogRecord[]> {
  const where = rawEventWhere(f);
  return db.all<ReferrerLogRecord>(
    `SELECT id, zone_id, parent_domain, referrer, seen_at, keyword, ip, country
     FROM referrer_event WHERE ${where.sql}
     ORDER BY seen_at DESC, id DESC
     LIMIT ?`,
    [...where.params, limit],
  );
}
