// Alertas as the faces see them: a rule and an alert as the API answers them (an alert shows
// its viewer their own mute and the notices to their own channels), who asks, the change the live
// stream carries, and the bounded notices one evaluation sends. No store calls here: alerts.ts
// reads the records and hands them in.
import { AlertRuleAction, type Alert, type AlertRule } from '@adops/core';
import type { AlertMuteRecord, AlertRecord, AlertRuleRecord, AlertSubscriptionRecord } from '../store/types.js';

/** Who asks: the session's user. */
export interface AlertCaller {
  id: string;
  email: string;
  is_admin: boolean;
}

/** An alert that fired or resolved, as stored then (every delivery: the stream filters per viewer). */
export interface AlertChangeEvent {
  event: 'fired' | 'resolved';
  alert: Alert;
  /** The evaluation's instant (ISO): when it fired, fired again or resolved. */
  at: string;
}

/** Who reads an alert: a user sees the notices to their own channels, an admin every one. */
export type AlertViewer = Pick<AlertCaller, 'id' | 'is_admin'>;

export const DEFAULT_SUBSCRIPTION = (userId: string): AlertSubscriptionRecord => ({
  user_id: userId,
  in_app: true,
  email: false,
  webhook_url: null,
  webhook_secret: null,
  rule_ids: null,
  read_at: null,
  digest: false,
});

export const publicRule = (r: AlertRuleRecord): AlertRule => ({
  id: r.id,
  name: r.name,
  kind: r.kind as AlertRule['kind'],
  params: r.params,
  enabled: r.enabled,
  cooldown_minutes: r.cooldown_minutes,
  created_by: r.created_by_email,
  created_at: r.created_at,
  updated_at: r.updated_at,
  // Records of earlier versions lack the later fields: read with their defaults.
  action: r.action ? AlertRuleAction.parse(r.action) : null,
});

/**
 * The alert as a face shows it; `viewer` (absent: every notice) sees the notices to their own
 * channels unless an admin, and `mine`, the viewer's own mute in force, shows it muted to them
 * (a mute for everyone, the alert's own state, comes first).
 */
export const publicAlert = (
  a: AlertRecord,
  rule: Pick<AlertRuleRecord, 'name' | 'kind'> | undefined,
  viewer?: AlertViewer,
  mine?: AlertMuteRecord,
): Alert => ({
  ...a,
  ...(a.state !== 'muted' && mine ? { state: 'muted' as const, muted_until: mine.until, muted_by: mine.by } : {}),
  muted_for: a.state === 'muted' ? 'everyone' : mine && a.state === 'open' ? 'me' : null,
  rule_name: rule?.name ?? '',
  kind: (rule?.kind ?? 'tq_low') as Alert['kind'],
  deliveries: (a.deliveries ?? []).filter((d) => !viewer || viewer.is_admin || d.user_id === viewer.id).map(({ user_id: _, ...d }) => d),
});

/** Subjects a rule's summary notice names before '…'. */
const SUMMARY_SUBJECTS = 5;

/**
 * The notices an evaluation sends: each rule's first `perRule` alerts as they are, and when it
 * fired more, one notice for the rest ('y 312 más', naming a few): a rule that fires for
 * thousands of subjects cannot flood an inbox or a webhook. The summary's outcome is kept with
 * the first alert it stands for; every alert stays in Alertas.
 */
export function boundedNotices(
  notices: ReadonlyArray<{ rule: AlertRuleRecord; alert: AlertRecord }>,
  perRule: number,
): Array<{ rule: AlertRuleRecord; alert: AlertRecord; shown: Alert }> {
  const byRule = new Map<string, Array<{ rule: AlertRuleRecord; alert: AlertRecord }>>();
  for (const n of notices) {
    const list = byRule.get(n.rule.id);
    if (list) list.push(n);
    else byRule.set(n.rule.id, [n]);
  }
  const out: Array<{ rule: AlertRuleRecord; alert: AlertRecord; shown: Alert }> = [];
  for (const list of byRule.values()) {
    for (const { rule, alert } of list.slice(0, perRule)) out.push({ rule, alert, shown: publicAlert(alert, rule) });
    const rest = list.slice(perRule);
    if (rest.length === 0) continue;
    const { rule, alert } = rest[0];
    const named = rest.slice(0, SUMMARY_SUBJECTS).map((n) => n.alert.subject);
    const more = `y ${rest.length} más`;
    out.push({
      rule,
      alert,
      shown: {
        ...publicAlert(alert, rule),
        subject: more,
        message: `${more} en esta evaluación (${named.join(', ')}${rest.length > named.length ? '…' : ''}): míralas en Alertas`,
        value: null,
        threshold: null,
        figures: { alerts: rest.length },
      },
    });
  }
  return out;
}
