// Revenue reporting: report filters, zone/summary/daily rows and the schemas (their routes in report-routes.ts) of the Dashboard,
// Ad Report, Api Explorer, Demand, Finance, the publisher-data URL, zone-report ingest and
// publishers' revenue shares. Every table is one server query (contract/table.ts); every
// ratio arrives computed from core's metrics registry, so screens never divide or sum.
import { z } from 'zod';
import { DATE_RANGE_REVERSED, rangeTooLong } from '../voice.js';
import { optionalFilter } from './route.js';
import { exportFields, queryInt, tableFields, tablePage } from './table.js';
import { isValidYmd, daysBetween } from '../presets.js';
import { DASHBOARD_CARD_KEYS, DASHBOARD_RANKED, FIGURE_KEYS, ROW_DERIVED_KEYS } from '../metrics.js';
import { figureChangeFields, reportFigureFields } from './figures.js';
import {
  ADVERTISER_SUMMARY_SORT_KEYS,
  DAILY_SORT_KEYS,
  PUBLISHER_SUMMARY_SORT_KEYS,
  SUMMARY_PAGE_SIZE,
  ZONE_PAGE_SIZE,
  ZONE_SORT_KEYS,
} from './values.js';

export {
  DAILY_SORT_KEYS,
  ZONE_SORT_KEYS,
  ZONE_PAGE_SIZE,
  SUMMARY_PAGE_SIZE,
  PUBLISHER_SUMMARY_SORT_KEYS,
  ADVERTISER_SUMMARY_SORT_KEYS,
  FINANCE_ROUNDING_NOTE,
} from './values.js';
export type ZoneSortKey = (typeof ZONE_SORT_KEYS)[number];

/** Longest range a report accepts, in calendar days (inclusive). */
export const MAX_REPORT_DAYS = 800;
/** Publisher share of revenue used when a row has no rate and the publisher none configured. */
export const DEFAULT_REVENUE_SHARE = 0.7;
/** The three advertisers the Api Explorer offers after 'Todos' (and the demo data uses). */
export const FIXED_ADVERTISERS = ['AdNova', 'BidSphere', 'Clickora'] as const;
/** Highest revenue share an admin may set (above 1 the network pays more than it earns). */
export const MAX_REVENUE_SHARE = 2;
/**
 * The traffic-quality score's scale: 0 (worst) to 1 (best), as the reports' rows carry it and the
 * dashboard shows it (0,87). A zone report on another scale (0–100) is refused at import.
 */
export const TQ_SCALE = { min: 0, max: 1 } as const;
/** How far an imported margin may be from revenue − p_revenue: a cent (rounding in the source's export). */
export const MONEY_TOLERANCE = 0.01;

/** A calendar day 'YYYY-MM-DD' in the reporting time zone. */
export const ReportDate = z.string().max(10, 'debe ser una fecha AAAA-MM-DD').refine(isValidYmd, 'debe ser una fecha AAAA-MM-DD');

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
    if (v.start_date > v.end_date) ctx.addIssue({ code: 'custom', path: ['start_date'], message: DATE_RANGE_REVERSED });
    else if (daysBetween(v.start_date, v.end_date) > maxDays) ctx.addIssue({ code: 'custom', path: ['end_date'], message: rangeTooLong(maxDays) });
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

const money = z.number();
const count = z.number();

/**
 * Ratios derived on the server from core's metrics registry (null when the base is 0 or missing):
 * every derived metric a stored row derives too (RS% is margin over revenue × 100, only when
 * revenue > 0: the Dashboard's 'Marg %').
 */
export const DerivedFields = reportFigureFields(ROW_DERIVED_KEYS);

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
  /** Traffic quality as reported for this row; null when not reported. */
  tq: z.number().nullable(),
  ...DerivedFields,
});
export type ZoneRow = z.infer<typeof ZoneRow>;

