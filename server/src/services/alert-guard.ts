// The profit guard: what a campaign rule's action does when the evaluator finds a campaign or
// ad set losing money. Notify only (default): the alert says what it would pause. Pause: it
// pauses the subject on Meta through the real client (the sandbox in demo and tests) — once
// (a standing pause is not repeated), not again within the action's cooldown (a failed try
// too), at most `daily_cap` automatic actions per ad account and ADOPS_TZ day across every
// rule and instance (a counter in the entity store), never again while the alert an admin
// undid it on stays open. With 'reactivar' it resumes what it paused once the subject's
// figures recover (measured again: enough spend, ROI back at or above the threshold — or CPC
// back at or below break-even). Both judge matured days only — spend synced, zone report final —
// unless the rule uses estimates: never a pause on a partial or unsynced day by default. Every
// action, failed ones included, is a record (listed on
// Alertas → Acciones) and an audit entry (system actor; the rule, why and the figures then);
// an admin undoes a standing pause (resume on Meta; audited by the route).
import { randomUUID } from 'node:crypto';
import {
  CampaignRoiParams,
  formatDateTimeDMY,
  formatNumber,
  todayIn,
  type AlertAction,
  type AlertActionList,
  type AlertRuleActionInput,
} from '@adops/core';
import { ALERT_ACTION_KIND_ONLY, AlertRuleAction } from '@adops/core';
import type { Config } from '../config.js';
import { httpError } from '../errors.js';
import { MetaApiError, type MetaClient } from '../providers/meta/client.js';
import type { AlertActionRecord, AlertRuleActionRecord, AlertRuleRecord, EntityStore } from '../store/types.js';
import type { Finding } from './alert-rules.js';
import { campaignFigures } from './alert-rules.js';
import type { AuditChange } from './audit.js';
import type { ProfitService } from './profit.js';

/** Who changes a rule or undoes an action. */
export interface GuardCaller {
  email: string;
  is_admin: boolean;
}

export const ONLY_ADMINS_SET_ACTIONS = 'Solo un administrador puede añadir o cambiar la acción de una regla (pausar campañas en Meta)';
export const ONLY_ADMINS_CHANGE_ACTING_RULES = 'Esta regla tiene una acción sobre Meta: solo un administrador puede cambiarla o borrarla';

const word = (level: 'campaign' | 'adset') => (level === 'campaign' ? 'la campaña' : 'el conjunto de anuncios');
export const alertActionTarget = (a: Pick<AlertActionRecord, 'level' | 'subject' | 'rule_name'>) => ({
  kind: a.level === 'campaign' ? 'meta_campaign' : 'meta_adset',
  id: a.subject,
  label: `${a.level === 'campaign' ? 'Campaña' : 'Conjunto'} ${a.subject} (regla «${a.rule_name}»)`,
});
const metaDetail = (e: unknown) => (e instanceof MetaApiError ? e.detail : `No se pudo conectar con Meta (${(e as Error)?.message ?? e})`);
const hhmm = (ms: number, tz: string) => formatDateTimeDMY(ms, tz);

export const publicAction = (a: AlertActionRecord): AlertAction => ({
  ...a,
  undoable: a.action === 'pause' && a.status === 'done' && a.undone_at === null,
});

/**
 * Who may set what on a rule's action: only admins set, change or remove one, and a rule that
 * has one is an admin's to change or delete; an action belongs on a campaign rule only.
 * `change.action` undefined: the request does not touch it.
 */
export function checkRuleAction(
  caller: GuardCaller,
  existing: Pick<AlertRuleRecord, 'kind' | 'action'> | undefined,
  change: { action?: AlertRuleActionInput | null; kind?: string },
): void {
  const touches = change.action !== undefined && !(existing === undefined && change.action === null);
  if (!caller.is_admin && touches) throw httpError(403, ONLY_ADMINS_SET_ACTIONS);
  if (!caller.is_admin && existing?.action) throw httpError(403, ONLY_ADMINS_CHANGE_ACTING_RULES);
  const action = change.action === undefined ? (existing?.action ?? null) : change.action;
  const kind = change.kind ?? existing?.kind;
  if (action && kind !== 'campaign_roi') throw httpError(400, ALERT_ACTION_KIND_ONLY);
}

