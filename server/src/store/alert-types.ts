// The entity store's part for Alertas: rules, the alerts they fired (one unresolved alert per
// rule and subject, whatever the number of instances), users' channels, and named locks with an
// expiry (one evaluator at a time). lowdb/alerts.ts and postgres/alerts.ts implement it.

import type { AlertRuleActionRecord } from './alert-action-types.js';

export type AlertStateValue = 'open' | 'resolved' | 'muted';

export interface AlertRuleRecord {
  id: string;
  name: string;
  kind: string;
  /** The kind's parameters as the contract parsed them. */
  params: Record<string, unknown>;
  enabled: boolean;
  cooldown_minutes: number;
  /** The creating user's id and e-mail (then). */
  created_by: string;
  created_by_email: string;
  created_at: string;
  updated_at: string;
  /** Campaign rules: the profit guard's action (absent or null: none). */
  action?: AlertRuleActionRecord | null;
}

export type AlertRuleChange = Partial<Pick<AlertRuleRecord, 'name' | 'kind' | 'params' | 'enabled' | 'cooldown_minutes' | 'updated_at' | 'action'>>;

export interface AlertRecord {
  id: string;
  rule_id: string;
  /** What it is about: a zone id, publisher, advertiser, host, IP, campaign or ad set id. */
  subject: string;
  state: AlertStateValue;
  message: string;
  value: number | null;
  threshold: number | null;
  figures: Record<string, number | null>;
  opened_at: string;
  fired_at: string;
  resolved_at: string | null;
  muted_until: string | null;
  muted_by: string | null;
  fire_count: number;
  /** Its notices, oldest first (appended by addDelivery, never through update). */
  deliveries: AlertDeliveryRecord[];
}

/** One notice of an alert on one user's e-mail or webhook: the outcome, tries, when. */
export interface AlertDeliveryRecord {
  channel: 'email' | 'webhook';
  user_id: string;
  /** The user's e-mail then. */
  to: string;
  status: 'sent' | 'failed';
  attempts: number;
  detail: string;
  at: string;
}

/** The daily digest of one reporting day for one user: claimed by one instance, then sent or failed. */
export interface AlertDigestRecord {
  /** The reporting day it is sent on (YYYY-MM-DD, ADOPS_TZ). */
  date: string;
  user_id: string;
  status: 'sending' | 'sent' | 'failed';
  attempts: number;
  detail: string;
  claimed_at: string;
  finished_at: string | null;
}

export type AlertChange = Partial<Omit<AlertRecord, 'id' | 'rule_id' | 'subject' | 'opened_at' | 'deliveries'>>;

/** One entry of updateMany: the alert, its change, and the states it must be in (any when absent). */
export interface AlertUpdate {
  id: string;
  change: AlertChange;
  states?: readonly AlertStateValue[];
}

export interface AlertFilter {
  /** With `viewer`: the state as that user sees it (an alert they muted reads as 'muted'). */
  state?: AlertStateValue;
  rule_id?: string;
  /** Only alerts of these rules (null or absent: any). */
  rule_ids?: readonly string[] | null;
  /** Only alerts that fired strictly after this instant. */
  fired_after?: string;
  /** Whose mutes count for `state`, and when (a mute whose time is over no longer does). */
  viewer?: { user_id: string; at: string };
}

/**
 * One user's mute of an alert: it hides the alert for that user only (an admin's mute for
 * everyone is the alert's own state 'muted'). It holds while the alert stays unresolved at the
 * firing it was muted on (`fire_count`), until `until` (null: until it resolves).
 */
export interface AlertMuteRecord {
  alert_id: string;
  user_id: string;
  /** The user's e-mail then. */
  by: string;
  until: string | null;
  fire_count: number;
  at: string;
}

/** Whether a user's mute still hides the alert at `at`. */
export function muteInForce(m: Pick<AlertMuteRecord, 'until' | 'fire_count'>, a: Pick<AlertRecord, 'state' | 'fire_count'>, at: string): boolean {
  return a.state !== 'resolved' && m.fire_count === a.fire_count && (m.until === null || Date.parse(m.until) > Date.parse(at));
}

export interface AlertSubscriptionRecord {
  user_id: string;
  in_app: boolean;
  email: boolean;
  webhook_url: string | null;
  webhook_secret: string | null;
  /** null: every rule. */
  rule_ids: string[] | null;
  /** The bell counts alerts fired after this (null: every one). */
  read_at: string | null;
  /** 'Resumen diario' by e-mail. */
  digest: boolean;
}

