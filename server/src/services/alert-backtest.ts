// 'Probar en el pasado': a rule (saved or not) replayed at every whole hour of the last 7, 14 or
// 30 days (ADOPS_TZ) through the live evaluator's own code — the kind's verdicts (alert-rules.ts),
// the action's decisions (alert-guard-engine.ts) and the alerts' lifecycle (alert-plan.ts) — on
// the stored data: spend per ad and day, visits, zone revenue per day. A day counts as closed
// from the start of the next day when today its report is final and its spend synced; the actions
// are kept in memory and "Meta" is a stand-in that cannot reach Meta. Then the money: spend and
// revenue of each paused campaign from its pause until its resume (each day's stored figures
// shared by hours), the campaigns toggled back and forth, each campaign's daily profit for a
// chart, and notes where today's data differs from what was known then.
import { randomUUID } from 'node:crypto';
import {
  AlertRuleAction,
  AlertRuleSpec,
  CampaignRoiParams,
  addDays,
  alertRuleCondition,
  formatDateDMY,
  formatDateTimeDMY,
  todayIn,
  zonedDayStart,
  type AlertBacktest,
  type AlertRuleKind,
  type BacktestAction,
  type BacktestDay,
  type BacktestDays,
  type BacktestFlapping,
} from '@adops/core';
import type { Config } from '../config.js';
import type { AlertActionRecord, AlertRuleActionRecord, AlertRuleRecord, EntityStore } from '../store/types.js';
import { DomainError } from '../domain-errors.js';
import type { Warehouse } from '../warehouse/index.js';
import { MemoryLedger, SimulatedMeta } from './alert-backtest-sim.js';
import type { CampaignDays } from './alert-campaign-window.js';
import { GuardEngine, type GuardedFinding } from './alert-guard-engine.js';
import { evaluationPeriodMs } from './alert-guard.js';
import { planAlerts, type HeldAlert } from './alert-plan.js';
import { matchedOf, roundQueries, verdicts, windowDays, type Finding, type RuleContext, type Verdict } from './alert-rules.js';
import type { Completeness } from './completeness.js';
import type { ProfitDays, ProfitService } from './profit.js';

/** Actions a backtest lists at most (the summary counts every one). */
export const MAX_BACKTEST_ACTIONS = 5000;
/** Campaigns the daily chart carries at most (those the rule acted on, most spend first). */
export const BACKTEST_CHART_SUBJECTS = 50;
const HOUR = 3_600_000;

/** The rule replayed: a saved one (id) or a form's (id null). */
export interface BacktestRule {
  id: string | null;
  name: string | null;
  kind: AlertRuleKind;
  params: Record<string, unknown>;
  cooldown_minutes: number;
  action: AlertRuleActionRecord | null;
}

export interface BacktestDeps {
  warehouse: Pick<Warehouse, 'zoneReports' | 'alerts'>;
  profit: Pick<ProfitService, 'dayRows'>;
  completeness: Pick<Completeness, 'importedAt'>;
  config: Pick<Config, 'tz' | 'currency' | 'eventRetentionDays' | 'alerts'>;
  /** The Meta ad account's id (the daily cap's unit; read from the client, never asked of Meta). */
  account: () => string;
  now?: () => number;
}

const LEVELS = { zone: 'zone', publisher: 'publisher', advertiser: 'advertiser', campaign: 'campaign', adset: 'adset' } as const;

/** What a subject is, for the answer's `level`. */
function levelOf(kind: AlertRuleKind, params: Record<string, unknown>): BacktestAction['level'] {
  if (kind === 'referrer_burst') return 'referrer';
  if (kind === 'ip_burst') return 'ip';
  const by = String(kind === 'campaign_roi' ? params.level : params.scope) as keyof typeof LEVELS;
  return LEVELS[by] ?? 'zone';
}

interface SimAlert extends HeldAlert {
  opened_at: string;
}

