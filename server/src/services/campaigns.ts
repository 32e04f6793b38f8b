// Paid-social campaigns: suggestions (images, copy), creation on Meta as image → campaign →
// ad set → creative → ad (all PAUSED, amounts in Graph's units) once budget and bid are within
// the ad account's limits, with rollback on failure, metrics from Meta insights joined to
// Rentabilidad's revenue, profit and ROI (the profit query's: over the days with synced spend,
// estimated revenue marked, unsynced days said), and the local campaign records in the entity store.
import {
  budgetProblem,
  campaignCsvFields,
  deriveMetrics,
  EMPTY_SUMS,
  profitFigures,
  trackingUrl,
  type BudgetLimits,
  type CampaignFormValues,
  type CampaignInsight,
  type CampaignTotals,
  type CreatedCampaign,
  type TableRequest,
  type ImageSuggestion,
  type InsightsStatus,
  type LocalCampaign,
  type ProfitRow,
  type ProfitSums,
  type ProfitTotals,
  type SuggestedCopy,
} from '@adops/core';
import type { Config } from '../config.js';
import { DomainError } from '../domain-errors.js';
import type { CampaignRecord, EntityStore } from '../store/types.js';
import { createProviders, type Providers } from '../providers/index.js';
import { MetaApiError, metaOffset, type AccountBudgetRules, type GraphCampaign } from '../providers/meta/client.js';
import { sniffImageType } from '../providers/http.js';
import { SANDBOX_IMAGE_NAME, SANDBOX_IMAGE_PATH } from '../sandbox/pixabay-images.js';
import { memoryPage, type TableExport, type TablePageOf } from '../tables.js';
import type { ProfitService } from './profit.js';

/** What the campaign list reads of Rentabilidad: its rows and totals by campaign for a range. */
export type CampaignProfit = Pick<ProfitService, 'rows'>;

/**
 * A campaign's Rentabilidad sums: its profit row's (spend unknown when a rate is missing or no day
 * of the range is synced), or none — then nothing was synced for it.
 */
function profitSums(row: ProfitRow | undefined, metaSpend: number, noneSynced: boolean): ProfitSums {
  if (!row)
    return {
      spend: metaSpend === 0 && !noneSynced ? 0 : null,
      meta_clicks: 0,
      meta_impressions: 0,
      visits: 0,
      revenue: 0,
      tq_weighted: 0,
      tq_weight: 0,
    };
  return {
    spend: row.missing_rate || row.spend_unsynced ? null : row.spend,
    meta_clicks: row.meta_clicks,
    meta_impressions: row.meta_impressions,
    visits: row.visits,
    revenue: row.revenue,
    tq_weighted: 0,
    tq_weight: 0,
  };
}

/** The revenue, profit and ROI % of a group of sums (the registry's formulas). */
function profitColumns(s: ProfitSums) {
  const f = profitFigures(s);
  return { revenue: f.revenue ?? 0, profit: f.profit, roi: f.roi };
}

/**
 * A campaign's ratios from the registry: spend (the network's currency) plays revenue (CPC = spend
 * / clicks), CTR over impressions; CPC and CPM are unknown while the spend is.
 */
function campaignRatios(m: { impressions: number; clicks: number; spend: number | null }) {
  const d = deriveMetrics({ ...EMPTY_SUMS, impressions: m.impressions, ctr_base: m.impressions, clicks: m.clicks, revenue: m.spend ?? 0 });
  return { ctr: d.ctr, cpc: m.spend === null ? null : d.cpc, cpm: m.spend === null ? null : d.cpm };
}

/** Newest campaign first; ties by id. */
const CAMPAIGN_ORDER = [
  { key: 'created_at', dir: 'desc' as const },
  { key: 'id', dir: 'asc' as const },
];

export interface NewCampaign {
  form: CampaignFormValues;
  /** The uploaded file's bytes, or null when form.image_url names a suggestion. */
  image: Buffer | null;
  createdBy: string;
  /** This server's origin as the caller sees it (suggestion URLs are relative to it). */
  origin: string;
}

