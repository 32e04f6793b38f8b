// Which metrics each report shows and under which header (SPEC's labels), in order: the
// tables, cards and CSV files of every face read their columns from here.
import { METRICS, type MetricKey } from './registry.js';

export interface MetricColumn {
  key: MetricKey;
  header: string;
}

function columns(keys: readonly MetricKey[], headers: Partial<Record<MetricKey, string>> = {}): MetricColumn[] {
  return keys.map((key) => ({ key, header: headers[key] ?? METRICS[key].label }));
}

/**
 * Dashboard 'Analytics' table and resumen_diario.csv ('Marg %' is RS%: margin over revenue). SPEC's
 * 'Cost' column is what the publisher is paid: the same money the Ad Report heads P.Revenue, so
 * it carries that one name here too.
 */
export const DASHBOARD_COLUMNS = columns(
  ['date', 'impressions', 'monetized_impressions', 'clicks', 'ctr', 'cpm', 'cpc', 'revenue', 'p_revenue', 'margin', 'rs_percent', 'tq'],
  { rs_percent: 'Marg %' },
);

/** The Dashboard table's sortable headers (SPEC: M. Impr. and Marg % do not sort). */
export const DASHBOARD_SORT_KEYS = ['date', 'impressions', 'clicks', 'ctr', 'cpm', 'cpc', 'revenue', 'p_revenue', 'margin', 'tq'] as const;

/** The Dashboard's rank-coloured money columns (SPEC: revenue, cost — P.Revenue — and margin). */
export const DASHBOARD_RANKED = ['revenue', 'p_revenue', 'margin'] as const;

/** Ad Report 'Resumen diario por zona' and adreport_zonas.csv (19 columns, headers as SPEC writes them). */
export const AD_REPORT_COLUMNS = columns(
  [
    'date',
    'advertiser',
    'publisher',
    'zone_id',
    'geo',
    'source',
    'impressions',
    'monetized_impressions',
    'clicks',
    'ctr',
    'p_cpm',
    'p_cpc',
    'p_revenue',
    'tq',
    'revenue',
    'margin',
    'cpm',
    'cpc',
    'rs_percent',
  ],
  {
    date: 'date',
    advertiser: 'advertiser',
    publisher: 'publisher',
    zone_id: 'zone_id',
    geo: 'geo',
    source: 'source',
    impressions: 'impressions',
    monetized_impressions: 'monetized_impressions',
    clicks: 'clicks',
    revenue: 'revenue',
    margin: 'margin',
  },
);

/**
 * The Ad Report's zone table as the screens head it (web and terminal): SPEC's labels (Date,
 * Zone ID, Impr., M. Impr., P.CPM, Revenue, Margin…), in AD_REPORT_COLUMNS' order; its CSV keeps
 * adreport_zonas.csv's own headers (AD_REPORT_COLUMNS).
 */
export const AD_REPORT_SCREEN_COLUMNS: MetricColumn[] = AD_REPORT_COLUMNS.map((c) => ({
  key: c.key,
  header: c.key === 'revenue' ? 'Revenue' : c.key === 'margin' ? 'Margin' : METRICS[c.key].label,
}));

/** The zone table's metric columns after its six text columns (the summaries reuse them). */
const AD_REPORT_METRICS = AD_REPORT_COLUMNS.slice(6).map((c) => ({ key: c.key, header: METRICS[c.key].label }));

/** 'Resumen publisher' / 'Resumen advertiser': Date, the name, then the zone table's metrics. */
export const PUBLISHER_SUMMARY_COLUMNS: MetricColumn[] = [
  { key: 'date', header: 'Date' },
  { key: 'publisher', header: 'Publisher' },
  ...AD_REPORT_METRICS,
];
export const ADVERTISER_SUMMARY_COLUMNS: MetricColumn[] = [
  { key: 'date', header: 'Date' },
  { key: 'advertiser', header: 'Advertiser' },
  ...AD_REPORT_METRICS,
];

/** Api Explorer table and ad_report.csv. */
export const API_EXPLORER_COLUMNS = columns(
  [
    'date',
    'advertiser',
    'zone_id',
    'publisher',
    'impressions',
    'clicks',
    'ctr',
    'cpm',
    'cpc',
    'revenue',
    'margin',
    'rs_percent',
    'p_cpm',
    'p_cpc',
    'tq',
  ],
  { revenue: 'Revenue', margin: 'Margin' },
);

/** The Api Explorer shows the CPC total with 4 decimals (SPEC §9). */
export const API_EXPLORER_TOTAL_DECIMALS: Partial<Record<MetricKey, number>> = { cpc: 4 };

/** The publisher-data URL's columns (CSV headers as the JSON keys; P.Revenue with 4 decimals). */
export const PUBLISHER_DATA_COLUMNS: MetricColumn[] = columns(['date', 'zone_id', 'geo', 'impressions', 'clicks', 'ctr', 'p_revenue', 'p_cpm'], {
  date: 'date',
  zone_id: 'zone_id',
  geo: 'geo',
  impressions: 'impressions',
  clicks: 'clicks',
  ctr: 'ctr',
  p_revenue: 'p_revenue',
  p_cpm: 'p_cpm',
});

/** Demand's export: a row per advertiser and day (SPEC's labels: Advertiser, Date, Revenue, Margin). */
export const DEMAND_COLUMNS = columns(['advertiser', 'date', 'revenue', 'margin'], { revenue: 'Revenue', margin: 'Margin' });

/** Dashboard summary cards, in order. */
export const DASHBOARD_CARDS: readonly MetricColumn[] = columns(['revenue', 'margin', 'impressions', 'clicks', 'ctr', 'tq'], {
  revenue: 'Revenue',
  margin: 'Margin',
  impressions: 'Impressions',
  tq: 'TQ Avg',
});
