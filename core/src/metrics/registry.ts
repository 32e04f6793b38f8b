// The revenue reports' view of the one registry (entries.ts): their sums, derived metrics and the
// fast per-row evaluation of them, and the one formatter by kind. The server derives every figure
// from the registry's formulas (in JS, and in SQL when it sorts by one); web, terminal and CSV only format.
import { type CurrencySymbol, EMPTY_CELL, formatDateDMY, formatInt, formatMoney, formatNumber, formatPercent, isFiniteNumber } from '../format.js';
import { isValidYmd } from '../presets.js';
import { roundTo } from '../rounding.js';
import {
  CTR_BASE,
  type Formula,
  type MetricDef,
  type MetricKind,
  REGISTRY,
  SUM_KEYS,
  type SumKey,
  TQ_WEIGHT,
  evaluateFormula,
  ratioValue,
} from './entries.js';

export {
  CTR_BASE,
  type Formula,
  type MetricDef,
  type MetricKind,
  type SumKey,
  SUM_KEYS,
  TQ_WEIGHT,
  ratioValue,
} from './entries.js';

export type Sums = Record<SumKey, number>;

export const EMPTY_SUMS: Readonly<Sums> = Object.freeze(Object.fromEntries(SUM_KEYS.map((k) => [k, 0])) as Sums);

/** a + b, key by key (a new object). */
export function addSums(a: Sums, b: Sums): Sums {
  const out = { ...a };
  for (const k of SUM_KEYS) out[k] += b[k];
  return out;
}

/** The revenue reports' columns: the registry's `report` family (a view, for its many readers). */
export const METRICS = REGISTRY.report;

export type MetricKey = keyof typeof METRICS;

/** The metrics a formula derives: read from the registry, so a new derived metric is one entry, not one more list. */
export type DerivedKey = { [K in MetricKey]: (typeof METRICS)[K] extends { formula: Formula } ? K : never }[MetricKey];
/** The summed metrics (each reads one sum). */
export type SummedKey = { [K in MetricKey]: (typeof METRICS)[K] extends { sum: SumKey } ? K : never }[MetricKey];
/** The derived metrics a stored row carries itself (its reported TQ). */
export type StoredDerivedKey = { [K in DerivedKey]: (typeof METRICS)[K] extends { stored: true } ? K : never }[DerivedKey];
/** The derived metrics a stored row derives too (from its own measures). */
export type RowDerivedKey = Exclude<DerivedKey, StoredDerivedKey>;
/** Every figure of the reports (their non-text metrics). */
export type FigureKey = { [K in MetricKey]: (typeof METRICS)[K]['kind'] extends 'text' ? never : K }[MetricKey];

type Defs<K extends string> = Readonly<Record<K, MetricDef>>;
const keysOf = <K extends string>(defs: Defs<K>) => Object.keys(defs) as K[];

/** The metrics a formula derives, in registry order (of `defs`: the registry's by default). */
export function derivedKeysOf<K extends string>(defs: Defs<K>): K[] {
  return keysOf(defs).filter((k) => defs[k].formula);
}

/** The summed metrics, in the order of their sums (SUM_KEYS). */
export function summedKeysOf<K extends string>(defs: Defs<K>): K[] {
  const at = (k: K) => SUM_KEYS.indexOf(defs[k].sum!);
  return keysOf(defs)
    .filter((k) => defs[k].sum !== undefined)
    .sort((a, b) => at(a) - at(b));
}

/** The derived metrics a stored row derives too: every derived one but those a row stores. */
export function rowDerivedKeysOf<K extends string>(defs: Defs<K>): K[] {
  return derivedKeysOf(defs).filter((k) => !defs[k].stored);
}

/**
 * Every figure of a group in the order a group lists them (Totales, summary and daily rows, the
 * sort keys): the summed ones, those a row stores (TQ), then the other derived ones.
 */
export function figureKeysOf<K extends string>(defs: Defs<K>): K[] {
  return [...summedKeysOf(defs), ...derivedKeysOf(defs).filter((k) => defs[k].stored), ...rowDerivedKeysOf(defs)];
}

/** The metrics a formula derives, in registry order. */
export const DERIVED_KEYS = derivedKeysOf(METRICS) as DerivedKey[];
/** The summed metrics, in the order of their sums. */
export const SUMMED_KEYS = summedKeysOf(METRICS) as SummedKey[];
/** The derived metrics a stored row derives too (the zone row's ratios). */
export const ROW_DERIVED_KEYS = rowDerivedKeysOf(METRICS) as RowDerivedKey[];
/** Every figure of a group, in the order a group lists them. */
export const FIGURE_KEYS = figureKeysOf(METRICS) as FigureKey[];
export type DerivedMetrics = Record<DerivedKey, number | null>;

export function isMetricKey(value: unknown): value is MetricKey {
  return typeof value === 'string' && Object.hasOwn(METRICS, value);
}

/** One formula on one set of sums; null when its base is 0 (or not positive) or a value is not finite. */
export function evaluate(formula: Formula, s: Readonly<Record<SumKey, number | null | undefined>>): number | null {
  return evaluateFormula(formula, (k) => s[k]);
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

/** One derived metric's formula over sums, chosen once (an export's column writer derives a column with it). */
export function deriverOf(key: DerivedKey): (s: Readonly<Sums>) => number | null {
  return DERIVERS.find(([k]) => k === key)![1];
}

/** Every derived metric of a set of sums (the same results as `evaluate` on each formula). */
export function deriveMetrics(s: Readonly<Sums>): DerivedMetrics {
  const out = {} as DerivedMetrics;
  for (const [key, derive] of DERIVERS) out[key] = derive(s);
  return out;
}

/** The summed figures a group shows, with its derived metrics (the 'Totales' row, summary rows). */
export type GroupMetrics = Record<SummedKey, number> & DerivedMetrics;

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

/** CTR base of one row (CTR_BASE). */
export function rowCtrBase(r: Pick<RowMeasures, 'impressions' | 'monetized_impressions'>): number {
  const preferred = r[CTR_BASE.preferred];
  return preferred !== null && preferred > 0 ? preferred : r[CTR_BASE.fallback];
}

/** A single row as a group of one (its tq weight by TQ_WEIGHT). */
export function rowSums(r: RowMeasures): Sums {
  return rowSumsInto(r, { ...EMPTY_SUMS });
}

/**
 * A single row's sums (rowSums) written into `out`: an export's column writer reuses one object for
 * every row of a chunk, so a million-row export makes no object per row.
 */
export function rowSumsInto(r: RowMeasures, out: Sums): Sums {
  const value = r[TQ_WEIGHT.value];
  const weighted = value !== null && value > 0 && r[TQ_WEIGHT.weight] > 0;
  out.rows = 1;
  out.impressions = r.impressions;
  out.monetized_impressions = r.monetized_impressions ?? 0;
  out.ctr_base = rowCtrBase(r);
  out.clicks = r.clicks;
  out.revenue = r.revenue;
  out.p_revenue = r.p_revenue;
  out.margin = r.margin;
  out.tq_weighted = weighted ? r.tq! * r.impressions : 0;
  out.tq_weight = weighted ? r.impressions : 0;
  return out;
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
