// The profit guard: the action an admin attaches to a campaign rule (notify only by default, or
// pause the campaign / ad set on Meta, with a cooldown, a daily cap per ad account and an
// optional 'reactivar'), what those actions did, and undoing one (resume on Meta).
import { z } from 'zod';
import { route } from './route.js';
import { queryInt, tablePage } from './table.js';
import { ALERT_ACTION_MODES } from './values.js';

export { ALERT_ACTION_MODES } from './values.js';

const whole = (min: number, max: number) => z.number().int().min(min).max(max);

/** A campaign rule's action; only admins set or change it. */
export const AlertRuleAction = z
  .object({
    /** notify: the alert says what it would pause; pause: it pauses on Meta. */
    mode: z.enum(ALERT_ACTION_MODES).default('notify'),
    /** Resume what it paused once the figures recover (ROI back above the threshold with enough spend). */
    reactivate: z.boolean().default(false),
    /** Minutes after an action (or a failed try) on a campaign before the rule acts on it again. */
    cooldown_minutes: whole(0, 30 * 24 * 60).default(60),
    /** Automatic actions per ad account and day (ADOPS_TZ), counted across every rule. */
    daily_cap: whole(1, 1000).default(5),
    /** Act only once the condition held this many evaluations in a row (1: at once). */
    confirm_evaluations: whole(1, 10_000).default(1),
    /** A 'hold' pause: resumed by itself this many minutes after (null: stays paused until reactivar or an admin). */
    hold_minutes: whole(1, 30 * 24 * 60)
      .nullable()
      .default(null),
  })
  .strict();
export type AlertRuleAction = z.output<typeof AlertRuleAction>;
export type AlertRuleActionInput = z.input<typeof AlertRuleAction>;

/** What one action did on Meta. */
export const AlertAction = z.object({
  id: z.string(),
  rule_id: z.string(),
  rule_name: z.string(),
  /** The campaign or ad set id. */
  subject: z.string(),
  level: z.enum(['campaign', 'adset']),
  /** The Meta ad account (the daily cap's unit). */
  account: z.string(),
  action: z.enum(['pause', 'resume']),
  /** rule: its condition held; recovery: its figures recovered (reactivar); hold: its pause's time was up (pausa temporal). */
  trigger: z.enum(['rule', 'recovery', 'hold']),
  status: z.enum(['done', 'failed']),
  /** Meta's error when it failed. */
  detail: z.string().nullable(),
  /** Why: the alert's sentence then. */
  reason: z.string(),
  /** The figures at that moment (spend, revenue, profit, roi, cpc, break_even_cpc). */
  figures: z.record(z.string(), z.number().nullable()),
  at: z.string(),
  undone_at: z.string().nullable(),
  /** The admin who undid it, or 'Regla «…» (reactivar)'. */
  undone_by: z.string().nullable(),
  /** A standing pause an admin may undo now. */
  undoable: z.boolean(),
});
export type AlertAction = z.infer<typeof AlertAction>;

export const AlertActionListQuery = z.object({
  rule_id: z.string().max(64).optional(),
  page: queryInt(1, 1_000_000_000).default(1),
  page_size: queryInt(1, 500).default(50),
});
export type AlertActionListQuery = z.input<typeof AlertActionListQuery>;

/** `totals.today`: automatic actions on the configured ad account today (ADOPS_TZ), against the daily cap. */
export const AlertActionList = tablePage(AlertAction, z.object({ today: z.number(), account: z.string() }));
export type AlertActionList = z.infer<typeof AlertActionList>;

export const AlertActionIdParams = z.object({ id: z.string().min(1).max(64) });

export const alertActionRoutes = {
  /** What the rules' actions did on Meta, newest first (every user sees them). */
  actions: route({ method: 'GET', path: '/api/alerts/actions', access: 'user', query: AlertActionListQuery, response: AlertActionList }),
  /** Undoes a standing pause: resumes the campaign / ad set on Meta (admins). 409 when it is not one; 502 with Meta's error. */
  undoAction: route({
    method: 'POST',
    path: '/api/alerts/actions/{id}/undo',
    access: 'admin',
    params: AlertActionIdParams,
    /** Nothing to send: the id says which (other fields are ignored). */
    body: z.object({}).loose(),
    response: AlertAction,
  }),
};
