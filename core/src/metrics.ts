// The metrics registry: every figure's label, kind, decimals and — for a ratio or a difference —
// its formula over additive sums. The server derives every figure from these formulas (in JS, and
// in SQL when it sorts by one); web, terminal and CSV only format.
// One entry point for the parts in metrics/: the one registry (entries.ts) and its views — the
// revenue reports', the columns each report shows, the IVT rate, Rentabilidad's and the glossary.
export { REGISTRY, FAMILY_SUM_KEYS, IVT_SUM_KEYS, PROFIT_TQ_WEIGHT, SUM_KINDS, evaluateFormula, figureValue } from './metrics/entries.js';
export type { AnyFigureDef, FigureEntry, FigureFamily, FigureFormula, IvtMetricDef, IvtSumKey } from './metrics/entries.js';
export * from './metrics/registry.js';
export * from './metrics/columns.js';
export * from './metrics/ivt.js';
export * from './metrics/profit.js';
export * from './metrics/glossary.js';
export * from './metrics/sql.js';
