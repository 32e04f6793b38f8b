// Alertas: rules (any user creates; its creator or an admin changes or deletes), what they fired,
// each user's channels and the bell's count, and the evaluator — every minute on a schedule,
// one instance at a time (a lock with an expiry in the entity store), one unresolved alert per
// rule and subject, a cooldown between notices, resolved when the condition clears. The clock
// is injected (tests move it; the schedule is off in tests unless asked).
// How rules and alerts look to the faces is alert-views.ts; how notices reach e-mail and
// webhooks, alert-outbox.ts.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  AlertRuleSpec,
  EVALUATION_RETENTION_DAYS,
  EVALUATIONS_PER_RULE,
  type AlertEvaluationList,
  type Alert,
  type AlertEvaluation,
  type AlertList,
  type AlertRule,
  type AlertSubscription,
} from '@adops/core';
import type { Config } from '../config.js';
import { DomainError } from '../domain-errors.js';
import { AlertNotifier, type DeliveryListener } from './alert-outbox.js';
import { DEFAULT_SUBSCRIPTION, publicAlert, publicRule, type AlertCaller, type AlertChangeEvent, type AlertViewer } from './alert-views.js';
import type {
  AlertEvaluationInput,
  AlertEvaluationOutcome,
  AlertMuteRecord,
  AlertRecord,
  AlertRuleRecord,
  AlertSubscriptionRecord,
  AlertUpdate,
  EntityStore,
} from '../store/types.js';
import { muteInForce } from '../store/alert-types.js';
import type { Warehouse } from '../warehouse/index.js';
import type { ProfitService } from './profit.js';
import { matchedOf, roundQueries, verdicts, type Finding, type Verdict } from './alert-rules.js';
import { actionRecord, type AlertGuard } from './alert-guard.js';
import type { GuardDecision, GuardedFinding } from './alert-guard-engine.js';
import { evaluationEntries, planAlerts } from './alert-plan.js';
import type { WebhookOptions } from './alert-channels.js';
import { systemResolve, webhookPolicy, webhookUrlRefusal, type Resolve, type WebhookPolicy } from './webhook-address.js';

export const EVALUATOR_LOCK = 'alerts-evaluator';

/** Alerts opened or changed by the evaluator per store call (one write on lowdb, one statement on PostgreSQL). */
const STORE_BATCH = 1000;

/** A change the evaluator stores at the end of its round, and what follows once the store took it. */
interface PendingUpdate {
  rule: AlertRuleRecord;
  update: AlertUpdate;
  stored?: (alert: AlertRecord) => void;
}

/** `work` on each item, one after the other; the answers in order. */
async function sequence<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) out.push(await work(item));
  return out;
}

export interface AlertServiceOptions {
  now?: () => number;
  /** Webhook retries (tests shorten the backoff). */
  webhook?: Partial<WebhookOptions>;
  /** Where each delivery's outcome goes (tests read it). */
  onDelivery?: DeliveryListener;
  /** The profit guard: campaign rules' actions on Meta (alert-guard.ts). */
  guard?: Pick<AlertGuard, 'apply'>;
  /** Alerts that fired (or fired again) and resolved in an evaluation, for the live stream (alert-stream.ts). */
  onChange?: (changes: AlertChangeEvent[]) => void;
}

