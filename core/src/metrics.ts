// The metrics registry: every report column's label, kind, decimals and — for a ratio or a
// difference — its formula over additive sums. The server derives every figure from these
// formulas (in JS, and in SQL when it sorts by one); web, terminal and CSV only format.
import { type CurrencySymbol, EMPTY_CELL, formatDateDMY, formatInt, formatMoney, formatNumber, formatPercent, isFiniteNumber } from './format.js';
import { isValidYmd } from './presets.js';

export type MetricKind = 'text' | 'int' | 'money' | 'percent' | 'ratio';

/**
 * The additive sums of a group of zone-report rows; every ratio is computed from them, never
 * averaged. `ctr_base` sums each row's CTR base (monetized impressions when > 0, else
 * impressions; the Dashboard's reports take impressions, SPEC §5); `tq_weighted` / `tq_weight`
 * sum tq × impressions and impressions over rows with tq > 0 and impressions > 0.
 */
export const SUM_KEYS = [
  'rows',
  'impressions',
  'monetized_impressions',
  'ctr_base',
  'clicks',
  'revenue',
  'p_revenue',
  'margin',
  'tq_weighted',
  'tq_weight',
] as const;
export type SumKey = (typeof SUM_KEYS)[number];
export type Sums = Record<SumKey, number>;

export const EMPTY_SUMS: Readonly<Sums> = Object.freeze(Object.fromEntries(SUM_KEYS.map((k) => [k, 0])) as Sums);

/** a + b, key by key (a new object). */
export function addSums(a: Sums, b: Sums): Sums {
  const out = { ...a };
  for (const k of SUM_KEYS) out[k] += b[k];
  return out;
}

/**
 * A derived metric's formula over sums: a ratio `num / den × scale` (null when the base is 0,
 * or not above 0 with `positiveBase`), or a difference `a − b`. Engines translate the same
 * formula to SQL when a table is sorted by it.
 */
export type Formula = { op: 'ratio'; num: SumKey; den: SumKey; scale: number; positiveBase?: boolean } | { op: 'diff'; a: SumKey; b: SumKey };

export interface MetricDef {
  /** The short column header (Dashboard / Api Explorer wording). */
  label: string;
  /** The full name, for cards, legends and help. */
  name: string;
  kind: MetricKind;
  /** Decimals shown; 0 for text and counts. */
  decimals: number;
  /** The sum a summed metric reads. */
  sum?: SumKey;
  /** How a derived metric is computed from sums. */
  formula?: Formula;
}

const ratio = (num: SumKey, den: SumKey, scale = 1, positiveBase = false): Formula => ({ op: 'ratio', num, den, scale, positiveBase });

export const METRICS = {
  date: { label: 'Date', name: 'Date', kind: 'text', decimals: 0 },
  advertiser: { label: 'Advertiser', name: 'Advertiser', kind: 'text', decimals: 0 },
  publisher: { label: 'Publisher', name: 'Publisher', kind: 'text', decimals: 0 },
  zone_id: { label: 'Zone ID', name: 'Zone ID', kind: 'text', decimals: 0 },
  geo: { label: 'Geo', name: 'Geo', kind: 'text', decimals: 0 },
  source: { label: 'Source', name: 'Source', kind: 'text', decimals: 0 },
  domain: { label: 'Domain', name: 'Domain', kind: 'text', decimals: 0 },
  impressions: { label: 'Impr.', name: 'Impressions', kind: 'int', decimals: 0, sum: 'impressions' },
  monetized_impressions: { label: 'M. Impr.', name: 'Monetized impressions', kind: 'int', decimals: 0, sum: 'monetized_impressions' },
  clicks: { label: 'Clicks', name: 'Clicks', kind: 'int', decimals: 0, sum: 'clicks' },
  /** Clicks over the CTR base (SPEC §5: monetized impressions, or impressions; the Dashboard's: impressions). */
  ctr: { label: 'CTR%', name: 'CTR%', kind: 'percent', decimals: 2, formula: ratio('clicks', 'ctr_base', 100) },
  cpm: { label: 'CPM', name: 'CPM', kind: 'money', decimals: 2, formula: ratio('revenue', 'impressions', 1000) },
  cpc: { label: 'CPC', name: 'CPC', kind: 'money', decimals: 2, formula: ratio('revenue', 'clicks') },
  revenue: { label: 'Rev', name: 'Revenue', kind: 'money', decimals: 2, sum: 'revenue' },
  cost: { label: 'Cost', name: 'Cost', kind: 'money', decimals: 2, formula: { op: 'diff', a: 'revenue', b: 'margin' } },
  margin: { label: 'Marg.', name: 'Margin', kind: 'money', decimals: 2, sum: 'margin' },
  /** Margin over revenue, only when revenue > 0; the Dashboard heads it 'Marg %'. */
  rs_percent: { label: 'RS%', name: 'RS%', kind: 'percent', decimals: 2, formula: ratio('margin', 'revenue', 100, true) },
  p_revenue: { label: 'P.Revenue', name: 'Publisher revenue', kind: 'money', decimals: 2, sum: 'p_revenue' },
  p_cpm: { label: 'P.CPM', name: 'Publisher CPM', kind: 'money', decimals: 2, formula: ratio('p_revenue', 'impressions', 1000) },
  p_cpc: { label: 'P.CPC', name: 'Publisher CPC', kind: 'money', decimals: 2, formula: ratio('p_revenue', 'clicks') },
  /** Impression-weighted TQ of a group (a stored row shows its own reported tq). */
  tq: { label: 'TQ', name: 'TQ Avg', kind: 'ratio', decimals: 2, formula: ratio('tq_weighted', 'tq_weight') },
} as const satisfies Record<string, MetricDef>;

