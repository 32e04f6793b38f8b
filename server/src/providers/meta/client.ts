// Meta Marketing API (Graph) client over undici: ad images, campaigns, ad sets, creatives,
// ads, deletes, campaign listing with insights and ad-level daily insights (spend); Graph
// errors, bounded rate-limit retries.
import { request } from 'undici';
import { readUpstream, sleep } from '../http.js';

/** What Graph puts under `error` when a call fails. */
export interface GraphErrorBody {
  message: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_title?: string;
  error_user_msg?: string;
  is_transient?: boolean;
  fbtrace_id?: string;
}

/** Graph codes meaning "too many calls": wait and try again (API, app, user, ad account). */
export const RATE_LIMIT_CODES = new Set([4, 17, 32, 613, 80000, 80001, 80002, 80003, 80004, 80005, 80006, 80008, 80009, 80014]);

export class MetaApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly graph: GraphErrorBody,
  ) {
    super(graph.message);
    this.name = 'MetaApiError';
  }
  get code(): number | undefined {
    return this.graph.code;
  }
  get rateLimited(): boolean {
    return this.graph.code !== undefined && RATE_LIMIT_CODES.has(this.graph.code);
  }
  /** The sentence shown to the user: Meta's user message when it gives one. */
  get detail(): string {
    return this.graph.error_user_msg || this.graph.message || 'Error de Meta';
  }
}

export interface RetryPolicy {
  /** Further attempts after the first one. */
  retries: number;
  baseMs: number;
  maxMs: number;
}

export interface MetaClientOptions {
  /** e.g. https://graph.facebook.com (or a sandbox's URL). */
  apiBase: string;
  apiVersion: string;
  accessToken: string;
  /** With or without the act_ prefix. */
  adAccountId: string;
  retry?: RetryPolicy;
  timeoutMs?: number;
}

export type Params = Record<string, unknown>;

export interface GraphCampaign {
  id: string;
  name: string;
  effective_status: string;
  created_time: string;
  insights?: {
    data: Array<{ impressions?: string; clicks?: string; spend?: string; account_currency?: string; date_start?: string; date_stop?: string }>;
  };
}

/** The fields of an ad-level daily insights row (GET /act_X/insights?level=ad&time_increment=1). */
export const AD_INSIGHT_FIELDS = [
  'campaign_id',
  'campaign_name',
  'adset_id',
  'adset_name',
  'ad_id',
  'ad_name',
  'spend',
  'impressions',
  'clicks',
  'account_currency',
] as const;

/** One ad's delivery on one day (date_start = date_stop), numbers as Graph's text. */
export type GraphAdInsight = Record<(typeof AD_INSIGHT_FIELDS)[number], string | undefined> & { date_start: string; date_stop: string };

export interface AdSetSpec {
  name: string;
  campaignId: string;
  /** In Graph's units of the account's currency (cents, or whole units: see metaOffset). */
  dailyBudget: number;
  bidAmount: number;
  countries: string[];
  advantageAudience: boolean;
}

export interface CreativeSpec {
  name: string;
  pageId: string;
  link: string;
  message: string;
  headline: string;
  callToAction: string;
  imageHash: string;
}

/**
 * Currencies Graph counts in whole units (offset 1: a daily_budget of 1000 in JPY is ¥1000);
 * every other currency is counted in hundredths (offset 100). From Meta's "Currency codes" table.
 */
const WHOLE_UNIT_CURRENCIES = new Set(['CLP', 'COP', 'CRC', 'HUF', 'ISK', 'IDR', 'JPY', 'KRW', 'PYG', 'TWD', 'VND']);

/** How many of Graph's budget and bid units make one unit of the currency (1 or 100). */
export const metaOffset = (currency: string): 1 | 100 => (WHOLE_UNIT_CURRENCIES.has(currency.toUpperCase()) ? 1 : 100);

/** What the ad account says about budgets: its currency and Meta's smallest daily budget, in Graph's units (see metaOffset). */
export interface AccountBudgetRules {
  currency: string;
  minDailyBudget: number;
}

const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
const MAX_PAGES = 200;

/** Graph form encoding: scalars as text, objects and arrays as JSON. */
function encodeForm(params: Params): string {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    form.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return form.toString();
}

export class MetaClient {
  readonly account: string;
  private readonly base: string;
  readonly retry: RetryPolicy;

