// The HTTP contract: the route table (routes.ts) and every area's schemas and types.
export * from './routes.js';

export * from './route.js';
export * from './table.js';
export * from './health.js';
export * from './auth.js';
export * from './admin.js';
export * from './reports.js';
export * from './report-routes.js';
export * from './referrers.js';
export * from './campaigns.js';
export * from './docs.js';
export * from './audit.js';
export * from './profit.js';
export * from './alerts.js';
export * from './alert-actions.js';
export * from './alert-evaluations.js';
