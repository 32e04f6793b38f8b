// The metrics registry: every report column's label, kind, decimals and — for a ratio or a
// difference — its formula over additive sums. The server derives every figure from these
// formulas (in JS, and in SQL when it sorts by one); web, terminal and CSV only format.
import { type CurrencySymbol, EMPTY_CELL, formatDateDMY, formatInt, formatMoney, formatNumber, formatPercent, isFiniteNumber } from './format.js';
import { isValidYmd } from './presets.js';
import { JSON_DECIMALS, roundTo } from './rounding.js';

export type MetricKind = 'text' | 'int' | 'money' | 'percent' | 'ratio';

/**
 * The additive sums of a group of zone-report rows; every ratio is computed from them, never
 * averaged. `ctr_base` sums each row's CTR base (monetized impressions when > 0, else
 * impressions: the one CTR of every screen); `tq_weighted` / `tq_weight`
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
  /** What the figure is, in the staff's words: the tooltip on every screen and `adops metrics`. */
  definition: string;
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
  date: { label: 'Date', name: 'Date', kind: 'text', decimals: 0, definition: 'Día natural en la zona horaria del informe (ADOPS_TZ).' },
  advertiser: { label: 'Advertiser', name: 'Advertiser', kind: 'text', decimals: 0, definition: 'Anunciante que compró el tráfico (la demanda).' },
  publisher: {
    label: 'Publisher',
    name: 'Publisher',
    kind: 'text',
    decimals: 0,
    definition: 'Editor dueño de la zona, al que se paga su parte del revenue.',
  },
  zone_id: {
    label: 'Zone ID',
    name: 'Zone ID',
    kind: 'text',
    decimals: 0,
    definition: 'Identificador de la zona (el espacio de anuncio del publisher).',
  },
  geo: { label: 'Geo', name: 'Geo', kind: 'text', decimals: 0, definition: 'País del tráfico según el informe de zona.' },
  source: { label: 'Source', name: 'Source', kind: 'text', decimals: 0, definition: 'Fuente del tráfico según el informe de zona.' },
  domain: { label: 'Domain', name: 'Domain', kind: 'text', decimals: 0, definition: 'Dominio (producto) al que pertenece la zona.' },
  impressions: {
    label: 'Impr.',
    name: 'Impressions',
    kind: 'int',
    decimals: 0,
    sum: 'impressions',
    definition: 'Impresiones servidas, sumadas.',
  },
  monetized_impressions: {
    label: 'M. Impr.',
    name: 'Monetized impressions',
    kind: 'int',
    decimals: 0,
    sum: 'monetized_impressions',
    definition: 'Impresiones que generaron revenue (monetizadas), sumadas.',
  },
  clicks: { label: 'Clicks', name: 'Clicks', kind: 'int', decimals: 0, sum: 'clicks', definition: 'Clics, sumados.' },
  /** The one CTR of every screen (SPEC §5): clicks over monetized impressions, or impressions where a row gives none. */
  ctr: {
    label: 'CTR%',
    name: 'CTR%',
    kind: 'percent',
    decimals: 2,
    formula: ratio('clicks', 'ctr_base', 100),
    definition: 'Clics ÷ impresiones monetizadas × 100 (las impresiones, en las filas sin impresiones monetizadas).',
  },
  cpm: {
    label: 'CPM',
    name: 'CPM',
    kind: 'money',
    decimals: 2,
    formula: ratio('revenue', 'impressions', 1000),
    definition: 'Revenue ÷ impresiones × 1.000.',
  },
  cpc: { label: 'CPC', name: 'CPC', kind: 'money', decimals: 2, formula: ratio('revenue', 'clicks'), definition: 'Revenue ÷ clics.' },
  revenue: {
    label: 'Rev',
    name: 'Revenue',
    kind: 'money',
    decimals: 2,
    sum: 'revenue',
    definition: 'Lo que pagan los anunciantes por el tráfico, sumado (en la moneda de la red).',
  },
  margin: {
    label: 'Marg.',
    name: 'Margin',
    kind: 'money',
    decimals: 2,
    sum: 'margin',
    definition: 'Lo que queda a la red: revenue − P.Revenue (lo pagado al publisher).',
  },
  /** Margin over revenue, only when revenue > 0; the Dashboard heads it 'Marg %'. */
  rs_percent: {
    label: 'RS%',
    name: 'RS%',
    kind: 'percent',
    decimals: 2,
    formula: ratio('margin', 'revenue', 100, true),
    definition: 'Margen ÷ revenue × 100, solo con revenue mayor que 0.',
  },
  /** What the publisher is paid: the network's cost of the traffic (the only name for it on every screen). */
  p_revenue: {
    label: 'P.Revenue',
    name: 'Publisher revenue',
    kind: 'money',
    decimals: 2,
    sum: 'p_revenue',
    definition: 'Lo que se paga al publisher (el coste del tráfico para la red): revenue × revenue share = revenue − margen.',
  },
  p_cpm: {
    label: 'P.CPM',
    name: 'Publisher CPM',
    kind: 'money',
    decimals: 2,
    formula: ratio('p_revenue', 'impressions', 1000),
    definition: 'P.Revenue ÷ impresiones × 1.000.',
  },
  p_cpc: {
    label: 'P.CPC',
    name: 'Publisher CPC',
    kind: 'money',
    decimals: 2,
    formula: ratio('p_revenue', 'clicks'),
    definition: 'P.Revenue ÷ clics.',
  },
  /** Impression-weighted TQ of a group (a stored row shows its own reported tq). */
  tq: {
    label: 'TQ',
    name: 'TQ Avg',
    kind: 'ratio',
    decimals: 2,
    formula: ratio('tq_weighted', 'tq_weight'),
    definition: 'Calidad del tráfico: media del TQ de las filas ponderada por sus impresiones (solo filas con TQ e impresiones mayores que 0).',
  },
} as const satisfies Record<string, MetricDef>;