export type MetricKey = keyof typeof METRICS;

/** The metrics a formula derives, in registry order. */
export const DERIVED_KEYS = (Object.keys(METRICS) as MetricKey[]).filter((k) => (METRICS[k] as MetricDef).formula) as Array<
  'ctr' | 'cpm' | 'cpc' | 'cost' | 'rs_percent' | 'p_cpm' | 'p_cpc' | 'tq'
>;
export type DerivedKey = (typeof DERIVED_KEYS)[number];
export type DerivedMetrics = Record<DerivedKey, number | null>;

export function isMetricKey(value: unknown): value is MetricKey {
  return typeof value === 'string' && Object.hasOwn(METRICS, value);
}

/** One formula on one set of sums; null when its base is 0 (or not positive) or a value is not finite. */
export function evaluate(formula: Formula, s: Readonly<Record<SumKey, number | null | undefined>>): number | null {
  if (formula.op === 'diff') {
    const a = s[formula.a];
    const b = s[formula.b];
    return isFiniteNumber(a) && isFiniteNumber(b) ? a - b : null;
  }
  const num = s[formula.num];
  const den = s[formula.den];
  if (!isFiniteNumber(num) || !isFiniteNumber(den) || den === 0 || (formula.positiveBase && den < 0)) return null;
  const value = (num / den) * formula.scale;
  return Number.isFinite(value) ? value : null;
}

/** Each derived metric's formula as a function of sums (closures over fixed keys: fast per row). */
const DERIVERS = DERIVED_KEYS.map((key): [DerivedKey, (s: Readonly<Sums>) => number | null] => {
  const f = (METRICS[key] as MetricDef).formula!;
  if (f.op === 'diff') {
    const { a, b } = f;
    return [key, (s) => (isFiniteNumber(s[a]) && isFiniteNumber(s[b]) ? s[a] - s[b] : null)];
  }
  const { num, den, scale, positiveBase } = f;
  return [
    key,
    (s) => {
      const n = s[num];
      const d = s[den];
      if (!isFiniteNumber(n) || !isFiniteNumber(d) || d === 0 || (positiveBase && d < 0)) return null;
      const value = (n / d) * scale;
      return Number.isFinite(value) ? value : null;
    },
  ];
});

/**
 * The change of a figure against its base, in percent ((now − base) / |base| × 100); null when
 * either is missing or not finite, or the base is 0 (no change can be told).
 */
export function percentChange(now: number | null | undefined, base: number | null | undefined): number | null {
  if (!isFiniteNumber(now) || !isFiniteNumber(base) || base === 0) return null;
  const value = ((now - base) / Math.abs(base)) * 100;
  return Number.isFinite(value) ? value : null;
}

/**
 * An advertiser's Demand card: its revenue and margin summed over the range's points (missing
 * values count 0), each rounded to the cent once. The server answers it; screens only show it.
 */
export function demandTotals(points: ReadonlyArray<{ revenue: number; margin: number }>): { revenue: number; margin: number } {
  let revenue = 0;
  let margin = 0;
  for (const p of points) {
    if (isFiniteNumber(p.revenue)) revenue += p.revenue;
    if (isFiniteNumber(p.margin)) margin += p.margin;
  }
  return { revenue: roundTo(revenue, 2) ?? 0, margin: roundTo(margin, 2) ?? 0 };
}

/** Every derived metric of a set of sums (the same results as `evaluate` on each formula). */
export function deriveMetrics(s: Readonly<Sums>): DerivedMetrics {
  const out = {} as DerivedMetrics;
  for (const [key, derive] of DERIVERS) out[key] = derive(s);
  return out;
}

