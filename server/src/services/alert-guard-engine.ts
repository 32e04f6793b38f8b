// What a campaign rule's action decides, written once for the live evaluator and the backtest:
// notify only, or pause once (a standing pause is not repeated), not again within the action's
// cooldown (a failed try too), at most `daily_cap` automatic actions per ad account and ADOPS_TZ
// day, never again while an alert an admin undid the pause on stays open; with 'reactivar' it
// resumes a standing pause once the subject is measured again and no longer failing. Where the
// actions are kept (the entity store, or memory) and whom it asks to pause (Meta's client, or a
// stand-in that only remembers) are the caller's: GuardLedger and GuardMeta.
import { randomUUID } from 'node:crypto';
import { CampaignRoiParams, formatDateTimeDMY, formatNumber, formatProfitMetric, todayIn } from '@adops/core';
import { MetaApiError } from '../providers/meta/client.js';
import type { AlertActionRecord, AlertRecord, AlertRuleActionRecord, AlertRuleRecord } from '../store/types.js';
import type { Finding, Verdict } from './alert-rules.js';

/** Where the actions are kept and the daily cap is counted. */
export interface GuardLedger {
  latest(ruleId: string, subject: string): Promise<AlertActionRecord | undefined>;
  standing(ruleId: string): Promise<AlertActionRecord[]>;
  /** The rule's newest alert on the subject (an admin's undo holds while it stays open). */
  lastAlert(ruleId: string, subject: string): Promise<Pick<AlertRecord, 'state' | 'opened_at'> | undefined>;
  takeSlot(account: string, day: string, cap: number): Promise<boolean>;
  returnSlot(account: string, day: string): Promise<void>;
  create(record: AlertActionRecord): Promise<void>;
  markUndone(id: string, by: string, at: string, byRule: boolean): Promise<AlertActionRecord | undefined>;
}

/** Whom a pause or resume is asked of. */
export interface GuardMeta {
  readonly account: string;
  objectStatus(id: string): Promise<{ status: string }>;
  setStatus(id: string, status: 'ACTIVE' | 'PAUSED'): Promise<unknown>;
  /** A replay's stand-in (the backtest): its words say what would have happened, not what did. */
  readonly simulated?: boolean;
}

/** What the action made of one finding: paused now (`acted`), only told (`fired`), or held back. */
export type GuardOutcome = 'acted' | 'fired' | 'cooldown' | 'daily_cap';

export interface GuardedFinding extends Finding {
  outcome: GuardOutcome;
  /** The action's words on it ('en espera hasta …', 'límite diario … alcanzado'); also at the end of `message`. */
  guard: string;
}

/** A standing pause the rule resumed ('reactivar') or tried to. */
export interface Recovery {
  subject: string;
  resumed: boolean;
  /** recovered (resumed, or Meta refused: `guard` says so), or held by the wait or the daily cap. */
  outcome: 'recovered' | 'cooldown' | 'daily_cap';
  guard: string;
  reason: string;
  figures: Record<string, number | null>;
}

export interface GuardDecision {
  findings: GuardedFinding[];
  recovered: Recovery[];
}

export interface GuardEngineDeps {
  ledger: GuardLedger;
  meta: GuardMeta;
  tz: string;
  /** How often the rules are evaluated live (ms): a condition held for a while counts one evaluation per period. */
  everyMs: number;
  /** Each record once kept (live: the audit entry). */
  recorded?: (record: AlertActionRecord, rule: AlertRuleRecord) => Promise<void>;
  log?: (line: string) => void;
}

const word = (level: 'campaign' | 'adset') => (level === 'campaign' ? 'la campaña' : 'el conjunto de anuncios');
const metaDetail = (e: unknown) => (e instanceof MetaApiError ? e.detail : `No se pudo conectar con Meta (${(e as Error)?.message ?? e})`);

/** A verdict that counts as recovered: measured (enough spend) and no longer failing. */
const recoveredVerdict = (v: Verdict | undefined): v is Verdict => v?.outcome === 'not_matched' && v.value !== null && v.threshold !== null;

