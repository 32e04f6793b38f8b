// The whole HTTP contract, one area per file; server and client both bind this table.
import { healthRoutes } from './health.js';
import { authRoutes } from './auth.js';
import { adminRoutes } from './admin.js';
import {
  dashboardRoutes,
  adReportRoutes,
  demandRoutes,
  financeRoutes,
  publisherDataRoutes,
  ingestRoutes,
  revenueShareRoutes,
} from './report-routes.js';
import { campaignRoutes } from './campaigns.js';
import { referrersRoutes } from './referrers.js';
import { auditRoutes } from './audit.js';
import { profitRoutes } from './profit.js';
import { alertRoutes } from './alerts.js';
import { alertEvaluationRoutes } from './alert-evaluations.js';

export const contract = {
  health: healthRoutes,
  auth: authRoutes,
  admin: adminRoutes,
  dashboard: dashboardRoutes,
  adReport: adReportRoutes,
  demand: demandRoutes,
  finance: financeRoutes,
  publisher: publisherDataRoutes,
  ingest: ingestRoutes,
  publishers: revenueShareRoutes,
  campaigns: campaignRoutes,
  referrers: referrersRoutes,
  audit: auditRoutes,
  profit: profitRoutes,
  // The evaluation log and the backtest live in their own file, bound under Alertas.
  alerts: { ...alertRoutes, ...alertEvaluationRoutes },
};
export type Contract = typeof contract;