  constructor(private readonly options: MetaClientOptions) {
    this.account = options.adAccountId.startsWith('act_') ? options.adAccountId : `act_${options.adAccountId}`;
    this.base = `${options.apiBase.replace(/\/$/, '')}/${options.apiVersion}`;
    this.retry = options.retry ?? { retries: 3, baseMs: 1000, maxMs: 8000 };
  }

  /** Uploads image bytes to the ad account's library; answers the hash creatives refer to. */
  async uploadImage(bytes: Buffer): Promise<{ hash: string; url?: string }> {
    const res = await this.call<{ images?: Record<string, { hash?: string; url?: string }> }>('POST', `/${this.account}/adimages`, {
      bytes: bytes.toString('base64'),
    });
    const first = Object.values(res.images ?? {})[0];
    if (!first?.hash) throw new MetaApiError(200, { message: 'Meta no devolvió el hash de la imagen' });
    return { hash: first.hash, url: first.url };
  }

  async createCampaign(spec: { name: string; objective: string }): Promise<string> {
    return this.create('campaigns', {
      name: spec.name,
      objective: spec.objective,
      status: 'PAUSED',
      special_ad_categories: [],
      is_adset_budget_sharing_enabled: false,
    });
  }

  async createAdSet(spec: AdSetSpec): Promise<string> {
    return this.create('adsets', {
      name: spec.name,
      campaign_id: spec.campaignId,
      daily_budget: spec.dailyBudget,
      bid_amount: spec.bidAmount,
      bid_strategy: 'LOWEST_COST_WITH_BID_CAP',
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'LINK_CLICKS',
      targeting: {
        geo_locations: { countries: spec.countries },
        targeting_automation: { advantage_audience: spec.advantageAudience ? 1 : 0 },
      },
      status: 'PAUSED',
    });
  }

  async createCreative(spec: CreativeSpec): Promise<string> {
    return this.create('adcreatives', {
      name: spec.name,
      object_story_spec: {
        page_id: spec.pageId,
        link_data: {
          link: spec.link,
          message: spec.message,
          name: spec.headline,
          call_to_action: { type: spec.callToAction, value: { link: spec.link } },
          image_hash: spec.imageHash,
        },
      },
    });
  }

  async createAd(spec: { name: string; adSetId: string; creativeId: string }): Promise<string> {
    return this.create('ads', {
      name: spec.name,
      adset_id: spec.adSetId,
      creative: { creative_id: spec.creativeId },
      status: 'PAUSED',
    });
  }

  /** Deletes a campaign, ad set, creative or ad. */
  async deleteObject(id: string): Promise<void> {
    await this.call('DELETE', `/${encodeURIComponent(id)}`);
  }

  /** A campaign's or ad set's configured status (ACTIVE, PAUSED, …) and name. */
  async objectStatus(id: string): Promise<{ status: string; name: string | null }> {
    const res = await this.call<{ status?: string; name?: string }>('GET', `/${encodeURIComponent(id)}`, { fields: 'id,name,status' });
    if (!res.status) throw new MetaApiError(200, { message: 'Meta no devolvió el estado' });
    return { status: res.status, name: res.name ?? null };
  }

  /** Pauses or resumes a campaign or ad set (POST /{id} status=…). */
  async setStatus(id: string, status: 'ACTIVE' | 'PAUSED'): Promise<void> {
    await this.call('POST', `/${encodeURIComponent(id)}`, { status });
  }

