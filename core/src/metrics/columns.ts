// Which metrics each report shows and under which header (SPEC's labels), in order: the
// tables, cards and CSV files of every face read their columns from here.
import { METRICS, type MetricKey } from './registry.js';

export interface MetricColumn {
  key: MetricKey;
  header: string;
}

/**
 * Where a column's header comes from: the registry's short `label` (the default), its full `name`
 * (cards and the wider tables: 'Revenue', 'TQ Avg'), or the metric's `key` (CSV files whose headers
 * are the JSON keys); a string of its own only where SPEC words a column apart ('Marg %').
 */
type HeaderSource = 'label' | 'name' | 'key';

function columns<K extends MetricKey>(
  keys: readonly K[],
  from: { default?: HeaderSource } & Partial<Record<HeaderSource, readonly K[]>> = {},
  own: Partial<Record<K, string>> = {},
): MetricColumn[] {
  const source = (key: K): HeaderSource =>
    from.key?.includes(key) ? 'key' : from.name?.includes(key) ? 'name' : from.label?.includes(key) ? 'label' : (from.default ?? 'label');
  return keys.map((key) => {
    const by = source(key);
    return { key, header: own[key] ?? (by === 'key' ? key : METRICS[key][by]) };
  });
}

/**
 * Dashboard 'Analytics' table and resumen_diario.csv ('Marg %' is RS%: margin over revenue). SPEC's
 * 'Cost' column is what the publisher is paid: the same money the Ad Report heads P.Revenue, so
 * it carries that one name here too.
 */
export const DASHBOARD_COLUMNS = columns(
  ['date', 'impressions', 'monetized_impressions', 'clicks', 'ctr', 'cpm', 'cpc', 'revenue', 'p_revenue', 'margin', 'rs_percent', 'tq'],
  {},
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
  // adreport_zonas.csv heads the dimensions and the sums by their keys, P.Revenue and the ratios by their labels.
  { key: ['date', 'advertiser', 'publisher', 'zone_id', 'geo', 'source', 'impressions', 'monetized_impressions', 'clicks', 'revenue', 'margin'] },
);

/**
 * The Ad Report's zone table as the screens head it (web and terminal): SPEC's labels (Date,
 * Zone ID, Impr., M. Impr., P.CPM, Revenue, Margin…), in AD_REPORT_COLUMNS' order; its CSV keeps
 * adreport_zonas.csv's own headers (AD_REPORT_COLUMNS).
 */
export const AD_REPORT_SCREEN_COLUMNS: MetricColumn[] = columns(
  AD_REPORT_COLUMNS.map((c) => c.key),
  { name: ['revenue', 'margin'] },
);

/** The zone table's metric columns after its text columns (the summaries reuse them), by their labels. */
const AD_REPORT_METRICS = columns(AD_REPORT_COLUMNS.map((c) => c.key).filter((key) => METRICS[key].kind !== 'text'));

/** 'Resumen publisher' / 'Resumen advertiser': Date, the name, then the zone table's metrics. */
export const PUBLISHER_SUMMARY_COLUMNS: MetricColumn[] = [...columns(['date', 'publisher']), ...AD_REPORT_METRICS];
export const ADVERTISER_SUMMARY_COLUMNS: MetricColumn[] = [...columns(['date', 'advertiser']), ...AD_REPORT_METRICS];

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
  { name: ['revenue', 'margin'] },
);

/** The Api Explorer shows the CPC total with 4 decimals (SPEC §9). */
export const API_EXPLORER_TOTAL_DECIMALS: Partial<Record<MetricKey, number>> = { cpc: 4 };

/** The publisher-data URL's columns (CSV headers as the JSON keys; P.Revenue with 4 decimals). */
export const PUBLISHER_DATA_COLUMNS: MetricColumn[] = columns(['date', 'zone_id', 'geo', 'impressions', 'clicks', 'ctr', 'p_revenue', 'p_cpm'], {
  default: 'key',
});

/** Demand's export: a row per advertiser and day (SPEC's labels: Advertiser, Date, Revenue, Margin). */
export const DEMAND_COLUMNS = columns(['advertiser', 'date', 'revenue', 'margin'], { name: ['revenue', 'margin'] });

/** Dashboard summary cards' figures, in order (the contract's summary and day-on-day deltas are these fields). */
export const DASHBOARD_CARD_KEYS = ['revenue', 'margin', 'impressions', 'clicks', 'ctr', 'tq'] as const;

/** Dashboard summary cards, in order, under the figures' full names. */
export const DASHBOARD_CARDS: readonly MetricColumn[] = columns(DASHBOARD_CARD_KEYS, { default: 'name' });
