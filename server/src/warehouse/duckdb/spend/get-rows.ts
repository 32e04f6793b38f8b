// Stored ad-day spend rows of a range of days, by date then ad id.
import type { Db } from '../db.js';
import type { AdSpendRecord } from '../../types.js';

export async function getSpendRows(db: Db, range: { from: string; to: string }): Promise<AdSpendRecord[]> {
  return db.all<AdSpendRecord>(
    `SELECT strftime(date, '%Y-%m-%d') AS date, account_id, campaign_id, campaign_name, adset_id, adset_name, ad_id, ad_name,
            spend, impressions, clicks, currency
     FROM ad_spend WHERE date BETWEEN ?::DATE AND ?::DATE ORDER BY date, ad_id`,
    [range.from, range.to],
  );
}

export async function countSpendRows(db: Db): Promise<number> {
  return Number((await db.one<{ n: number }>('SELECT count(*) AS n FROM ad_spend'))?.n ?? 0);
}
