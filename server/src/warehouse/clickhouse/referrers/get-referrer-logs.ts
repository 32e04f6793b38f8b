// The raw referrer log: events in the range ordered by any of its columns (default newest
// first; ties by id, newest first), optionally only up to an id so pages stay still while
// events arrive; one page with the count and the newest stored id, or all streamed.
import type { ReferrerLogRecord } from '@adops/core';
import type { ClickHouseDb } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';
import { orderBy, pageSql } from '../../sql/order.js';
import { rawEventWhere } from '../../referrers/filter.js';
import { liveEvent, watermarkSql } from './schema.js';
import type { LogQuery, Order } from '../../types.js';

const COLUMNS = new Set(['seen_at', 'zone_id', 'parent_domain', 'referrer', 'keyword', 'ip', 'country', 'id']);
const TIES: Order = [{ key: 'id', dir: 'desc' }];
/** The log's default order: newest first. */
export const LOGS_DEFAULT_ORDER: Order = [{ key: 'seen_at', dir: 'desc' }];

function logWhere(b: Binder, q: Omit<LogQuery, 'limit' | 'offset'>): string {
  const where = rawEventWhere(b, q.filter);
  return q.beforeId !== undefined ? `${where} AND id <= ${b.bind(q.beforeId, 'UInt64')}` : where;
}

const order = (q: Omit<LogQuery, 'limit' | 'offset'>) =>
  orderBy(CLICKHOUSE, q.order.length ? q.order : LOGS_DEFAULT_ORDER, TIES, (k) => (COLUMNS.has(k) ? k : undefined));

const select = (db: ClickHouseDb) =>
  `WITH ${watermarkSql(db)} AS wm SELECT id, zone_id, parent_domain, referrer, seen_at, keyword, ip, country, is_bot, reason FROM ${db.t('referrer_event')}`;

export async function getReferrerLogs(db: ClickHouseDb, q: LogQuery): Promise<{ rows: ReferrerLogRecord[]; total: number; latestId: number | null }> {
  const b = new Binder(CLICKHOUSE);
  const c = new Binder(CLICKHOUSE);
  const [rows, count] = await Promise.all([
    db.all<ReferrerLogRecord>(`${select(db)} WHERE ${logWhere(b, q)} ${order(q)} ${pageSql(b, q.limit, q.offset)}`, b.params),
    db.one<{ n: number; latest: number | null }>(
      `WITH ${watermarkSql(db)} AS wm
       SELECT count() AS n, (SELECT if(count() = 0, NULL, max(id)) FROM ${db.t('referrer_event')} WHERE ${liveEvent()}) AS latest
       FROM ${db.t('referrer_event')} WHERE ${logWhere(c, q)}`,
      c.params,
    ),
  ]);
  return { rows, total: count?.n ?? 0, latestId: count?.latest ?? null };
}

export async function* streamReferrerLogs(db: ClickHouseDb, q: Omit<LogQuery, 'limit' | 'offset'>): AsyncGenerator<ReferrerLogRecord[]> {
  const b = new Binder(CLICKHOUSE);
  yield* db.stream<ReferrerLogRecord>(`${select(db)} WHERE ${logWhere(b, q)} ${order(q)}`, b.params);
}