export class GuardEngine {
  /** Subjects found not ACTIVE on Meta (paused by hand): not asked again until then (ms). */
  private readonly notActive = new Map<string, number>();
  /** Instants said in words, by epoch ms (a backtest says the same few thousand times). */
  private readonly words = new Map<number, string>();
  /** The last words said on each finding: a backtest judges the same findings hour after hour, mostly alike. */
  private readonly said = new WeakMap<Finding, GuardedFinding>();
  /** Each evaluation's verdicts by subject (a backtest hands the same list for every hour of a day). */
  private readonly bySubject = new WeakMap<readonly Verdict[], Map<string, Verdict>>();
  /**
   * Per rule: since when each of its subjects has matched without a break (those of its last
   * evaluation only). Kept by the instance that evaluates: a restart or another instance taking
   * over starts the count again, which can only delay an action, never hasten it.
   */
  private readonly streaks = new Map<string, Map<string, number>>();

  constructor(private readonly d: GuardEngineDeps) {}

  /** An instant as every face says it (dd/MM/yyyy HH:mm in ADOPS_TZ), remembered. */
  private when(ms: number): string {
    let text = this.words.get(ms);
    if (text === undefined) {
      if (this.words.size >= 10_000) this.words.clear();
      text = formatDateTimeDMY(ms, this.d.tz);
      this.words.set(ms, text);
    }
    return text;
  }

  /**
   * Once per rule and evaluation: acts on the rule's matched verdicts as its action says and, with
   * 'reactivar', resumes its standing pauses whose subject recovered. Every matched finding comes
   * back with what the action did or would do, said at the end of its sentence.
   */
  async apply(rule: AlertRuleRecord, all: readonly Verdict[], found: readonly Finding[], now: number): Promise<GuardDecision> {
    const action = rule.action;
    if (!action || rule.kind !== 'campaign_roi') return { findings: found.map((f) => ({ ...f, outcome: 'fired', guard: '' })), recovered: [] };
    const p = CampaignRoiParams.parse(rule.params);
    // The daily cap's day (ADOPS_TZ), once per evaluation.
    const day = todayIn(this.d.tz, new Date(now));
    const held = this.held(rule.id, found, now);
    const confirm = action.confirm_evaluations ?? 1;
    // A 'hold' pause whose time is up resumes first (then the rule's wait counts from that resume).
    const holds = action.hold_minutes ? await this.endHolds(rule, p.level, action, now, day) : [];
    const out: GuardedFinding[] = [];
    for (const f of found) {
      let said: { outcome: GuardOutcome; guard: string };
      const times = held.get(f.subject) ?? 1;
      if (times < confirm)
        said = { outcome: 'cooldown', guard: `se cumple en ${times} evaluaciones seguidas de las ${confirm} que pide la regla antes de actuar` };
      else if (action.mode === 'notify') said = { outcome: 'fired', guard: `Solo aviso: la regla pausaría ${word(p.level)} ${f.subject} en Meta` };
      else {
        try {
          said = await this.pause(rule, p.level, action, f, now, day);
        } catch (e) {
          this.d.log?.(`alerts: guard of rule ${rule.id} on ${f.subject} failed: ${(e as Error).message}`);
          said = { outcome: 'fired', guard: `no se pudo aplicar la acción: ${(e as Error).message}` };
        }
      }
      const before = this.said.get(f);
      if (before && before.outcome === said.outcome && before.guard === said.guard) out.push(before);
      else {
        const guarded = { ...f, ...said, message: `${f.message} · ${said.guard}` };
        this.said.set(f, guarded);
        out.push(guarded);
      }
    }
    const recovered = action.reactivate ? await this.reactivate(rule, p, action, all, found, now, day) : [];
    return { findings: out, recovered: [...holds, ...recovered] };
  }

  /** How many evaluations in a row each finding has held, this one included (one per live period while it held). */
  private held(ruleId: string, found: readonly Finding[], now: number): Map<string, number> {
    const before = this.streaks.get(ruleId);
    const since = new Map<string, number>();
    const times = new Map<string, number>();
    for (const f of found) {
      const from = before?.get(f.subject) ?? now;
      since.set(f.subject, from);
      times.set(f.subject, 1 + Math.floor((now - from) / Math.max(1, this.d.everyMs)));
    }
    this.streaks.set(ruleId, since);
    return times;
  }

