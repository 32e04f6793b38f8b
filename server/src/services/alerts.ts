// Alertas: rules (any user creates; its creator or an admin changes or deletes), what they fired,
// each user's channels and the bell's count, and the evaluator — every minute on a schedule,
// one instance at a time (a lock with an expiry in the entity store), one unresolved alert per
// rule and subject, a cooldown between notices, resolved when the condition clears. The clock
// is injected (tests move it; the schedule is off in tests unless asked).
import { randomBytes, randomUUID } from 'node:crypto';
import { AlertRuleSpec, type Alert, type AlertEvaluation, type AlertList, type AlertRule, type AlertSubscription } from '@adops/core';
import type { Config } from '../config.js';
import type { AlertRecord, AlertRuleRecord, AlertSubscriptionRecord, EntityStore } from '../store/types.js';
import type { Warehouse } from '../warehouse/index.js';
import type { ProfitService } from './profit.js';
import { findings, type Finding } from './alert-rules.js';
import { createMailer, sendWebhook, type Delivery, type Mailer, type WebhookOptions } from './alert-channels.js';

export const EVALUATOR_LOCK = 'alerts-evaluator';

/** Who asks: the session's user. */
export interface AlertCaller {
  id: string;
  email: string;
  is_admin: boolean;
}

export class AlertError extends Error {
  constructor(
    readonly status: 403 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export interface AlertServiceOptions {
  now?: () => number;
  /** Webhook retries (tests shorten the backoff). */
  webhook?: Partial<WebhookOptions>;
  /** Where each delivery's outcome goes (tests read it). */
  onDelivery?: (d: Delivery & { channel: 'email' | 'webhook'; alert_id: string; user_id: string }) => void;
}

const DEFAULT_SUBSCRIPTION = (userId: string): AlertSubscriptionRecord => ({
  user_id: userId,
  in_app: true,
  email: false,
  webhook_url: null,
  webhook_secret: null,
  rule_ids: null,
  read_at: null,
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
});

const publicAlert = (a: AlertRecord, rule: Pick<AlertRuleRecord, 'name' | 'kind'> | undefined): Alert => ({
  ...a,
  rule_name: rule?.name ?? '',
  kind: (rule?.kind ?? 'tq_low') as Alert['kind'],
});

export class AlertService {
  private readonly now: () => number;
  private readonly owner = randomUUID();
  private readonly mailer: Mailer | null;
  private readonly webhook: WebhookOptions;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly store: EntityStore,
    private readonly warehouse: Pick<Warehouse, 'zoneReports' | 'alerts'>,
    private readonly profit: Pick<ProfitService, 'rows'>,
    private readonly config: Pick<Config, 'tz' | 'alerts'>,
    private readonly log: (line: string) => void,
    private readonly options: AlertServiceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.mailer = createMailer(config.alerts.smtpUrl, config.alerts.mailFrom);
    this.webhook = { attempts: config.alerts.webhookAttempts, backoffMs: config.alerts.webhookBackoffMs, timeoutMs: 10_000, ...options.webhook };
  }

  /* ---------------------------------------------------------------- rules */

  async rules(): Promise<AlertRule[]> {
    return (await this.store.alerts.rules.list()).map(publicRule);
  }

  async createRule(caller: AlertCaller, input: { name: string; enabled: boolean; cooldown_minutes: number } & AlertRuleSpec): Promise<AlertRule> {
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
    };
    await this.store.alerts.rules.create(record);
    return publicRule(record);
  }

  private async ownRule(caller: AlertCaller, id: string): Promise<AlertRuleRecord> {
    const rule = await this.store.alerts.rules.byId(id);
    if (!rule) throw new AlertError(404, 'Regla no encontrada');
    if (!caller.is_admin && rule.created_by !== caller.id) throw new AlertError(403, 'Solo quien creó la regla o un administrador puede cambiarla');
    return rule;
  }

  async updateRule(
    caller: AlertCaller,
    id: string,
    change: { name?: string; enabled?: boolean; cooldown_minutes?: number; spec?: AlertRuleSpec },
  ): Promise<{ before: AlertRule; after: AlertRule }> {
    const before = await this.ownRule(caller, id);
    const after = await this.store.alerts.rules.update(id, {
      name: change.name,
      enabled: change.enabled,
      cooldown_minutes: change.cooldown_minutes,
      kind: change.spec?.kind,
      params: change.spec?.params as Record<string, unknown> | undefined,
      updated_at: new Date(this.now()).toISOString(),
    });
    if (!after) throw new AlertError(404, 'Regla no encontrada');
    return { before: publicRule(before), after: publicRule(after) };
  }