/**
 * The summed measures of a group of rows with the ratios of those sums (totals, summary and daily
 * rows): every figure of the registry; its TQ is impression-weighted over rows with tq > 0 and impressions > 0.
 */
const SummedFields = reportFigureFields(FIGURE_KEYS);

/** The 'Totales' row: sums of every matching row and the ratios of those sums. */
export const ReportTotals = z.object(SummedFields);
export type ReportTotals = z.infer<typeof ReportTotals>;

/**
 * The zone table (Ad Report, Api Explorer): report filters plus sort / page / page_size /
 * format. Default order: date desc, revenue desc, then the natural key.
 */
export const ZoneTableQuery = z.object({ ...rangeFields, ...filterFields, ...tableFields(ZONE_SORT_KEYS, ZONE_PAGE_SIZE) }).superRefine(checkRange);
export type ZoneTableQuery = z.input<typeof ZoneTableQuery>;

export const ZoneTable = tablePage(ZoneRow, ReportTotals);
export type ZoneTable = z.infer<typeof ZoneTable>;

/** The Ad Report's zone table plus the Geo and Source dropdowns of the range. */
export const ZoneDetails = ZoneTable.extend({
  /** Geos and sources present in the range under the other filters (for the dropdowns). */
  geoOptions: z.array(z.string()),
  sourceOptions: z.array(z.string()),
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

/** A summary table's query. Default order: date desc, revenue desc, name. */
const summaryQuery = (keys: readonly string[]) =>
  z.object({ ...rangeFields, ...filterFields, ...tableFields(keys, SUMMARY_PAGE_SIZE) }).superRefine(checkRange);
export const PublisherSummaryQuery = summaryQuery(PUBLISHER_SUMMARY_SORT_KEYS);
export const AdvertiserSummaryQuery = summaryQuery(ADVERTISER_SUMMARY_SORT_KEYS);
export type SummaryQuery = z.input<typeof PublisherSummaryQuery>;

export const SummaryTable = tablePage(SummaryRow, ReportTotals);
export type SummaryTable = z.infer<typeof SummaryTable>;

export const RawOptions = z.object({
  advertisers: z.array(z.string()),
  publishers: z.array(z.string()),
  geoOptions: z.array(z.string()),
  sourceOptions: z.array(z.string()),
});
export type RawOptions = z.infer<typeof RawOptions>;

/** The Dashboard's cards (DASHBOARD_CARD_KEYS); its CTR is the one CTR (METRICS.ctr: clicks over the CTR base, × 100). */
export const DashboardSummary = z.object(reportFigureFields(DASHBOARD_CARD_KEYS));
export type DashboardSummary = z.infer<typeof DashboardSummary>;

/** One point per calendar day of the range; days without data are zero (tq null). */
export const ChartPoint = z.object({ date: z.string(), ...reportFigureFields(['revenue', 'margin', 'tq', 'clicks', 'impressions']) });
export type ChartPoint = z.infer<typeof ChartPoint>;

export const DashboardOverview = z.object({ summary: DashboardSummary, chart: z.array(ChartPoint) });
export type DashboardOverview = z.infer<typeof DashboardOverview>;

/** Dashboard 'Top Zones' / 'Top Advertisers': entries per list by default and at most. */
export const DEFAULT_TOP_LIMIT = 5;
export const MAX_TOP_LIMIT = 50;

/** The report filters plus an optional list length (1–50, default 5). */
export const DashboardTopQuery = z.object({ ...rangeFields, ...filterFields, limit: queryInt(1, MAX_TOP_LIMIT).optional() }).superRefine(checkRange);
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

/** A rank level 0 (lowest) … 5 (highest) of a value between its column's min and max; null when nothing to rank. */
const RankLevel = z.number().int().min(0).max(5).nullable();

/** The Api Explorer's four revenue cards. */
export const RevenueCards = z.object({
  /** Yesterday, today and the month so far (reporting time zone), over all traffic. */
  yesterday: money,
  today: money,
  month: money,
  /** The search's range under its filters. */
  filter: money,
  /** The days those figures cover. */
  dates: z.object({ yesterday: z.string(), today: z.string(), month_start: z.string() }),
});
export type RevenueCards = z.infer<typeof RevenueCards>;

/** Dashboard 'Analytics' row: one per day with data. */
export const DailyRow = z.object({
  date: z.string(),
  ...SummedFields,
  /**
   * Revenue, P.Revenue and margin ranked between their min and max over every complete day of the table
   * (cell colours); today's partial day takes no part and is not ranked (null).
   */
  rank: z.object(Object.fromEntries(DASHBOARD_RANKED.map((k) => [k, RankLevel])) as Record<(typeof DASHBOARD_RANKED)[number], typeof RankLevel>),
});
export type DailyRow = z.infer<typeof DailyRow>;

/** The 'Analytics' table's query (default order: date ascending; 10 rows a page). */
export const DailyTableQuery = z.object({ ...rangeFields, ...filterFields, ...tableFields(DAILY_SORT_KEYS, 10) }).superRefine(checkRange);
export type DailyTableQuery = z.input<typeof DailyTableQuery>;
/** The 'Totales' row's TQ is the TQ Avg card's, from the same sums. */
export const DailyTable = tablePage(DailyRow, ReportTotals);
export type DailyTable = z.infer<typeof DailyTable>;

/** % change of yesterday against the day before (reporting time zone); null where the base is 0. */
export const DailyDeltas = z.object(figureChangeFields(DASHBOARD_CARD_KEYS));
export type DailyDeltas = z.infer<typeof DailyDeltas>;

/** Calendar days, inclusive. */
const DaySpan = z.object({ from: z.string(), to: z.string() });

/** The Dashboard cards over some days. */
export const PeriodSummary = DaySpan.extend({ summary: DashboardSummary });
export type PeriodSummary = z.infer<typeof PeriodSummary>;

/**
 * 'Comparar con el período anterior' (Dashboard), computed on the server like with like: a
 * period over is compared whole with as many days just before; one running into today
 * (zone reports are daily, today's is partial) compares only its complete days with the same
 * number from the previous period's start; today alone has nothing to compare (basis none).
 */
export const DashboardComparison = z.object({
  basis: z.enum(['whole_days', 'complete_days', 'none']),
  /** The reporting time zone and its today when the comparison was made. */
  tz: z.string(),
  today: z.string(),
  /** The range asked for and as many days just before it (the chart's dashed lines). */
  period: DaySpan,
  previous_period: DaySpan,
  /** The days compared on each side with their cards; null when nothing compares. */
  current: PeriodSummary.nullable(),
  previous: PeriodSummary.nullable(),
  /** Each card's % change, current against previous; null where there is none or the base is 0. */
  change: DailyDeltas,
  /** Short words for a card ('días completos', 'sin comparación') and the sentence with both sides' days. */
  label: z.string(),
  note: z.string(),
  /** One point per day of the previous period, paired day by day with the chart's. */
  previous_chart: z.array(ChartPoint),
});
export type DashboardComparison = z.infer<typeof DashboardComparison>;

export const DemandPoint = z.object({ date: z.string(), revenue: money, margin: money });
export type DemandPoint = z.infer<typeof DemandPoint>;
/** An advertiser's card figures on Demand: its revenue and margin over the range (core's demandTotals). */
export const DemandTotals = z.object({ revenue: money, margin: money });
export type DemandTotals = z.infer<typeof DemandTotals>;
/**
 * Demand: `advertisers` maps each advertiser to one point per day of the range (zero-filled),
 * advertisers by revenue desc; `totals` holds each advertiser's sums over the range, computed on
 * the server (the cards' Revenue and Margin).
 */
export const AdvertiserRevenue = z.object({
  advertisers: z.record(z.string(), z.array(DemandPoint)),
  totals: z.record(z.string(), DemandTotals),
});
export type AdvertiserRevenue = z.infer<typeof AdvertiserRevenue>;

/** `format` (and `csv`) of a report that is not a paged table: json (default), or csv|ndjson to download it as a file. */
const exportFormat = exportFields;

/** Demand's query: the report filters, and `format=csv|ndjson` to stream every point instead (one row per advertiser and day). */
export const DemandQuery = z.object({ ...rangeFields, ...filterFields, ...exportFormat }).superRefine(checkRange);
export type DemandQuery = z.input<typeof DemandQuery>;

/**
 * Finance amounts are exact sums (JSON: 4 decimals), rounded once where shown: a cell is the
 * advertiser's or publisher's revenue in the month (what Demand, the Ad Report and the Dashboard
 * show for it), a row's Total its revenue over the range, the TOTAL row each month's revenue (the
 * same in the advertiser and publisher tables). Shown rounded, rows may differ from the TOTAL by
 * rounding: FINANCE_ROUNDING_NOTE says so on every face.
 */
export const FINANCE_PAGE_SIZE = 100;

/** Finance: one row per advertiser, a 'YYYY-MM' revenue column per month of the range (zero-filled) and its Total. */
export const FinanceAdvertiserRow = z.object({ advertiser: z.string(), total: money }).catchall(z.number());
export type FinanceAdvertiserRow = z.infer<typeof FinanceAdvertiserRow>;
export const FinancePublisherRow = z.object({ publisher: z.string(), total: money }).catchall(z.number());
export type FinancePublisherRow = z.infer<typeof FinancePublisherRow>;
/** The TOTAL row: each month's sum and the grand total. */
export const FinanceTotals = z.object({ total: money }).catchall(z.number());
export type FinanceTotals = z.infer<typeof FinanceTotals>;

const isMonthKey = (key: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(key);
/** Finance tables sort by the name, a month 'YYYY-MM' or total; default: total desc, then name. */
const financeQuery = (name: 'advertiser' | 'publisher') =>
  z
    .object({
      ...rangeFields,
      ...filterFields,
      ...tableFields((key) => key === name || key === 'total' || isMonthKey(key), FINANCE_PAGE_SIZE, `${name}, total o un mes AAAA-MM`),
    })
    .superRefine(rangeCheck(MAX_FINANCE_DAYS));
export const FinanceAdvertisersQuery = financeQuery('advertiser');
export const FinancePublishersQuery = financeQuery('publisher');
export type FinanceTableQuery = z.input<typeof FinanceAdvertisersQuery>;

/** A Finance table: its month columns ('YYYY-MM' of the range) besides the table page. */
const financeTable = <R extends z.ZodType>(row: R) => tablePage(row, FinanceTotals).extend({ months: z.array(z.string()) });
export const FinanceAdvertiserTable = financeTable(FinanceAdvertiserRow);
export type FinanceAdvertiserTable = z.infer<typeof FinanceAdvertiserTable>;
export const FinancePublisherTable = financeTable(FinancePublisherRow);
export type FinancePublisherTable = z.infer<typeof FinancePublisherTable>;

/** Finance's margin: its filters, and `format=csv|ndjson` for the margin row as a file. */
export const FinanceMarginQuery = z.object({ ...rangeFields, ...filterFields, ...exportFormat }).superRefine(rangeCheck(MAX_FINANCE_DAYS));
export type FinanceMarginQuery = z.input<typeof FinanceMarginQuery>;

/** Margin per month for the chosen domain, or 'Total' over every domain; always one element. */
export const FinanceMarginRow = z.object({ segment: z.string(), by_month: z.record(z.string(), z.number()), total: z.number() }).catchall(z.number());
export type FinanceMarginRow = z.infer<typeof FinanceMarginRow>;

export const DomainOptions = z.object({ domains: z.array(z.string()) });

/** The figures a publisher sees (PUBLISHER_DATA_COLUMNS'): never advertiser revenue or margin. */
const publisherFigures = reportFigureFields(['impressions', 'clicks', 'ctr', 'p_revenue', 'p_cpm']);

/** What a publisher sees: its own rows by date × zone × geo. */
export const PublisherDataRow = z.object({ date: z.string(), zone_id: z.string(), geo: z.string(), ...publisherFigures });
export type PublisherDataRow = z.infer<typeof PublisherDataRow>;

/** The publisher's totals over every matching row. */
export const PublisherDataTotals = z.object(publisherFigures);
export type PublisherDataTotals = z.infer<typeof PublisherDataTotals>;

export const PUBLISHER_DATA_SORT_KEYS = ['date', 'zone_id', 'geo', 'impressions', 'clicks', 'ctr', 'p_revenue', 'p_cpm'] as const;

/**
 * The token URL: a range, the token, and the table fields (JSON pages of up to 500 rows, 500 by
 * default; format=csv or ndjson streams every row). Default order: date desc, zone_id, geo.
 */
export const PublisherDataQuery = z
  .object({ ...rangeFields, token: z.string().max(200).optional(), ...tableFields(PUBLISHER_DATA_SORT_KEYS, 500) })
  .superRefine(checkRange);
export type PublisherDataQuery = z.input<typeof PublisherDataQuery>;

export const PublisherDataTable = tablePage(PublisherDataRow, PublisherDataTotals);
export type PublisherDataTable = z.infer<typeof PublisherDataTable>;

/** Answer of an import: keys new to the store, keys replaced, the refused lines and the repeated keys. */
export const IngestResult = z.object({
  inserted: count,
  replaced: count,
  /** Refused lines (1-based line of the file; element number in a JSON array), at most 1,000 listed. */
  rejected: z.array(z.object({ line: z.number(), detail: z.string() })),
  rejected_total: count,
  /**
   * Accepted lines whose natural key (date, advertiser, publisher, zone_id, geo, source) an earlier
   * line of the same file already had, with that first line: the last line of a key is the one
   * stored. At most 1,000 listed; `duplicates_total` counts them all.
   */
  duplicates: z.array(z.object({ line: z.number(), first_line: z.number(), detail: z.string() })),
  duplicates_total: count,
  /**
   * The days the import stored rows for and what their report now is: final (the day was over,
   * or the import said so) or partial (the day still running, or the import said so). A partial
   * day's revenue stays an estimate until a later import makes it final.
   */
  days: z.array(z.object({ date: z.string(), report: z.enum(['final', 'partial']) })),
});
export type IngestResult = z.infer<typeof IngestResult>;

export const REPORT_STATES = ['final', 'partial'] as const;
export type ReportState = (typeof REPORT_STATES)[number];

/**
 * An import's optional word on its days' reports: `final` (complete, whatever the day) or
 * `partial` (incomplete, e.g. a report known to miss hours). Without it, a day already over in
 * the reporting time zone is final and a day still running is partial.
 */
export const ZoneReportIngestQuery = z.object({
  report: z.enum(REPORT_STATES, { error: 'debe ser final (informe completo) o partial (informe incompleto)' }).optional(),
});
export type ZoneReportIngestQuery = z.input<typeof ZoneReportIngestQuery>;

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
    .string({ error: (iss) => (iss.code === 'invalid_type' ? 'El nombre del publisher es obligatorio' : undefined) })
    .trim()
    .min(1, 'El nombre del publisher es obligatorio')
    .max(200),
  revenue_share: z
    .number({ error: `debe ser un número entre 0 y ${MAX_REVENUE_SHARE}` })
    .min(0, `debe ser un número entre 0 y ${MAX_REVENUE_SHARE}`)
    .max(MAX_REVENUE_SHARE, `debe ser un número entre 0 y ${MAX_REVENUE_SHARE}`),
});
export type SetRevenueShareBody = z.input<typeof SetRevenueShareBody>;