  /** 'Pausa temporal': resumes the rule's standing pauses whose hold is over (an automatic action: within the daily cap). */
  private async endHolds(
    rule: AlertRuleRecord,
    level: 'campaign' | 'adset',
    action: AlertRuleActionRecord,
    now: number,
    day: string,
  ): Promise<Recovery[]> {
    const { ledger, meta } = this.d;
    const hold = (action.hold_minutes ?? 0) * 60_000;
    const out: Recovery[] = [];
    for (const pause of await ledger.standing(rule.id)) {
      if (now < Date.parse(pause.at) + hold) continue;
      const reason = `Fin de la pausa temporal de ${action.hold_minutes} min (desde ${this.when(Date.parse(pause.at))})`;
      const base = { subject: pause.subject, reason, figures: pause.figures };
      if (!(await ledger.takeSlot(meta.account, day, action.daily_cap))) {
        out.push({
          ...base,
          resumed: false,
          outcome: 'daily_cap',
          guard: `pausa temporal cumplida; límite diario de ${action.daily_cap} acciones alcanzado: no se reactiva`,
        });
        continue;
      }
      const record = { rule, level, subject: pause.subject, reason, figures: pause.figures, now };
      try {
        await meta.setStatus(pause.subject, 'ACTIVE');
      } catch (e) {
        await ledger.returnSlot(meta.account, day);
        const detail = metaDetail(e);
        await this.record({ ...record, action: 'resume', trigger: 'hold', status: 'failed', detail });
        out.push({ ...base, resumed: false, outcome: 'recovered', guard: `no se pudo reactivar en Meta: ${detail}` });
        continue;
      }
      await ledger.markUndone(pause.id, `Regla «${rule.name}» (pausa temporal)`, new Date(now).toISOString(), true);
      await this.record({ ...record, action: 'resume', trigger: 'hold', status: 'done', detail: null });
      out.push({
        ...base,
        resumed: true,
        outcome: 'recovered',
        guard: `${word(level)} ${meta.simulated ? 'se habría reactivado' : 'se ha reactivado'} en Meta (fin de la pausa temporal)`,
      });
    }
    return out;
  }

  private async pause(
    rule: AlertRuleRecord,
    level: 'campaign' | 'adset',
    action: AlertRuleActionRecord,
    f: Finding,
    now: number,
    day: string,
  ): Promise<{ outcome: GuardOutcome; guard: string }> {
    const { ledger, meta } = this.d;
    const latest = await ledger.latest(rule.id, f.subject);
    if (latest?.action === 'pause' && latest.status === 'done' && latest.undone_at === null)
      return { outcome: 'fired', guard: `${word(level)} sigue en pausa en Meta desde ${this.when(Date.parse(latest.at))}` };
    if (latest?.undone_at && !latest.undone_by_rule) {
      // An admin undid the pause: the rule leaves it alone while that alert stays open.
      const alert = await ledger.lastAlert(rule.id, f.subject);
      if (alert && alert.state !== 'resolved' && alert.opened_at <= latest.undone_at)
        return { outcome: 'fired', guard: `${latest.undone_by} deshizo la pausa: no se vuelve a pausar mientras siga esta alerta` };
    }
    const until = latest ? Date.parse(latest.at) + action.cooldown_minutes * 60_000 : 0;
    if (now < until)
      return {
        outcome: 'cooldown',
        guard:
          latest?.status === 'failed'
            ? `el último intento falló (${latest.detail}); se reintenta a partir de ${this.when(until)}`
            : `en espera hasta ${this.when(until)} antes de volver a actuar`,
      };
    const key = `${rule.id}|${f.subject}`;
    if ((this.notActive.get(key) ?? 0) > now) return { outcome: 'fired', guard: `${word(level)} no está activa en Meta: nada que pausar` };
    if (!(await ledger.takeSlot(meta.account, day, action.daily_cap)))
      return { outcome: 'daily_cap', guard: `límite diario de ${action.daily_cap} acciones en ${meta.account} alcanzado: no se pausa` };
    const base = { rule, level, subject: f.subject, reason: f.message, figures: f.figures, now };
    try {
      const current = await meta.objectStatus(f.subject);
      if (current.status !== 'ACTIVE') {
        await ledger.returnSlot(meta.account, day);
        this.notActive.set(key, now + Math.max(action.cooldown_minutes, 1) * 60_000);
        return { outcome: 'fired', guard: `${word(level)} ya estaba en ${current.status} en Meta: nada que pausar` };
      }
      await meta.setStatus(f.subject, 'PAUSED');
    } catch (e) {
      await ledger.returnSlot(meta.account, day);
      const detail = metaDetail(e);
      this.d.log?.(`alerts: pause of ${f.subject} (rule ${rule.id}) failed: ${detail}`);
      await this.record({ ...base, action: 'pause', trigger: 'rule', status: 'failed', detail });
      return { outcome: 'fired', guard: `no se pudo pausar en Meta: ${detail}` };
    }
    await this.record({ ...base, action: 'pause', trigger: 'rule', status: 'done', detail: null });
    return { outcome: 'acted', guard: `${word(level)} ${meta.simulated ? 'se habría pausado' : 'se ha pausado'} en Meta (acción de la regla)` };
  }

