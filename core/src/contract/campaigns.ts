// Paid-social campaigns: image suggestions (Pixabay), suggested copy, campaign creation on
// Meta (multipart form), campaign metrics from Meta insights and the local campaign records.
import { z } from 'zod';
import { DATE_RANGE_REVERSED, rangeTooLong, zodDetail } from '../voice.js';
import { fieldLabel } from '../field-labels.js';
import { route } from './route.js';
import { tableFields, tablePage } from './table.js';
import { daysBetween, isValidYmd } from '../presets.js';
import { MissingRate } from './profit.js';
import { readAmount } from '../amounts.js';
import {
  CAMPAIGNS_PAGE_SIZE,
  CAMPAIGN_DEFAULTS,
  CAMPAIGN_SORT_KEYS,
  CTA_LABELS,
  type INSIGHTS_STATUS_LABELS,
  MAX_SUGGESTION_PAGE,
  MIN_KEYWORD_LENGTH,
  OBJECTIVES,
} from './values.js';

export {
  MAX_IMAGE_BYTES,
  IMAGE_REQUIRED_MESSAGE,
  MIN_KEYWORD_LENGTH,
  MAX_SUGGESTION_PAGE,
  OBJECTIVES,
  CTA_LABELS,
  CAMPAIGN_DEFAULTS,
  INSIGHTS_STATUS_LABELS,
  CAMPAIGN_SORT_KEYS,
  CAMPAIGNS_PAGE_SIZE,
} from './values.js';
export type Objective = (typeof OBJECTIVES)[number];

export type CallToAction = keyof typeof CTA_LABELS;
export const CTA_TYPES = Object.keys(CTA_LABELS) as [CallToAction, ...CallToAction[]];
export const CallToAction = z.enum(CTA_TYPES);

const CAMPAIGN_LABELLED = [
  'keyword',
  'headline',
  'body',
  'alias',
  'base_url',
  'fb_page',
  'cta',
  'daily_budget',
  'bid_amount',
  'objective',
  'countries',
  'advantage_audience',
  'image_url',
] as const;

/** What the creator calls each field of the form (core's one label table): errors name fields by these, never by their keys. */
export const CAMPAIGN_FIELD_LABELS = Object.fromEntries(CAMPAIGN_LABELLED.map((key) => [key, fieldLabel([key]) ?? key])) as Record<
  (typeof CAMPAIGN_LABELLED)[number],
  string
>;

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const requiredText = (max: number) => z.string().trim().min(1, 'es obligatorio').max(max);

/**
 * An amount of the ad account's currency as typed (read by `readAmount`: "1,50", "1.500,25",
 * "1.50"; ambiguous "1.500" refused) or a JSON number; blank takes the default. Output in units
 * with at most 2 decimals. Its limits depend on the ad account and the server's settings: the
 * server checks them with `budgetProblem`.
 */
const Amount = (fallback: number) =>
  z.preprocess(
    blank,
    z
      .union([z.string(), z.number()], { error: 'debe ser un importe, p. ej. 1,50' })
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return fallback;
        const reading = readAmount(String(v));
        if (!reading.ok) {
          ctx.addIssue({ code: 'custom', message: reading.problem });
          return z.NEVER;
        }
        return reading.cents / 100;
      }),
  );

const HttpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'debe ser una URL http(s) válida');

const Countries = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.split(',').map((c) => c.trim().toUpperCase())) : v),
  z
    .array(
      z.string().regex(/^[A-Z]{2}$/, { error: (iss) => `«${String(iss.input).slice(0, 20)}» no es un código de país de 2 letras (p. ej. ES)` }),
      {
        error: 'deben ser códigos de país de 2 letras separados por comas',
      },
    )
    .min(1, 'indica al menos un país')
    .max(25)
    .default(CAMPAIGN_DEFAULTS.countries),
);

const Flag = z.preprocess(
  (v) => (v === '1' || v === 'true' || v === 'on' ? true : v === '0' || v === 'false' || v === 'off' || blank(v) === undefined ? false : v),
  z.boolean({ error: 'debe ser 1 o 0' }),
);

