// Alertas on lowdb: rules, alerts, channels and locks kept in adops.json beside the other
// entities (absent until first used, so files of earlier versions stay as they were), written
// through the store's one serialised, copy-first writer.
import type {
  AlertDigestRecord,
  AlertFilter,
  AlertRecord,
  AlertRepository,
  AlertRuleRecord,
  AlertStateValue,
  AlertSubscriptionRecord,
} from './alert-types.js';
import { StoreConflictError } from './types.js';

export interface AlertStoreData {
  alertRules?: AlertRuleRecord[];
  alerts?: AlertRecord[];
  alertSubscriptions?: AlertSubscriptionRecord[];
  locks?: Array<{ name: string; owner: string; expires_at: string }>;
  alertDigests?: AlertDigestRecord[];
}

/** The store's file as this part sees it: its data and its one writer. */
export interface AlertFile {
  readonly data: Readonly<AlertStoreData>;
  update<T>(change: (draft: AlertStoreData) => T): Promise<T>;
}

const ruleCopy = (r: AlertRuleRecord): AlertRuleRecord => structuredClone(r);
// Alerts and channels of files written before deliveries and the digest read with their defaults.
const alertCopy = (a: AlertRecord): AlertRecord => ({ ...structuredClone(a), deliveries: structuredClone(a.deliveries ?? []) });
const subscriptionCopy = (s: AlertSubscriptionRecord): AlertSubscriptionRecord => ({ ...structuredClone(s), digest: s.digest ?? false });

function matches(a: AlertRecord, f: AlertFilter): boolean {
  if (f.state !== undefined && a.state !== f.state) return false;
  if (f.rule_id !== undefined && a.rule_id !== f.rule_id) return false;
  if (f.rule_ids && !f.rule_ids.includes(a.rule_id)) return false;
  if (f.fired_after !== undefined && !(Date.parse(a.fired_at) > Date.parse(f.fired_after))) return false;
  return true;
}

/** Latest fired first, then newest opened, then id (a total order). */
const newestFirst = (a: AlertRecord, b: AlertRecord) =>
  b.fired_at.localeCompare(a.fired_at) || b.opened_at.localeCompare(a.opened_at) || a.id.localeCompare(b.id);

/** Digest records are kept this many days (the day's is what stops a second send). */
export const DIGESTS_KEPT_DAYS = 31;
export const digestsKeptFrom = (date: string): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) - DIGESTS_KEPT_DAYS * 86_400_000).toISOString().slice(0, 10);