  async deleteRule(caller: AlertCaller, id: string): Promise<AlertRule> {
    const rule = await this.ownRule(caller, id);
    if (!(await this.store.alerts.rules.remove(id))) throw new AlertError(404, 'Regla no encontrada');
    return publicRule(rule);
  }

  /* ---------------------------------------------------------------- alerts */

  private async subscriptionOf(userId: string): Promise<AlertSubscriptionRecord> {
    return (await this.store.alerts.subscription(userId)) ?? DEFAULT_SUBSCRIPTION(userId);
  }

  async unread(userId: string): Promise<number> {
    const sub = await this.subscriptionOf(userId);
    if (!sub.in_app) return 0;
    return (await this.store.alerts.list({ rule_ids: sub.rule_ids, fired_after: sub.read_at ?? undefined }, 0, 0)).total;
  }

  async markRead(userId: string): Promise<number> {
    const sub = await this.subscriptionOf(userId);
    await this.store.alerts.setSubscription({ ...sub, read_at: new Date(this.now()).toISOString() });
    return 0;
  }

  async list(userId: string, q: { state?: Alert['state']; rule_id?: string; page: number; page_size: number }): Promise<AlertList> {
    const rules = new Map((await this.store.alerts.rules.list()).map((r) => [r.id, r]));
    const filter = { state: q.state, rule_id: q.rule_id };
    let { rows, total } = await this.store.alerts.list(filter, (q.page - 1) * q.page_size, q.page_size);
    const page_count = Math.max(1, Math.ceil(total / q.page_size));
    const page = Math.min(q.page, page_count);
    if (page !== q.page) ({ rows, total } = await this.store.alerts.list(filter, (page - 1) * q.page_size, q.page_size));
    const [unread, open] = await Promise.all([this.unread(userId), this.store.alerts.list({ state: 'open' }, 0, 0)]);
    return {
      rows: rows.map((a) => publicAlert(a, rules.get(a.rule_id))),
      total_rows: total,
      page,
      page_size: q.page_size,
      page_count,
      sort: null,
      totals: { unread, open: open.total },
    };
  }

  async byId(id: string): Promise<Alert> {
    const a = await this.store.alerts.byId(id);
    if (!a) throw new AlertError(404, 'Alerta no encontrada');
    return publicAlert(a, await this.store.alerts.rules.byId(a.rule_id));
  }

  /** Mutes an unresolved alert (for `minutes`, or until it resolves). */
  async mute(caller: AlertCaller, id: string, minutes: number | null): Promise<{ before: Alert; after: Alert }> {
    const before = await this.byId(id);
    if (before.state === 'resolved') throw new AlertError(409, 'La alerta ya está resuelta');
    const until = minutes === null ? null : new Date(this.now() + minutes * 60_000).toISOString();
    const after = await this.store.alerts.update(id, { state: 'muted', muted_until: until, muted_by: caller.email }, ['open', 'muted']);
    if (!after) throw new AlertError(409, 'La alerta ya está resuelta');
    return { before, after: publicAlert(after, await this.store.alerts.rules.byId(after.rule_id)) };
  }

  async unmute(id: string): Promise<{ before: Alert; after: Alert }> {
    const before = await this.byId(id);
    if (before.state !== 'muted') throw new AlertError(409, 'La alerta no está silenciada');
    const after = await this.store.alerts.update(id, { state: 'open', muted_until: null, muted_by: null }, ['muted']);
    if (!after) throw new AlertError(409, 'La alerta no está silenciada');
    return { before, after: publicAlert(after, await this.store.alerts.rules.byId(after.rule_id)) };
  }

  /* ---------------------------------------------------------------- channels */

  async subscription(userId: string): Promise<AlertSubscription> {
    const { user_id: _, read_at: __, ...sub } = await this.subscriptionOf(userId);
    return sub;
  }