/**
 * The campaign creator's text fields as sent in the multipart form (all strings). The
 * image travels beside them as the `image` file part, or `image_url` names a suggestion.
 */
export const CampaignForm = z.object({
  keyword: requiredText(100),
  headline: requiredText(255),
  body: requiredText(2000),
  alias: requiredText(100),
  /** Landing page the tracking URL starts from; the server's public site when blank. */
  base_url: z.preprocess(blank, HttpUrl.optional()),
  /** Facebook page id; the configured page when blank. */
  fb_page: z.preprocess(
    blank,
    z
      .string()
      .trim()
      .regex(/^\d{1,30}$/, 'debe ser el id numérico de una página')
      .optional(),
  ),
  cta: z.preprocess(blank, z.enum(CTA_TYPES, { error: 'no es un botón de Meta (p. ej. LEARN_MORE)' }).default(CAMPAIGN_DEFAULTS.cta)),
  daily_budget: Amount(CAMPAIGN_DEFAULTS.daily_budget),
  bid_amount: Amount(CAMPAIGN_DEFAULTS.bid_amount),
  objective: z.preprocess(blank, z.enum(OBJECTIVES, { error: 'debe ser OUTCOME_TRAFFIC u OUTCOME_SALES' }).default(CAMPAIGN_DEFAULTS.objective)),
  /** Countries targeted (ISO 3166 codes, comma separated). */
  countries: Countries,
  /** Let Meta widen the audience beyond the targeting (Advantage+ audience). */
  advantage_audience: Flag,
  /** A suggestion's largeImageURL; the server downloads it (only from the image provider). */
  image_url: z.preprocess(blank, z.string().trim().max(2000).optional()),
});
export type CampaignFormInput = z.input<typeof CampaignForm>;

/** A refused form in the creator's words: "Presupuesto diario: es ambiguo…", never a field key. */
export function campaignFormDetail(error: z.ZodError): string {
  return zodDetail(error);
}
export type CampaignFormValues = z.output<typeof CampaignForm>;
/** The text field names of the multipart form. */
export const CAMPAIGN_FORM_FIELDS = Object.keys(CampaignForm.shape) as Array<keyof CampaignFormValues>;

/**
 * What the creator may ask of the ad account, in its currency: Meta's minimum daily budget,
 * this server's cap (ADOPS_MAX_DAILY_BUDGET) and the amount above which people confirm
 * (ADOPS_CONFIRM_DAILY_BUDGET), the smallest bid and Meta's rule for a bid cap (the daily budget
 * at least `bid_budget_ratio` times the bid). Amounts in units of the currency.
 */
export const BudgetLimits = z.object({
  /** The ad account's currency (ISO 4217): budgets and bids are in it. */
  currency: z.string(),
  /** Decimals an amount may have: 2, or 0 for currencies Meta counts in whole units (JPY, KRW, …). */
  decimals: z.number().int(),
  min_daily_budget: z.number(),
  max_daily_budget: z.number(),
  /** A daily budget above this is created only once confirmed (web dialog, `adops … --yes`). */
  confirm_daily_budget_above: z.number(),
  min_bid: z.number(),
  bid_budget_ratio: z.number(),
});
export type BudgetLimits = z.infer<typeof BudgetLimits>;

export const ImageSuggestion = z.object({
  id: z.union([z.number(), z.string()]),
  previewURL: z.string(),
  largeImageURL: z.string(),
});
export type ImageSuggestion = z.infer<typeof ImageSuggestion>;

export const SuggestedCopy = z.object({ headline: z.string(), body: z.string(), cta: CallToAction });
export type SuggestedCopy = z.infer<typeof SuggestedCopy>;

const Keyword = z
  .string()
  .trim()
  .min(MIN_KEYWORD_LENGTH, `debe tener más de ${MIN_KEYWORD_LENGTH - 1} caracteres`)
  .max(100);

export const PixabayQuery = z.object({
  query: Keyword,
  page: z.coerce
    .number({ error: 'debe ser un número' })
    .int('debe ser un número entero')
    .min(1, `debe estar entre 1 y ${MAX_SUGGESTION_PAGE}`)
    .max(MAX_SUGGESTION_PAGE, `debe estar entre 1 y ${MAX_SUGGESTION_PAGE}`)
    .default(1),
});