/** How a subject was turned off and on (pauses and resumes; alerts and resolutions for a rule that does not pause). */
interface Toggles {
  offs: number;
  ons: number;
}

export async function backtestRule(rule: BacktestRule, days: BacktestDays, deps: BacktestDeps): Promise<AlertBacktest> {
  const { tz, currency } = deps.config;
  const now = deps.now?.() ?? Date.now();
  const today = todayIn(tz, new Date(now));
  const firstDay = addDays(today, -days);
  const start = zonedDayStart(firstDay, tz).getTime();
  const instants: number[] = [];
  for (let t = start; t <= now; t += HOUR) instants.push(t);

  // Campaign rules read their history once: every day any replayed window touches.
  const campaign = rule.kind === 'campaign_roi' ? CampaignRoiParams.parse(rule.params) : null;
  // One pass over the month's events, not a fill of the visit cache first: counting each missing
  // day into the cache's four tables cost a cold server over three times the rest of the backtest.
  const history = campaign
    ? await deps.profit.dayRows(campaign.level, windowDays(start, campaign.hours, tz).from, today, { fillCache: false })
    : null;
  const unsyncedNow = new Set(history?.completeness.unsynced ?? []);
  const finalNow = new Set(history?.completeness.final ?? []);
  /** What was known of each day at `t`: closed from the next day on if it is closed today; synced if it is today. */
  const knownAt = (t: number): CampaignDays['known'] => {
    const day = todayIn(tz, new Date(t));
    return (d) => ({ synced: d <= day && !unsyncedNow.has(d), final: d < day && finalNow.has(d) });
  };

  const record: AlertRuleRecord = {
    id: rule.id ?? `prueba-${randomUUID()}`,
    name: rule.name ?? 'Regla sin guardar',
    kind: rule.kind,
    params: rule.params,
    enabled: true,
    cooldown_minutes: rule.cooldown_minutes,
    created_by: '',
    created_by_email: '',
    created_at: new Date(now).toISOString(),
    updated_at: new Date(now).toISOString(),
    action: rule.action,
  };
  const alerts = new Map<string, SimAlert>();
  const ledger = new MemoryLedger((subject) => alerts.get(subject));
  const engine = new GuardEngine({ ledger, meta: new SimulatedMeta(deps.account()), tz, everyMs: evaluationPeriodMs(deps.config) });
  const round = roundQueries([rule]);
  const level = levelOf(rule.kind, rule.params);
  const nameOf = (subject: string) => history?.names.get(subject) ?? null;
  const actions: BacktestAction[] = [];
  const held = { cooldown: 0, daily_cap: 0 };
  const toggles = new Map<string, Toggles>();
  const toggle = (subject: string, what: keyof Toggles) => {
    const t = toggles.get(subject) ?? { offs: 0, ons: 0 };
    t[what]++;
    toggles.set(subject, t);
  };
  const pauses = rule.action?.mode === 'pause';
  let alertCount = 0;
  type Judged = { key: string; all: Verdict[]; found: Finding[] };
  let previous: Judged | null = null;

  for (const t of instants) {
    const ctx: RuleContext = {
      warehouse: deps.warehouse,
      profit: deps.profit,
      tz,
      currency,
      now: t,
      round,
      campaignDays: history ? async () => ({ days: history as ProfitDays, known: knownAt(t) }) : undefined,
    };
    // A campaign rule's verdicts change only with its window's days (and what is known of them):
    // the same days, the same verdicts, so the hours of a day are judged once.
    const key = campaign ? `${windowDays(t, campaign.hours, tz).from}|${todayIn(tz, new Date(t))}` : null;
    const same: Judged | null = key !== null && previous?.key === key ? previous : null;
    const all: Verdict[] = same ? same.all : await verdicts(rule.kind, rule.params, ctx);
    const found: Finding[] = same ? same.found : matchedOf(all);
    if (key !== null) previous = { key, all, found };
    let judged: Array<Finding | GuardedFinding> = found;
    const taken: BacktestAction[] = [];
    if (record.action) {
      const before = ledger.records.length;
      const decision = await engine.apply(record, all, found, t);
      judged = decision.findings;
      for (const f of decision.findings) if (f.outcome === 'cooldown' || f.outcome === 'daily_cap') held[f.outcome]++;
      for (const r of decision.recovered) if (r.outcome === 'cooldown' || r.outcome === 'daily_cap') held[r.outcome]++;
      for (const a of ledger.records.slice(before)) {
        if (a.status !== 'done') continue;
        if (pauses) toggle(a.subject, a.action === 'pause' ? 'offs' : 'ons');
        taken.push({ at: a.at, subject: a.subject, name: nameOf(a.subject), level, action: a.action, figures: a.figures, reason: a.reason });
      }
    }
    const at = new Date(t).toISOString();
    const plan = planAlerts(
      judged,
      [...alerts.values()].filter((a) => a.state !== 'resolved'),
      (subject) => alerts.get(subject),
      t,
      rule.cooldown_minutes,
    );
    for (const a of plan.resolve) {
      a.state = 'resolved';
      if (!pauses) toggle(a.subject, 'ons');
    }
    for (const { last } of plan.reopen) {
      // Within the cooldown of its last notice: the same alert again, without a notice.
      Object.assign(last, { state: 'open', fire_count: last.fire_count + 1 });
      held.cooldown++;
      if (!pauses) toggle(last.subject, 'offs');
    }
    for (const f of plan.open) {
      alerts.set(f.subject, { id: randomUUID(), subject: f.subject, state: 'open', muted_until: null, fired_at: at, opened_at: at, fire_count: 1 });
      alertCount++;
      if (!pauses) toggle(f.subject, 'offs');
      actions.push({ at, subject: f.subject, name: nameOf(f.subject), level, action: 'alert', figures: f.figures, reason: f.message });
    }
    actions.push(...taken);
    // Burst answers are of one instant only: not kept for the next.
    for (const k of round.answers.keys()) if (k.startsWith('bursts|')) round.answers.delete(k);
  }

  const done = ledger.records.filter((a) => a.status === 'done');
  // Up to the last hour replayed (not the call's instant): the same answer all through the hour.
  const end = instants[instants.length - 1];
  const money = history ? pausedMoney(done, history, tz, end) : { spend: 0, revenue: 0, hours: new Map<string, number>() };
  const flapping: BacktestFlapping[] = [...toggles]
    .filter(([, t]) => t.offs > 1)
    .map(([subject, t]) => ({ subject, name: nameOf(subject), offs: t.offs, ons: t.ons }))
    .sort((a, b) => b.offs - a.offs || a.subject.localeCompare(b.subject));
  return {
    rule: { id: rule.id, name: rule.name, kind: rule.kind, condition: alertRuleCondition(rule) },
    days,
    from: new Date(instants[0]).toISOString(),
    to: new Date(instants[instants.length - 1]).toISOString(),
    evaluations: instants.length,
    currency,
    actions: actions.slice(0, MAX_BACKTEST_ACTIONS),
    truncated: Math.max(0, actions.length - MAX_BACKTEST_ACTIONS),
    summary: {
      alerts: alertCount,
      pauses: done.filter((a) => a.action === 'pause').length,
      resumes: done.filter((a) => a.action === 'resume').length,
      spend_avoided: money.spend,
      revenue_forgone: money.revenue,
      net: money.spend - money.revenue,
      held,
      flapping,
    },
    daily: history ? dailyChart(history, actions, campaign?.target ?? null, money.hours, firstDay, today) : [],
    notes: await backtestNotes(rule, deps, { history, firstDay, today, start, campaign }),
  };
}

