// Alertas: what fired and the bell, mute / unmute (one's own, or an admin's for everyone), rules (any user; its creator or an admin
// changes it), each user's channels, and a manual evaluation (admins). Every change is audited;
// marking alerts read is the reader's own position (like a session's last use) and is not.
import type Router from '@koa/router';
import { contract } from '@adops/core';
import { httpError } from '../errors.js';
import { actorOf, bind, type Ctx, type HttpServices } from '../http.js';
import type { AlertCaller } from '../services/alert-views.js';
import { checkRuleAction } from '../services/alert-guard.js';
import { checkRuleTarget } from '../services/known-names.js';

const caller = (ctx: Ctx): AlertCaller => {
  const u = ctx.state.user!;
  return { id: u.id, email: u.email, is_admin: u.is_admin };
};

const ruleTarget = (r: { id: string; name: string }) => ({ kind: 'alert_rule', id: r.id, label: r.name });
const alertTarget = (a: { id: string; rule_name: string; subject: string }) => ({ kind: 'alert', id: a.id, label: `${a.rule_name}: ${a.subject}` });

export function alertRoutes(router: Router, s: HttpServices): void {
  const r = contract.alerts;

  bind(router, s.guards, r.list, (q, ctx) => s.alerts.list(caller(ctx).id, q, caller(ctx)));

  bind(router, s.guards, r.unread, async (_, ctx) => ({ unread: await s.alerts.unread(caller(ctx).id) }));

  bind(router, s.guards, r.markRead, async (_, ctx) => ({ unread: await s.alerts.markRead(caller(ctx).id) }));

  // A mute is the caller's own unless an admin chooses everyone's; both are audited, with whom it hides the alert from.
  const muteState = (a: { state: string; muted_until: string | null; muted_for: string | null }) => ({
    state: a.state,
    muted_until: a.muted_until,
    muted_for: a.muted_for,
  });

  bind(router, s.guards, r.mute, async ({ id, minutes, for_everyone }, ctx) => {
    const { before, after } = await s.alerts.mute(caller(ctx), id, minutes, for_everyone);
    await s.audit.record(actorOf(ctx), { action: 'alert.mute', target: alertTarget(after), before: muteState(before), after: muteState(after) });
    return after;
  });

  bind(router, s.guards, r.unmute, async ({ id, for_everyone }, ctx) => {
    const { before, after } = await s.alerts.unmute(caller(ctx), id, for_everyone);
    await s.audit.record(actorOf(ctx), { action: 'alert.unmute', target: alertTarget(after), before: muteState(before), after: muteState(after) });
    return after;
  });

  bind(router, s.guards, r.rules, () => s.alerts.rules());

  bind(router, s.guards, r.createRule, async (input, ctx) => {
    checkRuleAction(caller(ctx), undefined, { action: input.action, kind: input.kind });
    await checkRuleTarget(s.reports, input);
    const rule = await s.alerts.createRule(caller(ctx), input);
    await s.audit.record(actorOf(ctx), { action: 'alert_rule.create', target: ruleTarget(rule), before: null, after: rule });
    return rule;
  });

  bind(router, s.guards, r.updateRule, async ({ id, ...change }, ctx) => {
    checkRuleAction(caller(ctx), await s.store.alerts.rules.byId(id), { action: change.action, kind: change.spec?.kind });
    await checkRuleTarget(s.reports, change.spec);
    const { before, after } = await s.alerts.updateRule(caller(ctx), id, change);
    await s.audit.record(actorOf(ctx), { action: 'alert_rule.update', target: ruleTarget(after), before, after });
    return after;
  });

  bind(router, s.guards, r.deleteRule, async ({ id }, ctx) => {
    checkRuleAction(caller(ctx), await s.store.alerts.rules.byId(id), {});
    const rule = await s.alerts.deleteRule(caller(ctx), id);
    await s.audit.record(actorOf(ctx), { action: 'alert_rule.delete', target: ruleTarget(rule), before: rule, after: null });
  });

  bind(router, s.guards, r.subscription, (_, ctx) => s.alerts.subscription(caller(ctx).id));

  bind(router, s.guards, r.setSubscription, async (input, ctx) => {
    const u = caller(ctx);
    // The server POSTs to a webhook from inside the network: only admins may aim it somewhere new
    // (staff keep, or remove, one an admin set).
    if (input.webhook_url !== null && !u.is_admin && input.webhook_url !== (await s.alerts.subscription(u.id)).webhook_url)
      throw httpError(403, 'Solo un administrador puede configurar un webhook (el servidor envía peticiones a esa dirección).');
    const { before, after } = await s.alerts.setSubscription(u.id, input);
    await s.audit.record(actorOf(ctx), {
      action: 'alert_subscription.update',
      target: { kind: 'alert_subscription', id: u.id, label: u.email },
      before,
      after,
    });
    return after;
  });

  bind(router, s.guards, r.stream, async (q, ctx) => {
    const header = ctx.get('last-event-id').trim();
    let lastEventId = /^\d{1,15}$/.test(header) ? Number(header) : q.lastEventId;
    // A resume point past every id handed out belongs to another bus (a restart in memory): start live.
    const latest = lastEventId === undefined ? undefined : await s.alertStream.latestId().catch(() => undefined);
    if (lastEventId !== undefined && latest !== undefined && lastEventId > latest) lastEventId = undefined;
    // The stream keeps the session's ids, not the request's context.
    const { session_id, id } = ctx.state.user!;
    const { rule_ids } = await s.alerts.subscription(id);
    s.alertStream.open(ctx, {
      ruleIds: rule_ids,
      lastEventId,
      alive: () => s.auth.alive(session_id, id),
      aliveKey: `${id}\n${session_id}`,
      take: () => s.streams.take(id),
    });
  });

  bind(router, s.guards, r.evaluations, ({ id, ...q }) => s.alerts.evaluations(id, q));

  // Backtests read and simulate only: nothing stored, nothing audited, Meta never called.
  bind(router, s.guards, r.backtestRule, ({ id, days }) => s.backtest.saved(id, days));

  bind(router, s.guards, r.backtest, ({ days, ...rule }) => s.backtest.unsaved(rule, days));

  bind(router, s.guards, r.evaluate, async (_, ctx) => {
    const result = await s.alerts.evaluate();
    await s.audit.record(actorOf(ctx), {
      action: 'alerts.evaluate',
      target: { kind: 'alert_rule', id: null, label: 'Todas las reglas' },
      after: result,
    });
    return result;
  });
}
