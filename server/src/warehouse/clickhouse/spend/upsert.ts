// Meta spend on ClickHouse (ad_spend): an upsert is an insert with a higher version; reads use
// FINAL, so the last synced row of a (date, ad_id) is the one read.
import type { ClickHouseDb } from '../db.js';
import type { AdSpendRecord } from '../../types.js';

/** Versions only grow within a process and across restarts (microseconds of the clock, plus a counter). */
let last = 0;
const nextVersion = () => {
  last = Math.max(last + 1, Date.now() * 1000);
  return last;
};

export async function upsertSpend(db: ClickHouseDb, rows: readonly AdSpendRecord[]): Promise<void> {
  if (rows.length === 0) return;
  const version = nextVersion();
  await db.serialWrite(() =>
    db.insert(
      'ad_spend',
      rows.map((r) => ({ ...r, version })),
    ),
  );
}