/**
 * The spend and revenue of each paused campaign from its pause until its resume (or `end`, the
 * last hour replayed): each day's stored figures shared by the hours of the day the pause covers
 * (today: by its hours up to `end`, which its figures cover). Also the paused hours per campaign and day.
 */
function pausedMoney(done: readonly AlertActionRecord[], history: ProfitDays, tz: string, end: number) {
  const hours = new Map<string, number>();
  let spend = 0;
  let revenue = 0;
  const resumes = done.filter((a) => a.action === 'resume');
  // Each day's first instant, worked out once (thousands of pauses cross the same days).
  const starts = new Map<string, number>();
  const startOf = (day: string) => {
    let ms = starts.get(day);
    if (ms === undefined) {
      ms = zonedDayStart(day, tz).getTime();
      starts.set(day, ms);
    }
    return ms;
  };
  for (const pause of done.filter((a) => a.action === 'pause')) {
    const from = Date.parse(pause.at);
    const resume = resumes.find((r) => r.subject === pause.subject && r.at === pause.undone_at);
    const until = resume ? Date.parse(resume.at) : end;
    for (let day = todayIn(tz, new Date(from)); startOf(day) < until; day = addDays(day, 1)) {
      const dayStart = startOf(day);
      const dayEnd = Math.min(startOf(addDays(day, 1)), end);
      const covered = Math.max(0, Math.min(until, dayEnd) - Math.max(from, dayStart));
      if (covered === 0 || dayEnd <= dayStart) continue;
      const key = `${pause.subject}|${day}`;
      hours.set(key, (hours.get(key) ?? 0) + covered / HOUR);
      const f = history.days.get(day)?.get(pause.subject);
      if (!f) continue;
      const share = covered / (dayEnd - dayStart);
      spend += (f.spend ?? 0) * share;
      revenue += f.revenue * share;
    }
  }
  return { spend, revenue, hours };
}