export function lowdbAlerts(file: AlertFile): AlertRepository {
  const alerts = () => file.data.alerts ?? [];
  const unresolvedOn = (list: readonly AlertRecord[], ruleId: string, subject: string, except?: string) =>
    list.some((a) => a.rule_id === ruleId && a.subject === subject && a.state !== 'resolved' && a.id !== except);
  return {
    rules: {
      list: async () => (file.data.alertRules ?? []).map(ruleCopy),
      byId: async (id) => {
        const r = file.data.alertRules?.find((x) => x.id === id);
        return r ? ruleCopy(r) : undefined;
      },
      create: (rule) =>
        file.update((d) => {
          d.alertRules ??= [];
          if (d.alertRules.some((r) => r.id === rule.id)) throw new StoreConflictError('id');
          d.alertRules.push(ruleCopy(rule));
        }),
      update: async (id, change) => {
        if (!file.data.alertRules?.some((r) => r.id === id)) return undefined;
        return file.update((d) => {
          const rule = d.alertRules?.find((r) => r.id === id);
          if (!rule) return undefined;
          for (const [k, v] of Object.entries(change)) if (v !== undefined) Object.assign(rule, { [k]: structuredClone(v) });
          return ruleCopy(rule);
        });
      },
      remove: async (id) => {
        if (!file.data.alertRules?.some((r) => r.id === id)) return false;
        return file.update((d) => {
          const before = d.alertRules?.length ?? 0;
          d.alertRules = (d.alertRules ?? []).filter((r) => r.id !== id);
          if (d.alerts) d.alerts = d.alerts.filter((a) => a.rule_id !== id);
          return d.alertRules.length < before;
        });
      },
    },
    list: async (filter, offset, limit) => {
      const matched = alerts()
        .filter((a) => matches(a, filter))
        .sort(newestFirst);
      return { rows: matched.slice(offset, offset + limit).map(alertCopy), total: matched.length };
    },
    byId: async (id) => {
      const a = alerts().find((x) => x.id === id);
      return a ? alertCopy(a) : undefined;
    },
    history: async (ruleId, subject, limit) =>
      alerts()
        .filter((a) => a.rule_id === ruleId && a.subject === subject)
        .sort((a, b) => b.opened_at.localeCompare(a.opened_at) || a.id.localeCompare(b.id))
        .slice(0, limit)
        .map(alertCopy),
    unresolved: async (ruleId) =>
      alerts()
        .filter((a) => a.rule_id === ruleId && a.state !== 'resolved')
        .map(alertCopy),
    open: async (alert) => {
      if (unresolvedOn(alerts(), alert.rule_id, alert.subject)) return false;
      return file.update((d) => {
        d.alerts ??= [];
        if (unresolvedOn(d.alerts, alert.rule_id, alert.subject)) return false;
        if (d.alerts.some((a) => a.id === alert.id)) throw new StoreConflictError('id');
        if (!d.alertRules?.some((r) => r.id === alert.rule_id)) return false;
        d.alerts.push(alertCopy(alert));
        return true;
      });
    },
    update: async (id, change, states?: readonly AlertStateValue[]) => {
      const fits = (a: AlertRecord | undefined, list: readonly AlertRecord[]): a is AlertRecord =>
        a !== undefined &&
        (!states || states.includes(a.state)) &&
        // Leaving 'resolved' must not make a second unresolved alert on the subject.
        !(a.state === 'resolved' && change.state !== undefined && change.state !== 'resolved' && unresolvedOn(list, a.rule_id, a.subject, a.id));
      if (
        !fits(
          alerts().find((a) => a.id === id),
          alerts(),
        )
      )
        return undefined;
      return file.update((d) => {
        const list = d.alerts ?? [];
        const a = list.find((x) => x.id === id);
        if (!fits(a, list)) return undefined;
        for (const [k, v] of Object.entries(change)) if (v !== undefined) Object.assign(a, { [k]: structuredClone(v) });
        return alertCopy(a);
      });
    },
    subscription: async (userId) => {
      const s = file.data.alertSubscriptions?.find((x) => x.user_id === userId);
      return s ? subscriptionCopy(s) : undefined;
    },
    setSubscription: (subscription) =>
      file.update((d) => {
        d.alertSubscriptions ??= [];
        const index = d.alertSubscriptions.findIndex((x) => x.user_id === subscription.user_id);
        if (index >= 0) d.alertSubscriptions[index] = structuredClone(subscription);
        else d.alertSubscriptions.push(structuredClone(subscription));
      }),
    subscriptions: async () => (file.data.alertSubscriptions ?? []).map(subscriptionCopy),
    acquireLock: async (name, owner, now, until) => {
      const free = (l: { owner: string; expires_at: string } | undefined) => !l || l.owner === owner || Date.parse(l.expires_at) <= Date.parse(now);
      if (!free(file.data.locks?.find((l) => l.name === name))) return false;
      return file.update((d) => {
        d.locks ??= [];
        const held = d.locks.find((l) => l.name === name);
        if (!free(held)) return false;
        if (held) Object.assign(held, { owner, expires_at: until });
        else d.locks.push({ name, owner, expires_at: until });
        return true;
      });
    },
    releaseLock: async (name, owner) => {
      if (!file.data.locks?.some((l) => l.name === name && l.owner === owner)) return;
      await file.update((d) => {
        d.locks = (d.locks ?? []).filter((l) => !(l.name === name && l.owner === owner));
      });
    },
    addDelivery: async (alertId, delivery) => {
      if (!alerts().some((a) => a.id === alertId)) return;
      await file.update((d) => {
        const a = d.alerts?.find((x) => x.id === alertId);
        if (!a) return;
        a.deliveries ??= [];
        a.deliveries.push(structuredClone(delivery));
      });
    },
    claimDigest: async (date, userId, at, retryBefore, maxAttempts) => {
      const taken = (held: AlertDigestRecord) =>
        held.status !== 'failed' || held.attempts >= maxAttempts || Date.parse(held.claimed_at) > Date.parse(retryBefore);
      // Asked every minute all day: a taken digest is answered without writing the file.
      const seen = file.data.alertDigests?.find((x) => x.date === date && x.user_id === userId);
      if (seen && taken(seen)) return false;
      return file.update((d) => {
        d.alertDigests ??= [];
        const held = d.alertDigests.find((x) => x.date === date && x.user_id === userId);
        if (!held) {
          // A digest's record is needed for its day only: those of more than DIGESTS_KEPT_DAYS ago go.
          const oldest = digestsKeptFrom(date);
          d.alertDigests = d.alertDigests.filter((x) => x.date >= oldest);
          d.alertDigests.push({ date, user_id: userId, status: 'sending', attempts: 1, detail: '', claimed_at: at, finished_at: null });
          return true;
        }
        if (taken(held)) return false;
        Object.assign(held, { status: 'sending', attempts: held.attempts + 1, claimed_at: at, finished_at: null });
        return true;
      });
    },
    finishDigest: async (date, userId, status, detail, at) => {
      await file.update((d) => {
        const held = d.alertDigests?.find((x) => x.date === date && x.user_id === userId);
        if (held) Object.assign(held, { status, detail, finished_at: at });
      });
    },
    digests: async (date) =>
      structuredClone((file.data.alertDigests ?? []).filter((x) => x.date === date)).sort((a, b) => a.user_id.localeCompare(b.user_id)),
  };
}