  /** 'reactivar': resumes the rule's standing pauses whose subject's figures recovered (judged like the fall). */
  private async reactivate(
    rule: AlertRuleRecord,
    p: ReturnType<typeof CampaignRoiParams.parse>,
    action: AlertRuleActionRecord,
    all: readonly Verdict[],
    found: readonly Finding[],
    now: number,
    day: string,
  ): Promise<Recovery[]> {
    const { ledger, meta } = this.d;
    const failing = new Set(found.map((f) => f.subject));
    const paused = (await ledger.standing(rule.id)).filter((a) => !failing.has(a.subject));
    if (paused.length === 0) return [];
    let bySubject = this.bySubject.get(all);
    if (!bySubject) {
      bySubject = new Map(all.map((v) => [v.subject, v]));
      this.bySubject.set(all, bySubject);
    }
    const out: Recovery[] = [];
    for (const pause of paused) {
      const v = bySubject.get(pause.subject);
      // Recovered = measured again (enough spend) and no longer failing; not measured: it stays paused.
      if (!recoveredVerdict(v)) continue;
      const figures = v.figures;
      const estimated = figures.estimated_visits ? ' · revenue estimado (informe parcial o sin informe)' : '';
      const range = v.window ? ` ${v.window}` : '';
      const reason =
        p.metric === 'roi'
          ? `ROI recuperado: ${formatProfitMetric('roi', v.value)} (umbral ${formatProfitMetric('roi', p.threshold)})${range}${estimated}`
          : `CPC recuperado: ${formatNumber(v.value, 4)} ≤ ${formatNumber(v.threshold, 4)}${range}${estimated}`;
      const latest = await ledger.latest(rule.id, pause.subject);
      const until = latest ? Date.parse(latest.at) + action.cooldown_minutes * 60_000 : 0;
      if (now < until) {
        out.push({
          subject: pause.subject,
          resumed: false,
          outcome: 'cooldown',
          guard: `recuperada; en espera hasta ${this.when(until)} para reactivarla`,
          reason,
          figures,
        });
        continue;
      }
      if (!(await ledger.takeSlot(meta.account, day, action.daily_cap))) {
        this.d.log?.(`alerts: rule ${rule.id} would resume ${pause.subject} but the daily cap of ${meta.account} is reached`);
        out.push({
          subject: pause.subject,
          resumed: false,
          outcome: 'daily_cap',
          guard: `recuperada; límite diario de ${action.daily_cap} acciones alcanzado: no se reactiva`,
          reason,
          figures,
        });
        continue;
      }
      const base = { rule, level: p.level, subject: pause.subject, reason, figures, now };
      try {
        await meta.setStatus(pause.subject, 'ACTIVE');
      } catch (e) {
        await ledger.returnSlot(meta.account, day);
        const detail = metaDetail(e);
        await this.record({ ...base, action: 'resume', trigger: 'recovery', status: 'failed', detail });
        out.push({ subject: pause.subject, resumed: false, outcome: 'recovered', guard: `no se pudo reactivar en Meta: ${detail}`, reason, figures });
        continue;
      }
      await ledger.markUndone(pause.id, `Regla «${rule.name}» (reactivar)`, new Date(now).toISOString(), true);
      await this.record({ ...base, action: 'resume', trigger: 'recovery', status: 'done', detail: null });
      out.push({
        subject: pause.subject,
        resumed: true,
        outcome: 'recovered',
        guard: `${word(p.level)} ${meta.simulated ? 'se habría reactivado' : 'se ha reactivado'} en Meta (reactivar)`,
        reason,
        figures,
      });
    }
    return out;
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
    await this.d.ledger.create(record);
    await this.d.recorded?.(record, x.rule);
  }
}