/** Each campaign the rule acted on (or its target) per day: its figures as stored today and the hours it would have been paused. */
function dailyChart(
  history: ProfitDays,
  actions: readonly BacktestAction[],
  target: string | null,
  pausedHours: ReadonlyMap<string, number>,
  firstDay: string,
  today: string,
): BacktestDay[] {
  const subjects = new Set(actions.map((a) => a.subject));
  if (target !== null) subjects.add(target);
  const spendOf = (subject: string) => {
    let total = 0;
    for (const byKey of history.days.values()) total += byKey.get(subject)?.spend ?? 0;
    return total;
  };
  const chosen = [...subjects]
    .map((s) => ({ s, spend: spendOf(s) }))
    .sort((a, b) => b.spend - a.spend || a.s.localeCompare(b.s))
    .slice(0, BACKTEST_CHART_SUBJECTS);
  const out: BacktestDay[] = [];
  for (const { s } of chosen)
    for (let d = firstDay; d <= today; d = addDays(d, 1)) {
      const f = history.days.get(d)?.get(s);
      const spend = f ? f.spend : 0;
      const revenue = f?.revenue ?? 0;
      out.push({
        date: d,
        subject: s,
        spend,
        revenue,
        profit: spend === null ? null : revenue - spend,
        paused_hours: pausedHours.get(`${s}|${d}`) ?? 0,
      });
    }
  return out;
}

