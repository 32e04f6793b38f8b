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
// an admin undoes a standing pause (resume on Meta; audited by the route). The decisions are
// alert-guard-engine.ts's (for any ledger and any Meta); this is their live side: the entity
// store, Meta's client and the audit.
import { todayIn, type AlertAction, type AlertActionList, type AlertRuleActionInput } from '@adops/core';
import { ALERT_ACTION_KIND_ONLY, AlertRuleAction } from '@adops/core';
import type { Config } from '../config.js';
import { DomainError } from '../domain-errors.js';
import { MetaApiError, type MetaClient } from '../providers/meta/client.js';
import type { AlertActionRecord, AlertRuleActionRecord, AlertRuleRecord, EntityStore } from '../store/types.js';
import type { Finding, Verdict } from './alert-rules.js';
import type { AuditChange } from './audit.js';
import { GuardEngine, type GuardDecision, type GuardLedger } from './alert-guard-engine.js';

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
  if (!caller.is_admin && touches) throw new DomainError('forbidden', ONLY_ADMINS_SET_ACTIONS);
  if (!caller.is_admin && existing?.action) throw new DomainError('forbidden', ONLY_ADMINS_CHANGE_ACTING_RULES);
  const action = change.action === undefined ? (existing?.action ?? null) : change.action;
  const kind = change.kind ?? existing?.kind;
  if (action && kind !== 'campaign_roi') throw new DomainError('invalid', ALERT_ACTION_KIND_ONLY);
}

export interface AlertGuardDeps {
  store: EntityStore;
  /** The Meta client (real, or pointed at the sandbox). */
  meta: Pick<MetaClient, 'account' | 'objectStatus' | 'setStatus'>;
  /** Records a change made by the server itself (audit.system). */
  audit: (change: AuditChange) => Promise<void>;
  config: Pick<Config, 'tz' | 'alerts'>;
  log: (line: string) => void;
  now?: () => number;
}

/** How often the rules run (ms): the schedule's period, or a minute when it is off (evaluations by hand). */
export const evaluationPeriodMs = (config: Pick<Config, 'alerts'>) => (config.alerts.everySeconds > 0 ? config.alerts.everySeconds : 60) * 1000;

/** The entity store as the guard engine's ledger (what the actions did, the daily cap). */
export const storeLedger = (store: EntityStore): GuardLedger => ({
  latest: (ruleId, subject) => store.alertActions.latest(ruleId, subject),
  standing: (ruleId) => store.alertActions.standing(ruleId),
  lastAlert: async (ruleId, subject) => (await store.alerts.history(ruleId, subject, 1))[0],
  takeSlot: (account, day, cap) => store.alertActions.takeSlot(account, day, cap),
  returnSlot: (account, day) => store.alertActions.returnSlot(account, day),
  create: (record) => store.alertActions.create(record),
  markUndone: (id, by, at, byRule) => store.alertActions.markUndone(id, by, at, byRule),
});

export class AlertGuard {
  private readonly now: () => number;
  private readonly engine: GuardEngine;

  constructor(private readonly d: AlertGuardDeps) {
    this.now = d.now ?? Date.now;
    this.engine = new GuardEngine({
      ledger: storeLedger(d.store),
      meta: d.meta,
      tz: d.config.tz,
      everyMs: evaluationPeriodMs(d.config),
      log: d.log,
      // Every action, failed ones included, is audited as the system's.
      recorded: (record, rule) =>
        d.audit({
          action: `alert_action.${record.action}`,
          target: alertActionTarget(record),
          before: null,
          after: {
            id: record.id,
            status: record.status,
            detail: record.detail,
            rule_id: record.rule_id,
            rule_name: record.rule_name,
            rule_created_by: rule.created_by_email,
            trigger: record.trigger,
            reason: record.reason,
            figures: record.figures,
          },
        }),
    });
  }

  /**
   * The evaluator's hook, once per rule and run: acts on the rule's matched verdicts as its action
   * says (on Meta) and resumes what recovered ('reactivar'); each finding says what it did.
   */
  apply(rule: AlertRuleRecord, all: readonly Verdict[], found: readonly Finding[], now: number): Promise<GuardDecision> {
    return this.engine.apply(rule, all, found, now);
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
    if (!before) throw new DomainError('not_found', 'Acción no encontrada');
    const marked = await repo.markUndone(id, caller.email, new Date(this.now()).toISOString(), false);
    if (!marked) {
      const now = await repo.byId(id);
      if (now?.undone_at) throw new DomainError('conflict', `Esta pausa ya se deshizo (${now.undone_by})`);
      throw new DomainError('conflict', 'Solo se puede deshacer una pausa hecha en Meta');
    }
    try {
      await this.d.meta.setStatus(before.subject, 'ACTIVE');
    } catch (e) {
      await repo.unmarkUndone(id);
      throw new DomainError('upstream', `Meta no reanudó ${word(before.level)} ${before.subject}: ${metaDetail(e)}`);
    }
    return { before: publicAction(before), after: publicAction(marked) };
  }
}

/** The stored form of a rule's action (the contract's output), or null. */
export const actionRecord = (a: AlertRuleActionInput | null | undefined): AlertRuleActionRecord | null => (a ? AlertRuleAction.parse(a) : null);
