// The metrics registry: each report column's label, kind and decimals, and how it is shown.
// Tables, cards, CSV and the terminal all read it; per-screen column lists use SPEC's headers.
import { type CurrencySymbol, EMPTY_CELL, formatInt, formatMoney, formatNumber, formatPercent, isFiniteNumber } from './format.js';

export type MetricKind = 'text' | 'int' | 'money' | 'percent' | 'ratio';

export interface MetricDef {
  /** The short column header (Dashboard / Api Explorer wording). */
  label: string;
  /** The full name, for cards, legends and help. */
  name: string;
  kind: MetricKind;
  /** Decimals shown; 0 for text and counts. */
  decimals: number;
}

export const METRICS = {
  date: { label: 'Date', name: 'Date', kind: 'text', decimals: 0 },
  advertiser: { label: 'Advertiser', name: 'Advertiser', kind: 'text', decimals: 0 },
  publisher: { label: 'Publisher', name: 'Publisher', kind: 'text', decimals: 0 },
  zone_id: { label: 'Zone ID', name: 'Zone ID', kind: 'text', decimals: 0 },
  geo: { label: 'Geo', name: 'Geo', kind: 'text', decimals: 0 },
  source: { label: 'Source', name: 'Source', kind: 'text', decimals: 0 },
  impressions: { label: 'Impr.', name: 'Impressions', kind: 'int', decimals: 0 },
  monetized_impressions: { label: 'M. Impr.', name: 'Monetized impressions', kind: 'int', decimals: 0 },
  clicks: { label: 'Clicks', name: 'Clicks', kind: 'int', decimals: 0 },
  ctr: { label: 'CTR%', name: 'CTR%', kind: 'percent', decimals: 2 },
  cpm: { label: 'CPM', name: 'CPM', kind: 'money', decimals: 2 },
  cpc: { label: 'CPC', name: 'CPC', kind: 'money', decimals: 2 },
  revenue: { label: 'Rev', name: 'Revenue', kind: 'money', decimals: 2 },
  cost: { label: 'Cost', name: 'Cost', kind: 'money', decimals: 2 },
  margin: { label: 'Marg.', name: 'Margin', kind: 'money', decimals: 2 },
  margin_percent: { label: 'Marg %', name: 'Margin %', kind: 'percent', decimals: 2 },
  rs_percent: { label: 'RS%', name: 'RS%', kind: 'percent', decimals: 2 },
  p_revenue: { label: 'P.Revenue', name: 'Publisher revenue', kind: 'money', decimals: 2 },
  p_cpm: { label: 'P.CPM', name: 'Publisher CPM', kind: 'money', decimals: 2 },
  p_cpc: { label: 'P.CPC', name: 'Publisher CPC', kind: 'money', decimals: 2 },
  tq: { label: 'TQ', name: 'TQ Avg', kind: 'ratio', decimals: 2 },
} as const satisfies Record<string, MetricDef>;

export type MetricKey = keyof typeof METRICS;

export function isMetricKey(value: unknown): value is MetricKey {
  return typeof value === 'string' && Object.hasOwn(METRICS, value);
}

export interface FormatMetricOptions {
  /** Overrides the registry's decimals (the Api Explorer shows CPC totals with 4). */
  decimals?: number;
}

/** A metric value as the screens show it; '-' when missing or non-finite. */
export function formatMetric(
  key: MetricKey,
  value: unknown,
  currency: CurrencySymbol = '$',
  options: FormatMetricOptions = {},
): string {
  const def: MetricDef = METRICS[key];
  const decimals = options.decimals ?? def.decimals;
  if (def.kind === 'text') return value == null || value === '' ? EMPTY_CELL : String(value);
  const n = typeof value === 'number' ? value : null;
  switch (def.kind) {
    case 'int':
      return formatInt(n);
    case 'money':
      return formatMoney(n, currency, decimals);
    case 'percent':
      return formatPercent(n, decimals);
    case 'ratio':
      return formatNumber(n, decimals);
  }
}

/** A numeric metric rounded to its displayed decimals (for CSV and JSON output); null if not finite. */
export function roundMetric(key: MetricKey, value: unknown, options: FormatMetricOptions = {}): number | null {
  if (!isFiniteNumber(value)) return null;
  const factor = 10 ** (options.decimals ?? METRICS[key].decimals);
  const rounded = Math.round((value + Number.EPSILON * Math.sign(value)) * factor) / factor;
  return rounded === 0 ? 0 : rounded;
}

export interface MetricColumn {
  key: MetricKey;
  header: string;
}

function columns(keys: readonly MetricKey[], headers: Partial<Record<MetricKey, string>> = {}): MetricColumn[] {
  return keys.map((key) => ({ key, header: headers[key] ?? METRICS[key].label }));
}

/** Dashboard 'Analytics' table and resumen_diario.csv. */
export const DASHBOARD_COLUMNS = columns([
  'date', 'impressions', 'monetized_impressions', 'clicks', 'ctr', 'cpm', 'cpc',
  'revenue', 'cost', 'margin', 'margin_percent', 'tq',
]);

/** The Dashboard table's sortable headers (SPEC: M. Impr. and Marg % do not sort). */
export const DASHBOARD_SORT_KEYS: readonly MetricKey[] = [
  'date', 'impressions', 'clicks', 'ctr', 'cpm', 'cpc', 'revenue', 'cost', 'margin', 'tq',
];

/** Ad Report 'Resumen diario por zona' and adreport_zonas.csv (19 columns, headers as SPEC writes them). */
export const AD_REPORT_COLUMNS = columns(
  [
    'date', 'advertiser', 'publisher', 'zone_id', 'geo', 'source', 'impressions', 'monetized_impressions',
    'clicks', 'ctr', 'p_cpm', 'p_cpc', 'p_revenue', 'tq', 'revenue', 'margin', 'cpm', 'cpc', 'rs_percent',
  ],
  {
    date: 'date', advertiser: 'advertiser', publisher: 'publisher', zone_id: 'zone_id', geo: 'geo',
    source: 'source', impressions: 'impressions', monetized_impressions: 'monetized_impressions',
    clicks: 'clicks', revenue: 'revenue', margin: 'margin',
  },
);

/** Api Explorer table and ad_report.csv. */
export const API_EXPLORER_COLUMNS = columns(
  [
    'date', 'advertiser', 'zone_id', 'publisher', 'impressions', 'clicks', 'ctr', 'cpm', 'cpc',
    'revenue', 'margin', 'rs_percent', 'p_cpm', 'p_cpc', 'tq',
  ],
  { revenue: 'Revenue', margin: 'Margin' },
);

/** Dashboard summary cards, in order. */
export const DASHBOARD_CARDS: readonly MetricColumn[] = columns(['revenue', 'margin', 'impressions', 'clicks', 'ctr', 'tq'], {
  revenue: 'Revenue',
  margin: 'Margin',
  impressions: 'Impressions',
  tq: 'TQ Avg',
});
