// What the Meta sandbox keeps and records, and how it is started: the shapes tests read
// (requests, objects, status changes) and the seeded ads the demo traffic visits.

export interface SandboxRequest {
  method: string;
  /** Path without the version, e.g. /act_1/campaigns or /1202…. */
  path: string;
  /** adimages, campaigns, adsets, adcreatives, ads, campaigns.list, delete, update, read. */
  edge: string;
  params: Record<string, unknown>;
  /** HTTP status and JSON answered (filled in when the answer is sent). */
  status?: number;
  answer?: unknown;
}

export interface SandboxObject {
  id: string;
  type: 'campaign' | 'adset' | 'adcreative' | 'ad';
  name: string;
  status: string;
  created_time: string;
  params: Record<string, unknown>;
  /** Days with delivery (campaigns): from (inclusive) .. to (inclusive, null = ongoing). */
  delivery: { from: string; to: string | null } | null;
}

/** A status change Meta received (POST /{id} with a new status): what tests assert the guard did. */
export interface SandboxStatusChange {
  id: string;
  type: SandboxObject['type'];
  from: string;
  to: string;
  at: string;
}

export interface MetaSandboxOptions {
  accessToken: string;
  adAccountId: string;
  /** Largest page the campaigns listing returns (Graph pages its edges). */
  maxPageSize?: number;
  /** Campaigns the ad account already has (with delivery history). */
  seedCampaigns?: number;
  /** Today's date (YYYY-MM-DD, UTC) — the last day that can have delivery. */
  today?: () => string;
  /** The ad account's currency (spend in insights; default EUR, as the creator's budgets). */
  currency?: string;
  /** Meta's smallest daily budget for an ad set billed on impressions, in Graph's units (default 100: 1,00 EUR). */
  minDailyBudget?: number;
}

/** A seeded ad the demo traffic can send visits for: its ids, its campaign's keyword, and when it delivers. */
export interface SandboxAd {
  campaign_id: string;
  adset_id: string;
  ad_id: string;
  keyword: string;
  campaign_name: string;
  delivery: { from: string; to: string | null } | null;
}
