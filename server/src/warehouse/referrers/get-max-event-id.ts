// The highest event id ever assigned: the newest raw event or the highest id retention rolled
// up (DuckDB: after retention emptied the table, the highest id it deleted).
import type { SqlDb } from '../sql/db.js';
import type { Engine } from '../sql/dialect.js';

const SQL: Record<Engine, (db: SqlDb) => string> = {
  duckdb: () => `
SELECT greatest(
  coalesce((SELECT max(id) FROM referrer_event), 0),
  coalesce((SELECT max(last_id) FROM referrer_event_watermark), 0)
) AS id`,
  clickhouse: (db) =>
    `SELECT greatest((SELECT max(id) FROM ${db.t('referrer_event')}), (SELECT max(last_id) FROM ${db.t('referrer_event_watermark')})) AS id`,
};

export async function getMaxEventId(db: SqlDb): Promise<number> {
  const row = await db.one<{ id: number }>(SQL[db.dialect.engine](db));
  return Number(row?.id ?? 0);
}
