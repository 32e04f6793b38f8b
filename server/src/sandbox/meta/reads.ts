// The Marketing API's reads as the sandbox answers them: the campaigns edge (fields, status
// filter, insights over a time range), ad-level daily insights, and Graph's cursor paging.
import { AD_INSIGHT_FIELDS as AD_FIELDS } from '../../providers/meta/client.js';
import type { GraphAccount } from './account.js';
import { campaignDelivery, sandboxDailyMetrics } from './delivery.js';
import { addDays, fail, invalid, isYmd, splitTopLevel } from './graph.js';

const EFFECTIVE_STATUSES = new Set(['ACTIVE', 'PAUSED', 'DELETED', 'ARCHIVED', 'IN_PROCESS', 'WITH_ISSUES']);
const CAMPAIGN_FIELDS = new Set(['id', 'name', 'effective_status', 'status', 'created_time', 'objective']);
const INSIGHT_FIELDS = new Set(['impressions', 'clicks', 'spend', 'account_currency', 'date_start', 'date_stop']);
const AD_INSIGHT_FIELDS = new Set<string>([...AD_FIELDS, 'date_start', 'date_stop']);

export function listCampaigns(account: GraphAccount, path: string, p: Record<string, unknown>): unknown {
  const fields = splitTopLevel(typeof p.fields === 'string' ? p.fields : 'id');
  let insights: { since: string; until: string; fields: string[] } | null = null;
  const plain: string[] = [];
  for (const field of fields) {
    const m = /^insights(?:\.time_range\((.*)\))?(?:\{(.*)\})?$/.exec(field);
    if (m) {
      let range: { since?: unknown; until?: unknown } = {};
      try {
        range = m[1] ? (JSON.parse(m[1].replace(/'/g, '"')) as typeof range) : {};
      } catch {
        invalid('time_range', 'no es un objeto JSON');
      }
      const today = account.today();
      const since = m[1] ? range.since : addDays(today, -29);
      const until = m[1] ? range.until : today;
      if (!isYmd(since) || !isYmd(until) || since > until) invalid('time_range', 'since y until deben ser fechas y since <= until');
      const sub = m[2] ? splitTopLevel(m[2]) : ['impressions', 'clicks', 'spend'];
      for (const s of sub) if (!INSIGHT_FIELDS.has(s)) fail(400, `(#100) ${s} is not valid for fields param.`);
      insights = { since, until, fields: sub };
    } else if (CAMPAIGN_FIELDS.has(field)) plain.push(field);
    else fail(400, `(#100) Tried accessing nonexisting field (${field}) on node type (Campaign)`);
  }
  let campaigns = [...account.objects.values()].filter((o) => o.type === 'campaign');
  if (p.effective_status !== undefined) {
    const wanted = p.effective_status;
    if (!Array.isArray(wanted) || wanted.some((s) => !EFFECTIVE_STATUSES.has(String(s))))
      invalid('effective_status', 'debe ser una lista de estados');
    campaigns = campaigns.filter((o) => wanted.includes(o.status));
  }
  campaigns.sort((a, b) => b.created_time.localeCompare(a.created_time) || b.id.localeCompare(a.id));
  return paged(account, path, p, campaigns, (o) => {
    const row: Record<string, unknown> = {};
    for (const f of plain)
      row[f] = f === 'effective_status' ? o.status : f === 'objective' ? o.params.objective : (o as unknown as Record<string, unknown>)[f];
    if (!('id' in row)) row.id = o.id;
    if (insights) {
      const totals = campaignDelivery(account, o, insights.since, insights.until);
      if (totals) {
        const all: Record<string, string> = {
          impressions: String(totals.impressions),
          clicks: String(totals.clicks),
          spend: totals.spend.toFixed(2),
          account_currency: account.currency,
          date_start: insights.since,
          date_stop: insights.until,
        };
        const shown: Record<string, string> = { date_start: insights.since, date_stop: insights.until };
        for (const f of insights.fields) shown[f] = all[f];
        row.insights = { data: [shown], paging: { cursors: { before: 'MAZDZD', after: 'MAZDZD' } } };
      }
    }
    return row;
  });
}

/**
 * One page of `items` as Graph pages an edge: `limit` (at most maxPageSize), an `after`
 * cursor, and `paging.next` — the same query with the next cursor — while more remain.
 */
function paged<T>(
  account: GraphAccount,
  path: string,
  p: Record<string, unknown>,
  items: readonly T[],
  shown: (item: T) => unknown = (item) => item,
): unknown {
  const requested = p.limit === undefined ? 25 : Number(p.limit);
  if (!Number.isInteger(requested) || requested < 1) invalid('limit', 'debe ser un entero positivo');
  const size = Math.min(requested, account.maxPageSize);
  let offset = 0;
  if (p.after !== undefined) {
    offset = Number(Buffer.from(String(p.after), 'base64url').toString('utf8'));
    if (!Number.isInteger(offset) || offset < 0) invalid('after', 'cursor no válido');
  }
  const page = items.slice(offset, offset + size);
  const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
  const paging: Record<string, unknown> = { cursors: { before: cursor(offset), after: cursor(offset + page.length) } };
  if (offset + page.length < items.length) {
    const next = new URLSearchParams();
    for (const [k, v] of Object.entries(p)) next.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    next.set('after', cursor(offset + page.length));
    paging.next = `${account.url}/${account.version}${path}?${next.toString()}`;
  }
  return { data: page.map(shown), paging };
}

/** GET /act_X/insights?level=ad&time_increment=1: one row per ad and day with delivery, by day then ad id, paged like Graph. */
export function adInsights(account: GraphAccount, path: string, p: Record<string, unknown>): unknown {
  if (p.level !== 'ad') invalid('level', 'el sandbox solo responde level=ad');
  if (String(p.time_increment) !== '1') invalid('time_increment', 'el sandbox solo responde time_increment=1');
  const fields = splitTopLevel(typeof p.fields === 'string' ? p.fields : '');
  for (const f of fields) if (!AD_INSIGHT_FIELDS.has(f)) fail(400, `(#100) ${f} is not valid for fields param.`);
  const range = p.time_range as { since?: unknown; until?: unknown } | undefined;
  if (!range || typeof range !== 'object' || !isYmd(range.since) || !isYmd(range.until) || range.since > range.until)
    invalid('time_range', 'since y until deben ser fechas y since <= until');
  const rows: Array<Record<string, string>> = [];
  for (const ad of [...account.objects.values()].filter((o) => o.type === 'ad')) {
    const parents = account.campaignOfAd(ad);
    if (!parents) continue;
    for (const day of account.deliveryDays(parents.campaign, range.since, range.until)) {
      const m = sandboxDailyMetrics(ad.id, day);
      if (!m) continue;
      const all: Record<string, string> = {
        campaign_id: parents.campaign.id,
        campaign_name: parents.campaign.name,
        adset_id: parents.adset.id,
        adset_name: parents.adset.name,
        ad_id: ad.id,
        ad_name: ad.name,
        spend: m.spend.toFixed(2),
        impressions: String(m.impressions),
        clicks: String(m.clicks),
        account_currency: account.currency,
      };
      const row: Record<string, string> = { date_start: day, date_stop: day };
      for (const f of fields) if (f in all) row[f] = all[f];
      rows.push(row);
    }
  }
  rows.sort((a, b) => a.date_start.localeCompare(b.date_start) || (a.ad_id ?? '').localeCompare(b.ad_id ?? ''));
  return paged(account, path, p, rows);
}