type Created = { kind: 'image'; hash: string } | { kind: 'object'; id: string; what: string };

const META_UNREACHABLE = 'No se pudo conectar con Meta';
/** Meta's rule for an ad set with a bid cap: its daily budget at least 5 times the bid ("About minimum budgets"). */
const BID_BUDGET_RATIO = 5;
/** How long the ad account's currency and minimum budget are trusted (the minimum follows exchange rates). */
const BUDGET_RULES_TTL_MS = 60 * 60_000;

export class CampaignService {
  /** Image hashes of creations in progress (a rollback never deletes an image another one uses). */
  private readonly hashesInUse = new Map<string, number>();
  /** The ad account's budget rules as last read (or being read) from Meta. */
  private budgetRules: { at: number; rules: Promise<AccountBudgetRules> } | null = null;

  constructor(
    private readonly store: EntityStore,
    readonly providers: Providers,
    private readonly config: Config,
    private readonly log: (line: string) => void,
    private readonly profit?: CampaignProfit,
  ) {}

  static async start(config: Config, store: EntityStore, log: (line: string) => void, profit?: CampaignProfit): Promise<CampaignService> {
    return new CampaignService(store, await createProviders(config, log), config, log, profit);
  }

  close(): Promise<void> {
    return this.providers.close();
  }

  /** Image suggestions with absolute URLs (the sandbox's point at this server). */
  async suggestImages(query: string, page: number, origin: string): Promise<ImageSuggestion[]> {
    const hits = await this.providers.images.search(query, page);
    return hits.map((h) => ({ ...h, previewURL: new URL(h.previewURL, origin).href, largeImageURL: new URL(h.largeImageURL, origin).href }));
  }

  suggestCopy(keyword: string): Promise<SuggestedCopy> {
    return this.providers.copy.write(keyword);
  }

  /** Downloads a suggestion chosen in the creator; only URLs of the image provider are accepted. */
  async downloadSuggestion(imageUrl: string, origin: string): Promise<Buffer> {
    let url: URL;
    try {
      url = new URL(imageUrl, origin);
    } catch {
      throw new DomainError('invalid', 'Imagen sugerida: debe ser una URL válida');
    }
    const refused = () => new DomainError('invalid', 'La imagen sugerida debe venir de Pixabay');
    const sandbox = this.providers.pixabaySandbox;
    if (sandbox) {
      // Sandbox suggestions are this server's bundled images, fetched from the sandbox.
      const file = url.pathname.startsWith(SANDBOX_IMAGE_PATH) ? url.pathname.slice(SANDBOX_IMAGE_PATH.length) : '';
      if (url.origin !== new URL(origin).origin || url.search || !SANDBOX_IMAGE_NAME.test(file)) throw refused();
      url = new URL(`${sandbox.url}/images/${file}`);
    } else if (!this.providers.images.isProviderUrl(url)) throw refused();
    const bytes = await this.providers.images.download(url);
    if (!sniffImageType(bytes)) throw new DomainError('invalid', 'La imagen sugerida no es JPEG, PNG ni WebP');
    return bytes;
  }

  /**
   * What the creator may ask of the ad account, in its currency: Meta's minimum daily budget
   * (read from the account, kept an hour), this server's cap and confirmation threshold, the
   * smallest bid (one of Graph's units) and Meta's budget-to-bid rule.
   */
  async budgetLimits(): Promise<BudgetLimits> {
    const now = Date.now();
    if (!this.budgetRules || now - this.budgetRules.at > BUDGET_RULES_TTL_MS) {
      const rules = this.providers.meta.budgetRules();
      this.budgetRules = { at: now, rules };
      // A failed read is not kept: the next request asks Meta again.
      rules.catch(() => {
        if (this.budgetRules?.rules === rules) this.budgetRules = null;
      });
    }
    let rules: AccountBudgetRules;
    try {
      rules = await this.budgetRules.rules;
    } catch (e) {
      const failure = this.metaFailure(e);
      throw new DomainError('upstream', `No se pudo leer la moneda y el presupuesto mínimo de la cuenta publicitaria de Meta: ${failure.message}`);
    }
    const offset = metaOffset(rules.currency);
    return {
      currency: rules.currency,
      decimals: offset === 1 ? 0 : 2,
      min_daily_budget: rules.minDailyBudget / offset,
      max_daily_budget: this.config.dailyBudget.max,
      confirm_daily_budget_above: this.config.dailyBudget.confirmAbove,
      min_bid: 1 / offset,
      bid_budget_ratio: BID_BUDGET_RATIO,
    };
  }