export type MetricKey = keyof typeof METRICS;

/** The metrics a formula derives, in registry order. */
export const DERIVED_KEYS = (Object.keys(METRICS) as MetricKey[]).filter((k) => (METRICS[k] as MetricDef).formula) as Array<
  'ctr' | 'cpm' | 'cpc' | 'rs_percent' | 'p_cpm' | 'p_cpc' | 'tq'
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
 * values count 0), exact — rounded once where shown, like every figure. The server answers it.
 */
export function demandTotals(points: ReadonlyArray<{ revenue: number; margin: number }>): { revenue: number; margin: number } {
  let revenue = 0;
  let margin = 0;
  for (const p of points) {
    if (isFiniteNumber(p.revenue)) revenue += p.revenue;
    if (isFiniteNumber(p.margin)) margin += p.margin;
  }
  return { revenue, margin };
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

/** A numeric metric rounded to its displayed decimals (or `decimals`); null if not finite. */
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
  definition: 'Visitas marcadas como bots o spam ÷ todas las visitas × 100.',
} as const;

/** The IVT rate of a group: bot_hits / hits × 100, null when it had no hits. */
export function ivtRate(s: { hits: number; bot_hits: number }): number | null {
  const { num, den, scale } = IVT_RATE.formula;
  const d = s[den];
  if (!isFiniteNumber(d) || d <= 0 || !isFiniteNumber(s[num])) return null;
  return roundTo((s[num] / d) * scale, JSON_DECIMALS);
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
  /** What the figure is, in the staff's words: the tooltip on every screen and `adops metrics`. */
  definition: string;
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
  spend: {
    label: 'Gasto',
    name: 'Gasto en Meta',
    kind: 'money',
    decimals: 2,
    formula: psum('spend'),
    definition: 'Lo gastado en Meta, pasado a la moneda de la red con el tipo de cambio del mes (solo días con el gasto sincronizado).',
  },
  meta_clicks: {
    label: 'Clics Meta',
    name: 'Clics en Meta',
    kind: 'int',
    decimals: 0,
    formula: psum('meta_clicks'),
    definition: 'Clics que Meta cuenta en los anuncios.',
  },
  meta_impressions: {
    label: 'Impr. Meta',
    name: 'Impresiones en Meta',
    kind: 'int',
    decimals: 0,
    formula: psum('meta_impressions'),
    definition: 'Impresiones que Meta cuenta en los anuncios.',
  },
  visits: {
    label: 'Visitas',
    name: 'Visitas (humanas)',
    kind: 'int',
    decimals: 0,
    formula: psum('visits'),
    definition: 'Visitas humanas que llegaron desde los anuncios (sin bots ni spam).',
  },
  revenue: {
    label: 'Revenue est.',
    name: 'Revenue estimado',
    kind: 'money',
    decimals: 2,
    formula: psum('revenue'),
    definition:
      'Σ visitas × revenue por visita de su zona ese día (revenue del informe de zona ÷ visitas humanas); un día sin informe final toma el de los 7 días anteriores y es una estimación.',
  },
  profit: {
    label: 'Beneficio',
    name: 'Beneficio (revenue − gasto)',
    kind: 'money',
    decimals: 2,
    formula: { op: 'diff', a: 'revenue', b: 'spend' },
    definition: 'Revenue estimado − gasto en Meta.',
  },
  roi: {
    label: 'ROI %',
    name: 'ROI (beneficio / gasto)',
    kind: 'percent',
    decimals: 2,
    formula: pratio('profit', 'spend', 100),
    definition: 'Beneficio ÷ gasto × 100.',
  },
  roas: {
    label: 'ROAS',
    name: 'ROAS (revenue / gasto)',
    kind: 'ratio',
    decimals: 2,
    formula: pratio('revenue', 'spend'),
    definition: 'Revenue estimado ÷ gasto.',
  },
  rpv: {
    label: 'RPV',
    name: 'Revenue por visita',
    kind: 'money',
    decimals: 4,
    formula: pratio('revenue', 'visits'),
    definition: 'Revenue estimado ÷ visitas.',
  },
  cpc: {
    label: 'CPC',
    name: 'Coste por clic en Meta',
    kind: 'money',
    decimals: 4,
    formula: pratio('spend', 'meta_clicks'),
    definition: 'Gasto ÷ clics en Meta.',
  },
  break_even_cpc: {
    label: 'CPC equilibrio',
    name: 'CPC de equilibrio (revenue / clics Meta)',
    kind: 'money',
    decimals: 4,
    formula: pratio('revenue', 'meta_clicks'),
    definition: 'El CPC al que los mismos clics habrían costado justo lo que ganaron: revenue estimado ÷ clics en Meta.',
  },
  tq: {
    label: 'TQ',
    name: 'TQ (ponderado por visitas)',
    kind: 'ratio',
    decimals: 2,
    formula: pratio('tq_weighted', 'tq_weight'),
    definition: 'TQ de las zonas visitadas, ponderado por las visitas a cada una.',
  },
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
 * A profit figure in the network's currency (an ISO code): money as every amount (formatMoney:
 * $ or € leading, any other code after the number); the other kinds as formatProfitMetric.
 * Web and terminal both show Rentabilidad's figures through this.
 */