export interface AlertGuardDeps {
  store: EntityStore;
  /** The Meta client (real, or pointed at the sandbox). */
  meta: Pick<MetaClient, 'account' | 'objectStatus' | 'setStatus'>;
  profit: Pick<ProfitService, 'rows'>;
  /** Records a change made by the server itself (audit.system). */
  audit: (change: AuditChange) => Promise<void>;
  config: Pick<Config, 'tz'>;
  log: (line: string) => void;
  now?: () => number;
}

export class AlertGuard {
  private readonly now: () => number;
  /** Subjects found not ACTIVE on Meta (paused by hand): not asked again until then (ms). */
  private readonly notActive = new Map<string, number>();

  constructor(private readonly d: AlertGuardDeps) {
    this.now = d.now ?? Date.now;
  }

  /**
   * The evaluator's hook, once per rule and run: acts on the rule's findings as its action
   * says; the findings again (copies), each sentence saying what it did or would do.
   */
  async apply(rule: AlertRuleRecord, findings: readonly Finding[], now: number): Promise<Finding[]> {
    const found = findings.map((f) => ({ ...f }));
    const action = rule.action;
    if (!action || rule.kind !== 'campaign_roi') return found;
    const p = CampaignRoiParams.parse(rule.params);
    for (const f of found) {
      let note: string;
      if (action.mode === 'notify') note = `Solo aviso: la regla pausaría ${word(p.level)} ${f.subject} en Meta`;
      else {
        try {
          note = await this.pause(rule, p.level, action, f, now);
        } catch (e) {
          this.d.log(`alerts: guard of rule ${rule.id} on ${f.subject} failed: ${(e as Error).message}`);
          note = `no se pudo aplicar la acción: ${(e as Error).message}`;
        }
      }
      f.message = `${f.message} · ${note}`;
    }
    if (action.reactivate) await this.reactivate(rule, p, action, found, now);
    return found;
  }

  private async pause(rule: AlertRuleRecord, level: 'campaign' | 'adset', action: AlertRuleActionRecord, f: Finding, now: number): Promise<string> {
    const { store, meta, config } = this.d;
    const latest = await store.alertActions.latest(rule.id, f.subject);
    if (latest?.action === 'pause' && latest.status === 'done' && latest.undone_at === null)
      return `${word(level)} sigue en pausa en Meta desde ${hhmm(Date.parse(latest.at), config.tz)}`;
    if (latest?.undone_at && !latest.undone_by_rule) {
      // An admin undid the pause: the rule leaves it alone while that alert stays open.
      const [alert] = await store.alerts.history(rule.id, f.subject, 1);
      if (alert && alert.state !== 'resolved' && alert.opened_at <= latest.undone_at)
        return `${latest.undone_by} deshizo la pausa: no se vuelve a pausar mientras siga esta alerta`;
    }
    const until = latest ? Date.parse(latest.at) + action.cooldown_minutes * 60_000 : 0;
    if (now < until)
      return latest?.status === 'failed'
        ? `el último intento falló (${latest.detail}); se reintenta a partir de ${hhmm(until, config.tz)}`
        : `en espera hasta ${hhmm(until, config.tz)} antes de volver a actuar`;
    const key = `${rule.id}|${f.subject}`;
    if ((this.notActive.get(key) ?? 0) > now) return `${word(level)} no está activa en Meta: nada que pausar`;
    const day = todayIn(config.tz, new Date(now));
    if (!(await store.alertActions.takeSlot(meta.account, day, action.daily_cap)))
      return `límite diario de ${action.daily_cap} acciones en ${meta.account} alcanzado: no se pausa`;
    const base = { rule, level, subject: f.subject, reason: f.message, figures: f.figures, now };
    try {
      const current = await meta.objectStatus(f.subject);
      if (current.status !== 'ACTIVE') {
        await store.alertActions.returnSlot(meta.account, day);
        this.notActive.set(key, now + Math.max(action.cooldown_minutes, 1) * 60_000);
        return `${word(level)} ya estaba en ${current.status} en Meta: nada que pausar`;
      }
      await meta.setStatus(f.subject, 'PAUSED');
    } catch (e) {
      await store.alertActions.returnSlot(meta.account, day);
      const detail = metaDetail(e);
      this.d.log(`alerts: pause of ${f.subject} (rule ${rule.id}) failed: ${detail}`);
      await this.record({ ...base, action: 'pause', trigger: 'rule', status: 'failed', detail });
      return `no se pudo pausar en Meta: ${detail}`;
    }
    await this.record({ ...base, action: 'pause', trigger: 'rule', status: 'done', detail: null });
    return `${word(level)} se ha pausado en Meta (acción de la regla)`;
  }