  /** Creates the campaign on Meta and records it; a failure half-way deletes what was created. */
  async create({ form, image, createdBy, origin }: NewCampaign): Promise<CreatedCampaign> {
    // Budget and bid first: a refusal leaves Meta untouched (the account's rules are a read, usually cached).
    const limits = await this.budgetLimits();
    const problem = budgetProblem(form, limits);
    if (problem) throw new DomainError('invalid', problem.message);
    const inMetaUnits = (units: number) => Math.round(units * metaOffset(limits.currency));
    const suggestionUrl = image ? null : form.image_url ? new URL(form.image_url, origin).href : null;
    const bytes = image ?? (form.image_url ? await this.downloadSuggestion(form.image_url, origin) : null);
    if (!bytes) throw new DomainError('invalid', 'Debes subir una imagen o seleccionar una de Pixabay');
    let link: string;
    try {
      link = trackingUrl({ baseUrl: form.base_url ?? this.config.publicSiteUrl, alias: form.alias, keyword: form.keyword });
    } catch {
      throw new DomainError('invalid', 'URL base: debe ser una URL http(s) válida');
    }

    const meta = this.providers.meta;
    const name = `${form.alias} | ${form.keyword} | ${new Date().toISOString().slice(0, 10)}`;
    const created: Created[] = [];
    let imageHash = '';
    let ids: { campaign: string; adset: string; creative: string; ad: string };
    let imageUrl: string | undefined;
    try {
      const uploaded = await meta.uploadImage(bytes);
      imageHash = uploaded.hash;
      imageUrl = uploaded.url;
      this.hashesInUse.set(imageHash, (this.hashesInUse.get(imageHash) ?? 0) + 1);
      created.push({ kind: 'image', hash: imageHash });
      const campaign = await meta.createCampaign({ name, objective: form.objective });
      created.push({ kind: 'object', id: campaign, what: 'campaign' });
      const adset = await meta.createAdSet({
        name: `${name} | Ad set`,
        campaignId: campaign,
        dailyBudget: inMetaUnits(form.daily_budget),
        bidAmount: inMetaUnits(form.bid_amount),
        countries: form.countries,
        advantageAudience: form.advantage_audience,
      });
      created.push({ kind: 'object', id: adset, what: 'adset' });
      const creative = await meta.createCreative({
        name: `${name} | Creative`,
        pageId: form.fb_page ?? this.providers.pageId,
        link,
        message: form.body,
        headline: form.headline,
        callToAction: form.cta,
        imageHash,
      });
      created.push({ kind: 'object', id: creative, what: 'creative' });
      const ad = await meta.createAd({ name: `${name} | Ad`, adSetId: adset, creativeId: creative });
      created.push({ kind: 'object', id: ad, what: 'ad' });
      ids = { campaign, adset, creative, ad };
    } catch (e) {
      await this.rollback(created);
      this.release(imageHash);
      throw this.metaFailure(e);
    }

    const record: CampaignRecord = {
      campaign_id: ids.campaign,
      adset_id: ids.adset,
      ad_id: ids.ad,
      creative_id: ids.creative,
      image_hash: imageHash,
      keyword: form.keyword,
      headline: form.headline,
      body: form.body,
      objective: form.objective,
      daily_budget: form.daily_budget,
      bid_amount: form.bid_amount,
      tracking_url: link,
      created_by: createdBy,
      created_at: new Date().toISOString(),
    };
    try {
      await this.store.campaigns.add(record);
    } catch (e) {
      // Not recorded locally: leave nothing behind on Meta either.
      await this.rollback(created);
      throw e;
    } finally {
      this.release(imageHash);
    }
    return {
      campaign_id: ids.campaign,
      adset_id: ids.adset,
      ad_id: ids.ad,
      creative_id: ids.creative,
      image_hash: imageHash,
      tracking_url: link,
      preview: { headline: form.headline, body: form.body, cta: form.cta, image_url: suggestionUrl ?? imageUrl ?? null, link },
    };
  }

