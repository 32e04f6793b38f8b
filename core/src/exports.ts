// The CSV columns of every table export, defined once: the server streams whole tables with
// them (format=csv, either dialect), so a file has the same headers and figures whichever face
// asked for it. Money that adds up (revenue, margin, spend, profit…) is written at its stored
// precision, so a spreadsheet's SUM of a column is the report's total to the cent; ratios
// (CTR, CPM, CPC, RS%, TQ, ROI…) at the decimals the screens show.
import type { CsvField } from './csv.js';
import { shownFigure, shownFigureText } from './rounding.js';
import { formatDateTime } from './format.js';
import { PROFIT_DIMENSION_LABELS, type ProfitDimension, type ProfitRow } from './contract/profit.js';
import {
  IVT_RATE,
  AD_REPORT_COLUMNS,
  ADVERTISER_SUMMARY_COLUMNS,
  API_EXPLORER_COLUMNS,
  DASHBOARD_COLUMNS,
  DEMAND_COLUMNS,
  METRICS,
  PROFIT_METRICS,
  PROFIT_METRIC_KEYS,
  type ProfitMetricKey,
  PUBLISHER_DATA_COLUMNS,
  PUBLISHER_SUMMARY_COLUMNS,
  type MetricColumn,
  type MetricDef,
  type MetricKey,
} from './metrics.js';

type AnyRow = Record<string, unknown>;

/** A metric that adds up over rows: a sum (revenue, margin, P.Revenue, counts) or a difference of sums. */
export function isAdditiveMetric(key: MetricKey): boolean {
  const def: MetricDef = METRICS[key];
  return def.sum !== undefined || def.formula?.op === 'diff';
}

/** Metric columns as CSV: text as is (the date marked as one), additive figures at stored precision, ratios at their shown decimals. */
export function metricCsvFields(list: readonly MetricColumn[]): CsvField<AnyRow>[] {
  return list.map(({ key, header }): CsvField<AnyRow> => {
    if (METRICS[key].kind === 'text') return { header, cell: (row) => row[key], ...(key === 'date' ? { kind: 'date' as const } : {}) };
    if (isAdditiveMetric(key)) return { header, cell: (row) => row[key] };
    const decimals = METRICS[key].decimals;
    return { header, cell: (row) => shownFigure(row[key], decimals), text: (row) => shownFigureText(row[key], decimals) };
  });
}

/** Each table's export: its CSV columns and file name (given the query's range). */
export const TABLE_CSV = {
  /** Ad Report 'Resumen diario por zona' (SPEC: adreport_zonas.csv, 19 columns). */
  zones: { columns: AD_REPORT_COLUMNS, fields: metricCsvFields(AD_REPORT_COLUMNS), file: () => 'adreport_zonas.csv' },
  /** Api Explorer (SPEC: ad_report.csv). */
  explorer: { columns: API_EXPLORER_COLUMNS, fields: metricCsvFields(API_EXPLORER_COLUMNS), file: () => 'ad_report.csv' },
  publisherSummary: { fields: metricCsvFields(PUBLISHER_SUMMARY_COLUMNS), file: () => 'resumen_publisher.csv' },
  advertiserSummary: { fields: metricCsvFields(ADVERTISER_SUMMARY_COLUMNS), file: () => 'resumen_advertiser.csv' },
  /** Dashboard 'Analytics' (SPEC: resumen_diario.csv). */
  daily: { fields: metricCsvFields(DASHBOARD_COLUMNS), file: () => 'resumen_diario.csv' },
  /** Demand: every advertiser's point of each day of the range (zero-filled), advertisers by revenue. */
  demand: { fields: metricCsvFields(DEMAND_COLUMNS), file: (start: string, end: string) => `demand_${start}_to_${end}.csv` },
  /** The token URL: P.Revenue at stored precision (publishers reconcile their payouts with it). */
  publisherData: {
    fields: metricCsvFields(PUBLISHER_DATA_COLUMNS),
    file: (start: string, end: string) => `publisher-data-${start}_to_${end}.csv`,
  },
} as const;

/** Referrers CSV (SPEC §3): date as 'YYYY-MM-DD HH:mm' on the reporting clock, zone_id, source, referrer. */
export function referrerCsvFields(tz: string): CsvField<AnyRow>[] {
  return [
    { header: 'date', cell: (r) => formatDateTime(r.seen_at as string, tz), kind: 'datetime' },
    { header: 'zone_id', cell: (r) => r.zone_id },
    { header: 'source', cell: (r) => r.parent_domain },
    { header: 'referrer', cell: (r) => r.referrer },
  ];
}

/** Logs CSV (SPEC §3): the referrers' columns plus keyword, ip and country. */
export function logCsvFields(tz: string): CsvField<AnyRow>[] {
  return [
    { header: 'date', cell: (r) => formatDateTime(r.seen_at as string, tz), kind: 'datetime' },
    { header: 'zone_id', cell: (r) => r.zone_id },
    { header: 'source', cell: (r) => r.parent_domain },
    { header: 'referrer', cell: (r) => r.referrer },
    { header: 'keyword', cell: (r) => r.keyword },
    { header: 'ip', cell: (r) => r.ip },
    { header: 'country', cell: (r) => r.country },
  ];
}

