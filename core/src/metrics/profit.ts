// Media buying's registry (Rentabilidad): the additive sums of a profit group, every figure's
// formula over them, and how each figure is shown.
import { type CurrencySymbol, isFiniteNumber } from '../format.js';
import { type MetricKind, formatByKind, ratioValue } from './registry.js';

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
  return ratioValue(value(formula.num), value(formula.den), formula.scale, true);
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
  return formatByKind(def.kind, def.kind === 'int' && n !== null ? Math.round(n) : n, def.decimals, currency);
}

/**
 * A profit figure in the network's currency (an ISO code): money as every amount (formatMoney:
 * $ or € leading, any other code after the number); the other kinds as formatProfitMetric.
 * Web and terminal both show Rentabilidad's figures through this.
 */
export function formatProfitFigure(key: ProfitMetricKey, value: number | null | undefined, currencyCode: string): string {
  return formatProfitMetric(key, value, currencyCode);
}
