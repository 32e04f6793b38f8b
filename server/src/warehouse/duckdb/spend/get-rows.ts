// Stored ad-day spend rows of a range of days, by date then ad id; how many in all; sums per month;
// the days of a range with any row.
import type { Db } from '../db.js';
import type { AdSpendRecord, SpendMonth } from '../../types.js';
import { spendMonths } from '../../profit-rows.js';

export async function getSpendRows(db: Db, range: { from: string; to: string }): Promise<AdSpendRecord[]> {
  return db.all<AdSpendRecord>(
    `SELECT strftime(date, '%Y-%m-%d') AS date, account_id, campaign_id, campaign_name, adset_id, adset_name, ad_id, ad_name,
            spend, impressions, clicks, currency
     FROM ad_spend WHERE date BETWEEN $from::DATE AND $to::DATE ORDER BY date, ad_id`,
    range,
  );
}

export async function countSpendRows(db: Db): Promise<number> {
  return Number((await db.one<{ n: number }>('SELECT count(*) AS n FROM ad_spend'))?.n ?? 0);
}

export async function getSpendMonths(db: Db): Promise<SpendMonth[]> {
  const rows = await db.all<Record<keyof SpendMonth, unknown>>(
    `SELECT strftime(date, '%Y-%m') AS month, count(*) AS rows, sum(spend) AS spend, sum(impressions) AS impressions, sum(clicks) AS clicks
     FROM ad_spend GROUP BY month ORDER BY month`,
  );
  return spendMonths(rows);
}

export async function getSpendDays(db: Db, range: { from: string; to: string }): Promise<string[]> {
  const rows = await db.all<{ day: string }>(
    `SELECT DISTINCT strftime(date, '%Y-%m-%d') AS day FROM ad_spend WHERE date BETWEEN $from::DATE AND $to::DATE ORDER BY day`,
    range,
  );
  return rows.map((r) => r.day);
}