/** The summed figures a group shows, with its derived metrics (the 'Totales' row, summary rows). */
export interface GroupMetrics extends DerivedMetrics {
  impressions: number;
  monetized_impressions: number;
  clicks: number;
  revenue: number;
  p_revenue: number;
  margin: number;
}

/** A group's figures from its sums. Built as one literal: wide spreads are slow in V8 at many rows. */
export function groupMetrics(s: Readonly<Sums>): GroupMetrics {
  const d = deriveMetrics(s);
  return {
    impressions: s.impressions,
    monetized_impressions: s.monetized_impressions,
    clicks: s.clicks,
    revenue: s.revenue,
    p_revenue: s.p_revenue,
    margin: s.margin,
    tq: d.tq,
    ctr: d.ctr,
    cpm: d.cpm,
    cpc: d.cpc,
    cost: d.cost,
    rs_percent: d.rs_percent,
    p_cpm: d.p_cpm,
    p_cpc: d.p_cpc,
  };
}

/** The stored measures of one zone-report row. */
export interface RowMeasures {
  impressions: number;
  monetized_impressions: number | null;
  clicks: number;
  revenue: number;
  p_revenue: number;
  margin: number;
  tq: number | null;
}

/** CTR base of one row: its monetized impressions when > 0, else its impressions (SPEC §5). */
export function rowCtrBase(r: Pick<RowMeasures, 'impressions' | 'monetized_impressions'>): number {
  return r.monetized_impressions !== null && r.monetized_impressions > 0 ? r.monetized_impressions : r.impressions;
}

/** A single row as a group of one (its tq weight only when tq > 0 and impressions > 0). */
export function rowSums(r: RowMeasures): Sums {
  const weighted = r.tq !== null && r.tq > 0 && r.impressions > 0;
  return {
    rows: 1,
    impressions: r.impressions,
    monetized_impressions: r.monetized_impressions ?? 0,
    ctr_base: rowCtrBase(r),
    clicks: r.clicks,
    revenue: r.revenue,
    p_revenue: r.p_revenue,
    margin: r.margin,
    tq_weighted: weighted ? r.tq! * r.impressions : 0,
    tq_weight: weighted ? r.impressions : 0,
  };
}

/** The Dashboard's sums: its CTR is clicks over impressions (SPEC §5). */
export function impressionBasedCtr(s: Readonly<Sums>): Sums {
  return { ...s, ctr_base: s.impressions };
}

export interface FormatMetricOptions {
  /** Overrides the registry's decimals (the Api Explorer shows CPC totals with 4). */
  decimals?: number;
}

/** A metric value as the screens show it ('date' as dd/MM/yyyy); '-' when missing or non-finite. */
export function formatMetric(key: MetricKey, value: unknown, currency: CurrencySymbol = '$', options: FormatMetricOptions = {}): string {
  const def: MetricDef = METRICS[key];
  const decimals = options.decimals ?? def.decimals;
  if (key === 'date' && isValidYmd(value)) return formatDateDMY(value);
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

/** A number rounded half away from zero to `decimals` (no float noise, no -0); null if not finite. */
export function roundTo(value: unknown, decimals: number): number | null {
  if (!isFiniteNumber(value)) return null;
  const factor = 10 ** decimals;
  const rounded = Math.round((Math.abs(value) + Number.EPSILON * Math.abs(value)) * factor) / factor;
  return rounded === 0 ? 0 : Math.sign(value) * rounded;
}

/** A numeric metric rounded to its displayed decimals (for CSV and JSON output); null if not finite. */
/** Decimals a figure keeps in machine output (JSON): money to the cent, ratios and percentages to 4; counts and text as they are. */
export const JSON_DECIMALS: Readonly<Record<MetricKind, number | null>> = { text: null, int: null, money: 2, percent: 4, ratio: 4 };

/**
 * A JSON value with every registry figure rounded for machine output, at any depth (rows,
 * totals, cards): `10.219560000000001` → 10.22 as money, a CTR of 1.0639223706540186 → 1.0639.
 */
export function jsonFigures<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => jsonFigures(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const decimals = isMetricKey(key) ? JSON_DECIMALS[METRICS[key].kind] : null;
    out[key] = typeof v === 'number' && decimals !== null ? roundTo(v, decimals) : jsonFigures(v);
  }
  return out as T;
}

export function roundMetric(key: MetricKey, value: unknown, options: FormatMetricOptions = {}): number | null {
  return roundTo(value, options.decimals ?? METRICS[key].decimals);
}

