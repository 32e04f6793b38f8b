// The raw referrer log: events in the range ordered by any of its columns (default newest
// first; ties by id, newest first), optionally only up to an id so pages stay still while
// events arrive; one page with the count and the newest stored id, or all streamed.
import type { ReferrerLogRecord } from '@adops/core';
import type { Db } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { orderBy, pageSql } from '../../sql/order.js';
import { DUCKDB } from '../../sql/dialect.js';
import { rawEventWhere } from '../../referrers/filter.js';
import type { LogQuery, Order } from '../../types.js';

const COLUMNS = new Set(['seen_at', 'zone_id', 'parent_domain', 'referrer', 'keyword', 'ip', 'country', 'id']);
const TIES: Order = [{ key: 'id', dir: 'desc' }];
/** The log's default order: newest first. */
export const LOGS_DEFAULT_ORDER: Order = [{ key: 'seen_at', dir: 'desc' }];

function logSql(b: Binder, q: Omit<LogQuery, 'limit' | 'offset'>): { where: string; order: string } {
  const where = rawEventWhere(b, q.filter);
  return {
    where: q.beforeId !== undefined ? `${where} AND id <= ${b.bind(q.beforeId, 'UInt64')}` : where,
    order: orderBy(DUCKDB, q.order.length ? q.order : LOGS_DEFAULT_ORDER, TIES, (k) => (COLUMNS.has(k) ? k : undefined)),
  };
}

const SELECT = 'SELECT id, zone_id, parent_domain, referrer, seen_at, keyword, ip, country, is_bot, reason FROM referrer_event';

export async function getReferrerLogs(db: Db, q: LogQuery): Promise<{ rows: ReferrerLogRecord[]; total: number; latestId: number | null }> {
  const b = new Binder(DUCKDB);
  const s = logSql(b, q);
  const [rows, count] = await Promise.all([
    db.all<ReferrerLogRecord>(`${SELECT} WHERE ${s.where} ${s.order} ${pageSql(b, q.limit, q.offset)}`, b.params),
    db.one<{ n: number; latest: number | null }>(
      `SELECT count(*) AS n, (SELECT max(id) FROM referrer_event) AS latest FROM referrer_event WHERE ${s.where}`,
      b.params,
    ),
  ]);
  return { rows, total: count?.n ?? 0, latestId: count?.latest ?? null };
}

export async function* streamReferrerLogs(db: Db, q: Omit<LogQuery, 'limit' | 'offset'>): AsyncGenerator<ReferrerLogRecord[]> {
  const b = new Binder(DUCKDB);
  const s = logSql(b, q);
  yield* db.stream<ReferrerLogRecord>(`${SELECT} WHERE ${s.where} ${s.order}`, b.params);
}
