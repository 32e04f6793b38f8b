// The hand-worked profit fixture (2 days, 3 zones with reports, 2 campaigns whose
// visits split across zones, the second day without a zone report), shared by the server's
// Rentabilidad tests (profit.test.ts works its figures out) and the CLI's.
import { event, importRows } from './warehouse-contract.js';
import type { AdSpendRecord, ReferrerEvent, Warehouse, ZoneReportRecord } from '../src/warehouse/index.js';

export const LAST_MONTH = (() => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
})();
export const D1 = `${LAST_MONTH}-01`;
export const D2 = `${LAST_MONTH}-02`;
export const C1 = { campaign_id: 'C1', adset_id: 'S1', ad_id: 'A1', keyword: 'seguros', placement: 'Facebook_Mobile_Feed' };
export const C2 = { campaign_id: 'C2', adset_id: 'S2', ad_id: 'A2', keyword: 'vuelos', placement: 'Instagram_Stories' };

export function visits(): ReferrerEvent[] {
  const out: ReferrerEvent[] = [];
  const add = (day: string, zone: string, n: number, extra: Partial<ReferrerEvent> = {}) => {
    for (let i = 0; i < n; i++) out.push(event(out.length + 1, Date.parse(`${day}T10:00:00Z`) + out.length * 1000, { zone_id: zone, ...extra }));
  };
  add(D1, 'Z1', 10, C1);
  add(D1, 'Z1', 5, C2);
  add(D1, 'Z1', 15);
  add(D1, 'Z1', 10, { ...C1, is_bot: true, reason: 'user_agent' });
  add(D1, 'Z2', 4, C1);
  add(D1, 'Z2', 8, C2);
  add(D1, 'Z2', 12, { keyword: 'otra' });
  add(D1, 'Z3', 5, C2);
  add(D1, 'Z3', 5);
  add(D2, 'Z1', 6, C1);
  add(D2, 'Z1', 4);
  add(D2, 'Z2', 4, C2);
  add(D2, 'Z3', 2, C1);
  return out;
}

const zone = (r: Partial<ZoneReportRecord> & Pick<ZoneReportRecord, 'zone_id' | 'revenue' | 'impressions'>): ZoneReportRecord => ({
  date: D1,
  advertiser: 'AdNova',
  publisher: 'PubA',
  geo: 'ES',
  source: 'social',
  domain: 'a.com',
  monetized_impressions: null,
  clicks: 0,
  rate_applied: 0.7,
  p_revenue: r.revenue * 0.7,
  margin: r.revenue * 0.3,
  tq: null,
  ...r,
});
export const ZONES: ZoneReportRecord[] = [
  zone({ zone_id: 'Z1', revenue: 20, impressions: 1000, tq: 0.8 }),
  zone({ zone_id: 'Z1', advertiser: 'BidSphere', revenue: 10, impressions: 500, tq: 0.5 }),
  zone({ zone_id: 'Z2', revenue: 12, impressions: 600, tq: 0.6 }),
  zone({ zone_id: 'Z3', revenue: 5, impressions: 200 }),
  zone({ zone_id: 'Z8', revenue: 100, impressions: 5000, tq: 0.9 }),
];

const spend = (date: string, c: typeof C1, amount: number, impressions: number, clicks: number): AdSpendRecord => ({
  date,
  account_id: 'act_1',
  campaign_id: c.campaign_id,
  campaign_name: `Campaña ${c.keyword}`,
  adset_id: c.adset_id,
  adset_name: `Conjunto ${c.keyword}`,
  ad_id: c.ad_id,
  ad_name: `Anuncio ${c.keyword}`,
  spend: amount,
  impressions,
  clicks,
  currency: 'EUR',
});
export const SPEND = [spend(D1, C1, 8, 2000, 20), spend(D2, C1, 6, 1500, 15), spend(D1, C2, 10, 3000, 25), spend(D2, C2, 10, 2500, 20)];

/** Stores the fixture's zone reports, visits and spend in `w`. */
export async function loadProfitFixture(w: Warehouse): Promise<void> {
  await importRows(w, ZONES);
  await w.referrers.append(visits());
  await w.spend.upsert(SPEND);
}