export interface MetricColumn {
  key: MetricKey;
  header: string;
}

function columns(keys: readonly MetricKey[], headers: Partial<Record<MetricKey, string>> = {}): MetricColumn[] {
  return keys.map((key) => ({ key, header: headers[key] ?? METRICS[key].label }));
}

/** Dashboard 'Analytics' table and resumen_diario.csv ('Marg %' is RS%: margin over revenue). */
export const DASHBOARD_COLUMNS = columns(
  ['date', 'impressions', 'monetized_impressions', 'clicks', 'ctr', 'cpm', 'cpc', 'revenue', 'cost', 'margin', 'rs_percent', 'tq'],
  { rs_percent: 'Marg %' },
);

/** The Dashboard table's sortable headers (SPEC: M. Impr. and Marg % do not sort). */
export const DASHBOARD_SORT_KEYS = ['date', 'impressions', 'clicks', 'ctr', 'cpm', 'cpc', 'revenue', 'cost', 'margin', 'tq'] as const;

/** The Dashboard's rank-coloured money columns (SPEC: revenue, cost and margin). */
export const DASHBOARD_RANKED = ['revenue', 'cost', 'margin'] as const;

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

/* ------------------------------------------------------------------ referrer traffic */

/**
 * The IVT rate (invalid traffic): events flagged as bots or spam over every event of a zone or
 * publisher, in percent (2 decimals); null without events. The one definition: the server's
 * IVT table (its rows, totals and the SQL that sorts by it) and every face read it from here.
 */
export const IVT_RATE = {
  label: 'IVT %',
  name: 'Tasa de tráfico inválido (IVT)',
  kind: 'percent',
  decimals: 2,
  formula: { num: 'bot_hits', den: 'hits', scale: 100 },
} as const;

/** The IVT rate of a group: bot_hits / hits × 100, null when it had no hits. */
export function ivtRate(s: { hits: number; bot_hits: number }): number | null {
  const { num, den, scale } = IVT_RATE.formula;
  const d = s[den];
  if (!isFiniteNumber(d) || d <= 0 || !isFiniteNumber(s[num])) return null;
  return roundTo((s[num] / d) * scale, JSON_DECIMALS.percent ?? 4);
}

/** An IVT rate as the screens show it ('12,50%'; '-' when null). */
export function formatIvtRate(value: number | null): string {
  return formatPercent(value, IVT_RATE.decimals);
}

/* ------------------------------------------------------------------ media buying: profit */

/**
 * The additive sums of a profit group (a campaign, ad set, ad, keyword or day): Meta's spend
 * (converted to the network's currency; null when a month's exchange rate is missing), clicks and
 * impressions, the human visits attributed to it, the revenue they earned (Σ zone RPV × visits)
 * and the visit-weighted zone TQ. Every ratio below is computed from them, never averaged.
 */
export const PROFIT_SUM_KEYS = ['spend', 'meta_clicks', 'meta_impressions', 'visits', 'revenue', 'tq_weighted', 'tq_weight'] as const;
export type ProfitSumKey = (typeof PROFIT_SUM_KEYS)[number];
export type ProfitSums = Record<ProfitSumKey, number | null>;

/** A profit formula: a sum, the difference of two, or a ratio (whose numerator may be the profit), null when its base is 0 or not positive. */
export type ProfitFormula =
  | { op: 'sum'; key: ProfitSumKey }
  | { op: 'diff'; a: ProfitSumKey; b: ProfitSumKey }
  | { op: 'ratio'; num: ProfitSumKey | 'profit'; den: ProfitSumKey; scale: number };

export interface ProfitMetricDef {
  label: string;
  name: string;
  kind: Exclude<MetricKind, 'text'>;
  decimals: number;
  formula: ProfitFormula;
}

const psum = (key: ProfitSumKey): ProfitFormula => ({ op: 'sum', key });
const pratio = (num: ProfitSumKey | 'profit', den: ProfitSumKey, scale = 1): ProfitFormula => ({ op: 'ratio', num, den, scale });

/**
 * The Rentabilidad columns, defined once: the server derives every figure with these formulas,
 * web, terminal and CSV only format them. Revenue is an estimate (zone RPV × visits); break-even
 * CPC is the CPC at which the same clicks would have cost exactly what they earned.
 */
