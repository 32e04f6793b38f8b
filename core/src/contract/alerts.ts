// Alertas: rules on money and traffic quality (TQ, revenue against last week, referrer and IP
// bursts of human traffic, campaign ROI / CPC), what they fired (open, resolved, muted), each
// user's channels (in-app bell, webhook, e-mail) and a manual run of the evaluator (admins).
import { z } from 'zod';
import { emptyResponse, route } from './route.js';
import { queryInt, tablePage } from './table.js';
import { AlertRuleAction, alertActionRoutes } from './alert-actions.js';
import { TQ_SCALE } from './reports.js';
import { ALERT_RULE_KINDS, ALERT_STATES } from './values.js';

export { ALERT_RULE_KINDS, ALERT_STATES, ALERT_RULE_PARAM_KEYS, alertRuleParamKeys } from './values.js';
export type AlertRuleKind = (typeof ALERT_RULE_KINDS)[number];
export type AlertState = (typeof ALERT_STATES)[number];

/** A zone id, publisher, advertiser, host or campaign id a rule watches; empty: every one. */
const Target = z
  .string()
  .trim()
  .max(200)
  .refine((v) => /^[^\p{Cc}]*$/u.test(v), 'no puede contener caracteres de control')
  .nullish()
  .transform((v) => (v == null || v === '' || v === 'Todos' ? null : v));

// Bounds worded by core's voice ("Horas: debe ser al menos 1"); an empty field (null, "") is
// refused as "es obligatorio", never read as 0.
const num = (min: number, max: number) => z.number().min(min).max(max);
const whole = (min: number, max: number) => num(min, max).int();

const Hours = whole(1, 24 * 31);
const Minutes = whole(1, 24 * 60);
const Visits = whole(1, 100_000_000);

/** TQ of a zone's / publisher's traffic below `threshold` over the last `hours` (at least `min_impressions`). */
export const TqLowParams = z.object({
  scope: z.enum(['zone', 'publisher']),
  target: Target,
  threshold: num(TQ_SCALE.min, TQ_SCALE.max),
  hours: Hours,
  min_impressions: whole(1, 1e12).default(1000),
});
/** Revenue of a zone / publisher / advertiser down ≥ `drop_percent` % against the same hours of the same weekday a week earlier. */
export const RevenueDropParams = z.object({
  scope: z.enum(['zone', 'publisher', 'advertiser']),
  target: Target,
  drop_percent: num(1, 100),
  hours: Hours,
  /** Last week's revenue below this is too little to compare. */
  min_revenue: num(0, 1e12).default(10),
});
/** A referrer host (or any host never seen before) over `visits` human visits in `minutes`. */
export const ReferrerBurstParams = z.object({
  target: Target,
  new_only: z.boolean().default(false),
  visits: Visits,
  minutes: Minutes,
});
/** One IP over `visits` human visits in `minutes`. */
export const IpBurstParams = z.object({ visits: Visits, minutes: Minutes });
/**
 * A campaign's / ad set's ROI below `threshold` % (or CPC above its break-even) over the last `hours`, with at least `min_spend` spent.
 * Only the window's matured days count — spend synced and the zone report final — unless `use_estimates`: then days whose
 * revenue is an estimate (report partial or missing) count too, and the alert names what was estimated. Days without synced
 * spend never count (their spend is unknown, not estimated).
 */
export const CampaignRoiParams = z.object({
  level: z.enum(['campaign', 'adset']),
  target: Target,
  metric: z.enum(['roi', 'cpc']).default('roi'),
  threshold: num(-100, 100_000).default(0),
  hours: Hours,
  min_spend: num(0, 1e12).default(10),
  /** Minimum data besides spend: Meta clicks and human visits over the counted days (0: none asked). */
  min_clicks: whole(0, 1e12).default(0),
  min_visits: whole(0, 1e12).default(0),
  use_estimates: z.boolean().default(false),
});

/** Each kind's parameters; a key not among them is refused (a typo must not silently keep a default). */
export const ALERT_RULE_PARAMS = {
  tq_low: TqLowParams.strict(),
  revenue_drop: RevenueDropParams.strict(),
  referrer_burst: ReferrerBurstParams.strict(),
  ip_burst: IpBurstParams.strict(),
  campaign_roi: CampaignRoiParams.strict(),
} as const satisfies Record<AlertRuleKind, z.ZodObject>;

