// Campaigns created from the console, on PostgreSQL.
import type pg from 'pg';
import type { CampaignRecord, CampaignRepository } from '../types.js';
import { hasNul, iso, type Query } from './db.js';

const CAMPAIGN_COLUMNS =
  'campaign_id, adset_id, ad_id, creative_id, image_hash, keyword, headline, body, objective, daily_budget, bid_amount, tracking_url, created_by, created_at';

const campaignRecord = (r: pg.QueryResultRow): CampaignRecord => ({
  campaign_id: r.campaign_id,
  adset_id: r.adset_id,
  ad_id: r.ad_id,
  creative_id: r.creative_id,
  image_hash: r.image_hash,
  keyword: r.keyword,
  headline: r.headline,
  body: r.body,
  objective: r.objective,
  daily_budget: r.daily_budget,
  bid_amount: r.bid_amount,
  tracking_url: r.tracking_url,
  created_by: r.created_by,
  created_at: iso(r.created_at),
});

export function postgresCampaigns(q: Query): CampaignRepository {
  return {
    async list() {
      return (await q(`SELECT ${CAMPAIGN_COLUMNS} FROM campaigns ORDER BY seq`)).rows.map(campaignRecord);
    },
    async add(c) {
      await q(`INSERT INTO campaigns (${CAMPAIGN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`, [
        c.campaign_id,
        c.adset_id,
        c.ad_id,
        c.creative_id,
        c.image_hash,
        c.keyword,
        c.headline,
        c.body,
        c.objective,
        c.daily_budget,
        c.bid_amount,
        c.tracking_url,
        c.created_by,
        c.created_at,
      ]);
    },
    async usesImage(hash) {
      if (hasNul(hash)) return false;
      return (await q('SELECT 1 FROM campaigns WHERE image_hash = $1 LIMIT 1', [hash])).rowCount! > 0;
    },
  };
}