  /**
   * The ad account's currency and Meta's minimum daily budget for an ad set billed on
   * impressions (GET /act_X?fields=currency and /act_X/minimum_budgets).
   */
  async budgetRules(): Promise<AccountBudgetRules> {
    const [account, minimums] = await Promise.all([
      this.call<{ currency?: string }>('GET', `/${this.account}`, { fields: 'currency' }),
      this.call<{ data?: Array<{ currency?: string; min_daily_budget_imp?: number | string }> }>('GET', `/${this.account}/minimum_budgets`),
    ]);
    const currency = String(account.currency ?? '').toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) throw new MetaApiError(200, { message: 'Meta no devolvió la moneda de la cuenta publicitaria' });
    const rows = minimums.data ?? [];
    const row = rows.find((r) => String(r.currency ?? '').toUpperCase() === currency) ?? rows[0];
    const minDailyBudget = Number(row?.min_daily_budget_imp);
    if (!Number.isInteger(minDailyBudget) || minDailyBudget < 0)
      throw new MetaApiError(200, { message: 'Meta no devolvió el presupuesto diario mínimo de la cuenta publicitaria' });
    return { currency, minDailyBudget };
  }

  async deleteImage(hash: string): Promise<void> {
    await this.call('DELETE', `/${this.account}/adimages`, { hash });
  }

  /**
   * The ad account's campaigns with their insights summed over [since, until], following
   * the cursor pages. `effectiveStatus` restricts the list (all non-deleted when absent).
   */
  async listCampaigns(q: { since: string; until: string; effectiveStatus?: string[]; pageSize?: number }): Promise<GraphCampaign[]> {
    const range = `{'since':'${q.since}','until':'${q.until}'}`;
    const params: Params = {
      fields: `id,name,effective_status,created_time,insights.time_range(${range}){impressions,clicks,spend,account_currency}`,
      limit: q.pageSize ?? 100,
    };
    if (q.effectiveStatus) params.effective_status = q.effectiveStatus;
    const out: GraphCampaign[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await this.call<{ data?: GraphCampaign[]; paging?: { next?: string; cursors?: { after?: string } } }>(
        'GET',
        `/${this.account}/campaigns`,
        params,
      );
      out.push(...(res.data ?? []));
      const after = res.paging?.cursors?.after;
      if (!res.paging?.next || !after) return out;
      params.after = after;
    }
    return out;
  }

  /**
   * Every ad's delivery per day within [since, until] (ad level, one row per ad and day with
   * delivery), following the cursor pages; each page is one call with the rate-limit retries.
   */
  async adInsights(q: { since: string; until: string; pageSize?: number }): Promise<GraphAdInsight[]> {
    const params: Params = {
      level: 'ad',
      time_increment: 1,
      fields: AD_INSIGHT_FIELDS.join(','),
      time_range: { since: q.since, until: q.until },
      limit: q.pageSize ?? 500,
    };
    const out: GraphAdInsight[] = [];
    for (let page = 0; page < MAX_PAGES * 10; page++) {
      const res = await this.call<{ data?: GraphAdInsight[]; paging?: { next?: string; cursors?: { after?: string } } }>(
        'GET',
        `/${this.account}/insights`,
        params,
      );
      out.push(...(res.data ?? []));
      const after = res.paging?.cursors?.after;
      if (!res.paging?.next || !after) return out;
      params.after = after;
    }
    throw new MetaApiError(200, { message: 'Meta devolvió demasiadas páginas de insights' });
  }

  private async create(edge: string, params: Params): Promise<string> {
    const res = await this.call<{ id?: string }>('POST', `/${this.account}/${edge}`, params);
    if (!res.id) throw new MetaApiError(200, { message: `Meta no devolvió el id (${edge})` });
    return String(res.id);
  }

  /** One Graph call with bounded retries: rate limits always, transient failures when idempotent. */
  async call<T = Record<string, unknown>>(method: 'GET' | 'POST' | 'DELETE', path: string, params: Params = {}): Promise<T> {
    const idempotent = method !== 'POST';
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once<T>(method, path, params);
      } catch (e) {
        const retriable =
          e instanceof MetaApiError ? e.rateLimited || e.graph.is_transient === true || (idempotent && e.httpStatus >= 500) : idempotent;
        if (!retriable || attempt >= this.retry.retries) throw e;
        const wait = Math.min(this.retry.maxMs, this.retry.baseMs * 2 ** attempt);
        await sleep(wait / 2 + Math.random() * (wait / 2));
      }
    }
  }

  private async once<T>(method: 'GET' | 'POST' | 'DELETE', path: string, params: Params): Promise<T> {
    let url = this.base + path;
    let body: string | undefined;
    const headers: Record<string, string> = { accept: 'application/json' };
    // The token travels as the access_token parameter, as Meta's own SDKs send it.
    const all = { ...params, access_token: this.options.accessToken };
    if (method === 'POST') {
      body = encodeForm(all);
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else url += `?${encodeForm(all)}`;
    const timeout = this.options.timeoutMs ?? 60_000;
    const res = await request(url, {
      method,
      headers,
      body,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal: AbortSignal.timeout(timeout),
    });
    const text = (await readUpstream(res.body, MAX_RESPONSE_BYTES)).toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new MetaApiError(res.statusCode, { message: `Respuesta no válida de Meta (HTTP ${res.statusCode})` });
    }
    const error = (json as { error?: GraphErrorBody })?.error;
    if (error || res.statusCode >= 400) throw new MetaApiError(res.statusCode, { message: `HTTP ${res.statusCode}`, ...(error ?? {}) });
    return json as T;
  }
}