export const CreatedCampaign = z.object({
  campaign_id: z.string(),
  adset_id: z.string(),
  ad_id: z.string(),
  creative_id: z.string(),
  image_hash: z.string(),
  tracking_url: z.string(),
  preview: z.object({
    headline: z.string(),
    body: z.string(),
    cta: CallToAction,
    /** Where the ad's image can be seen (the suggestion or Meta's copy); null if unknown. */
    image_url: z.string().nullable(),
    link: z.string(),
  }),
});
export type CreatedCampaign = z.infer<typeof CreatedCampaign>;

export type InsightsStatus = keyof typeof INSIGHTS_STATUS_LABELS;
const STATUS_ALIASES: Record<string, InsightsStatus> = { TODAS: 'ALL', ACTIVAS: 'ACTIVE', PAUSADAS: 'PAUSED' };
/** Longest range the metrics list accepts, in days. */
export const MAX_INSIGHTS_DAYS = 800;

const Ymd = z.string().refine(isValidYmd, 'debe ser una fecha AAAA-MM-DD');

const bothDates = (q: { from_date: unknown; to_date: unknown }) => isValidYmd(q.from_date) && isValidYmd(q.to_date);

/** The range and status plus sort/page/page_size/format (default order: newest campaign first). */
export const InsightsQuery = z
  .object({
    from_date: Ymd,
    to_date: Ymd,
    status: z.preprocess(
      (v) => (typeof v === 'string' ? (STATUS_ALIASES[v.trim().toUpperCase()] ?? v.trim().toUpperCase()) : v),
      z.enum(['ACTIVE', 'PAUSED', 'ALL'], { error: 'debe ser ACTIVE, PAUSED o ALL' }).default('ACTIVE'),
    ),
    ...tableFields(CAMPAIGN_SORT_KEYS, CAMPAIGNS_PAGE_SIZE),
  })
  // Zod runs these even when a date already failed: judge only valid dates.
  .refine((q) => !bothDates(q) || q.from_date <= q.to_date, { message: DATE_RANGE_REVERSED, path: ['from_date'] })
  .refine((q) => !bothDates(q) || daysBetween(q.from_date, q.to_date) <= MAX_INSIGHTS_DAYS, {
    message: rangeTooLong(MAX_INSIGHTS_DAYS),
    path: ['to_date'],
  });
export type InsightsQuery = z.input<typeof InsightsQuery>;

export const CampaignInsight = z.object({
  id: z.string(),
  name: z.string(),
  effective_status: z.string(),
  clicks: z.number(),
  impressions: z.number(),
  /**
   * Amount spent in the range in the network's currency: Rentabilidad's spend (synced from Meta,
   * converted with the month's rate) — the figure profit is computed from. Null when unknown (a
   * missing rate, or spend not synced: 'sin sincronizar').
   */
  spend: z.number().nullable(),
  /** What Meta says was spent in the range, in the ad account's own currency (shown beside, labelled). */
  account_spend: z.number(),
  /** The ad account's currency (ISO 4217) as Meta reports it; null when Meta names none (no delivery). */
  account_currency: z.string().nullable(),
  /** Clicks / impressions × 100; spend / clicks and spend / impressions × 1000 in the network's currency (null when the base is 0 or spend unknown). */
  ctr: z.number().nullable(),
  cpc: z.number().nullable(),
  cpm: z.number().nullable(),
  /** False when Meta has no insights row for the range. */
  has_data: z.boolean(),
  created_at: z.string(),
  /**
   * Rentabilidad's figures of the campaign over the range, from the profit query (in the network's
   * currency; spend synced from Meta and converted with the monthly rates): estimated revenue,
   * profit and ROI %. Profit and ROI are null when a rate is missing (`missing_rate`) or its spend
   * was never synced.
   */
  revenue: z.number(),
  profit: z.number().nullable(),
  roi: z.number().nullable(),
  missing_rate: z.boolean(),
  /** Part of its revenue is an estimate (visits on days whose zone report is missing or partial). */
  estimated: z.boolean(),
  /** No day of the range has synced spend: profit and ROI are unknown ('sin sincronizar'). */
  spend_unsynced: z.boolean(),
  /** Revenue earned on days without synced spend, left out of revenue, profit and ROI (Rentabilidad's row). */
  unsynced_revenue: z.number(),
});
export type CampaignInsight = z.infer<typeof CampaignInsight>;