  /** The ad account's campaigns (filtered by status) with their metrics in the range, and Rentabilidad's totals by campaign. */
  async insights(q: { from_date: string; to_date: string; status: InsightsStatus }): Promise<CampaignInsight[]> {
    return (await this.insightsWithProfit(q)).rows;
  }

  private async insightsWithProfit(q: {
    from_date: string;
    to_date: string;
    status: InsightsStatus;
  }): Promise<{ rows: CampaignInsight[]; profitRows: Map<string, ProfitRow>; profitTotals: ProfitTotals | null }> {
    let rows: GraphCampaign[];
    const profit = this.profit?.rows({ by: 'campaign', start_date: q.from_date, end_date: q.to_date });
    // Settled at once: a Meta failure below must not leave this rejection unhandled.
    profit?.catch(() => undefined);
    try {
      rows = await this.providers.meta.listCampaigns({
        since: q.from_date,
        until: q.to_date,
        effectiveStatus: q.status === 'ALL' ? undefined : [q.status],
      });
    } catch (e) {
      throw this.metaFailure(e);
    }
    const answer = profit ? await profit : null;
    const profitRows = new Map<string, ProfitRow>();
    for (const r of answer?.rows ?? []) if (r.key !== null) profitRows.set(r.key, r);
    const noneSynced = answer?.totals.spend_unsynced ?? false;
    const insights = rows.map((c): CampaignInsight => {
      const row = c.insights?.data?.[0];
      const num = (v: string | undefined) => {
        const n = Number(v ?? 0);
        return Number.isFinite(n) ? n : 0;
      };
      const id = String(c.id);
      const earned = profitRows.get(id);
      const accountSpend = num(row?.spend);
      // Spend in the network's currency is Rentabilidad's (synced, converted): profit is computed from it.
      const sums = profitSums(earned, accountSpend, noneSynced);
      const metrics = { clicks: num(row?.clicks), impressions: num(row?.impressions), spend: sums.spend };
      return {
        id,
        name: c.name ?? '',
        effective_status: c.effective_status ?? 'UNKNOWN',
        ...metrics,
        account_spend: accountSpend,
        account_currency: row?.account_currency ? row.account_currency.toUpperCase() : null,
        ...campaignRatios(metrics),
        has_data: row !== undefined,
        created_at: isoTime(c.created_time),
        ...profitColumns(sums),
        missing_rate: earned?.missing_rate ?? false,
        estimated: earned?.estimated ?? false,
        spend_unsynced: earned?.spend_unsynced ?? noneSynced,
        unsynced_revenue: earned?.unsynced_revenue ?? 0,
      };
    });
    return { rows: insights, profitRows, profitTotals: answer?.totals ?? null };
  }

