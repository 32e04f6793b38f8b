// Alertas on lowdb: rules, alerts, channels and locks kept in adops.json beside the other
// entities (absent until first used, so files of earlier versions stay as they were), written
// through the store's one serialised, copy-first writer.
import {
  type AlertDeliveryRecord,
  type AlertDigestRecord,
  type AlertFilter,
  type AlertMuteRecord,
  type AlertRecord,
  muteInForce,
  type AlertRepository,
  type AlertRuleRecord,
  type AlertStateValue,
  type AlertSubscriptionRecord,
  type AlertUpdate,
} from '../alert-types.js';
import { digestsKeptFrom } from '../alert-digests.js';
import { StoreConflictError } from '../types.js';

export interface AlertStoreData {
  alertRules?: AlertRuleRecord[];
  alerts?: AlertRecord[];
  alertSubscriptions?: AlertSubscriptionRecord[];
  locks?: Array<{ name: string; owner: string; expires_at: string }>;
  alertDigests?: AlertDigestRecord[];
  /** Users' own mutes (absent until the first). */
  alertMutes?: AlertMuteRecord[];
}

/** The store's file as this part sees it: its data and its one writer. */
export interface AlertFile {
  readonly data: Readonly<AlertStoreData>;
  update<T>(change: (draft: AlertStoreData) => T): Promise<T>;
}

/** One key per rule and subject. */
const subjectKey = (ruleId: string, subject: string) => JSON.stringify([ruleId, subject]);

const ruleCopy = (r: AlertRuleRecord): AlertRuleRecord => structuredClone(r);
// Alerts and channels of files written before deliveries and the digest read with their defaults.
const alertCopy = (a: AlertRecord): AlertRecord => ({ ...structuredClone(a), deliveries: structuredClone(a.deliveries ?? []) });
const subscriptionCopy = (s: AlertSubscriptionRecord): AlertSubscriptionRecord => ({ ...structuredClone(s), digest: s.digest ?? false });

/** `muted(a)`: whether the filter's viewer muted the alert (their mute in force). */
function matches(a: AlertRecord, f: AlertFilter, muted: (a: AlertRecord) => boolean): boolean {
  if (f.state !== undefined && (f.viewer && a.state === 'open' && muted(a) ? 'muted' : a.state) !== f.state) return false;
  if (f.rule_id !== undefined && a.rule_id !== f.rule_id) return false;
  if (f.rule_ids && !f.rule_ids.includes(a.rule_id)) return false;
  if (f.fired_after !== undefined && !(Date.parse(a.fired_at) > Date.parse(f.fired_after))) return false;
  return true;
}

/** Latest fired first, then newest opened, then id (a total order). */
const newestFirst = (a: AlertRecord, b: AlertRecord) =>
  b.fired_at.localeCompare(a.fired_at) || b.opened_at.localeCompare(a.opened_at) || a.id.localeCompare(b.id);