/** The IVT table's CSV: the zone (by zone) and publisher, all hits, flagged hits and the IVT rate (its shown decimals). */
export function ivtCsvFields(by: 'zone' | 'publisher'): CsvField<AnyRow>[] {
  return [
    ...(by === 'zone' ? [{ header: 'zone_id', cell: (r: AnyRow) => r.zone_id }] : []),
    { header: 'publisher', cell: (r) => r.publisher },
    { header: 'hits', cell: (r) => r.hits },
    { header: 'bot_hits', cell: (r) => r.bot_hits },
    { header: 'ivt_rate', cell: (r) => shownFigure(r.ivt_rate, IVT_RATE.decimals) },
  ];
}
export const ivtCsvFile = (by: 'zone' | 'publisher', start: string, end: string) => `ivt-${by}-${start}_to_${end}.csv`;

/** 'referrers-{start}_to_{end}.csv' (SPEC §9) and the log's 'referrers_logs-…'. */
export const referrerCsvFile = (start: string, end: string) => `referrers-${start}_to_${end}.csv`;
export const logCsvFile = (start: string, end: string) => `referrers_logs-${start}_to_${end}.csv`;

/** The name column of each Finance table as the screen heads it. */
export const FINANCE_NAME_HEADERS = { advertiser: 'Advertiser', publisher: 'Publisher', segment: 'Producto' } as const;

/**
 * A Finance table as CSV, headed as on screen: the name (Advertiser, Publisher, or Producto for
 * the margin), one column per month 'YYYY-MM', Total — amounts at stored precision, so a month's
 * SUM is its TOTAL.
 */
export function financeCsvFields(nameKey: keyof typeof FINANCE_NAME_HEADERS, months: readonly string[]): CsvField<AnyRow>[] {
  return [
    { header: FINANCE_NAME_HEADERS[nameKey], cell: (r) => r[nameKey] },
    ...months.map((m) => ({ header: m, cell: (r: AnyRow) => r[m] })),
    { header: 'Total', cell: (r) => r.total },
  ];
}

/** A Finance export's file name ('finance_advertisers_2025-01-01_to_2026-03-31.csv'; the web saves it under the same). */
export const financeCsvFile = (table: 'advertisers' | 'publishers' | 'margin', start: string, end: string) =>
  `finance_${table}_${start}_to_${end}.csv`;

/** Campaign metrics as CSV. */
export function campaignCsvFields(tz: string): CsvField<AnyRow>[] {
  return [
    { header: 'campaign_id', cell: (r) => r.id },
    { header: 'name', cell: (r) => r.name },
    { header: 'status', cell: (r) => r.effective_status },
    { header: 'impressions', cell: (r) => r.impressions },
    { header: 'clicks', cell: (r) => r.clicks },
    { header: 'ctr', cell: (r) => shownFigure(r.ctr, METRICS.ctr.decimals) },
    { header: 'spend', cell: (r) => r.spend },
    { header: 'account_spend', cell: (r) => r.account_spend },
    { header: 'account_currency', cell: (r) => r.account_currency },
    { header: 'cpc', cell: (r) => shownFigure(r.cpc, METRICS.cpc.decimals) },
    { header: 'cpm', cell: (r) => shownFigure(r.cpm, METRICS.cpm.decimals) },
    { header: 'revenue', cell: (r) => r.revenue },
    { header: 'profit', cell: (r) => r.profit },
    { header: 'roi', cell: (r) => shownFigure(r.roi, PROFIT_METRICS.roi.decimals) },
    { header: 'has_data', cell: (r) => r.has_data },
    { header: 'created_at', cell: (r) => formatDateTime(r.created_at as string, tz), kind: 'datetime' },
  ];
}

/** A profit figure that adds up over rows: a sum or a difference of sums (spend, revenue, profit, clicks, visits). */
const additiveProfit = (key: ProfitMetricKey) => PROFIT_METRICS[key].formula.op !== 'ratio';

/**
 * Rentabilidad's export: the row's key and name, every registry figure — spend, revenue and
 * profit at stored precision, ratios at their shown decimals — and whether its revenue is an
 * estimate or its spend lacks an exchange rate.
 */
export function profitCsvFields(by: ProfitDimension): CsvField<ProfitRow>[] {
  const figures: CsvField<ProfitRow>[] = PROFIT_METRIC_KEYS.map((key) => ({
    header: PROFIT_METRICS[key].label,
    cell: additiveProfit(key) ? (row: ProfitRow) => row[key] : (row: ProfitRow) => shownFigure(row[key], PROFIT_METRICS[key].decimals),
  }));
  const named = by === 'campaign' || by === 'adset' || by === 'ad';
  return [
    { header: PROFIT_DIMENSION_LABELS[by], cell: (row) => row.key ?? '', ...(by === 'day' ? { kind: 'date' as const } : {}) },
    ...(named ? [{ header: 'Nombre', cell: (row: ProfitRow) => row.name ?? '' }] : []),
    ...figures,
    { header: 'Estimado', cell: (row) => (row.estimated ? 'sí' : 'no') },
    { header: 'Sin tipo de cambio', cell: (row) => (row.missing_rate ? 'sí' : 'no') },
    // Spend not synced is an empty cell, never 0; the revenue of unsynced days left out of the row's figures goes apart.
    { header: 'Gasto sin sincronizar', cell: (row) => (row.spend_unsynced ? 'sí' : 'no') },
    { header: 'Revenue días sin sincronizar', cell: (row) => row.unsynced_revenue },
  ];
}

export const profitCsvFile = (by: ProfitDimension, from: string, to: string) => `rentabilidad_${by}_${from}_${to}.csv`;