/** Sums over every matching campaign (ratios of the sums). */
export const CampaignTotals = z.object({
  campaigns: z.number(),
  /** Campaigns without metrics in the range. */
  without_data: z.number(),
  impressions: z.number(),
  clicks: z.number(),
  /** Network currency; null when a campaign's is unknown. */
  spend: z.number().nullable(),
  /** Meta's spend in the ad account's currency (null when the campaigns are in more than one). */
  account_spend: z.number().nullable(),
  account_currency: z.string().nullable(),
  ctr: z.number().nullable(),
  cpc: z.number().nullable(),
  cpm: z.number().nullable(),
  /** Estimated revenue, profit and ROI % over every matching campaign (the registry's formulas on their sums). */
  revenue: z.number(),
  profit: z.number().nullable(),
  roi: z.number().nullable(),
  /** The network's currency revenue and profit are in. */
  currency: z.string(),
  /** Months and currencies of the campaigns' spend without an exchange rate. */
  missing_rates: z.array(MissingRate),
  /** As Rentabilidad's totals say for the range: days with estimated revenue, partial reports, unsynced spend, the last sync. */
  estimated_days: z.array(z.string()),
  partial_days: z.array(z.string()),
  unsynced_days: z.array(z.string()),
  spend_unsynced: z.boolean(),
  unsynced_revenue: z.number(),
  spend_synced_at: z.string().nullable(),
});
export type CampaignTotals = z.infer<typeof CampaignTotals>;

export const CampaignTable = tablePage(CampaignInsight, CampaignTotals);
export type CampaignTable = z.infer<typeof CampaignTable>;

export const LocalCampaign = z.object({
  campaign_id: z.string(),
  adset_id: z.string(),
  ad_id: z.string(),
  creative_id: z.string(),
  image_hash: z.string(),
  keyword: z.string(),
  headline: z.string(),
  body: z.string(),
  objective: z.string(),
  /** In the ad account's currency. */
  daily_budget: z.number(),
  /** In the ad account's currency. */
  bid_amount: z.number(),
  tracking_url: z.string(),
  created_by: z.string(),
  created_at: z.string(),
});
export type LocalCampaign = z.infer<typeof LocalCampaign>;

export const campaignRoutes = {
  /** Image suggestions for a keyword (Pixabay). */
  imageSuggestions: route({
    method: 'GET',
    path: '/api/pixabay/',
    access: 'user',
    query: PixabayQuery,
    response: z.array(ImageSuggestion),
  }),
  generateCopy: route({
    method: 'GET',
    path: '/api/generate-copy/',
    access: 'user',
    query: z.object({ keyword: Keyword }),
    response: SuggestedCopy,
  }),
  /**
   * Multipart form (see `CampaignForm` and `campaignFormData` in core): call as
   * `api.campaigns.create(undefined, { rawBody: campaignFormData(values, image) })`.
   */
  create: route({ method: 'POST', path: '/api/create-campaign/', access: 'user', response: CreatedCampaign }),
  /** The budget and bid the ad account accepts, in its currency (Meta's minimum, this server's cap). */
  budgetLimits: route({ method: 'GET', path: '/api/campaigns/budget-limits', access: 'user', response: BudgetLimits }),
  /** Campaigns of the ad account with their metrics in the range (Meta insights). */
  insights: route({
    method: 'GET',
    path: '/api/facebook-campaigns/insights',
    access: 'user',
    query: InsightsQuery,
    response: CampaignTable,
  }),
  /** Campaigns created from this console, newest first. */
  list: route({ method: 'GET', path: '/api/campaigns', access: 'user', response: z.array(LocalCampaign) }),
};
