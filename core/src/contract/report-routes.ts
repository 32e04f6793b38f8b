// The report areas' route tables (Dashboard, Ad Report, Demand, Finance, the publisher-data URL,
// ingest, revenue shares), bound to the schemas of reports.ts.
import { z } from 'zod';
import { route } from './route.js';
import {
  AdvertiserRevenue,
  AdvertiserSummaryQuery,
  DailyDeltas,
  DailyTable,
  DailyTableQuery,
  DashboardComparison,
  DashboardOverview,
  DashboardTopQuery,
  DashboardTops,
  DeltaFilters,
  DemandQuery,
  DomainOptions,
  FinanceAdvertisersQuery,
  FinanceAdvertiserTable,
  FinanceMarginQuery,
  FinanceMarginRow,
  FinancePublishersQuery,
  FinancePublisherTable,
  IngestResult,
  PublisherDataQuery,
  PublisherDataTable,
  PublisherShare,
  PublisherSummaryQuery,
  RawOptions,
  ReportFilters,
  RevenueCards,
  SetRevenueShareBody,
  SummaryTable,
  ZoneDetails,
  ZoneReportIngestQuery,
  ZoneTable,
  ZoneTableQuery,
} from './reports.js';

export const dashboardRoutes = {
  rawOptions: route({ method: 'GET', path: '/api/dashboard/raw-options', access: 'user', response: RawOptions }),
  overview: route({
    method: 'GET',
    path: '/api/dashboard/overview',
    access: 'user',
    heavy: true,
    query: ReportFilters,
    response: DashboardOverview,
  }),
  /** The 'Analytics' table: one row per day with data (format=csv: resumen_diario.csv, every day). */
  aggregated: route({
    method: 'GET',
    path: '/api/dashboard/table/aggregated',
    access: 'user',
    heavy: true,
    query: DailyTableQuery,
    response: DailyTable,
  }),
  deltas: route({
    method: 'GET',
    path: '/api/dashboard/deltas/daily',
    access: 'user',
    heavy: true,
    query: DeltaFilters,
    response: DailyDeltas,
  }),
  /** The cards of the range against the previous period, like with like (see DashboardComparison). */
  comparison: route({
    method: 'GET',
    path: '/api/dashboard/comparison',
    access: 'user',
    heavy: true,
    query: ReportFilters,
    response: DashboardComparison,
  }),
  /** 'Top Zones' and 'Top Advertisers' of the range under the filters, ranked on the server. */
  top: route({
    method: 'GET',
    path: '/api/dashboard/top',
    access: 'user',
    heavy: true,
    query: DashboardTopQuery,
    response: DashboardTops,
  }),
};

export const adReportRoutes = {
  /** 'Resumen diario por zona' with the range's Geo/Source options (format=csv: adreport_zonas.csv, every row). */
  zoneDetails: route({
    method: 'GET',
    path: '/api/ad-report/zone-details',
    access: 'user',
    heavy: true,
    query: ZoneTableQuery,
    response: ZoneDetails,
  }),
  publisherSummary: route({
    method: 'GET',
    path: '/api/ad-report/publisher-summary',
    access: 'user',
    heavy: true,
    query: PublisherSummaryQuery,
    response: SummaryTable,
  }),
  advertiserSummary: route({
    method: 'GET',
    path: '/api/ad-report/advertiser-summary',
    access: 'user',
    heavy: true,
    query: AdvertiserSummaryQuery,
    response: SummaryTable,
  }),
  /** Api Explorer: the zone table with its columns (format=csv: ad_report.csv, every row). */
  explorer: route({
    method: 'GET',
    path: '/api/ad-report',
    access: 'user',
    heavy: true,
    query: ZoneTableQuery,
    response: ZoneTable,
  }),
  /** The Api Explorer's cards: yesterday, today and the month so far over all traffic; the filter's range under its filters. */
  revenueCards: route({
    method: 'GET',
    path: '/api/ad-report/revenue-cards',
    access: 'user',
    heavy: true,
    query: ReportFilters,
    response: RevenueCards,
  }),
};

export const demandRoutes = {
  /** The charts and each advertiser's totals (format=csv: demand_{start}_to_{end}.csv, a row per advertiser and day). */
  advertiserRevenue: route({
    method: 'GET',
    path: '/api/demand/advertiser-revenue',
    access: 'user',
    heavy: true,
    query: DemandQuery,
    response: AdvertiserRevenue,
  }),
};

export const financeRoutes = {
  advertisers: route({
    method: 'GET',
    path: '/api/finance/advertisers',
    access: 'user',
    heavy: true,
    query: FinanceAdvertisersQuery,
    response: FinanceAdvertiserTable,
  }),
  publishers: route({
    method: 'GET',
    path: '/api/finance/publishers',
    access: 'user',
    heavy: true,
    query: FinancePublishersQuery,
    response: FinancePublisherTable,
  }),
  /** format=csv: finance_margin_{start}_to_{end}.csv (Producto, a column per month, Total). */
  margin: route({
    method: 'GET',
    path: '/api/finance/margin',
    access: 'user',
    heavy: true,
    query: FinanceMarginQuery,
    response: z.array(FinanceMarginRow),
  }),
  /** The Finance domain filter's options. */
  domains: route({ method: 'GET', path: '/api/dev1/dashboard/filters', access: 'user', response: DomainOptions }),
};

export const publisherDataRoutes = {
  /** Publisher token in `token`; 401 when missing or unknown. format=csv|ndjson streams every row. */
  data: route({
    method: 'GET',
    path: '/api/publisher/data',
    access: 'publisher',
    query: PublisherDataQuery,
    response: PublisherDataTable,
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
    /** `?report=final|partial`: what the imported days' reports are (default: by the clock, see ZoneReportIngestQuery). */
    query: ZoneReportIngestQuery,
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