const kindOf = <K extends AlertRuleKind, P extends z.ZodType>(kind: K, params: P) => z.object({ kind: z.literal(kind), params });
export const AlertRuleSpec = z.discriminatedUnion('kind', [
  kindOf('tq_low', ALERT_RULE_PARAMS.tq_low),
  kindOf('revenue_drop', ALERT_RULE_PARAMS.revenue_drop),
  kindOf('referrer_burst', ALERT_RULE_PARAMS.referrer_burst),
  kindOf('ip_burst', ALERT_RULE_PARAMS.ip_burst),
  kindOf('campaign_roi', ALERT_RULE_PARAMS.campaign_roi),
]);
export type AlertRuleSpec = z.output<typeof AlertRuleSpec>;
export type AlertRuleParams = AlertRuleSpec['params'];

export const RuleName = z
  .string()
  .trim()
  .min(1)
  .max(120)
  .refine((v) => /^[^\p{Cc}]*$/u.test(v), 'no puede contener caracteres de control');
export const Cooldown = whole(0, 7 * 24 * 60);

export const AlertRule = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(ALERT_RULE_KINDS),
  params: z.record(z.string(), z.unknown()),
  enabled: z.boolean(),
  /** Minutes after a notification before the same rule and subject notify again. */
  cooldown_minutes: z.number(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Campaign rules: the profit guard's action (null: none). */
  action: AlertRuleAction.nullable(),
});
export type AlertRule = z.infer<typeof AlertRule>;

export const ALERT_ACTION_KIND_ONLY = 'La acción (pausar en Meta) solo se puede añadir a reglas de campaña (campaign_roi)';

export const CreateAlertRule = z
  .intersection(
    z.object({
      name: RuleName,
      enabled: z.boolean().default(true),
      cooldown_minutes: Cooldown.default(60),
      /** Admins only. */
      action: AlertRuleAction.nullable().default(null),
    }),
    AlertRuleSpec,
  )
  .superRefine((v, ctx) => {
    if (v.action !== null && v.kind !== 'campaign_roi') ctx.addIssue({ code: 'custom', path: ['action'], message: ALERT_ACTION_KIND_ONLY });
  });
export type CreateAlertRule = z.input<typeof CreateAlertRule>;

/** A change: name, on/off, cooldown, or the whole spec (kind and params together). */
export const UpdateAlertRule = z
  .object({
    name: RuleName.optional(),
    enabled: z.boolean().optional(),
    cooldown_minutes: Cooldown.optional(),
    kind: z.enum(ALERT_RULE_KINDS).optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    /** Admins only; null removes it. */
    action: AlertRuleAction.nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.kind === undefined) !== (v.params === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['params'], message: 'Indica el tipo de regla y sus parámetros juntos' });
      return;
    }
    if (v.action && v.kind !== undefined && v.kind !== 'campaign_roi')
      ctx.addIssue({ code: 'custom', path: ['action'], message: ALERT_ACTION_KIND_ONLY });
    if (v.kind !== undefined) {
      const spec = AlertRuleSpec.safeParse({ kind: v.kind, params: v.params });
      if (!spec.success) for (const issue of spec.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  })
  .transform((v) => {
    const spec = v.kind !== undefined ? AlertRuleSpec.parse({ kind: v.kind, params: v.params }) : undefined;
    return { name: v.name, enabled: v.enabled, cooldown_minutes: v.cooldown_minutes, spec, action: v.action };
  });
export type UpdateAlertRule = z.input<typeof UpdateAlertRule>;

export const AlertRuleIdParams = z.object({ id: z.string().min(1).max(64) });

export const ALERT_DELIVERY_CHANNELS = ['email', 'webhook'] as const;
export type AlertDeliveryChannel = (typeof ALERT_DELIVERY_CHANNELS)[number];

/** One notice of an alert on one user's channel: sent or failed (with the error), after how many tries, when. */
export const AlertDelivery = z.object({
  channel: z.enum(ALERT_DELIVERY_CHANNELS),
  /** The subscribed user's e-mail (the webhook's owner). */
  to: z.string(),
  status: z.enum(['sent', 'failed']),
  attempts: z.number(),
  /** The receiver's answer (SMTP response, HTTP status) or the error. */
  detail: z.string(),
  at: z.string(),
});
export type AlertDelivery = z.infer<typeof AlertDelivery>;

