// Meta spend on ClickHouse (ad_spend): upserts are inserts with a higher version, reads FINAL.
import type { ClickHouseDb } from '../db.js';
import { Binder } from '../../sql/binder.js';
import { CLICKHOUSE } from '../../sql/dialect.js';
import type { AdSpendRecord, SpendMonth, SpendWarehouse } from '../../types.js';
import { spendMonths } from '../../profit-rows.js';

export { adSpendTables } from './schema.js';

/** Versions only grow within a process and across restarts (microseconds of the clock, plus a counter). */
let last = 0;
const nextVersion = () => {
  last = Math.max(last + 1, Date.now() * 1000);
  return last;
};

export function clickHouseSpendWarehouse(db: ClickHouseDb): SpendWarehouse {
  return {
    async upsert(rows) {
      if (rows.length === 0) return;
      const version = nextVersion();
      await db.serialWrite(() =>
        db.insert(
          'ad_spend',
          rows.map((r) => ({ ...r, version })),
        ),
      );
    },
    async rows(range) {
      const b = new Binder(CLICKHOUSE);
      return db.all<AdSpendRecord>(
        `SELECT toString(date) AS date, account_id, campaign_id, campaign_name, adset_id, adset_name, ad_id, ad_name,
                spend, impressions, clicks, currency
         FROM ${db.t('ad_spend')} FINAL
         WHERE date BETWEEN toDate32(${b.bind(range.from, 'String')}) AND toDate32(${b.bind(range.to, 'String')})
         ORDER BY date, ad_id`,
        b.params,
      );
    },
    async countRows() {
      return Number((await db.one<{ n: number }>(`SELECT count() AS n FROM ${db.t('ad_spend')} FINAL`))?.n ?? 0);
    },
    async days(range) {
      const b = new Binder(CLICKHOUSE);
      const rows = await db.all<{ day: string }>(
        `SELECT DISTINCT toString(date) AS day FROM ${db.t('ad_spend')} FINAL
         WHERE date BETWEEN toDate32(${b.bind(range.from, 'String')}) AND toDate32(${b.bind(range.to, 'String')}) ORDER BY day`,
        b.params,
      );
      return rows.map((r) => r.day);
    },
    async months() {
      const rows = await db.all<Record<keyof SpendMonth, unknown>>(
        `SELECT substring(toString(date), 1, 7) AS month, count() AS rows, sum(spend) AS spend, sum(impressions) AS impressions, sum(clicks) AS clicks
         FROM ${db.t('ad_spend')} FINAL GROUP BY month ORDER BY month`,
      );
      return spendMonths(rows);
    },
  };
}