export class AlertService {
  private readonly now: () => number;
  private readonly owner = randomUUID();
  private readonly webhookPolicy: WebhookPolicy;
  private readonly resolve: Resolve;
  /** Delivers the notices of each evaluation in the background (alert-outbox.ts). */
  private readonly notifier: AlertNotifier;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  /** Each user's rule creations, one after the other, so a burst of them is counted against the quota as it comes. */
  private readonly creating = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: EntityStore,
    private readonly warehouse: Pick<Warehouse, 'zoneReports' | 'alerts'>,
    private readonly profit: Pick<ProfitService, 'dayRows'>,
    private readonly config: Pick<Config, 'tz' | 'alerts' | 'currency' | 'quotas'>,
    private readonly log: (line: string) => void,
    private readonly options: AlertServiceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.webhookPolicy = webhookPolicy(config.alerts.webhookAllow ?? []);
    this.resolve = config.alerts.webhookResolve ?? systemResolve;
    this.notifier = new AlertNotifier(store, config, log, this.now, this.webhookPolicy, this.resolve, options);
  }

  /* ---------------------------------------------------------------- rules */

  async rules(): Promise<AlertRule[]> {
    return (await this.store.alerts.rules.list()).map(publicRule);
  }

  /**
   * A new rule in the caller's name, within their quota (admins too: every rule costs each
   * evaluation the same, whoever made it). 409, not 429: waiting does not free a place, deleting
   * one of their rules does.
   */
  createRule(
    caller: AlertCaller,
    input: { name: string; enabled: boolean; cooldown_minutes: number; action?: AlertRule['action'] } & AlertRuleSpec,
  ): Promise<AlertRule> {
    const previous = this.creating.get(caller.id) ?? Promise.resolve();
    const created = previous.catch(() => undefined).then(() => this.createWithinQuota(caller, input));
    const settled = created.catch(() => undefined);
    this.creating.set(caller.id, settled);
    void settled.then(() => {
      if (this.creating.get(caller.id) === settled) this.creating.delete(caller.id);
    });
    return created;
  }

  private async createWithinQuota(
    caller: AlertCaller,
    input: { name: string; enabled: boolean; cooldown_minutes: number; action?: AlertRule['action'] } & AlertRuleSpec,
  ): Promise<AlertRule> {
    const max = this.config.quotas.alertRules;
    const own = (await this.store.alerts.rules.list()).filter((r) => r.created_by === caller.id).length;
    if (own >= max)
      throw new DomainError(
        'conflict',
        `Has llegado al máximo de ${max} reglas de alerta por usuario (ADOPS_MAX_ALERT_RULES): borra alguna de las tuyas para crear otra.`,
      );
    const at = new Date(this.now()).toISOString();
    const record: AlertRuleRecord = {
      id: randomUUID(),
      name: input.name,
      kind: input.kind,
      params: input.params as Record<string, unknown>,
      enabled: input.enabled,
      cooldown_minutes: input.cooldown_minutes,
      created_by: caller.id,
      created_by_email: caller.email,
      created_at: at,
      updated_at: at,
      action: actionRecord(input.action),
    };
    await this.store.alerts.rules.create(record);
    return publicRule(record);
  }

  private async ownRule(caller: AlertCaller, id: string): Promise<AlertRuleRecord> {
    const rule = await this.store.alerts.rules.byId(id);
    if (!rule) throw new DomainError('not_found', 'Regla no encontrada');
    if (!caller.is_admin && rule.created_by !== caller.id)
      throw new DomainError('forbidden', 'Solo quien creó la regla o un administrador puede cambiarla');
    return rule;
  }

  async updateRule(
    caller: AlertCaller,
    id: string,
    change: { name?: string; enabled?: boolean; cooldown_minutes?: number; spec?: AlertRuleSpec; action?: AlertRule['action'] },
  ): Promise<{ before: AlertRule; after: AlertRule }> {
    const before = await this.ownRule(caller, id);
    const after = await this.store.alerts.rules.update(id, {
      name: change.name,
      enabled: change.enabled,
      cooldown_minutes: change.cooldown_minutes,
      kind: change.spec?.kind,
      params: change.spec?.params as Record<string, unknown> | undefined,
      action: change.action === undefined ? undefined : actionRecord(change.action),
      updated_at: new Date(this.now()).toISOString(),
    });
    if (!after) throw new DomainError('not_found', 'Regla no encontrada');
    return { before: publicRule(before), after: publicRule(after) };
  }

  async deleteRule(caller: AlertCaller, id: string): Promise<AlertRule> {
    const rule = await this.ownRule(caller, id);
    if (!(await this.store.alerts.rules.remove(id))) throw new DomainError('not_found', 'Regla no encontrada');
    await this.store.alertEvaluations.removeRule(id);
    return publicRule(rule);
  }

  /** The rule's evaluation log, latest evaluation first (every user reads every rule's, as they read its alerts). 404 without the rule. */
  async evaluations(
    id: string,
    q: { subject?: string; since?: string; outcome?: AlertEvaluationOutcome; page: number; page_size: number },
  ): Promise<AlertEvaluationList> {
    if (!(await this.store.alerts.rules.byId(id))) throw new DomainError('not_found', 'Regla no encontrada');
    const repo = this.store.alertEvaluations;
    const filter = { rule_id: id, subject: q.subject, since: q.since, outcome: q.outcome };
    let { rows, total } = await repo.list(filter, (q.page - 1) * q.page_size, q.page_size);
    const page_count = Math.max(1, Math.ceil(total / q.page_size));
    const page = Math.min(q.page, page_count);
    if (page !== q.page) ({ rows, total } = await repo.list(filter, (page - 1) * q.page_size, q.page_size));
    return {
      rows,
      total_rows: total,
      page,
      page_size: q.page_size,
      page_count,
      sort: null,
      totals: { last_evaluated_at: await repo.lastEvaluated(id), retention_days: EVALUATION_RETENTION_DAYS, per_rule: EVALUATIONS_PER_RULE },
    };
  }

  /* ---------------------------------------------------------------- alerts */

  private async subscriptionOf(userId: string): Promise<AlertSubscriptionRecord> {
    return (await this.store.alerts.subscription(userId)) ?? DEFAULT_SUBSCRIPTION(userId);
  }

  /** The bell's count: alerts of the user's rules fired since they last read them, but those muted for them. */
  async unread(userId: string): Promise<number> {
    const sub = await this.subscriptionOf(userId);
    if (!sub.in_app) return 0;
    const filter = { rule_ids: sub.rule_ids, fired_after: sub.read_at ?? undefined };
    const viewer = { user_id: userId, at: new Date(this.now()).toISOString() };
    const [fired, muted] = await Promise.all([
      this.store.alerts.list(filter, 0, 0),
      this.store.alerts.list({ ...filter, state: 'muted', viewer }, 0, 0),
    ]);
    return fired.total - muted.total;
  }

  /** The viewer's own mutes in force among `alerts`, by alert id. */
  private async mutesOf(viewerId: string, alerts: readonly AlertRecord[]): Promise<Map<string, AlertMuteRecord>> {
    const held = alerts.filter((a) => a.state === 'open');
    if (held.length === 0) return new Map();
    const at = new Date(this.now()).toISOString();
    const byId = new Map(held.map((a) => [a.id, a]));
    const mutes = await this.store.alerts.mutes({ user_id: viewerId, alert_ids: [...byId.keys()] });
    return new Map(mutes.filter((m) => muteInForce(m, byId.get(m.alert_id)!, at)).map((m) => [m.alert_id, m]));
  }

  /** The alert as `viewer` sees it (their own mute included). */
  private async shownTo(a: AlertRecord, viewer: AlertViewer): Promise<Alert> {
    const [rule, mutes] = await Promise.all([this.store.alerts.rules.byId(a.rule_id), this.mutesOf(viewer.id, [a])]);
    return publicAlert(a, rule, viewer, mutes.get(a.id));
  }

  async markRead(userId: string): Promise<number> {
    const sub = await this.subscriptionOf(userId);
    await this.store.alerts.setSubscription({ ...sub, read_at: new Date(this.now()).toISOString() });
    return 0;
  }

  async list(
    userId: string,
    q: { state?: Alert['state']; rule_id?: string; page: number; page_size: number },
    viewer: AlertViewer = { id: userId, is_admin: false },
  ): Promise<AlertList> {
    const rules = new Map((await this.store.alerts.rules.list()).map((r) => [r.id, r]));
    // States as the reader sees them: an alert they muted is under 'muted', not 'open'.
    const filter = { state: q.state, rule_id: q.rule_id, viewer: { user_id: userId, at: new Date(this.now()).toISOString() } };
    let { rows, total } = await this.store.alerts.list(filter, (q.page - 1) * q.page_size, q.page_size);
    const page_count = Math.max(1, Math.ceil(total / q.page_size));
    const page = Math.min(q.page, page_count);
    if (page !== q.page) ({ rows, total } = await this.store.alerts.list(filter, (page - 1) * q.page_size, q.page_size));
    const [unread, open, mutes] = await Promise.all([
      this.unread(userId),
      this.store.alerts.list({ state: 'open', viewer: filter.viewer }, 0, 0),
      this.mutesOf(userId, rows),
    ]);
    return {
      rows: rows.map((a) => publicAlert(a, rules.get(a.rule_id), viewer, mutes.get(a.id))),
      total_rows: total,
      page,
      page_size: q.page_size,
      page_count,
      sort: null,
      totals: { unread, open: open.total },
    };
  }

  /** The alert as `viewer` sees it (absent: as stored, every notice). */
  async byId(id: string, viewer?: AlertViewer): Promise<Alert> {
    const a = await this.store.alerts.byId(id);
    if (!a) throw new DomainError('not_found', 'Alerta no encontrada');
    return viewer ? this.shownTo(a, viewer) : publicAlert(a, await this.store.alerts.rules.byId(a.rule_id));
  }

  /**
   * Mutes an unresolved alert (for `minutes`, or until it resolves) for the caller only: the
   * others still see it open. An admin may mute it for everyone instead (`forEveryone`).
   */
  async mute(caller: AlertCaller, id: string, minutes: number | null, forEveryone = false): Promise<{ before: Alert; after: Alert }> {
    if (forEveryone && !caller.is_admin)
      throw new DomainError('forbidden', 'Solo un administrador puede silenciar una alerta para todos; puedes silenciarla para ti');
    const before = await this.byId(id, caller);
    if (before.state === 'resolved') throw new DomainError('conflict', 'La alerta ya está resuelta');
    const now = this.now();
    const until = minutes === null ? null : new Date(now + minutes * 60_000).toISOString();
    if (forEveryone) {
      const after = await this.store.alerts.update(id, { state: 'muted', muted_until: until, muted_by: caller.email }, ['open', 'muted']);
      if (!after) throw new DomainError('conflict', 'La alerta ya está resuelta');
      return { before, after: await this.shownTo(after, caller) };
    }
    const mine = await this.store.alerts.mute({ alert_id: id, user_id: caller.id, by: caller.email, until, at: new Date(now).toISOString() });
    if (!mine) throw new DomainError('conflict', 'La alerta ya está resuelta');
    return { before, after: await this.byId(id, caller) };
  }

  /** Lifts the caller's own mute, or (an admin, `forEveryone`) the mute for everyone. */
  async unmute(caller: AlertCaller, id: string, forEveryone = false): Promise<{ before: Alert; after: Alert }> {
    if (forEveryone && !caller.is_admin) throw new DomainError('forbidden', 'Solo un administrador puede quitar un silencio para todos');
    const before = await this.byId(id, caller);
    if (forEveryone) {
      if (before.muted_for !== 'everyone') throw new DomainError('conflict', 'La alerta no está silenciada para todos');
      const after = await this.store.alerts.update(id, { state: 'open', muted_until: null, muted_by: null }, ['muted']);
      if (!after) throw new DomainError('conflict', 'La alerta no está silenciada para todos');
      return { before, after: await this.shownTo(after, caller) };
    }
    const stored = await this.store.alerts.byId(id);
    const mine = stored ? (await this.mutesOf(caller.id, [stored])).get(id) : undefined;
    if (!mine || !(await this.store.alerts.unmute(id, caller.id)))
      throw new DomainError(
        'conflict',
        before.muted_for === 'everyone'
          ? 'La alerta está silenciada para todos: solo un administrador puede quitar ese silencio'
          : 'No tienes esta alerta silenciada',
      );
    return { before, after: await this.byId(id, caller) };
  }

  /* ---------------------------------------------------------------- channels */

  async subscription(userId: string): Promise<AlertSubscription> {
    const { user_id: _, read_at: __, ...sub } = await this.subscriptionOf(userId);
    return sub;
  }

  /**
   * Sets the user's channels; a new webhook URL gets a new signing secret. A webhook the server
   * may not send to (this server, a private or link-local network … see webhook-address.ts) is
   * refused with 400, nothing stored.
   */
  async setSubscription(
    userId: string,
    input: { in_app: boolean; email: boolean; webhook_url: string | null; rule_ids: string[] | null; digest: boolean },
  ): Promise<{ before: AlertSubscription; after: AlertSubscription }> {
    if (input.webhook_url !== null) {
      const refused = await webhookUrlRefusal(input.webhook_url, this.webhookPolicy, this.resolve);
      if (refused) throw new DomainError('invalid', refused);
    }
    const current = await this.subscriptionOf(userId);
    const secret =
      input.webhook_url === null
        ? null
        : input.webhook_url === current.webhook_url && current.webhook_secret
          ? current.webhook_secret
          : randomBytes(24).toString('hex');
    const next: AlertSubscriptionRecord = { ...current, ...input, webhook_secret: secret };
    const before = await this.subscription(userId);
    await this.store.alerts.setSubscription(next);
    return { before, after: await this.subscription(userId) };
  }

  /* ---------------------------------------------------------------- evaluation */

  /** Starts the schedule (every config.alerts.everySeconds; 0: never). */
  start(): void {
    const every = this.config.alerts.everySeconds;
    if (every <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.evaluate()
        .catch((e) => this.log(`alerts: evaluation failed: ${(e as Error).message}`))
        .finally(() => {
          this.running = null;
        });
    }, every * 1000);
    this.timer.unref();
  }

  /** Stops the schedule; notices still being delivered stop trying (their outcome is kept). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await this.notifier.close();
  }

  /** Resolves once every notice handed out so far has been delivered or given up (its outcome kept with the alert). */
  deliveries(): Promise<void> {
    return this.notifier.settled();
  }

  /**
   * One evaluation of every enabled rule at `now` (the injected clock by default): new alerts
   * opened and notified, re-fires within the cooldown reopened silently, cleared ones resolved,
   * expired mutes lifted. Nothing runs (ran: false) while another instance holds the lock.
   */
  async evaluate(now = this.now()): Promise<AlertEvaluation> {
    const result: AlertEvaluation = { ran: false, rules: 0, fired: 0, resolved: 0, notified: 0, errors: [] };
    const rules = (await this.store.alerts.rules.list()).filter((r) => r.enabled);
    // No rule, no lock: a server without rules never writes for the evaluator.
    if (rules.length === 0) return { ...result, ran: true };
    const ttl = Math.max(30_000, this.config.alerts.everySeconds * 1000 - 5_000);
    const at = new Date(now).toISOString();
    if (!(await this.store.alerts.acquireLock(EVALUATOR_LOCK, this.owner, at, new Date(now + ttl).toISOString()))) return result;
    result.ran = true;
    const notices: Array<{ rule: AlertRuleRecord; alert: AlertRecord }> = [];
    // The round's changes are stored in batches once every rule is evaluated (a few writes on
    // lowdb however many alerts open at once), then told in the order they were found: `events`
    // keeps a place for each, filled when the store took it.
    const events: Array<AlertChangeEvent | null> = [];
    const place = () => events.push(null) - 1;
    const updates: Array<PendingUpdate> = [];
    const opens: Array<{ rule: AlertRuleRecord; alert: AlertRecord; event: number }> = [];
    // The rules of a round share their warehouse queries (one per kind and window).
    const round = roundQueries(rules);
    // What each evaluation made of each subject, stored in one write at the round's end.
    const logged: AlertEvaluationInput[] = [];
    for (const rule of rules) {
      result.rules++;
      let all: Verdict[];
      try {
        AlertRuleSpec.parse({ kind: rule.kind, params: rule.params });
        all = await verdicts(rule.kind, rule.params, {
          warehouse: this.warehouse,
          profit: this.profit,
          tz: this.config.tz,
          currency: this.config.currency,
          now,
          round,
        });
      } catch (e) {
        result.errors.push({ rule_id: rule.id, detail: (e as Error).message });
        this.log(`alerts: rule ${rule.id} failed: ${(e as Error).message}`);
        continue;
      }
      let found: Array<Finding | GuardedFinding> = matchedOf(all);
      let recovered: GuardDecision['recovered'] = [];
      // A campaign rule's action (pause on Meta, or notify only) acts and says so in each finding's sentence.
      if (rule.action && this.options.guard) {
        const matched = found;
        const decision = await this.options.guard.apply(rule, all, matched, now).catch((e: Error) => {
          this.log(`alerts: guard of rule ${rule.id} failed: ${e.message}`);
          return { findings: matched, recovered: [] };
        });
        found = decision.findings;
        recovered = decision.recovered;
      }
      const unresolved = await this.store.alerts.unresolved(rule.id);
      const held = new Set(unresolved.map((a) => a.subject));
      const lasts = new Map<string, AlertRecord | undefined>();
      for (const f of found) if (!held.has(f.subject)) lasts.set(f.subject, (await this.store.alerts.history(rule.id, f.subject, 1))[0]);
      const plan = planAlerts(found, unresolved, (subject) => lasts.get(subject), now, rule.cooldown_minutes);
      logged.push(...evaluationEntries(rule.id, all, found, recovered, plan, rule.cooldown_minutes));
      for (const a of plan.resolve) {
        const event = place();
        updates.push({
          rule,
          update: { id: a.id, change: { state: 'resolved', resolved_at: at }, states: ['open', 'muted'] },
          stored: (resolved) => {
            result.resolved++;
            events[event] = { event: 'resolved', alert: publicAlert(resolved, rule), at };
          },
        });
      }
      for (const { alert: a, finding: f } of plan.unmute)
        updates.push({
          rule,
          update: {
            id: a.id,
            change: { state: 'open', muted_until: null, muted_by: null, value: f.value, message: f.message, figures: f.figures },
            states: ['muted'],
          },
        });
      const change = (f: Finding) => ({ value: f.value, threshold: f.threshold, message: f.message, figures: f.figures });
      for (const { last, finding: f } of plan.reopen) {
        // Within the cooldown of its last notice: the same alert again, without a new notice.
        const event = place();
        updates.push({
          rule,
          update: { id: last.id, change: { ...change(f), state: 'open', resolved_at: null, fire_count: last.fire_count + 1 }, states: ['resolved'] },
          stored: (again) => {
            result.fired++;
            events[event] = { event: 'fired', alert: publicAlert(again, rule), at };
          },
        });
      }
      for (const f of plan.open) {
        const alert: AlertRecord = {
          id: randomUUID(),
          rule_id: rule.id,
          subject: f.subject,
          state: 'open',
          ...change(f),
          opened_at: at,
          fired_at: at,
          resolved_at: null,
          muted_until: null,
          muted_by: null,
          fire_count: 1,
          deliveries: [],
        };
        opens.push({ rule, alert, event: place() });
      }
    }
    // A batch the store refuses as a whole (say, a subject it cannot hold) goes again one by one,
    // so that only what it refuses is left out (and told as the rule's error).
    const refused = (rule: AlertRuleRecord) => (e: Error) => {
      result.errors.push({ rule_id: rule.id, detail: e.message });
      this.log(`alerts: an alert of rule ${rule.id} was not stored: ${e.message}`);
      return undefined;
    };
    for (let i = 0; i < updates.length; i += STORE_BATCH) {
      const batch = updates.slice(i, i + STORE_BATCH);
      const stored = await this.store.alerts
        .updateMany(batch.map((u) => u.update))
        .catch(() => sequence(batch, (u) => this.store.alerts.update(u.update.id, u.update.change, u.update.states).catch(refused(u.rule))));
      stored.forEach((a, j) => {
        if (a) batch[j].stored?.(a);
      });
    }
    for (let i = 0; i < opens.length; i += STORE_BATCH) {
      const batch = opens.slice(i, i + STORE_BATCH);
      const opened = await this.store.alerts
        .openMany(batch.map((o) => o.alert))
        .catch(() => sequence(batch, (o) => this.store.alerts.open(o.alert).catch(refused(o.rule))));
      opened.forEach((ok, j) => {
        if (!ok) return;
        const { rule, alert, event } = batch[j];
        result.fired++;
        notices.push({ rule, alert });
        events[event] = { event: 'fired', alert: publicAlert(alert, rule), at };
      });
    }
    const changes = events.filter((e) => e !== null);
    if (changes.length > 0) this.options.onChange?.(changes);
    // The evaluation log: a diagnostic, so a failure to keep it is logged and the round goes on.
    await this.store.alertEvaluations
      .record(at, logged, { keepSince: new Date(now - EVALUATION_RETENTION_DAYS * 86_400_000).toISOString(), perRule: EVALUATIONS_PER_RULE })
      .catch((e: Error) => this.log(`alerts: the evaluation log of this round was not stored: ${e.message}`));
    result.notified = await this.notifier.notify(notices);
    return result;
  }
}
