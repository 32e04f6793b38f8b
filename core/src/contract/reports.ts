// Revenue reporting: report filters, zone/summary/daily rows and the routes of the Dashboard,
// Ad Report, Api Explorer, Demand, Finance, the publisher-data URL, zone-report ingest and
// publishers' revenue shares. Every ratio arrives computed, so screens never divide.
import { z } from 'zod';
import { route, optionalFilter } from './route.js';
import { isValidYmd, daysBetween } from '../presets.js';

/** Longest range a report accepts, in calendar days (inclusive). */
export const MAX_REPORT_DAYS = 800;
/** Rows a zone-level report (zone-details, Api Explorer) answers by default and at most. */
export const DEFAULT_ZONE_ROW_LIMIT = 20_000;
export const MAX_ZONE_ROW_LIMIT = 100_000;
/** Publisher share of revenue used when a row has no rate and the publisher none configured. */
export const DEFAULT_REVENUE_SHARE = 0.7;
/** The three advertisers the Api Explorer offers after 'Todos' (and the demo data uses). */
export const FIXED_ADVERTISERS = ['AdNova', 'BidSphere', 'Clickora'] as const;
/** Highest revenue share an admin may set (above 1 the network pays more than it earns). */
export const MAX_REVENUE_SHARE = 2;

/** A calendar day 'YYYY-MM-DD' in the reporting time zone. */
export const ReportDate = z
  .string({ error: 'Fecha requerida (YYYY-MM-DD)' })
  .max(10, 'Fecha no válida (YYYY-MM-DD)')
  .refine(isValidYmd, 'Fecha no válida (YYYY-MM-DD)');

/** The text filters every report takes; 'Todos' or empty means no filter. */
export const filterFields = {
  /** Substring of the zone id, case-insensitive. */
  zone_id: optionalFilter(100),
  advertiser: optionalFilter(200),
  publisher: optionalFilter(200),
  geo: optionalFilter(100),
  source: optionalFilter(200),
  domain: optionalFilter(255),
};

const rangeFields = { start_date: ReportDate, end_date: ReportDate };

const rangeCheck =
  (maxDays: number) =>
  (v: { start_date: string; end_date: string }, ctx: z.RefinementCtx): void => {
    // zod runs object checks even when a field check failed: only compare two real dates.
    if (!isValidYmd(v.start_date) || !isValidYmd(v.end_date)) return;
    if (v.start_date > v.end_date)
      ctx.addIssue({ code: 'custom', path: ['start_date'], message: 'La fecha inicial es posterior a la final' });
    else if (daysBetween(v.start_date, v.end_date) > maxDays)
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: `El rango no puede superar ${maxDays} días` });
  };
const checkRange = rangeCheck(MAX_REPORT_DAYS);

/**
 * Finance aggregates by month and its screen starts at 2025-01-01 by default, so its range
 * may span up to ten years (the 800-day limit would break that default in March 2027).
 */
export const MAX_FINANCE_DAYS = 3660;
export const FinanceFilters = z.object({ ...rangeFields, ...filterFields }).superRefine(rangeCheck(MAX_FINANCE_DAYS));

/** start_date..end_date inclusive (start ≤ end, at most 800 days) plus the text filters. */
export const ReportFilters = z.object({ ...rangeFields, ...filterFields }).superRefine(checkRange);
export type ReportFiltersInput = z.input<typeof ReportFilters>;
export type ReportFilters = z.output<typeof ReportFilters>;

/** The text filters without dates (Dashboard deltas: yesterday against the day before). */
export const DeltaFilters = z.object(filterFields);
export type DeltaFilters = z.output<typeof DeltaFilters>;

/** A whole number in a query string (a single value; arrays refused). */
const queryInt = (min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^\d{1,9}$/, 'Debe ser un número entero')])
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** Zone-level reports take an optional row cap (default 20,000, at most 100,000). */
export const ZoneReportQuery = z
  .object({ ...rangeFields, ...filterFields, limit: queryInt(1, MAX_ZONE_ROW_LIMIT).optional() })
  .superRefine(checkRange);
export type ZoneReportQuery = z.input<typeof ZoneReportQuery>;

const money = z.number();
const count = z.number();
const ratio = z.number().nullable();

/** Ratios derived from sums on the server (null when the base is 0 or missing). */
export const DerivedFields = {
  ctr: ratio,
  cpm: ratio,
  cpc: ratio,
  cost: ratio,
  rs_percent: ratio,
  /** Same value as rs_percent (the Dashboard's 'Marg %'). */
  margin_percent: ratio,
  p_cpm: ratio,
  p_cpc: ratio,
};

