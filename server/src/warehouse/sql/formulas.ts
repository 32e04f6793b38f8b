// The registry's figures in SQL, for both dialects: the additive sums of a report (over stored
// zone_report rows, or over the rollup's sums) and the derived metrics' formulas over them.
import {
  METRICS,
  SUM_KEYS,
  SUM_KINDS,
  TQ_WEIGHT_SQL,
  TQ_WEIGHT_SUMS_SQL,
  formulaSql as coreFormulaSql,
  type Formula,
  type MetricDef,
  type SumKey,
} from '@adops/core';
import type { Dialect } from './dialect.js';

/** A registry metric's formula, if it is derived. */
export const formulaOf = (key: string): Formula | undefined =>
  Object.hasOwn(METRICS, key) ? (METRICS[key as keyof typeof METRICS] as MetricDef).formula : undefined;

/** A registry formula in SQL over the given expressions of its sums. */
export function formulaSql(d: Dialect, formula: Formula, sum: (key: SumKey) => string): string {
  return coreFormulaSql(d.engine, formula, sum);
}

/** Whether a sum counts (integer) rather than adds money or weighted TQ (double): the registry's SUM_KINDS. */
export const isCount = (k: SumKey) => SUM_KINDS[k] === 'count';

/** Each sum over stored zone_report rows (`and` narrows it to the rows passing a condition). */
function rawSum(d: Dialect, key: SumKey, and?: string): string {
  const also = (condition: string) => (and ? `${condition} AND ${and}` : condition);
  switch (key) {
    case 'rows':
      return d.count(and);
    case 'ctr_base':
      return d.sum(d.ctrBase, and);
    case 'tq_weighted':
    case 'tq_weight':
      return d.sum(TQ_WEIGHT_SUMS_SQL[key], also(TQ_WEIGHT_SQL));
    default:
      return d.sum(key, and);
  }
}

/**
 * The select list of sums (aliased by their keys) over stored rows or over the rollup's sums;
 * `and` (fixed SQL with bound parameters) limits the sums to the rows passing it.
 */
export function sumsSql(d: Dialect, rollup: boolean, and?: string): string {
  return SUM_KEYS.map((k) => `${d.cast(rollup ? d.rollupSum(k, and) : rawSum(d, k, and), isCount(k) ? 'int' : 'float')} AS ${k}`).join(',\n  ');
}
