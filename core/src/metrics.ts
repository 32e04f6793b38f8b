// The metrics registry: every report column's label, kind, decimals and — for a ratio or a
// difference — its formula over additive sums. The server derives every figure from these
// formulas (in JS, and in SQL when it sorts by one); web, terminal and CSV only format.
// One entry point for the parts in metrics/: the revenue reports' registry, the columns each
// report shows, the IVT rate, Rentabilidad's registry and the glossary of all of them.
export * from './metrics/registry.js';
export * from './metrics/columns.js';
export * from './metrics/ivt.js';
export * from './metrics/profit.js';
export * from './metrics/glossary.js';
export * from './metrics/sql.js';