/** One firing of a rule on one subject (a zone, publisher, advertiser, host, IP, campaign or ad set). */
export const Alert = z.object({
  id: z.string(),
  rule_id: z.string(),
  rule_name: z.string(),
  kind: z.enum(ALERT_RULE_KINDS),
  subject: z.string(),
  state: z.enum(ALERT_STATES),
  /** The sentence every channel says. */
  message: z.string(),
  value: z.number().nullable(),
  threshold: z.number().nullable(),
  /** The figures at the moment it fired (impressions, spend, last week's revenue …). */
  figures: z.record(z.string(), z.number().nullable()),
  opened_at: z.string(),
  /** The latest time it fired (re-firing within the cooldown reopens it without a new notice). */
  fired_at: z.string(),
  resolved_at: z.string().nullable(),
  /** Muted until this instant (null with state muted: until it resolves). */
  muted_until: z.string().nullable(),
  muted_by: z.string().nullable(),
  /**
   * Whom the mute hides it from: `me` (the reader's own mute: only they see it muted) or
   * `everyone` (an admin's mute for everyone); null when not muted.
   */
  muted_for: z.enum(['me', 'everyone']).nullable(),
  fire_count: z.number(),
  /** Its notices by e-mail and webhook, oldest first (a user sees their own; admins every one). */
  deliveries: z.array(AlertDelivery),
});
export type Alert = z.infer<typeof Alert>;

export const AlertListQuery = z.object({
  state: z
    .enum([...ALERT_STATES, 'all'])
    .optional()
    .transform((v) => (v === 'all' ? undefined : v)),
  rule_id: z.string().max(64).optional(),
  page: queryInt(1, 1_000_000_000).default(1),
  page_size: queryInt(1, 500).default(50),
});
export type AlertListQuery = z.input<typeof AlertListQuery>;

export const AlertList = tablePage(Alert, z.object({ unread: z.number(), open: z.number() }));
export type AlertList = z.infer<typeof AlertList>;

export const AlertUnread = z.object({ unread: z.number() });
export type AlertUnread = z.infer<typeof AlertUnread>;

export const AlertIdParams = z.object({ id: z.string().min(1).max(64) });

/** `for_everyone`: a boolean, or its text in a query string ('true'/'false', '1'/'0'); absent = false. */
const ForEveryone = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'debe ser sí o no (true o false)' })
  .optional()
  .transform((v) => v === true || v === 'true' || v === '1');

/**
 * Mutes an alert for `minutes` (null: until it resolves) for the caller only, or — an admin
 * choosing `for_everyone` — for every user.
 */
export const MuteAlert = z
  .object({
    minutes: whole(1, 30 * 24 * 60)
      .nullable()
      .default(null),
    for_everyone: ForEveryone,
  })
  .strict();
export type MuteAlert = z.input<typeof MuteAlert>;

/** Lifts the caller's own mute, or — an admin choosing `for_everyone` — the mute for everyone. */
export const UnmuteAlertQuery = z.object({ for_everyone: ForEveryone }).strict();
export type UnmuteAlertQuery = z.input<typeof UnmuteAlertQuery>;

const WebhookUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'debe ser una URL http(s)');

/** A user's channels: the bell (in-app), an e-mail to their address, a webhook; for every rule or only some. */
export const AlertSubscription = z.object({
  in_app: z.boolean(),
  email: z.boolean(),
  webhook_url: z.string().nullable(),
  /** The HMAC-SHA-256 key of the webhook's X-Adops-Signature (shown to its owner only). */
  webhook_secret: z.string().nullable(),
  /** null: every rule. */
  rule_ids: z.array(z.string()).nullable(),
  /** 'Resumen diario': yesterday's cards, top movers and open alerts by e-mail at ADOPS_DIGEST_HOUR. */
  digest: z.boolean(),
});
export type AlertSubscription = z.infer<typeof AlertSubscription>;

export const SetAlertSubscription = z
  .object({
    in_app: z.boolean().default(true),
    email: z.boolean().default(false),
    webhook_url: WebhookUrl.nullable()
      .optional()
      .transform((v) => (v === undefined || v === '' ? null : v)),
    rule_ids: z.array(z.string().min(1).max(64)).max(500).nullable().default(null),
    digest: z.boolean().default(false),
  })
  .strict();