export interface AlertRuleRepository {
  /** Every rule, in creation order. */
  list(): Promise<AlertRuleRecord[]>;
  byId(id: string): Promise<AlertRuleRecord | undefined>;
  /** StoreConflictError (`id`) when the id is taken. */
  create(rule: AlertRuleRecord): Promise<void>;
  update(id: string, change: AlertRuleChange): Promise<AlertRuleRecord | undefined>;
  /** Removes the rule and its alerts; false when no such rule. */
  remove(id: string): Promise<boolean>;
}

export interface AlertRepository {
  readonly rules: AlertRuleRepository;
  /** Matching alerts, latest fired first, from `offset`, at most `limit`, and how many match. */
  list(filter: AlertFilter, offset: number, limit: number): Promise<{ rows: AlertRecord[]; total: number }>;
  byId(id: string): Promise<AlertRecord | undefined>;
  /** The rule's alerts on this subject, newest opened first (at most `limit`). */
  history(ruleId: string, subject: string, limit: number): Promise<AlertRecord[]>;
  /** The rule's alerts that are not resolved (open or muted). */
  unresolved(ruleId: string): Promise<AlertRecord[]>;
  /**
   * Stores a new alert unless its rule already has an unresolved one on the same subject (then
   * false, storing nothing): two evaluators never open the same alert twice.
   */
  open(alert: AlertRecord): Promise<boolean>;
  /**
   * `open` for each alert of a batch, in order, in one write (lowdb) or one statement
   * (PostgreSQL), with the same guarantee: an alert is refused (false) when its rule has an
   * unresolved alert on its subject — stored before or earlier in the batch — or is gone.
   * Whether each was stored, in the batch's order. An id already taken: StoreConflictError
   * (`id`), and nothing of the batch is stored.
   */
  openMany(alerts: readonly AlertRecord[]): Promise<boolean[]>;
  /**
   * Applies `change` when the alert's state is one of `states` (any when absent); the stored
   * alert, or undefined when it is gone or in another state. Reopening refuses (false-like
   * undefined) when the subject has another unresolved alert meanwhile.
   */
  update(id: string, change: AlertChange, states?: readonly AlertStateValue[]): Promise<AlertRecord | undefined>;
  /**
   * `update` for each entry of a batch, in order, in one write (lowdb) or one statement
   * (PostgreSQL), each with its own guard: the stored alerts, undefined where one was refused.
   */
  updateMany(updates: readonly AlertUpdate[]): Promise<Array<AlertRecord | undefined>>;
  /**
   * Stores (or replaces) a user's mute of an alert at the alert's current firing, and answers it;
   * undefined, storing nothing, when the alert is gone or resolved.
   */
  mute(mute: Omit<AlertMuteRecord, 'fire_count'>): Promise<AlertMuteRecord | undefined>;
  /** Removes a user's mute of an alert; whether there was one. */
  unmute(alertId: string, userId: string): Promise<boolean>;
  /** Mutes as stored (in force or not): a user's (absent: everyone's), of these alerts (absent: any). */
  mutes(filter: { user_id?: string; alert_ids?: readonly string[] }): Promise<AlertMuteRecord[]>;
  subscription(userId: string): Promise<AlertSubscriptionRecord | undefined>;
  /** Creates or replaces the user's channels. */
  setSubscription(subscription: AlertSubscriptionRecord): Promise<void>;
  subscriptions(): Promise<AlertSubscriptionRecord[]>;
  /**
   * Takes the lock `name` for `owner` until `until` (ISO) when it is free, expired at `now` or
   * already `owner`'s; false when another owner holds it.
   */
  acquireLock(name: string, owner: string, now: string, until: string): Promise<boolean>;
  /** Frees the lock when `owner` holds it. */
  releaseLock(name: string, owner: string): Promise<void>;
  /** Appends one notice's outcome to the alert (nothing when the alert is gone). */
  addDelivery(alertId: string, delivery: AlertDeliveryRecord): Promise<void>;
  /**
   * Claims the digest of `date` for `userId` at `at` (true: the caller sends it, whatever the
   * number of instances): when none is recorded, or the recorded one failed, was claimed no later
   * than `retryBefore` and has fewer than `maxAttempts` tries.
   */
  claimDigest(date: string, userId: string, at: string, retryBefore: string, maxAttempts: number): Promise<boolean>;
  /** Records how a claimed digest went. */
  finishDigest(date: string, userId: string, status: 'sent' | 'failed', detail: string, at: string): Promise<void>;
  /** The digests of a day, by user id. */
  digests(date: string): Promise<AlertDigestRecord[]>;
}
