// The raw referrer log: events in the range ordered by any of its columns (default newest
// first; ties by id, newest first), optionally only up to an id so pages stay still while
// events arrive; one page with the count and the newest stored id, or all streamed.
import type { ReferrerLogRecord } from '@adops/core';
import type { Db, Param } from '../db.js';
import { orderBy } from '../../sql/order.js';
import { DUCKDB } from '../../sql/dialect.js';
import { rawEventWhere } from './filter.js';
import type { LogQuery, Order } from '../../types.js';

const COLUMNS = new Set(['seen_at', 'zone_id', 'parent_domain', 'referrer', 'keyword', 'ip', 'country', 'id']);
const TIES: Order = [{ key: 'id', dir: 'desc' }];
/** The log's default order: newest first. */
export const LOGS_DEFAULT_ORDER: Order = [{ key: 'seen_at', dir: 'desc' }];

function logSql(q: Omit<LogQuery, 'limit' | 'offset'>): { where: string; params: Param[]; order: string } {
  const where = rawEventWhere(q.filter);
  const bounded = q.beforeId !== undefined ? `${where.sql} AND id <= ?` : where.sql;
  return {
    where: bounded,
    params: q.beforeId !== undefined ? [...where.params, q.beforeId] : where.params,
    order: orderBy(DUCKDB, q.order.length ? q.order : LOGS_DEFAULT_ORDER, TIES, (k) => (COLUMNS.has(k) ? k : undefined)),
  };
}

const SELECT = 'SELECT id, zone_id, parent_domain, referrer, seen_at, keyword, ip, country, is_bot, reason FROM referrer_event';

export async function getReferrerLogs(db: Db, q: LogQuery): Promise<{ rows: ReferrerLogRecord[]; total: number; latestId: number | null }> {
  const s = logSql(q);
  const [rows, count] = await Promise.all([
    db.all<ReferrerLogRecord>(`${SELECT} WHERE ${s.where} ${s.order} LIMIT ? OFFSET ?`, [...s.params, q.limit ?? 1_000_000_000, q.offset ?? 0]),
    db.one<{ n: number; latest: number | null }>(
      `SELECT count(*) AS n, (SELECT max(id) FROM referrer_event) AS latest FROM referrer_event WHERE ${s.where}`,
      s.params,
    ),
  ]);
  return { rows, total: count?.n ?? 0, latestId: count?.latest ?? null };
}

export async function* streamReferrerLogs(db: Db, q: Omit<LogQuery, 'limit' | 'offset'>): AsyncGenerator<ReferrerLogRecord[]> {
  const s = logSql(q);
  yield* db.stream<ReferrerLogRecord>(`${SELECT} WHERE ${s.where} ${s.order}`, s.params);
}