  /** 'reactivar': resumes the rule's standing pauses whose subject's figures recovered. */
  private async reactivate(
    rule: AlertRuleRecord,
    p: ReturnType<typeof CampaignRoiParams.parse>,
    action: AlertRuleActionRecord,
    found: readonly Finding[],
    now: number,
  ): Promise<void> {
    const { store, meta, config, profit } = this.d;
    const failing = new Set(found.map((f) => f.subject));
    const paused = (await store.alertActions.standing(rule.id)).filter((a) => !failing.has(a.subject));
    if (paused.length === 0) return;
    // Recovery is judged like the fall: on matured days only, unless the rule uses estimates.
    const { rows, counted, span: range } = await campaignFigures({ profit, tz: config.tz }, p, now);
    if (counted.length === 0) return;
    const byKey = new Map(rows.map((r) => [r.key, r]));
    for (const pause of paused) {
      const r = byKey.get(pause.subject);
      // Recovered = measured again (enough spend) and no longer failing; not measured: it stays paused.
      if (!r || r.spend === null || r.spend < p.min_spend) continue;
      const ok =
        p.metric === 'roi' ? r.roi !== null && r.roi >= p.threshold : r.cpc !== null && r.break_even_cpc !== null && r.cpc <= r.break_even_cpc;
      if (!ok) continue;
      const latest = await store.alertActions.latest(rule.id, pause.subject);
      if (latest && now < Date.parse(latest.at) + action.cooldown_minutes * 60_000) continue;
      const day = todayIn(config.tz, new Date(now));
      if (!(await store.alertActions.takeSlot(meta.account, day, action.daily_cap))) {
        this.d.log(`alerts: rule ${rule.id} would resume ${pause.subject} but the daily cap of ${meta.account} is reached`);
        continue;
      }
      const figures = { spend: r.spend, revenue: r.revenue, profit: r.profit, roi: r.roi, cpc: r.cpc, break_even_cpc: r.break_even_cpc };
      const estimated = r.estimated ? ' · revenue estimado (informe parcial o sin informe)' : '';
      const reason =
        p.metric === 'roi'
          ? `ROI recuperado: ${formatNumber(r.roi, 1)} % (umbral ${p.threshold} %) ${range}${estimated}`
          : `CPC recuperado: ${formatNumber(r.cpc, 4)} ≤ ${formatNumber(r.break_even_cpc, 4)} ${range}${estimated}`;
      const base = { rule, level: p.level, subject: pause.subject, reason, figures, now };
      try {
        await meta.setStatus(pause.subject, 'ACTIVE');
      } catch (e) {
        await store.alertActions.returnSlot(meta.account, day);
        await this.record({ ...base, action: 'resume', trigger: 'recovery', status: 'failed', detail: metaDetail(e) });
        continue;
      }
      await store.alertActions.markUndone(pause.id, `Regla «${rule.name}» (reactivar)`, new Date(now).toISOString(), true);
      await this.record({ ...base, action: 'resume', trigger: 'recovery', status: 'done', detail: null });
    }
  }