/** One stored zone-report row (its natural key: date, advertiser, publisher, zone_id, geo, source). */
export const ZoneRow = z.object({
  date: z.string(),
  advertiser: z.string(),
  publisher: z.string(),
  zone_id: z.string(),
  geo: z.string(),
  source: z.string(),
  domain: z.string(),
  impressions: count,
  /** null when the source did not report it (CTR then uses impressions). */
  monetized_impressions: count.nullable(),
  clicks: count,
  revenue: money,
  /** Publisher's share of revenue applied to this row (0..2). */
  rate_applied: z.number().nullable(),
  p_revenue: money,
  margin: money,
  /** Traffic quality; null when not reported. */
  tq: z.number().nullable(),
  ...DerivedFields,
});
export type ZoneRow = z.infer<typeof ZoneRow>;

/** Sums of every matching row with ratios from those sums (the 'Totales' row). */
/** The summed measures of a group of rows (totals, summary rows). */
const SummedFields = {
  impressions: count,
  monetized_impressions: count,
  clicks: count,
  revenue: money,
  p_revenue: money,
  margin: money,
  /** Impression-weighted TQ over rows with tq > 0 and impressions > 0. */
  tq: z.number().nullable(),
  ...DerivedFields,
};

export const ReportTotals = z.object(SummedFields);
export type ReportTotals = z.infer<typeof ReportTotals>;

/** Ad Report: rows ordered date desc, revenue desc, then zone_id, advertiser, geo, source. */
export const ZoneDetails = z.object({
  data: z.array(ZoneRow),
  /** Geos and sources present in the range under the other filters (for the dropdowns). */
  geoOptions: z.array(z.string()),
  sourceOptions: z.array(z.string()),
  /** Sums over every matching row, also when `data` was cut at the limit. */
  totals: ReportTotals,
  /** Matching rows in all; more than data.length when truncated. */
  total_rows: count,
  truncated: z.boolean(),
});
export type ZoneDetails = z.infer<typeof ZoneDetails>;

/** One date × publisher (or × advertiser) row of the summary tables. */
export const SummaryRow = z.object({
  date: z.string(),
  publisher: z.string().optional(),
  advertiser: z.string().optional(),
  ...SummedFields,
});
export type SummaryRow = z.infer<typeof SummaryRow>;

/** Summaries are ordered date desc, revenue desc, name. */
export const SummaryResponse = z.object({ data: z.array(SummaryRow) });

export const RawOptions = z.object({
  advertisers: z.array(z.string()),
  publishers: z.array(z.string()),
  geoOptions: z.array(z.string()),
  sourceOptions: z.array(z.string()),
});
export type RawOptions = z.infer<typeof RawOptions>;

export const DashboardSummary = z.object({
  revenue: money,
  margin: money,
  impressions: count,
  clicks: count,
  /** Dashboard CTR: clicks / impressions × 100. */
  ctr: ratio,
  tq: ratio,
});
export type DashboardSummary = z.infer<typeof DashboardSummary>;

/** One point per calendar day of the range; days without data are zero (tq null). */
export const ChartPoint = z.object({
  date: z.string(),
  revenue: money,
  margin: money,
  tq: ratio,
  clicks: count,
  impressions: count,
});
export type ChartPoint = z.infer<typeof ChartPoint>;

export const DashboardOverview = z.object({ summary: DashboardSummary, chart: z.array(ChartPoint) });
export type DashboardOverview = z.infer<typeof DashboardOverview>;

/** Dashboard 'Top Zones' / 'Top Advertisers': entries per list by default and at most. */
export const DEFAULT_TOP_LIMIT = 5;
export const MAX_TOP_LIMIT = 50;

/** The report filters plus an optional list length (1–50, default 5). */
export const DashboardTopQuery = z
  .object({ ...rangeFields, ...filterFields, limit: queryInt(1, MAX_TOP_LIMIT).optional() })
  .superRefine(checkRange);
export type DashboardTopQuery = z.input<typeof DashboardTopQuery>;

/**
 * A zone is a publisher's zone id (the same id under two publishers is two zones). Its sums
 * cover the range's rows with a zone id and non-zero revenue; zones summing to 0 are left out.
 */
export const TopZone = z.object({
  /** 1-based position in the list. */
  rank: z.number().int(),
  publisher: z.string(),
  zone_id: z.string(),
  revenue: money,
  margin: money,
});
export type TopZone = z.infer<typeof TopZone>;

/** An advertiser's sums over every matching row of the range; advertisers summing to 0 are left out. */
export const TopAdvertiser = z.object({
  rank: z.number().int(),
  advertiser: z.string(),
  revenue: money,
  margin: money,
});
export type TopAdvertiser = z.infer<typeof TopAdvertiser>;