export const PROFIT_METRICS = {
  spend: { label: 'Gasto', name: 'Gasto en Meta', kind: 'money', decimals: 2, formula: psum('spend') },
  meta_clicks: { label: 'Clics Meta', name: 'Clics en Meta', kind: 'int', decimals: 0, formula: psum('meta_clicks') },
  meta_impressions: { label: 'Impr. Meta', name: 'Impresiones en Meta', kind: 'int', decimals: 0, formula: psum('meta_impressions') },
  visits: { label: 'Visitas', name: 'Visitas (humanas)', kind: 'int', decimals: 0, formula: psum('visits') },
  revenue: { label: 'Revenue est.', name: 'Revenue estimado', kind: 'money', decimals: 2, formula: psum('revenue') },
  profit: { label: 'Beneficio', name: 'Beneficio (revenue − gasto)', kind: 'money', decimals: 2, formula: { op: 'diff', a: 'revenue', b: 'spend' } },
  roi: { label: 'ROI %', name: 'ROI (beneficio / gasto)', kind: 'percent', decimals: 2, formula: pratio('profit', 'spend', 100) },
  roas: { label: 'ROAS', name: 'ROAS (revenue / gasto)', kind: 'ratio', decimals: 2, formula: pratio('revenue', 'spend') },
  rpv: { label: 'RPV', name: 'Revenue por visita', kind: 'money', decimals: 4, formula: pratio('revenue', 'visits') },
  cpc: { label: 'CPC', name: 'Coste por clic en Meta', kind: 'money', decimals: 4, formula: pratio('spend', 'meta_clicks') },
  break_even_cpc: {
    label: 'CPC equilibrio',
    name: 'CPC de equilibrio (revenue / clics Meta)',
    kind: 'money',
    decimals: 4,
    formula: pratio('revenue', 'meta_clicks'),
  },
  tq: { label: 'TQ', name: 'TQ (ponderado por visitas)', kind: 'ratio', decimals: 2, formula: pratio('tq_weighted', 'tq_weight') },
} as const satisfies Record<string, ProfitMetricDef>;

export type ProfitMetricKey = keyof typeof PROFIT_METRICS;
export const PROFIT_METRIC_KEYS = Object.keys(PROFIT_METRICS) as ProfitMetricKey[];
export type ProfitFigures = Record<ProfitMetricKey, number | null>;

/** One profit formula on a group's sums (null when a value is missing or a base is 0 or negative). */
export function evaluateProfit(formula: ProfitFormula, s: Readonly<ProfitSums>): number | null {
  const value = (k: ProfitSumKey | 'profit'): number | null => {
    if (k === 'profit') return evaluateProfit(PROFIT_METRICS.profit.formula, s);
    const v = s[k];
    return isFiniteNumber(v) ? v : null;
  };
  if (formula.op === 'sum') return value(formula.key);
  if (formula.op === 'diff') {
    const a = value(formula.a);
    const b = value(formula.b);
    return a === null || b === null ? null : a - b;
  }
  const num = value(formula.num);
  const den = value(formula.den);
  if (num === null || den === null || den <= 0) return null;
  const out = (num / den) * formula.scale;
  return Number.isFinite(out) ? out : null;
}

/** Every profit figure of a group. */
export function profitFigures(s: Readonly<ProfitSums>): ProfitFigures {
  const out = {} as ProfitFigures;
  for (const key of PROFIT_METRIC_KEYS) out[key] = evaluateProfit(PROFIT_METRICS[key].formula, s);
  return out;
}

/** A profit figure as the screens show it; '-' when missing. */
export function formatProfitMetric(key: ProfitMetricKey, value: number | null | undefined, currency: CurrencySymbol = '$'): string {
  const def: ProfitMetricDef = PROFIT_METRICS[key];
  const n = isFiniteNumber(value) ? value : null;
  switch (def.kind) {
    case 'int':
      return formatInt(n === null ? null : Math.round(n));
    case 'money':
      return formatMoney(n, currency, def.decimals);
    case 'percent':
      return formatPercent(n, def.decimals);
    case 'ratio':
      return formatNumber(n, def.decimals);
  }
}

/**
 * A profit figure in the network's currency (an ISO code): money with $ or € as everywhere
 * else, any other code after the number; the other kinds as formatProfitMetric. Web and
 * terminal both show Rentabilidad's figures through this.
 */
export function formatProfitFigure(key: ProfitMetricKey, value: number | null | undefined, currencyCode: string): string {
  const def: ProfitMetricDef = PROFIT_METRICS[key];
  if (def.kind !== 'money' || currencyCode === 'USD') return formatProfitMetric(key, value, '$');
  if (currencyCode === 'EUR') return formatProfitMetric(key, value, '€');
  const text = formatNumber(isFiniteNumber(value) ? value : null, def.decimals);
  return isFiniteNumber(value) ? `${text} ${currencyCode}` : text;
}