export type SetAlertSubscription = z.input<typeof SetAlertSubscription>;

export const AlertEvaluation = z.object({
  /** Rules evaluated (false when another instance holds the evaluator's lock). */
  ran: z.boolean(),
  rules: z.number(),
  fired: z.number(),
  resolved: z.number(),
  /** Notices handed to e-mail and webhook channels; they are delivered in the background and each outcome is kept with its alert. */
  notified: z.number(),
  errors: z.array(z.object({ rule_id: z.string(), detail: z.string() })),
});
export type AlertEvaluation = z.infer<typeof AlertEvaluation>;

/** Resume the alert stream after this event id (alternative to the Last-Event-ID header). */
export const AlertStreamQuery = z.object({
  lastEventId: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
export type AlertStreamQuery = z.input<typeof AlertStreamQuery>;

/** One message of the alert stream: an alert that fired (or fired again) or resolved, as it is then. */
export const AlertStreamEvent = z.object({
  id: z.number(),
  event: z.enum(['fired', 'resolved']),
  alert: Alert,
  /**
   * When it happened: the evaluation's instant (ISO). A re-fire keeps the alert's first
   * fired_at (its cooldown counts from there), so this is the only time a re-fire carries.
   */
  at: z.string().optional(),
});
export type AlertStreamEvent = z.infer<typeof AlertStreamEvent>;

/** Routes that take no fields send an empty JSON object. */
export const NoFields = z.object({}).strict();

export const alertRoutes = {
  /** What fired, newest first; `totals.unread` is the bell's count. */
  list: route({ method: 'GET', path: '/api/alerts', access: 'user', query: AlertListQuery, response: AlertList }),
  unread: route({ method: 'GET', path: '/api/alerts/unread', access: 'user', response: AlertUnread }),
  /** Marks every alert read for the caller (the bell goes to 0). */
  markRead: route({ method: 'POST', path: '/api/alerts/read', access: 'user', body: NoFields, response: AlertUnread }),
  mute: route({ method: 'POST', path: '/api/alerts/{id}/mute', access: 'user', params: AlertIdParams, body: MuteAlert, response: Alert }),
  unmute: route({
    method: 'DELETE',
    path: '/api/alerts/{id}/mute',
    access: 'user',
    params: AlertIdParams,
    query: UnmuteAlertQuery,
    response: Alert,
  }),
  rules: route({ method: 'GET', path: '/api/alerts/rules', access: 'user', response: z.array(AlertRule) }),
  createRule: route({ method: 'POST', path: '/api/alerts/rules', access: 'user', body: CreateAlertRule, response: AlertRule }),
  /** Its creator or an admin. */
  updateRule: route({
    method: 'PATCH',
    path: '/api/alerts/rules/{id}',
    access: 'user',
    params: AlertRuleIdParams,
    body: UpdateAlertRule,
    response: AlertRule,
  }),
  deleteRule: route({
    method: 'DELETE',
    path: '/api/alerts/rules/{id}',
    access: 'user',
    params: AlertRuleIdParams,
    response: emptyResponse,
    responseType: 'none',
  }),
  subscription: route({ method: 'GET', path: '/api/alerts/subscription', access: 'user', response: AlertSubscription }),
  setSubscription: route({
    method: 'PUT',
    path: '/api/alerts/subscription',
    access: 'user',
    body: SetAlertSubscription,
    response: AlertSubscription,
  }),
  /**
   * text/event-stream: `id:` the event id, `data:` one AlertStreamEvent as JSON, as alerts fire
   * and resolve on any instance (the caller's rules when their channels name some), a comment
   * heartbeat every 15 s. Resume with the Last-Event-ID header or lastEventId.
   */
  stream: route({ method: 'GET', path: '/api/alerts/stream', access: 'user', query: AlertStreamQuery, response: z.string(), responseType: 'text' }),
  ...alertActionRoutes,
  /** Runs the evaluator now (admins; the schedule runs it every minute). */
  evaluate: route({ method: 'POST', path: '/api/admin/alerts/evaluate', access: 'admin', body: NoFields, response: AlertEvaluation }),
};
