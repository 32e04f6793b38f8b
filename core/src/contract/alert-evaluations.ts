// Trusting a rule before it acts: the evaluation log ('Historial de evaluación': what every
// evaluation of a rule made of each campaign, zone or referrer it looked at, and why it acted or
// not) and the backtest ('Probar en el pasado': the rule, saved or not, replayed hour by hour over
// the last 7, 14 or 30 days on the stored data, with what it would have done and its money effect).
import { z } from 'zod';
import { instantBound } from './instants.js';
import { route } from './route.js';
import { queryInt, tablePage } from './table.js';
import { ALERT_ACTION_KIND_ONLY, ALERT_RULE_KINDS, AlertRuleIdParams, AlertRuleSpec, Cooldown, RuleName } from './alerts.js';
import { AlertRuleAction } from './alert-actions.js';
import { ALERT_OUTCOMES, type BACKTEST_DAYS } from './values.js';

export { ALERT_OUTCOMES, BACKTEST_DAYS } from './values.js';

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

/** `since`: a day (YYYY-MM-DD, from its start in UTC) or an ISO 8601 instant with its offset. */
const Since = instantBound(false);

export const AlertEvaluationQuery = z.object({
  /** Only this campaign / ad set / zone / host / IP. */
  subject: z
    .string()
    .trim()
    .max(200)
    .refine((v) => /^[^\p{Cc}]*$/u.test(v), 'subject no puede contener caracteres de control')
    .optional()
    .transform((v) => (v === undefined || v === '' || v === 'Todos' ? undefined : v)),
  since: Since,
  // The outcomes are values the API takes (the web picks them from a list), named like the sort keys.
  outcome: z.enum(ALERT_OUTCOMES, { error: `no es un resultado del historial (claves: ${ALERT_OUTCOMES.join(', ')})` }).optional(),
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

/* ------------------------------------------------------------------ backtest */

export type BacktestDays = (typeof BACKTEST_DAYS)[number];

const Days = z.union([z.literal(7), z.literal(14), z.literal(30)], { error: 'debe ser 7, 14 o 30' }).default(14 as BacktestDays);

/** A saved rule's backtest. */
export const BacktestRuleBody = z.object({ days: Days }).strict();
export type BacktestRuleBody = z.input<typeof BacktestRuleBody>;

/** An unsaved rule's backtest: its kind and parameters, its cooldown and action as the form has them. */
export const BacktestSpecBody = z
  .intersection(
    z.object({
      days: Days,
      name: RuleName.optional(),
      cooldown_minutes: Cooldown.default(60),
      action: AlertRuleAction.nullable().default(null),
    }),
    AlertRuleSpec,
  )
  .superRefine((v, ctx) => {
    if (v.action !== null && v.kind !== 'campaign_roi') ctx.addIssue({ code: 'custom', path: ['action'], message: ALERT_ACTION_KIND_ONLY });
  });
export type BacktestSpecBody = z.input<typeof BacktestSpecBody>;

const Figures = z.record(z.string(), z.number().nullable());

/** One thing the rule would have done. */
export const BacktestAction = z.object({
  /** The evaluation's instant (ISO). */
  at: z.string(),
  /** The campaign or ad set id, zone, publisher, advertiser, referrer host or IP. */
  subject: z.string(),
  /** Its name where Meta gave one. */
  name: z.string().nullable(),
  level: z.enum(['campaign', 'adset', 'zone', 'publisher', 'advertiser', 'referrer', 'ip']),
  /** alert: a new alert and its notice; pause / resume: on Meta (the rule's action). */
  action: z.enum(['alert', 'pause', 'resume']),
  figures: Figures,
  /** The sentence the alert or the action record would have said. */
  reason: z.string(),
});
export type BacktestAction = z.infer<typeof BacktestAction>;

/** A subject the rule would have turned off (paused, or alerted on) more than once. */
export const BacktestFlapping = z.object({
  subject: z.string(),
  name: z.string().nullable(),
  /** Pauses (alerts for a rule without a pause) and resumes (alerts resolved). */
  offs: z.number(),
  ons: z.number(),
});
export type BacktestFlapping = z.infer<typeof BacktestFlapping>;

/** A campaign's (ad set's) day for the chart: its figures as stored today and the hours the rule would have kept it paused. */
export const BacktestDay = z.object({
  date: z.string(),
  subject: z.string(),
  spend: z.number().nullable(),
  revenue: z.number(),
  profit: z.number().nullable(),
  paused_hours: z.number(),
});
export type BacktestDay = z.infer<typeof BacktestDay>;

export const AlertBacktest = z.object({
  rule: z.object({ id: z.string().nullable(), name: z.string().nullable(), kind: z.enum(ALERT_RULE_KINDS), condition: z.string() }),
  days: z.number(),
  /** The first and last evaluation replayed (ISO; every whole hour between, ADOPS_TZ days). */
  from: z.string(),
  to: z.string(),
  evaluations: z.number(),
  /** The network's currency every amount is in. */
  currency: z.string(),
  /** Oldest first; at most 5,000 (truncated says how many more). */
  actions: z.array(BacktestAction),
  truncated: z.number(),
  summary: z.object({
    alerts: z.number(),
    pauses: z.number(),
    resumes: z.number(),
    /** Spend after each pause until its resume (or the end), from each day's stored spend. */
    spend_avoided: z.number(),
    /** Revenue the paused campaign's visits earned over the same hours. */
    revenue_forgone: z.number(),
    /** spend_avoided − revenue_forgone: what the pauses would have saved (negative: cost). */
    net: z.number(),
    /** Pauses and resumes its wait between actions or the daily cap held back, and re-fires its wait between notices kept silent, one per hour. */
    held: z.object({ cooldown: z.number(), daily_cap: z.number() }),
    flapping: z.array(BacktestFlapping),
  }),
  /** Campaign rules: each subject it acted on (or its target), per day, for a chart; other kinds none. */
  daily: z.array(BacktestDay),
  /** Where today's data differs from what was known then, and what the replay assumes. */
  notes: z.array(z.string()),
});
export type AlertBacktest = z.infer<typeof AlertBacktest>;

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
  /** A saved rule replayed over the last `days` (never calls Meta). */
  backtestRule: route({
    method: 'POST',
    path: '/api/alerts/rules/{id}/backtest',
    access: 'user',
    params: AlertRuleIdParams,
    body: BacktestRuleBody,
    response: AlertBacktest,
    heavy: true,
  }),
  /** An unsaved rule (its spec) replayed over the last `days`: what it would do before it is saved. */
  backtest: route({ method: 'POST', path: '/api/alerts/backtest', access: 'user', body: BacktestSpecBody, response: AlertBacktest, heavy: true }),
};
