// @adops/core: the contract, the API client and the logic every face shares.
export * from './contract/index.js';
export * from './client.js';
// decodeSession and sessionValid: no zod (the web's entry chunk reads the token with them).
export * from './session.js';
export * from './format.js';
export * from './metrics.js';
export * from './rounding.js';
export * from './presets.js';
export * from './comparison.js';
export * from './table.js';
export * from './csv.js';
export * from './exports.js';
export * from './csv-bytes.js';
export * from './zone-csv.js';
export * from './live.js';
export * from './live-follower.js';
export * from './amounts.js';
export * from './campaigns.js';
export * from './openapi.js';
export * from './audit.js';
export * from './alerts.js';
export * from './alert-actions.js';
export * from './alert-evaluations.js';
export * from './completeness.js';
export * from './profit-labels.js';
export * from './field-labels.js';
export * from './voice.js';