export function formatProfitFigure(key: ProfitMetricKey, value: number | null | undefined, currencyCode: string): string {
  return formatProfitMetric(key, value, currencyCode);
}

/* ------------------------------------------------------------------ the glossary */

/** One figure as the glossary lists it: where it shows, its header, full name, definition, kind and decimals. */
export interface GlossaryEntry {
  area: 'Informes' | 'Rentabilidad' | 'Referrers';
  key: string;
  label: string;
  name: string;
  definition: string;
  kind: MetricKind;
  decimals: number;
}

/**
 * Every figure's definition, read from the registries (the revenue reports', Rentabilidad's and the
 * IVT rate): what `adops metrics` prints and the screens' tooltips say, so no face words it twice.
 */
export function metricGlossary(): GlossaryEntry[] {
  const reports = (Object.keys(METRICS) as MetricKey[])
    .filter((key) => METRICS[key].kind !== 'text')
    .map((key): GlossaryEntry => {
      const m: MetricDef = METRICS[key];
      return { area: 'Informes', key, label: m.label, name: m.name, definition: m.definition, kind: m.kind, decimals: m.decimals };
    });
  const profit = PROFIT_METRIC_KEYS.map((key): GlossaryEntry => {
    const m: ProfitMetricDef = PROFIT_METRICS[key];
    return { area: 'Rentabilidad', key, label: m.label, name: m.name, definition: m.definition, kind: m.kind, decimals: m.decimals };
  });
  const ivt: GlossaryEntry = {
    area: 'Referrers',
    key: 'ivt_rate',
    label: IVT_RATE.label,
    name: IVT_RATE.name,
    definition: IVT_RATE.definition,
    kind: IVT_RATE.kind,
    decimals: IVT_RATE.decimals,
  };
  return [...reports, ...profit, ivt];
}

/** A metric's tooltip: its full name and definition ('CTR%: Clics ÷ …'). */
export function metricHelp(key: MetricKey): string {
  const m: MetricDef = METRICS[key];
  return `${m.name}: ${m.definition}`;
}

/** A Rentabilidad figure's tooltip. */
export function profitMetricHelp(key: ProfitMetricKey): string {
  const m: ProfitMetricDef = PROFIT_METRICS[key];
  return `${m.name}: ${m.definition}`;
}
