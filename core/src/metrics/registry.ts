// The revenue reports' metrics registry: every report column's label, kind, decimals and — for a
// ratio or a difference — its formula over additive sums. The server derives every figure from these
// formulas (in JS, and in SQL when it sorts by one); web, terminal and CSV only format.
import { type CurrencySymbol, EMPTY_CELL, formatDateDMY, formatInt, formatMoney, formatNumber, formatPercent, isFiniteNumber } from '../format.js';
import { isValidYmd } from '../presets.js';
import { roundTo } from '../rounding.js';

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

/** The metrics a formula derives: read from the registry, so a new derived metric is one entry, not one more list. */
export type DerivedKey = { [K in MetricKey]: (typeof METRICS)[K] extends { formula: Formula } ? K : never }[MetricKey];

/** The metrics a formula derives, in registry order. */
export const DERIVED_KEYS = (Object.keys(METRICS) as MetricKey[]).filter((k) => (METRICS[k] as MetricDef).formula) as DerivedKey[];
export type DerivedMetrics = Record<DerivedKey, number | null>;

export function isMetricKey(value: unknown): value is MetricKey {
  return typeof value === 'string' && Object.hasOwn(METRICS, value);
}

/**
 * Every ratio of every registry (reports, Rentabilidad, IVT): num / den × scale; null when a value
 * is not finite, the base is 0, or — with `positiveBase` — not above 0.
 */
export function ratioValue(num: unknown, den: unknown, scale: number, positiveBase = false): number | null {
  if (!isFiniteNumber(num) || !isFiniteNumber(den) || den === 0 || (positiveBase && den < 0)) return null;
  const value = (num / den) * scale;
  return Number.isFinite(value) ? value : null;
}

/** One formula on one set of sums; null when its base is 0 (or not positive) or a value is not finite. */
export function evaluate(formula: Formula, s: Readonly<Record<SumKey, number | null | undefined>>): number | null {
  if (formula.op === 'diff') {
    const a = s[formula.a];
    const b = s[formula.b];
    return isFiniteNumber(a) && isFiniteNumber(b) ? a - b : null;
  }
  return ratioValue(s[formula.num], s[formula.den], formula.scale, formula.positiveBase);
}

/** Each derived metric's formula as a function of sums (closures over fixed keys: fast per row). */
const DERIVERS = DERIVED_KEYS.map((key): [DerivedKey, (s: Readonly<Sums>) => number | null] => {
  const f = (METRICS[key] as MetricDef).formula!;
  if (f.op === 'diff') {
    const { a, b } = f;
    return [key, (s) => (isFiniteNumber(s[a]) && isFiniteNumber(s[b]) ? s[a] - s[b] : null)];
  }
  const { num, den, scale, positiveBase } = f;
  return [key, (s) => ratioValue(s[num], s[den], scale, positiveBase)];
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

/**
 * The CTR base rule (SPEC §5), the one place it is written: a row's monetized impressions when
 * above 0, else its impressions. rowCtrBase applies it in JS, ctrBaseSql (metrics/sql.ts) in SQL.
 */
export const CTR_BASE = { preferred: 'monetized_impressions', fallback: 'impressions' } as const;

/** The TQ weight rule: a row weighs in a group's TQ with its impressions, only when its tq and impressions are above 0. */
export const TQ_WEIGHT = { value: 'tq', weight: 'impressions' } as const;

/** CTR base of one row (CTR_BASE). */
export function rowCtrBase(r: Pick<RowMeasures, 'impressions' | 'monetized_impressions'>): number {
  const preferred = r[CTR_BASE.preferred];
  return preferred !== null && preferred > 0 ? preferred : r[CTR_BASE.fallback];
}

/** A single row as a group of one (its tq weight by TQ_WEIGHT). */
export function rowSums(r: RowMeasures): Sums {
  const value = r[TQ_WEIGHT.value];
  const weighted = value !== null && value > 0 && r[TQ_WEIGHT.weight] > 0;
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
  return formatByKind(def.kind, typeof value === 'number' ? value : null, decimals, currency);
}

/** A number as every registry's figures of that kind are shown ('-' when missing): the one switch over kinds. */
export function formatByKind(
  kind: Exclude<MetricKind, 'text'>,
  n: number | null | undefined,
  decimals: number,
  currency: CurrencySymbol = '$',
): string {
  switch (kind) {
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