export function lowdbAlerts(file: AlertFile): AlertRepository {
  const alerts = () => file.data.alerts ?? [];
  /** Applies each update to `list` in order when it fits (only checks when not `apply`); the changed alerts (copies), undefined where refused. */
  const applyUpdates = (list: readonly AlertRecord[], batch: readonly AlertUpdate[], apply: boolean): Array<AlertRecord | undefined> => {
    const byId = new Map(list.map((a) => [a.id, a]));
    // The ids of the unresolved alerts by rule and subject, built when a reopen first asks.
    let held: Map<string, Set<string>> | undefined;
    const heldOn = (a: AlertRecord): Set<string> => {
      if (!held) {
        held = new Map();
        for (const x of list) if (x.state !== 'resolved') heldOn(x).add(x.id);
      }
      const key = subjectKey(a.rule_id, a.subject);
      const ids = held.get(key) ?? new Set<string>();
      held.set(key, ids);
      return ids;
    };
    return batch.map(({ id, change, states }) => {
      const a = byId.get(id);
      if (a === undefined || (states && !states.includes(a.state))) return undefined;
      const next = change.state ?? a.state;
      // Leaving 'resolved' must not make a second unresolved alert on the subject.
      if (a.state === 'resolved' && next !== 'resolved' && [...heldOn(a)].some((x) => x !== a.id)) return undefined;
      if (!apply) return a;
      if (held && (a.state === 'resolved') !== (next === 'resolved')) {
        if (next === 'resolved') heldOn(a).delete(a.id);
        else heldOn(a).add(a.id);
      }
      for (const [k, v] of Object.entries(change)) if (v !== undefined) Object.assign(a, { [k]: structuredClone(v) });
      return alertCopy(a);
    });
  };
  const updateMany = async (batch: readonly AlertUpdate[]): Promise<Array<AlertRecord | undefined>> => {
    // None fits the current data (so none would after the others either): answered without writing the file.
    if (!applyUpdates(alerts(), batch, false).some((a) => a !== undefined)) return batch.map(() => undefined);
    return file.update((d) => {
      d.alerts ??= [];
      return applyUpdates(d.alerts, batch, true);
    });
  };
  const openMany = async (batch: readonly AlertRecord[]): Promise<boolean[]> => {
    /** Opens the batch's alerts after `list`'s (`rules`: the rule ids there), through `push` when given; whether each was. */
    const place = (list: readonly AlertRecord[], rules: ReadonlySet<string>, push?: (a: AlertRecord) => void): boolean[] => {
      const held = new Set(list.filter((a) => a.state !== 'resolved').map((a) => subjectKey(a.rule_id, a.subject)));
      const ids = new Set(list.map((a) => a.id));
      return batch.map((alert) => {
        // In `open`'s order: an unresolved alert on the subject, then the id, then the rule.
        if (held.has(subjectKey(alert.rule_id, alert.subject))) return false;
        if (ids.has(alert.id)) throw new StoreConflictError('id');
        if (!rules.has(alert.rule_id)) return false;
        push?.(alertCopy(alert));
        ids.add(alert.id);
        if (alert.state !== 'resolved') held.add(subjectKey(alert.rule_id, alert.subject));
        return true;
      });
    };
    const ruleIds = (rules: readonly AlertRuleRecord[] | undefined) => new Set((rules ?? []).map((r) => r.id));
    // Every one refused: answered without writing the file.
    const seen = place(alerts(), ruleIds(file.data.alertRules));
    if (!seen.includes(true)) return seen;
    return file.update((d) => {
      d.alerts ??= [];
      const list = d.alerts;
      return place(list, ruleIds(d.alertRules), (a) => list.push(a));
    });
  };
  /** Notices waiting for the file's next write, and that write. */
  let waiting: { notices: Array<{ alertId: string; delivery: AlertDeliveryRecord }>; written: Promise<void> } | null = null;
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
          if (d.alertMutes) {
            const kept = new Set((d.alerts ?? []).map((a) => a.id));
            d.alertMutes = d.alertMutes.filter((m) => kept.has(m.alert_id));
          }
          return d.alertRules.length < before;
        });
      },
    },
    list: async (filter, offset, limit) => {
      const { viewer } = filter;
      const mutes = new Map((viewer ? (file.data.alertMutes ?? []).filter((m) => m.user_id === viewer.user_id) : []).map((m) => [m.alert_id, m]));
      const muted = (a: AlertRecord) => {
        const m = mutes.get(a.id);
        return m !== undefined && viewer !== undefined && muteInForce(m, a, viewer.at);
      };
      const matched = alerts()
        .filter((a) => matches(a, filter, muted))
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
      const [opened] = await openMany([alert]);
      return opened;
    },
    openMany: (batch) => openMany(batch),
    update: async (id, change, states?: readonly AlertStateValue[]) => {
      const [updated] = await updateMany([{ id, change, states }]);
      return updated;
    },
    updateMany: (batch) => updateMany(batch),
    mute: async (mute) => {
      const held = (a: AlertRecord | undefined) => a !== undefined && a.state !== 'resolved';
      if (!held(alerts().find((a) => a.id === mute.alert_id))) return undefined;
      return file.update((d) => {
        const byId = new Map((d.alerts ?? []).map((a) => [a.id, a]));
        const a = byId.get(mute.alert_id);
        if (!held(a)) return undefined;
        const record: AlertMuteRecord = { ...structuredClone(mute), fire_count: a!.fire_count };
        // The user's earlier mute of it goes, and so do mutes that can no longer hold (alert gone, resolved or fired again).
        d.alertMutes = (d.alertMutes ?? []).filter((m) => {
          if (m.alert_id === mute.alert_id && m.user_id === mute.user_id) return false;
          const of = byId.get(m.alert_id);
          return of !== undefined && of.state !== 'resolved' && of.fire_count === m.fire_count;
        });
        d.alertMutes.push(record);
        return structuredClone(record);
      });
    },
    unmute: async (alertId, userId) => {
      const mine = (m: AlertMuteRecord) => m.alert_id === alertId && m.user_id === userId;
      if (!file.data.alertMutes?.some(mine)) return false;
      return file.update((d) => {
        const before = d.alertMutes?.length ?? 0;
        d.alertMutes = (d.alertMutes ?? []).filter((m) => !mine(m));
        return d.alertMutes.length < before;
      });
    },
    mutes: async ({ user_id, alert_ids }) => {
      const ids = alert_ids ? new Set(alert_ids) : null;
      return structuredClone(
        (file.data.alertMutes ?? []).filter((m) => (user_id === undefined || m.user_id === user_id) && (!ids || ids.has(m.alert_id))),
      );
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
      // The notices of a round finish together: those called before the file's next write are
      // appended by that one write (in call order), not one rewrite of the file each.
      const notice = { alertId, delivery: structuredClone(delivery) };
      if (waiting) {
        waiting.notices.push(notice);
        return waiting.written;
      }
      const notices = [notice];
      const written = file.update((d) => {
        waiting = null;
        const byId = new Map((d.alerts ?? []).map((a) => [a.id, a]));
        for (const n of notices) {
          const a = byId.get(n.alertId);
          if (!a) continue;
          a.deliveries ??= [];
          a.deliveries.push(n.delivery);
        }
      });
      waiting = { notices, written };
      return written;
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
