// Alert notices on their way out: the e-mail and webhook channels of each subscribed user, a few
// deliveries at a time in the background (an evaluation never waits for a receiver), each outcome
// kept with its alert, and a close that stops what has not been sent and says so.
import type { Config } from '../config.js';
import type { AlertDeliveryRecord, AlertRecord, AlertRuleRecord, EntityStore } from '../store/types.js';
import { createMailer, sendWebhook, webhookDispatcher, type Delivery, type Mailer, type WebhookOptions } from './alert-channels.js';
import { boundedNotices } from './alert-views.js';
import type { Resolve, WebhookPolicy } from './webhook-address.js';

/** Notices delivered in the background, a few at a time: an evaluation never waits for a receiver. */
class Outbox {
  private active = 0;
  private readonly waiting: Array<() => Promise<unknown>> = [];
  private idle: Array<() => void> = [];

  constructor(private readonly concurrency: number) {}

  push(job: () => Promise<unknown>): void {
    this.waiting.push(job);
    this.pump();
  }

  private pump(): void {
    while (this.active < this.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      this.active++;
      void job()
        .catch(() => undefined)
        .finally(() => {
          this.active--;
          this.pump();
        });
    }
    if (this.active === 0 && this.waiting.length === 0) for (const done of this.idle.splice(0)) done();
  }

  /** Resolves once every notice handed so far has been tried (and its outcome kept). */
  settled(): Promise<void> {
    if (this.active === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }
}

/** Notices being delivered at once (each webhook try is bounded in time; see alert-channels.ts). */
const DELIVERIES_AT_ONCE = 8;

/** Where each delivery's outcome goes besides the alert (tests read it). */
export type DeliveryListener = (d: Delivery & { channel: 'email' | 'webhook'; alert_id: string; user_id: string }) => void;

export class AlertNotifier {
  private readonly outbox = new Outbox(DELIVERIES_AT_ONCE);
  private readonly stopping = new AbortController();
  private readonly mailer: Mailer | null;
  private readonly webhook: WebhookOptions;
  private readonly onDelivery?: DeliveryListener;

  constructor(
    private readonly store: EntityStore,
    private readonly config: Pick<Config, 'alerts' | 'quotas'>,
    private readonly log: (line: string) => void,
    private readonly now: () => number,
    policy: WebhookPolicy,
    resolve: Resolve,
    options: { webhook?: Partial<WebhookOptions>; onDelivery?: DeliveryListener },
  ) {
    this.onDelivery = options.onDelivery;
    this.mailer = createMailer(config.alerts.smtpUrl, config.alerts.mailFrom);
    this.webhook = {
      attempts: config.alerts.webhookAttempts,
      backoffMs: config.alerts.webhookBackoffMs,
      timeoutMs: config.alerts.webhookTimeoutMs ?? 5_000,
      dispatcher: webhookDispatcher(policy, resolve, config.alerts.webhookConnectTimeoutMs ?? 3_000),
      signal: this.stopping.signal,
      ...options.webhook,
    };
  }

  /** Resolves once every notice handed out so far has been delivered or given up. */
  settled(): Promise<void> {
    return this.outbox.settled();
  }

  /** Notices still waiting stop trying (their outcome is kept); then the channels close. */
  async close(): Promise<void> {
    this.stopping.abort();
    await this.outbox.settled();
    this.mailer?.close();
    await (this.webhook.dispatcher as { close?: () => Promise<void> } | undefined)?.close?.();
  }

  /**
   * Hands each new alert to the e-mail and webhook channels of the users subscribed to its rule,
   * delivered in the background (the round does not wait for any receiver; `deliveries()` does),
   * at most ADOPS_ALERT_NOTICES_PER_RULE a rule, the rest told in one summary notice; how many
   * notices were handed out.
   */
  async notify(notices: ReadonlyArray<{ rule: AlertRuleRecord; alert: AlertRecord }>): Promise<number> {
    if (notices.length === 0) return 0;
    const subs = (await this.store.alerts.subscriptions()).filter((s) => s.email || s.webhook_url);
    if (subs.length === 0) return 0;
    let handed = 0;
    const users = new Map<string, ReturnType<EntityStore['users']['byId']>>();
    const userOf = (id: string) => {
      let user = users.get(id);
      if (!user) {
        user = this.store.users.byId(id);
        users.set(id, user);
      }
      return user;
    };
    for (const { rule, alert, shown } of boundedNotices(notices, this.config.quotas.alertNoticesPerRule)) {
      for (const sub of subs) {
        if (sub.rule_ids && !sub.rule_ids.includes(rule.id)) continue;
        const report = (channel: 'email' | 'webhook') => async (d: Delivery) => {
          if (!d.ok) this.log(`alerts: ${channel} to user ${sub.user_id} for alert ${alert.id} failed after ${d.attempts} tries: ${d.detail}`);
          this.onDelivery?.({ ...d, channel, alert_id: alert.id, user_id: sub.user_id });
          const record: AlertDeliveryRecord = {
            channel,
            user_id: sub.user_id,
            to: (await userOf(sub.user_id))?.email ?? sub.user_id,
            status: d.ok ? 'sent' : 'failed',
            attempts: d.attempts,
            detail: d.detail.slice(0, 500),
            at: new Date(this.now()).toISOString(),
          };
          await this.store.alerts
            .addDelivery(alert.id, record)
            .catch((e: Error) => this.log(`alerts: the outcome of a ${channel} notice of alert ${alert.id} was not stored: ${e.message}`));
          return d.ok;
        };
        // A notice still waiting when the server closes is not sent, and says so.
        const unlessStopped = (channel: 'email' | 'webhook', send: () => Promise<boolean>) => () =>
          this.stopping.signal.aborted ? report(channel)({ ok: false, attempts: 0, detail: 'El servidor se detuvo antes de entregarlo' }) : send();
        const { webhook_url: url, webhook_secret: secret } = sub;
        if (url && secret) {
          handed++;
          this.outbox.push(unlessStopped('webhook', () => sendWebhook(url, secret, shown, this.webhook, this.now).then(report('webhook'))));
        }
        const mailer = this.mailer;
        if (sub.email && mailer) {
          handed++;
          this.outbox.push(
            unlessStopped('email', () =>
              userOf(sub.user_id).then((u) => (u ? mailer.send(u.email, shown, this.config.alerts.appUrl).then(report('email')) : false)),
            ),
          );
        }
      }
    }
    return handed;
  }
}
