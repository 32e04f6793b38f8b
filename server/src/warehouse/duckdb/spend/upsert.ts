// Stores ad-day rows of Meta spend, replacing a stored row of the same (date, ad_id): one
// INSERT OR REPLACE per chunk of rows, all in one transaction on the writer connection.
import type { DuckDBValue } from '@duckdb/node-api';
import type { Db } from '../db.js';
import type { AdSpendRecord } from '../../types.js';

const CHUNK = 500;
const COLUMNS =
  '(date, account_id, campaign_id, campaign_name, adset_id, adset_name, ad_id, ad_name, spend, impressions, clicks, currency, synced_at)';
const ROW = '(?::DATE, ?, ?, ?, ?, ?, ?, ?, ?::DOUBLE, ?::BIGINT, ?::BIGINT, ?, now()::TIMESTAMP)';

export function upsertSpend(db: Db, rows: readonly AdSpendRecord[]): Promise<void> {
  if (rows.length === 0) return Promise.resolve();
  return db.serialWrite(async (conn) => {
    await conn.run('BEGIN TRANSACTION');
    try {
      for (let i = 0; i < rows.length; i += CHUNK) {
        const chunk = rows.slice(i, i + CHUNK);
        const params: DuckDBValue[] = [];
        for (const r of chunk)
          params.push(
            r.date,
            r.account_id,
            r.campaign_id,
            r.campaign_name,
            r.adset_id,
            r.adset_name,
            r.ad_id,
            r.ad_name,
            r.spend,
            r.impressions,
            r.clicks,
            r.currency,
          );
        await conn.run(`INSERT OR REPLACE INTO ad_spend ${COLUMNS} VALUES ${chunk.map(() => ROW).join(', ')}`, params);
      }
      await conn.run('COMMIT');
    } catch (e) {
      await conn.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
  });
}
