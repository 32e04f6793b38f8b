// Media buying's view of the one registry (entries.ts: its `profit` family): a profit group's
// figures from its sums, and how each figure is shown.
import { type CurrencySymbol, isFiniteNumber } from '../format.js';
import { type ProfitFormula, type ProfitMetricDef, type ProfitSumKey, REGISTRY, evaluateFormula, figureValue } from './entries.js';
import { formatByKind } from './registry.js';

export { PROFIT_SUM_KEYS, type ProfitFormula, type ProfitMetricDef, type ProfitSumKey } from './entries.js';

export type ProfitSums = Record<ProfitSumKey, number | null>;

/** Rentabilidad's columns: the registry's `profit` family (a view, for its many readers). */
export const PROFIT_METRICS = REGISTRY.profit;

export type ProfitMetricKey = keyof typeof PROFIT_METRICS;
export const PROFIT_METRIC_KEYS = Object.keys(PROFIT_METRICS) as ProfitMetricKey[];
export type ProfitFigures = Record<ProfitMetricKey, number | null>;

/** One profit formula on a group's sums (null when a value is missing or a base is 0 or negative); 'profit' is the profit figure. */
export function evaluateProfit(formula: ProfitFormula, s: Readonly<ProfitSums>): number | null {
  return evaluateFormula(formula, (k) => (k === 'profit' ? figureValue('profit', k, s) : s[k]));
}

/** Every profit figure of a group. */
export function profitFigures(s: Readonly<ProfitSums>): ProfitFigures {
  const out = {} as ProfitFigures;
  for (const key of PROFIT_METRIC_KEYS) out[key] = figureValue('profit', key, s);
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
