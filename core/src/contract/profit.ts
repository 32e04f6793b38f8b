// Media buying: Rentabilidad (Meta spend joined to the zone revenue its visits earned) per
// campaign, ad set, ad, keyword or day; the spend sync from Meta (admins) and the monthly
// exchange rates that turn the ad account's currency into the network's (admins keep them).
import { z } from 'zod';
import { DATE_RANGE_REVERSED, rangeTooLong } from '../voice.js';
import { route } from './route.js';
import { tableFields, tablePage } from './table.js';
import { ReportDate, MAX_REPORT_DAYS } from './reports.js';
import { daysBetween, isValidYmd } from '../presets.js';
import { PROFIT_DIMENSIONS, PROFIT_PAGE_SIZE, PROFIT_SORT_KEYS } from './values.js';
import { PROFIT_FIGURE_FIELDS } from './figures.js';

export { PROFIT_DIMENSIONS, PROFIT_DIMENSION_LABELS, PROFIT_SORT_KEYS, PROFIT_PAGE_SIZE } from './values.js';
export type ProfitDimension = (typeof PROFIT_DIMENSIONS)[number];

const Id = z
  .string()
  .trim()
  .max(64)
  .optional()
  .transform((v) => (v === undefined || v === '' || v === 'Todos' ? undefined : v));

const range = (maxDays: number) => (v: { start_date: string; end_date: string }, ctx: z.RefinementCtx) => {
  if (!isValidYmd(v.start_date) || !isValidYmd(v.end_date)) return;
  if (v.start_date > v.end_date) ctx.addIssue({ code: 'custom', path: ['start_date'], message: DATE_RANGE_REVERSED });
  else if (daysBetween(v.start_date, v.end_date) > maxDays) ctx.addIssue({ code: 'custom', path: ['end_date'], message: rangeTooLong(maxDays) });
};

/** The Rentabilidad table's body: grouping, range (presets are computed by the faces, as elsewhere), parents to expand, table fields (default: most spend first). */
export const ProfitTableQuery = z
  .object({
    by: z.enum(PROFIT_DIMENSIONS).default('campaign'),
    start_date: ReportDate,
    end_date: ReportDate,
    /** Only this campaign's ad sets, ads, keywords or days (expanding a row). */
    campaign_id: Id,
    adset_id: Id,
    ...tableFields(PROFIT_SORT_KEYS, PROFIT_PAGE_SIZE),
  })
  .superRefine(range(MAX_REPORT_DAYS));
export type ProfitTableQuery = z.input<typeof ProfitTableQuery>;

/** The registry's Rentabilidad figures (contract/figures.ts). */
const figures = PROFIT_FIGURE_FIELDS;

/**
 * One row: its key (campaign, ad set or ad id, keyword, or day; null for visits without one), the
 * name Meta gave it, its parents, the registry's figures (spend in the network's currency; null
 * with `missing_rate`), whether its revenue is partly an estimate (visits on days without a zone
 * report) and whether it loses money.
 */
export const ProfitRow = z.object({
  key: z.string().nullable(),
  name: z.string().nullable(),
  campaign_id: z.string().nullable(),
  adset_id: z.string().nullable(),
  ...figures,
  /** Visits on days whose zone report is missing or partial (their RPV is the zone's trailing 7 final days'). */
  estimated_visits: z.number(),
  estimated: z.boolean(),
  /** Some of its spend is in a currency and month without an exchange rate: spend, profit, ROI, ROAS and CPC are unknown. */
  missing_rate: z.boolean(),
  /**
   * None of the days the row covers (a day row: its day; any other: the range) has its Meta spend
   * synced: spend is unknown (null, 'sin sincronizar'), and so are profit, ROI, ROAS and CPC.
   */
  spend_unsynced: z.boolean(),
  /**
   * Visits and revenue on days of the range without synced spend, left out of the row's figures
   * (which are over the days with synced spend: profit = revenue − spend as shown); 0 when none.
   */
  unsynced_visits: z.number(),
  unsynced_revenue: z.number(),
  /** Profit below 0. */
  losing: z.boolean(),
});
export type ProfitRow = z.infer<typeof ProfitRow>;

export const MissingRate = z.object({ month: z.string(), currency: z.string() });
export type MissingRate = z.infer<typeof MissingRate>;