  /** A page of the campaign metrics list with totals over every campaign of the answer. */
  async insightsTable(
    q: { from_date: string; to_date: string; status: InsightsStatus },
    request: TableRequest,
  ): Promise<TablePageOf<CampaignInsight, CampaignTotals>> {
    const { rows, profitRows, profitTotals } = await this.insightsWithProfit(q);
    const sums: { impressions: number; clicks: number; spend: number | null } = { impressions: 0, clicks: 0, spend: 0 };
    let accountSpend: number | null = 0;
    const accountCurrencies = new Set(rows.flatMap((r) => (r.account_currency ? [r.account_currency] : [])));
    // Rentabilidad's sums over the campaigns listed (a campaign without a known spend makes the total unknown).
    const earned: ProfitSums = { spend: 0, meta_clicks: 0, meta_impressions: 0, visits: 0, revenue: 0, tq_weighted: 0, tq_weight: 0 };
    const add = (k: keyof ProfitSums, v: number | null) => {
      const had = earned[k];
      earned[k] = had === null || v === null ? null : had + v;
    };
    let missingRate = false;
    let unsyncedRevenue = 0;
    const noneSynced = profitTotals?.spend_unsynced ?? false;
    for (const r of rows) {
      sums.impressions += r.impressions;
      sums.clicks += r.clicks;
      sums.spend = sums.spend === null || r.spend === null ? null : sums.spend + r.spend;
      accountSpend = accountSpend === null ? null : accountSpend + r.account_spend;
      const one = profitSums(profitRows.get(r.id), r.account_spend, noneSynced);
      for (const k of ['spend', 'meta_clicks', 'meta_impressions', 'visits', 'revenue'] as const) add(k, one[k]);
      missingRate ||= r.missing_rate;
      unsyncedRevenue += r.unsynced_revenue;
    }
    const totals: CampaignTotals = {
      campaigns: rows.length,
      without_data: rows.filter((r) => !r.has_data).length,
      ...sums,
      account_spend: accountCurrencies.size > 1 ? null : accountSpend,
      account_currency: accountCurrencies.size === 1 ? [...accountCurrencies][0] : null,
      ...campaignRatios(sums),
      ...profitColumns(earned),
      currency: this.config.currency,
      missing_rates: missingRate ? (profitTotals?.missing_rates ?? []) : [],
      estimated_days: profitTotals?.estimated_days ?? [],
      partial_days: profitTotals?.partial_days ?? [],
      unsynced_days: profitTotals?.unsynced_days ?? [],
      spend_unsynced: noneSynced,
      unsynced_revenue: unsyncedRevenue,
      spend_synced_at: profitTotals?.spend_synced_at ?? null,
    };
    return memoryPage(rows, request, CAMPAIGN_ORDER, totals);
  }

  async insightsExport(
    q: { from_date: string; to_date: string; status: InsightsStatus },
    request: TableRequest,
  ): Promise<TableExport<CampaignInsight>> {
    const all = await this.insightsTable(q, { ...request, page: 1, page_size: Number.MAX_SAFE_INTEGER });
    return {
      file: `campaigns_${q.from_date}_to_${q.to_date}.csv`,
      fields: campaignCsvFields(this.config.tz),
      chunks: [all.rows],
    };
  }

  /** Campaigns created from this console, newest first. */
  async list(): Promise<LocalCampaign[]> {
    return (await this.store.campaigns.list()).sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  private async rollback(created: Created[]): Promise<void> {
    const meta = this.providers.meta;
    for (const item of [...created].reverse()) {
      try {
        if (item.kind === 'object') await meta.deleteObject(item.id);
        else if ((this.hashesInUse.get(item.hash) ?? 0) <= 1 && !(await this.store.campaigns.usesImage(item.hash))) await meta.deleteImage(item.hash);
      } catch (e) {
        const what = item.kind === 'object' ? `${item.what} ${item.id}` : `image ${item.hash}`;
        this.log(`campaign rollback: could not delete ${what} on Meta: ${(e as Error).message}`);
      }
    }
  }

  private release(hash: string): void {
    if (!hash) return;
    const n = (this.hashesInUse.get(hash) ?? 1) - 1;
    if (n > 0) this.hashesInUse.set(hash, n);
    else this.hashesInUse.delete(hash);
  }

  private metaFailure(e: unknown): Error {
    if (e instanceof DomainError) return e;
    if (e instanceof MetaApiError) {
      this.log(`meta error: code ${e.code ?? '-'} ${e.graph.error_subcode ?? ''} ${e.message} (trace ${e.graph.fbtrace_id ?? '-'})`);
      return new DomainError('upstream', e.detail);
    }
    this.log(`meta unreachable: ${(e as Error)?.message}`);
    return new DomainError('upstream', META_UNREACHABLE);
  }
}

/** Graph times ("2025-01-05T10:00:00+0000") as ISO 8601 UTC. */
function isoTime(graph: string | undefined): string {
  if (!graph) return '';
  const t = Date.parse(graph.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isFinite(t) ? new Date(t).toISOString() : graph;
}