  private async record(x: {
    rule: AlertRuleRecord;
    level: 'campaign' | 'adset';
    subject: string;
    reason: string;
    figures: Record<string, number | null>;
    now: number;
    action: AlertActionRecord['action'];
    trigger: AlertActionRecord['trigger'];
    status: AlertActionRecord['status'];
    detail: string | null;
  }): Promise<void> {
    const record: AlertActionRecord = {
      id: randomUUID(),
      rule_id: x.rule.id,
      rule_name: x.rule.name,
      subject: x.subject,
      level: x.level,
      account: this.d.meta.account,
      action: x.action,
      trigger: x.trigger,
      status: x.status,
      detail: x.detail,
      reason: x.reason,
      figures: x.figures,
      at: new Date(x.now).toISOString(),
      undone_at: null,
      undone_by: null,
      undone_by_rule: false,
    };
    await this.d.store.alertActions.create(record);
    await this.d.audit({
      action: `alert_action.${x.action}`,
      target: alertActionTarget(record),
      before: null,
      after: {
        id: record.id,
        status: record.status,
        detail: record.detail,
        rule_id: record.rule_id,
        rule_name: record.rule_name,
        rule_created_by: x.rule.created_by_email,
        trigger: record.trigger,
        reason: record.reason,
        figures: record.figures,
      },
    });
  }

  /** What the actions did, newest first; `totals.today`: actions on the ad account today. */
  async list(q: { rule_id?: string; page: number; page_size: number }): Promise<AlertActionList> {
    const repo = this.d.store.alertActions;
    const filter = { rule_id: q.rule_id };
    let { rows, total } = await repo.list(filter, (q.page - 1) * q.page_size, q.page_size);
    const page_count = Math.max(1, Math.ceil(total / q.page_size));
    const page = Math.min(q.page, page_count);
    if (page !== q.page) ({ rows, total } = await repo.list(filter, (page - 1) * q.page_size, q.page_size));
    const account = this.d.meta.account;
    const today = await repo.slotsUsed(account, todayIn(this.d.config.tz, new Date(this.now())));
    return { rows: rows.map(publicAction), total_rows: total, page, page_size: q.page_size, page_count, sort: null, totals: { today, account } };
  }

  /** Undoes a standing pause: resumes the subject on Meta. 404 / 409 / 502 (Meta's error, nothing changed). */
  async undo(caller: GuardCaller, id: string): Promise<{ before: AlertAction; after: AlertAction }> {
    const repo = this.d.store.alertActions;
    const before = await repo.byId(id);
    if (!before) throw httpError(404, 'Acción no encontrada');
    const marked = await repo.markUndone(id, caller.email, new Date(this.now()).toISOString(), false);
    if (!marked) {
      const now = await repo.byId(id);
      if (now?.undone_at) throw httpError(409, `Esta pausa ya se deshizo (${now.undone_by})`);
      throw httpError(409, 'Solo se puede deshacer una pausa hecha en Meta');
    }
    try {
      await this.d.meta.setStatus(before.subject, 'ACTIVE');
    } catch (e) {
      await repo.unmarkUndone(id);
      throw httpError(502, `Meta no reanudó ${word(before.level)} ${before.subject}: ${metaDetail(e)}`);
    }
    return { before: publicAction(before), after: publicAction(marked) };
  }
}

/** The stored form of a rule's action (the contract's output), or null. */
export const actionRecord = (a: AlertRuleActionInput | null | undefined): AlertRuleActionRecord | null => (a ? AlertRuleAction.parse(a) : null);
