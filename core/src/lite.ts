// @adops/core/lite: everything of core a client needs at run time without zod — the API client,
// formulas, formats, presets, tables, the contract's plain values and every type — for adops,
// which would otherwise spend ~150 ms loading and building the schemas on each start. The route
// table comes as `routes`: each route's method, path and answer type (endpoints.ts), typed as the
// contract's routes so `api.open(routes.x.y, input)` checks its input, the schemas left out.
import type { Contract } from './contract/routes.js';
import { endpoints } from './contract/endpoints.js';

export type * from './contract/index.js';
export * from './contract/values.js';
export { endpoints };
export * from './client.js';
export * from './session.js';
export * from './format.js';
export * from './metrics.js';
export * from './rounding.js';
export * from './presets.js';
export * from './comparison.js';
export * from './table.js';
export * from './csv.js';
export * from './live.js';
export * from './live-follower.js';
export * from './amounts.js';
export * from './campaigns.js';
export * from './audit.js';
export * from './alerts.js';
export * from './alert-actions.js';
export * from './alert-evaluations.js';
export * from './completeness.js';
export * from './profit-labels.js';
export * from './field-labels.js';
export * from './voice.js';

/** The route table for `api.open` and `buildRequest`: the client binds the same endpoints (client.ts). */
export const routes = endpoints as unknown as Contract;
