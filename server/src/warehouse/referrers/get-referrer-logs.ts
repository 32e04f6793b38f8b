// The raw referrer log: events in the range ordered by any of its columns (default newest
// first; ties by id, newest first), optionally only up to an id so pages stay still while
// events arrive; one page with the count and the newest stored id, or all streamed.
import type { ReferrerLogRecord } from '@adops/core';
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import { orderBy, pageSql } from '../sql/order.js';
import type { LogQuery, Order } from '../types.js';
import { liveEvent } from '../clickhouse/referrers/schema.js';
import { rawEventWhere, withWatermark } from './filter.js';

const COLUMNS = new Set(['seen_at', 'zone_id', 'parent_domain', 'referrer', 'keyword', 'ip', 'country', 'id']);
const TIES: Order = [{ key: 'id', dir: 'desc' }];
/** The log's default order: newest first. */
export const LOGS_DEFAULT_ORDER: Order = [{ key: 'seen_at', dir: 'desc' }];

function logWhere(db: SqlDb, b: Binder, q: Omit<LogQuery, 'limit' | 'offset'>): string {
  const where = rawEventWhere(db, b, q.filter);
  return q.beforeId !== undefined ? `${where} AND id <= ${b.bind(q.beforeId, 'UInt64')}` : where;
}

const order = (db: SqlDb, q: Omit<LogQuery, 'limit' | 'offset'>) =>
  orderBy(db.dialect, q.order.length ? q.order : LOGS_DEFAULT_ORDER, TIES, (k) => (COLUMNS.has(k) ? k : undefined));

const select = (db: SqlDb) =>
  `${withWatermark(db)}SELECT id, zone_id, parent_domain, referrer, seen_at, keyword, ip, country, is_bot, reason FROM ${db.t('referrer_event')}`;

/** The newest event id stored (NULL when none). */
const latestId = (db: SqlDb) =>
  db.dialect.engine === 'duckdb'
    ? '(SELECT max(id) FROM referrer_event)'
    : `(SELECT if(count() = 0, NULL, max(id)) FROM ${db.t('referrer_event')} WHERE ${liveEvent()})`;

export async function getReferrerLogs(db: SqlDb, q: LogQuery): Promise<{ rows: ReferrerLogRecord[]; total: number; latestId: number | null }> {
  const b = new Binder(db.dialect);
  const where = logWhere(db, b, q);
  const [rows, count] = await Promise.all([
    db.all<ReferrerLogRecord>(`${select(db)} WHERE ${where} ${order(db, q)} ${pageSql(b, q.limit, q.offset)}`, b.params),
    db.one<{ n: number; latest: number | null }>(
      `${withWatermark(db)}SELECT ${db.dialect.count()} AS n, ${latestId(db)} AS latest FROM ${db.t('referrer_event')} WHERE ${where}`,
      b.params,
    ),
  ]);
  return { rows, total: count?.n ?? 0, latestId: count?.latest ?? null };
}

export async function* streamReferrerLogs(db: SqlDb, q: Omit<LogQuery, 'limit' | 'offset'>): AsyncGenerator<ReferrerLogRecord[]> {
  const b = new Binder(db.dialect);
  yield* db.stream<ReferrerLogRecord>(`${select(db)} WHERE ${logWhere(db, b, q)} ${order(db, q)}`, b.params);
}