/** Where today's data differs from what was known then, and what the replay assumes. */
async function backtestNotes(
  rule: BacktestRule,
  deps: BacktestDeps,
  x: { history: ProfitDays | null; firstDay: string; today: string; start: number; campaign: ReturnType<typeof CampaignRoiParams.parse> | null },
): Promise<string[]> {
  const { tz } = deps.config;
  const notes: string[] = [];
  const list = (days: readonly string[]) => days.map(formatDateDMY).join(', ');
  if (x.history && x.campaign) {
    const c = x.history.completeness;
    const past = (d: string) => d < x.today;
    notes.push(
      'Cifras de cada día tal como están guardadas hoy; un día cuenta como cerrado desde las 00:00 del día siguiente si hoy su informe es final y su gasto está sincronizado.',
    );
    if (c.unsynced.some(past)) notes.push(`Días sin gasto sincronizado hoy (la regla nunca los cuenta): ${list(c.unsynced.filter(past))}.`);
    if (c.partial.some(past)) notes.push(`Días con el informe aún parcial hoy (revenue estimado): ${list(c.partial.filter(past))}.`);
    const imported = await deps.completeness.importedAt(x.history.from, addDays(x.today, -1));
    const late = [...imported].filter(([d, at]) => Date.parse(at) > zonedDayStart(addDays(d, 1), tz).getTime() + 86_400_000).sort();
    if (late.length)
      notes.push(
        `Informes importados (o reimportados) más de un día después: ${late.map(([d, at]) => `${formatDateDMY(d)} el ${formatDateTimeDMY(at, tz)}`).join('; ')}. Entonces la regla aún no los tenía: la prueba los cuenta desde el día siguiente.`,
      );
    if (x.campaign.use_estimates)
      notes.push(
        'Con revenue estimado, el día en curso se juzga con el gasto y el revenue guardados de todo el día, no con lo que se sabía a esa hora (el gasto se guarda por día).',
      );
    notes.push(
      'El gasto evitado y el revenue perdido reparten el gasto y el revenue de cada día por horas desde la pausa hasta la reactivación (o hasta la última hora probada); tras una pausa la prueba sigue leyendo los datos reales de la campaña, que siguió activa.',
    );
    if (rule.action?.mode === 'pause')
      notes.push(
        'Meta no se consulta: cada campaña se supone activa salvo las que pausa la prueba, y el límite diario cuenta solo las acciones de esta regla.',
      );
    const oldest = addDays(x.today, -deps.config.eventRetentionDays);
    if (x.history.from < oldest)
      notes.push(`Las visitas de antes del ${formatDateDMY(oldest)} ya no se guardan (ADOPS_EVENT_RETENTION_DAYS): su revenue no cuenta.`);
  } else if (rule.kind === 'referrer_burst' || rule.kind === 'ip_burst')
    notes.push('Se evalúa a cada hora en punto: un pico entre dos horas que ya había pasado a la hora siguiente no se ve.');
  else notes.push('Los informes de zona de cada día tal como están guardados hoy (los que llegaron tarde o se reimportaron, con sus cifras de hoy).');
  return notes;
}

/** The backtests the API answers: a saved rule by its id, or a form's rule. */
export class AlertBacktester {
  constructor(
    private readonly store: Pick<EntityStore, 'alerts'>,
    private readonly deps: BacktestDeps,
  ) {}

  /** A saved rule (any user may replay any rule, as they read its alerts): 404 without it. */
  async saved(id: string, days: BacktestDays): Promise<AlertBacktest> {
    const rule = await this.store.alerts.rules.byId(id);
    if (!rule) throw new DomainError('not_found', 'Regla no encontrada');
    const spec = AlertRuleSpec.safeParse({ kind: rule.kind, params: rule.params });
    if (!spec.success) throw new DomainError('conflict', `La regla guardada no es válida: ${spec.error.issues[0]?.message ?? 'parámetros'}`);
    return backtestRule(
      {
        id: rule.id,
        name: rule.name,
        ...spec.data,
        params: spec.data.params as Record<string, unknown>,
        cooldown_minutes: rule.cooldown_minutes,
        action: rule.action ?? null,
      },
      days,
      this.deps,
    );
  }

  /** A rule not saved yet, as the form has it. */
  unsaved(input: AlertRuleSpec & { name?: string; cooldown_minutes: number; action: unknown }, days: BacktestDays): Promise<AlertBacktest> {
    const action = input.action ? AlertRuleAction.parse(input.action) : null;
    const { kind, params } = input;
    return backtestRule(
      { id: null, name: input.name || null, kind, params: params as Record<string, unknown>, cooldown_minutes: input.cooldown_minutes, action },
      days,
      this.deps,
    );
  }
}