/** Both lists by revenue desc; ties by name (publisher then zone id; advertiser). */
export const DashboardTops = z.object({ zones: z.array(TopZone), advertisers: z.array(TopAdvertiser) });
export type DashboardTops = z.infer<typeof DashboardTops>;

/** Dashboard 'Analytics' row: one per day with data, date ascending; CTR on impressions. */
export const DailyRow = z.object({
  date: z.string(),
  impressions: count,
  monetized_impressions: count,
  clicks: count,
  revenue: money,
  p_revenue: money,
  margin: money,
  tq: ratio,
  ...DerivedFields,
});
export type DailyRow = z.infer<typeof DailyRow>;

/** % change of yesterday against the day before (reporting time zone); null where the base is 0. */
export const DailyDeltas = z.object({
  revenue: ratio,
  margin: ratio,
  impressions: ratio,
  clicks: ratio,
  ctr: ratio,
  tq: ratio,
});
export type DailyDeltas = z.infer<typeof DailyDeltas>;

export const DemandPoint = z.object({ date: z.string(), revenue: money, margin: money });
export type DemandPoint = z.infer<typeof DemandPoint>;
/** advertiser → one point per day of the range (zero-filled), advertisers by revenue desc. */
export const AdvertiserRevenue = z.record(z.string(), z.array(DemandPoint));
export type AdvertiserRevenue = z.infer<typeof AdvertiserRevenue>;

/** Finance: one row per advertiser, a 'YYYY-MM' revenue column per month of the range (zero-filled). */
export const FinanceAdvertiserRow = z.object({ advertiser: z.string() }).catchall(z.number());
export type FinanceAdvertiserRow = z.infer<typeof FinanceAdvertiserRow>;
export const FinancePublisherRow = z.object({ publisher: z.string() }).catchall(z.number());
export type FinancePublisherRow = z.infer<typeof FinancePublisherRow>;
/** Margin per month for the chosen domain, or 'Total' over every domain; always one element. */
export const FinanceMarginRow = z
  .object({ segment: z.string(), by_month: z.record(z.string(), z.number()), total: z.number() })
  .catchall(z.number());
export type FinanceMarginRow = z.infer<typeof FinanceMarginRow>;

export const DomainOptions = z.object({ domains: z.array(z.string()) });

/** What a publisher sees: its own rows by date × zone × geo, never advertiser revenue or margin. */
export const PublisherDataRow = z.object({
  date: z.string(),
  zone_id: z.string(),
  geo: z.string(),
  impressions: count,
  clicks: count,
  ctr: ratio,
  p_revenue: money,
  p_cpm: ratio,
});
export type PublisherDataRow = z.infer<typeof PublisherDataRow>;

/** At most this many rows per publisher-data answer; a bigger range is refused (400). */
export const MAX_PUBLISHER_DATA_ROWS = 500_000;

const publisherDataFields = { ...rangeFields, token: z.string().max(200).optional() };
/** The server binds this one (json or csv); clients pick `data` or `dataCsv`. */
export const PublisherDataQuery = z
  .object({ ...publisherDataFields, format: z.enum(['json', 'csv']).default('json') })
  .superRefine(checkRange);
export const PublisherDataCsvQuery = z
  .object({ ...publisherDataFields, format: z.literal('csv') })
  .superRefine(checkRange);

/** Answer of an import: keys new to the store, keys replaced, and the refused lines. */
export const IngestResult = z.object({
  inserted: count,
  replaced: count,
  /** Refused lines (1-based line of the file; element number in a JSON array), at most 1,000 listed. */
  rejected: z.array(z.object({ line: z.number(), detail: z.string() })),
  rejected_total: count,
});
export type IngestResult = z.infer<typeof IngestResult>;

/** Largest import body (CSV / NDJSON); JSON arrays are held whole, so they get less. */
export const MAX_INGEST_BYTES = 200 * 1024 * 1024;
export const MAX_INGEST_JSON_BYTES = 50 * 1024 * 1024;

export const PublisherShare = z.object({
  name: z.string(),
  revenue_share: z.number(),
  /** false: seen in the data but not configured, so the default share applies. */
  configured: z.boolean(),
});
export type PublisherShare = z.infer<typeof PublisherShare>;

