// Stored ad-day spend rows of a range of days, by date then ad id; how many in all; sums per month;
// the days of a range with any row (ClickHouse: each (date, ad_id) as last synced, FINAL).
import { Binder } from '../sql/binder.js';
import type { SqlDb } from '../sql/db.js';
import { spendMonths } from '../profit-rows.js';
import type { AdSpendRecord, SpendMonth } from '../types.js';

const inRange = (b: Binder, range: { from: string; to: string }) => `date BETWEEN ${b.bind(range.from, 'Date32')} AND ${b.bind(range.to, 'Date32')}`;

export async function getSpendRows(db: SqlDb, range: { from: string; to: string }): Promise<AdSpendRecord[]> {
  const b = new Binder(db.dialect);
  return db.all<AdSpendRecord>(
    `SELECT ${db.dialect.day('date')} AS date, account_id, campaign_id, campaign_name, adset_id, adset_name, ad_id, ad_name,
            spend, impressions, clicks, currency
     FROM ${db.current('ad_spend')} WHERE ${inRange(b, range)} ORDER BY date, ad_id`,
    b.params,
  );
}

export async function countSpendRows(db: SqlDb): Promise<number> {
  return Number((await db.one<{ n: number }>(`SELECT ${db.dialect.count()} AS n FROM ${db.current('ad_spend')}`))?.n ?? 0);
}

export async function getSpendMonths(db: SqlDb): Promise<SpendMonth[]> {
  const d = db.dialect;
  const rows = await db.all<Record<keyof SpendMonth, unknown>>(
    `SELECT ${d.month('date')} AS month, ${d.count()} AS rows, sum(spend) AS spend, sum(impressions) AS impressions, sum(clicks) AS clicks
     FROM ${db.current('ad_spend')} GROUP BY month ORDER BY month`,
  );
  return spendMonths(rows);
}

export async function getSpendDays(db: SqlDb, range: { from: string; to: string }): Promise<string[]> {
  const b = new Binder(db.dialect);
  const rows = await db.all<{ day: string }>(
    `SELECT DISTINCT ${db.dialect.day('date')} AS day FROM ${db.current('ad_spend')} WHERE ${inRange(b, range)} ORDER BY day`,
    b.params,
  );
  return rows.map((r) => r.day);
}