  /** Sets the user's channels; a new webhook URL gets a new signing secret. */
  async setSubscription(
    userId: string,
    input: { in_app: boolean; email: boolean; webhook_url: string | null; rule_ids: string[] | null },
  ): Promise<{ before: AlertSubscription; after: AlertSubscription }> {
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

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    this.mailer?.close();
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
    for (const rule of rules) {
      result.rules++;
      let found: Finding[];
      try {
        AlertRuleSpec.parse({ kind: rule.kind, params: rule.params });
        found = await findings(rule.kind, rule.params, { warehouse: this.warehouse, profit: this.profit, tz: this.config.tz, now });
      } catch (e) {
        result.errors.push({ rule_id: rule.id, detail: (e as Error).message });
        this.log(`alerts: rule ${rule.id} failed: ${(e as Error).message}`);
        continue;
      }
      const firing = new Map(found.map((f) => [f.subject, f]));
      const unresolved = await this.store.alerts.unresolved(rule.id);
      const held = new Set(unresolved.map((a) => a.subject));
      for (const a of unresolved) {
        const f = firing.get(a.subject);
        if (!f) {
          if (await this.store.alerts.update(a.id, { state: 'resolved', resolved_at: at }, ['open', 'muted'])) result.resolved++;
        } else if (a.state === 'muted' && a.muted_until !== null && Date.parse(a.muted_until) <= now) {
          await this.store.alerts.update(
            a.id,
            { state: 'open', muted_until: null, muted_by: null, value: f.value, message: f.message, figures: f.figures },
            ['muted'],
          );
        }
      }
      for (const f of found) {
        if (held.has(f.subject)) continue;
        const [last] = await this.store.alerts.history(rule.id, f.subject, 1);
        const change = { value: f.value, threshold: f.threshold, message: f.message, figures: f.figures };
        if (last && last.state === 'resolved' && now - Date.parse(last.fired_at) < rule.cooldown_minutes * 60_000) {
          // Within the cooldown of its last notice: the same alert again, without a new notice.
          if (await this.store.alerts.update(last.id, { ...change, state: 'open', resolved_at: null, fire_count: last.fire_count + 1 }, ['resolved']))
            result.fired++;
          continue;
        }
        const alert: AlertRecord = {
          id: randomUUID(),
          rule_id: rule.id,
          subject: f.subject,
          state: 'open',
          ...change,
          opened_at: at,
          fired_at: at,
          resolved_at: null,
          muted_until: null,
          muted_by: null,
          fire_count: 1,
        };
        if (await this.store.alerts.open(alert)) {
          result.fired++;
          notices.push({ rule, alert });
        }
      }
    }
    result.notified = await this.notify(notices);
    return result;
  }

  /** Sends each new alert to the e-mail and webhook channels of the users subscribed to its rule; how many deliveries succeeded. */
  private async notify(notices: ReadonlyArray<{ rule: AlertRuleRecord; alert: AlertRecord }>): Promise<number> {
    if (notices.length === 0) return 0;
    const subs = (await this.store.alerts.subscriptions()).filter((s) => s.email || s.webhook_url);
    if (subs.length === 0) return 0;
    const sends: Array<Promise<boolean>> = [];
    for (const { rule, alert } of notices) {
      const shown = publicAlert(alert, rule);
      for (const sub of subs) {
        if (sub.rule_ids && !sub.rule_ids.includes(rule.id)) continue;
        const report = (channel: 'email' | 'webhook') => (d: Delivery) => {
          if (!d.ok) this.log(`alerts: ${channel} to user ${sub.user_id} for alert ${alert.id} failed after ${d.attempts} tries: ${d.detail}`);
          this.options.onDelivery?.({ ...d, channel, alert_id: alert.id, user_id: sub.user_id });
          return d.ok;
        };
        if (sub.webhook_url && sub.webhook_secret)
          sends.push(sendWebhook(sub.webhook_url, sub.webhook_secret, shown, this.webhook, this.now).then(report('webhook')));
        if (sub.email && this.mailer) {
          const mailer = this.mailer;
          sends.push(
            this.store.users
              .byId(sub.user_id)
              .then((u) => (u ? mailer.send(u.email, shown, this.config.alerts.appUrl).then(report('email')) : false)),
          );
        }
      }
    }
    return (await Promise.all(sends)).filter(Boolean).length;
  }
}
