// Trusting a rule before it acts: the evaluation log ('Historial de evaluación': what every
// evaluation of a rule made of each campaign, zone or referrer it looked at, and why it acted or
// not).
import { z } from 'zod';
import { route } from './route.js';
import { queryInt, tablePage } from './table.js';
import { AlertRuleIdParams } from './alerts.js';

/**
 * What one evaluation made of one subject: `fired` (an alert fired or stays open; a guard's notify
 * only), `acted` (paused on Meta now), `cooldown` (held by the rule's wait between notices or
 * actions), `daily_cap` (the ad account's actions for the day are used up), `below_min_spend` (too
 * little data: spend, impressions, clicks, visits or last week's revenue under the rule's minimum),
 * `unsynced_spend` (spend not synced, or without its exchange rate), `estimated_revenue` (revenue
 * only estimated, and the rule counts closed days only), `recovered` (its alert resolved, or the
 * rule resumed it), `not_matched` (judged, and the condition does not hold).
 */
export const ALERT_OUTCOMES = [
  'fired',
  'acted',
  'cooldown',
  'daily_cap',
  'below_min_spend',
  'unsynced_spend',
  'estimated_revenue',
  'recovered',
  'not_matched',
] as const;
export type AlertOutcome = (typeof ALERT_OUTCOMES)[number];

/** Days the evaluation log keeps, and the entries it keeps per rule at most (its newest; older ones are dropped). */
export const EVALUATION_RETENTION_DAYS = 30;
export const EVALUATIONS_PER_RULE = 1000;
/** Subjects one evaluation of a rule logs at most: those it acted on or held back first, then the rest closest to firing. */
export const EVALUATION_SUBJECTS = 100;

/**
 * One entry of the log: what consecutive evaluations of the rule said of one subject — the same
 * outcome, figures, threshold and words — from `first_at` to `last_at` (`evaluations` of them).
 */
export const AlertEvaluationEntry = z.object({
  id: z.string(),
  rule_id: z.string(),
  /** The campaign or ad set id, zone, publisher, advertiser, referrer host or IP. */
  subject: z.string(),
  outcome: z.enum(ALERT_OUTCOMES),
  /** The judged figure (ROI %, CPC, TQ, change %, visits) and its threshold. */
  value: z.number().nullable(),
  threshold: z.number().nullable(),
  /** The figures behind it (spend, revenue, profit, roi, cpc, break_even_cpc, impressions, visits …). */
  figures: z.record(z.string(), z.number().nullable()),
  /** The guard's words (wait until, daily cap reached, standing pause …); null when none spoke. */
  guard: z.string().nullable(),
  /** Why, in a sentence with the figures. */
  reason: z.string(),
  first_at: z.string(),
  last_at: z.string(),
  evaluations: z.number(),
});
export type AlertEvaluationEntry = z.infer<typeof AlertEvaluationEntry>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `since`: a day (YYYY-MM-DD, from its start in UTC) or an ISO 8601 instant with its offset. */
const Since = z
  .string()
  .trim()
  .max(40, 'since admite como máximo 40 caracteres')
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return undefined;
    const valid = (DAY.test(v) && z.iso.date().safeParse(v).success) || z.iso.datetime({ offset: true }).safeParse(v).success;
    const ms = valid ? Date.parse(DAY.test(v) ? `${v}T00:00:00Z` : v) : Number.NaN;
    if (!Number.isFinite(ms)) {
      ctx.addIssue({ code: 'custom', message: 'since debe ser una fecha AAAA-MM-DD o un instante ISO 8601' });
      return z.NEVER;
    }
    return new Date(ms).toISOString();
  });

export const AlertEvaluationQuery = z.object({
  /** Only this campaign / ad set / zone / host / IP. */
  subject: z
    .string()
    .trim()
    .max(200, 'subject admite como máximo 200 caracteres')
    .refine((v) => /^[^\p{Cc}]*$/u.test(v), 'subject no puede contener caracteres de control')
    .optional()
    .transform((v) => (v === undefined || v === '' || v === 'Todos' ? undefined : v)),
  since: Since,
  outcome: z.enum(ALERT_OUTCOMES, { error: `outcome debe ser ${ALERT_OUTCOMES.join(', ')}` }).optional(),
  page: queryInt(1, 1_000_000_000).default(1),
  page_size: queryInt(1, 500).default(50),
});
export type AlertEvaluationQuery = z.input<typeof AlertEvaluationQuery>;

export const AlertEvaluationList = tablePage(
  AlertEvaluationEntry,
  z.object({
    /** When the rule was last evaluated (null: nothing kept). */
    last_evaluated_at: z.string().nullable(),
    retention_days: z.number(),
    per_rule: z.number(),
  }),
);
export type AlertEvaluationList = z.infer<typeof AlertEvaluationList>;

export const alertEvaluationRoutes = {
  /** What each evaluation of the rule made of each subject, latest first (30 days, bounded per rule). */
  evaluations: route({
    method: 'GET',
    path: '/api/alerts/rules/{id}/evaluations',
    access: 'user',
    params: AlertRuleIdParams,
    query: AlertEvaluationQuery,
    response: AlertEvaluationList,
  }),
};
