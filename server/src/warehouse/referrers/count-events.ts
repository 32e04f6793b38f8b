// How many raw referrer events the warehouse holds (those retention rolled up no longer count),
// all or those attributed to a Meta campaign; and per window of ids (adops migrate).
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import type { Engine } from '../sql/dialect.js';
import type { EventWindow } from '../types.js';
import { liveEvent } from '../clickhouse/referrers/schema.js';
import { withWatermark } from './filter.js';

export async function countEvents(db: SqlDb, only: { attributed?: boolean } = {}): Promise<number> {
  const conditions = [...(db.dialect.engine === 'clickhouse' ? [liveEvent()] : []), ...(only.attributed ? ['campaign_id IS NOT NULL'] : [])];
  const where = conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
  const row = await db.one<{ n: number }>(`${withWatermark(db)}SELECT ${db.dialect.count()} AS n FROM ${db.t('referrer_event')}${where}`);
  return Number(row?.n ?? 0);
}

/** The window of an id: ids k·size+1 … (k+1)·size are window k. */
const WINDOW: Record<Engine, (size: string) => string> = {
  duckdb: (size) => `(id - 1) // ${size}`,
  clickhouse: (size) => `intDiv(id - 1, ${size})`,
};

/** Each window of `size` ids that holds events: how many, and the sum of their ids (window k: ids k·size+1 … (k+1)·size). */
export async function countEventWindows(db: SqlDb, size: number): Promise<Map<number, EventWindow>> {
  const b = new Binder(db.dialect);
  const live = db.dialect.engine === 'clickhouse' ? ` WHERE ${liveEvent()}` : '';
  const rows = await db.all<{ w: number; n: number; ids: number }>(
    `${withWatermark(db)}SELECT ${db.dialect.cast(WINDOW[db.dialect.engine](b.bind(size, 'UInt64')), 'int')} AS w,
            ${db.dialect.cast(db.dialect.count(), 'int')} AS n, ${db.dialect.cast('sum(id)', 'int')} AS ids
       FROM ${db.t('referrer_event')}${live} GROUP BY w`,
    b.params,
  );
  return new Map(rows.map((r) => [Number(r.w), { events: Number(r.n), id_sum: Number(r.ids) }]));
}