export const SetRevenueShareBody = z.object({
  name: z
    .string({ error: 'El nombre del publisher es obligatorio' })
    .trim()
    .min(1, 'El nombre del publisher es obligatorio')
    .max(200),
  revenue_share: z
    .number({ error: 'revenue_share debe ser un número entre 0 y 2' })
    .min(0, 'revenue_share debe ser un número entre 0 y 2')
    .max(MAX_REVENUE_SHARE, 'revenue_share debe ser un número entre 0 y 2'),
});
export type SetRevenueShareBody = z.input<typeof SetRevenueShareBody>;

export const dashboardRoutes = {
  rawOptions: route({ method: 'GET', path: '/api/dashboard/raw-options', access: 'user', response: RawOptions }),
  overview: route({
    method: 'GET',
    path: '/api/dashboard/overview',
    access: 'user',
    query: ReportFilters,
    response: DashboardOverview,
  }),
  aggregated: route({
    method: 'GET',
    path: '/api/dashboard/table/aggregated',
    access: 'user',
    query: ReportFilters,
    response: z.array(DailyRow),
  }),
  deltas: route({
    method: 'GET',
    path: '/api/dashboard/deltas/daily',
    access: 'user',
    query: DeltaFilters,
    response: DailyDeltas,
  }),
  /** 'Top Zones' and 'Top Advertisers' of the range under the filters, ranked on the server. */
  top: route({
    method: 'GET',
    path: '/api/dashboard/top',
    access: 'user',
    query: DashboardTopQuery,
    response: DashboardTops,
  }),
};

export const adReportRoutes = {
  zoneDetails: route({
    method: 'GET',
    path: '/api/ad-report/zone-details',
    access: 'user',
    query: ZoneReportQuery,
    response: ZoneDetails,
  }),
  publisherSummary: route({
    method: 'GET',
    path: '/api/ad-report/publisher-summary',
    access: 'user',
    query: ReportFilters,
    response: SummaryResponse,
  }),
  advertiserSummary: route({
    method: 'GET',
    path: '/api/ad-report/advertiser-summary',
    access: 'user',
    query: ReportFilters,
    response: SummaryResponse,
  }),
  /** Api Explorer: the zone rows as a plain list (same order and limit as zone-details). */
  explorer: route({
    method: 'GET',
    path: '/api/ad-report',
    access: 'user',
    query: ZoneReportQuery,
    response: z.array(ZoneRow),
  }),
};

export const demandRoutes = {
  advertiserRevenue: route({
    method: 'GET',
    path: '/api/demand/advertiser-revenue',
    access: 'user',
    query: ReportFilters,
    response: AdvertiserRevenue,
  }),
};

export const financeRoutes = {
  advertisers: route({
    method: 'GET',
    path: '/api/finance/advertisers',
    access: 'user',
    query: FinanceFilters,
    response: z.array(FinanceAdvertiserRow),
  }),
  publishers: route({
    method: 'GET',
    path: '/api/finance/publishers',
    access: 'user',
    query: FinanceFilters,
    response: z.array(FinancePublisherRow),
  }),
  margin: route({
    method: 'GET',
    path: '/api/finance/margin',
    access: 'user',
    query: FinanceFilters,
    response: z.array(FinanceMarginRow),
  }),
  /** The Finance domain filter's options. */
  domains: route({ method: 'GET', path: '/api/dev1/dashboard/filters', access: 'user', response: DomainOptions }),
};

export const publisherDataRoutes = {
  /** Publisher token in `token`; 401 when missing or unknown. */
  data: route({
    method: 'GET',
    path: '/api/publisher/data',
    access: 'publisher',
    query: PublisherDataQuery,
    response: z.array(PublisherDataRow),
  }),
  /** The same data as CSV text (format=csv). */
  dataCsv: route({
    method: 'GET',
    path: '/api/publisher/data',
    access: 'publisher',
    query: PublisherDataCsvQuery,
    response: z.string(),
    responseType: 'text',
  }),
};

export const ingestRoutes = {
  /**
   * CSV (text/csv, header row), NDJSON (application/x-ndjson) or a JSON array
   * (application/json) of zone-report rows, sent as the raw body (`rawBody` + content-type).
   */
  zoneReport: route({
    method: 'POST',
    path: '/api/ingest/zone-report',
    access: 'ingest',
    response: IngestResult,
  }),
};

export const revenueShareRoutes = {
  /** Configured publishers plus those seen in the data (at the default share), by name. */
  list: route({ method: 'GET', path: '/api/admin/publishers', access: 'admin', response: z.array(PublisherShare) }),
  /** Sets one publisher's revenue share (creates it when new); applies to later imports. */
  set: route({
    method: 'PUT',
    path: '/api/admin/publishers',
    access: 'admin',
    body: SetRevenueShareBody,
    response: PublisherShare,
  }),
};
