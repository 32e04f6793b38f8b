// Stores ad-day rows of Meta spend, replacing a stored row of the same (date, ad_id): one
// INSERT OR REPLACE per chunk of rows, all in one transaction on the writer connection.
import { type Db, run } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { DUCKDB } from '../../sql/dialect.js';
import type { AdSpendRecord } from '../../types.js';

const CHUNK = 500;
const COLUMNS =
  '(date, account_id, campaign_id, campaign_name, adset_id, adset_name, ad_id, ad_name, spend, impressions, clicks, currency, synced_at)';

export function upsertSpend(db: Db, rows: readonly AdSpendRecord[]): Promise<void> {
  if (rows.length === 0) return Promise.resolve();
  return db.serialWrite(async (conn) => {
    await conn.run('BEGIN TRANSACTION');
    try {
      for (let i = 0; i < rows.length; i += CHUNK) {
        const b = new Binder(DUCKDB);
        const text = (v: string) => b.bind(v, 'String');
        const values = rows
          .slice(i, i + CHUNK)
          .map(
            (r) =>
              `(${b.bind(r.date, 'Date32')}, ${text(r.account_id)}, ${text(r.campaign_id)}, ${text(r.campaign_name)}, ${text(r.adset_id)}, ` +
              `${text(r.adset_name)}, ${text(r.ad_id)}, ${text(r.ad_name)}, ${b.bind(r.spend, 'Float64')}, ${b.bind(r.impressions, 'Int64')}, ` +
              `${b.bind(r.clicks, 'Int64')}, ${text(r.currency)}, now()::TIMESTAMP)`,
          );
        await run(conn, `INSERT OR REPLACE INTO ad_spend ${COLUMNS} VALUES ${values.join(', ')}`, b.params);
      }
      await conn.run('COMMIT');
    } catch (e) {
      await conn.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
  });
}