export const ProfitTotals = z.object({
  ...figures,
  estimated_visits: z.number(),
  /** As on a row, over the whole range. */
  spend_unsynced: z.boolean(),
  unsynced_visits: z.number(),
  unsynced_revenue: z.number(),
  /** The network's currency every amount is in. */
  currency: z.string(),
  /** Days of the range with visits whose zone report has not arrived or is partial: their revenue is an estimate ('estimado'). */
  estimated_days: z.array(z.string()),
  /** Days of the range whose zone report is partial (the day still running, or a report imported as incomplete). */
  partial_days: z.array(z.string()),
  /** Days of the range whose Meta spend is not synced (no sync covered them and none is stored): left out of spend, profit, ROI and ROAS. */
  unsynced_days: z.array(z.string()),
  /** When the ad account's spend was last synced (ISO instant; null: never). */
  spend_synced_at: z.string().nullable(),
  /**
   * The range's spend may be out of date: some day is unsynced, or a day of the last week was
   * last synced longer ago than the sync interval (opening Rentabilidad, an admin syncs it).
   */
  spend_stale: z.boolean(),
  /** Months and currencies of spend without an exchange rate (Administración → Tipos de cambio): the answer does not guess them. */
  missing_rates: z.array(MissingRate),
});
export type ProfitTotals = z.infer<typeof ProfitTotals>;

export const ProfitTable = tablePage(ProfitRow, ProfitTotals);
export type ProfitTable = z.infer<typeof ProfitTable>;

/** The spend sync's range (default: the last 7 days, today included, in the reporting time zone). */
export const MAX_SPEND_SYNC_DAYS = 400;
export const SpendSyncBody = z
  .object({ start_date: ReportDate.optional(), end_date: ReportDate.optional() })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.start_date === undefined) !== (v.end_date === undefined))
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'Indica las dos fechas del rango, o ninguna' });
    else if (v.start_date && v.end_date) range(MAX_SPEND_SYNC_DAYS)({ start_date: v.start_date, end_date: v.end_date }, ctx);
  });
export type SpendSyncBody = z.input<typeof SpendSyncBody>;

/** What a sync did: the days asked for, the ad-day rows Meta answered, how many were new, changed or already stored as they are. */
export const SpendSyncResult = z.object({
  start_date: z.string(),
  end_date: z.string(),
  rows: z.number(),
  inserted: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  ads: z.number(),
  currencies: z.array(z.string()),
});
export type SpendSyncResult = z.infer<typeof SpendSyncResult>;

/** A currency code (ISO 4217). */
const Currency = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, 'La moneda debe ser un código ISO de 3 letras (EUR, USD…)');
const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'El mes debe ser AAAA-MM');

/** One month's rate: 1 unit of `currency` is `rate` units of the network's currency. */
export const ExchangeRate = z.object({
  month: Month,
  currency: Currency,
  rate: z.number().positive('El tipo de cambio debe ser mayor que 0').max(1e6),
});
export type ExchangeRate = z.infer<typeof ExchangeRate>;

export const ExchangeRates = z.object({
  /** The network's currency (revenue's; ADOPS_CURRENCY). */
  currency: z.string(),
  rates: z.array(ExchangeRate),
});
export type ExchangeRates = z.infer<typeof ExchangeRates>;

/** Sets rates (replacing the same month and currency); `rate: null` removes one. */
export const SetExchangeRates = z
  .object({
    rates: z
      .array(ExchangeRate.extend({ rate: ExchangeRate.shape.rate.nullable() }))
      .min(1, 'Indica al menos un tipo de cambio')
      .max(500, 'Como máximo 500 tipos de cambio por cambio'),
  })
  .strict();
export type SetExchangeRates = z.input<typeof SetExchangeRates>;

export const profitRoutes = {
  /** Rentabilidad: one page of campaigns (ad sets, ads, keywords, days) with spend, revenue and profit; format=csv|ndjson: every row. */
  table: route({ method: 'POST', path: '/api/profit', access: 'user', heavy: true, body: ProfitTableQuery, response: ProfitTable }),
  /** Reads Meta's spend per ad and day for the range and stores it (admin; idempotent). */
  syncSpend: route({ method: 'POST', path: '/api/admin/spend/sync', access: 'admin', body: SpendSyncBody, response: SpendSyncResult }),
  /** The monthly exchange rates (any user: the screens say which are missing). */
  rates: route({ method: 'GET', path: '/api/rates', access: 'user', response: ExchangeRates }),
  /** Sets or removes monthly exchange rates (admin); answers the whole table. */
  setRates: route({ method: 'PUT', path: '/api/admin/rates', access: 'admin', body: SetExchangeRates, response: ExchangeRates }),
};
