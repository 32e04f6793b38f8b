// What `adops migrate` reads from either side: whole listings paged through the stores'
// interfaces, the source's Alertas as they stand, and the counts and sums it compares.
import { readFile } from 'node:fs/promises';
import type { AlertActionRecord } from '../store/alert-action-types.js';
import type { AlertDigestRecord, AlertMuteRecord, AlertRecord, AlertRuleRecord, AlertSubscriptionRecord } from '../store/alert-types.js';
import type { AuditRecord, EntityStore, SessionRecord } from '../store/types.js';
import type { Filters, SpendMonth, Warehouse } from '../warehouse/types.js';

/** Audit entries read per query. */
const AUDIT_PAGE = 1000;
/** Alerts and guard actions read per query. */
const ALERT_PAGE = 1000;

/** Every alert (any state, with its deliveries), oldest opened first. */
export async function allAlerts(store: EntityStore): Promise<AlertRecord[]> {
  const out: AlertRecord[] = [];
  for (let offset = 0; ; offset += ALERT_PAGE) {
    const { rows } = await store.alerts.list({}, offset, ALERT_PAGE);
    out.push(...rows);
    if (rows.length < ALERT_PAGE) return out.sort((a, b) => a.opened_at.localeCompare(b.opened_at) || a.id.localeCompare(b.id));
  }
}

/** Every profit-guard action record, oldest first. */
export async function allActions(store: EntityStore): Promise<AlertActionRecord[]> {
  const out: AlertActionRecord[] = [];
  for (let offset = 0; ; offset += ALERT_PAGE) {
    const { rows } = await store.alertActions.list({}, offset, ALERT_PAGE);
    out.push(...rows);
    if (rows.length < ALERT_PAGE) return out.reverse();
  }
}

/** Digest records of the target for these days, as 'date|user' → record. */
export async function digestsOn(store: EntityStore, dates: Iterable<string>): Promise<Map<string, AlertDigestRecord>> {
  const out = new Map<string, AlertDigestRecord>();
  for (const date of new Set(dates)) for (const d of await store.alerts.digests(date)) out.set(`${d.date}|${d.user_id}`, d);
  return out;
}

/** Every stored date is inside this (ClickHouse's Date32 range). */
export const ALL_TIME: Filters = { start_date: '1900-01-01', end_date: '2299-12-31' };

export const monthRange = (month: string): Filters => {
  const [y, m] = month.split('-').map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { start_date: `${month}-01`, end_date: `${month}-${String(last).padStart(2, '0')}` };
};

/** Sums agree when they differ by less than a hundredth of a cent (sums in another order round differently). */
export const sameSum = (a: number, b: number) => Math.abs(a - b) <= 1e-4 + 1e-12 * Math.abs(a);

/** A month of spend the target already holds whole. */
export const sameSpend = (s: SpendMonth, t: SpendMonth | undefined) =>
  t !== undefined && t.rows === s.rows && sameSum(t.spend, s.spend) && t.impressions === s.impressions && t.clicks === s.clicks;

export async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${file} is not readable JSON: ${(e as Error).message}`);
  }
}

/** Every unexpired session of every user (the store answers them per user). */
export async function sessionsOf(store: EntityStore, userIds: readonly string[], now: string): Promise<SessionRecord[]> {
  return (await Promise.all(userIds.map((id) => store.sessions.listByUser(id, now)))).flat();
}

/** The whole audit trail, oldest first. */
export async function auditTrail(store: EntityStore): Promise<AuditRecord[]> {
  const trail: AuditRecord[] = [];
  for (let offset = 0; ; offset += AUDIT_PAGE) {
    const { rows } = await store.audit.query({}, 'asc', offset, AUDIT_PAGE);
    trail.push(...rows);
    if (rows.length < AUDIT_PAGE) return trail;
  }
}

/** Raw referrer events flagged as bots or spam (the daily rollup left out: it is not copied). */
export async function flaggedEvents(w: Warehouse): Promise<number> {
  const filter = { from: Date.parse(`${ALL_TIME.start_date}T00:00:00Z`), to: Date.parse(`${ALL_TIME.end_date}T23:59:59.999Z`) };
  const [all, human] = await Promise.all([
    w.referrers.logs({ filter: { ...filter, includeBots: true }, order: [], limit: 1 }),
    w.referrers.logs({ filter, order: [], limit: 1 }),
  ]);
  return all.total - human.total;
}

/** Per month: stored rows and their Σ revenue / Σ impressions. */
export async function monthSums(w: Warehouse): Promise<Map<string, { rows: number; revenue: number; impressions: number }>> {
  const { rows } = await w.zoneReports.groups({ filters: ALL_TIME, by: ['month'], order: [{ key: 'month', dir: 'asc' }] });
  return new Map(rows.map((r) => [r.month as string, { rows: r.rows, revenue: r.revenue, impressions: r.impressions }]));
}

/** The source's Alertas: rules, their alerts, users' channels and mutes, the guard's actions; the digests' records and the daily-cap counters from the file (no listing of them). */
export interface AlertasSnapshot {
  rules: AlertRuleRecord[];
  alerts: AlertRecord[];
  subscriptions: AlertSubscriptionRecord[];
  mutes: AlertMuteRecord[];
  digests: AlertDigestRecord[];
  actions: AlertActionRecord[];
  actionDays: Array<{ account: string; day: string; used: number }>;
}

export async function sourceAlertas(source: EntityStore, raw: Record<string, unknown>): Promise<AlertasSnapshot> {
  return {
    rules: await source.alerts.rules.list(),
    alerts: await allAlerts(source),
    subscriptions: await source.alerts.subscriptions(),
    mutes: await source.alerts.mutes({}),
    digests: ((raw.alertDigests as AlertDigestRecord[] | undefined) ?? []).slice().sort((a, b) => a.date.localeCompare(b.date)),
    actions: await allActions(source),
    actionDays: (raw.alertActionDays as Array<{ account: string; day: string; used: number }> | undefined) ?? [],
  };
}
