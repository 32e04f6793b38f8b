// The highest event id ever assigned: the newest raw event or, after retention emptied the
// table, the highest id it deleted.
import type { Db } from '../db.js';

const SQL = `
SELECT greatest(
  coalesce((SELECT max(id) FROM referrer_event), 0),
  coalesce((SELECT max(last_id) FROM referrer_event_watermark), 0)
) AS id`;

export async function getMaxEventId(db: Db): Promise<number> {
  const row = await db.one<{ id: number }>(SQL);
  return Number(row?.id ?? 0);
}
