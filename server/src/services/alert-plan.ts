// What one evaluation of a rule does to its alerts and what it logs of each subject, written once
// for the live evaluator and the backtest: one unresolved alert per subject, resolved when the
// condition clears; a re-fire within the cooldown of the last notice reopens the same alert
// without a new notice; an expired mute is lifted. Then the evaluation log's entries: per subject,
// the outcome (acted, held back, fired, recovered, or why it was not judged), worst first.
import { EVALUATION_SUBJECTS } from '@adops/core';
import type { AlertEvaluationInput, AlertEvaluationOutcome, AlertStateValue } from '../store/types.js';
import type { GuardDecision, GuardedFinding } from './alert-guard-engine.js';
import type { Finding, Verdict } from './alert-rules.js';

/** An alert as the plan needs it. */
export interface HeldAlert {
  id: string;
  subject: string;
  state: AlertStateValue;
  muted_until: string | null;
  fired_at: string;
  fire_count: number;
}

export interface AlertPlan {
  /** Unresolved alerts whose condition cleared. */
  resolve: HeldAlert[];
  /** Alerts muted until an instant now past whose subject still fires: open again. */
  unmute: Array<{ alert: HeldAlert; finding: Finding }>;
  /** Re-fires within the cooldown of the last notice: the same alert again, without a notice. */
  reopen: Array<{ last: HeldAlert; finding: Finding }>;
  /** New alerts, each with its notice. */
  open: Finding[];
}

/**
 * The plan for one rule at `now`: `found` its findings, `unresolved` its open and muted alerts,
 * `last(subject)` the newest alert of a subject that fires without an unresolved one.
 */
export function planAlerts(
  found: readonly Finding[],
  unresolved: readonly HeldAlert[],
  last: (subject: string) => HeldAlert | undefined,
  now: number,
  cooldownMinutes: number,
): AlertPlan {
  const firing = new Map(found.map((f) => [f.subject, f]));
  const plan: AlertPlan = { resolve: [], unmute: [], reopen: [], open: [] };
  for (const a of unresolved) {
    const f = firing.get(a.subject);
    if (!f) plan.resolve.push(a);
    else if (a.state === 'muted' && a.muted_until !== null && Date.parse(a.muted_until) <= now) plan.unmute.push({ alert: a, finding: f });
  }
  const held = new Set(unresolved.map((a) => a.subject));
  for (const f of found) {
    if (held.has(f.subject)) continue;
    const previous = last(f.subject);
    if (previous && previous.state === 'resolved' && now - Date.parse(previous.fired_at) < cooldownMinutes * 60_000)
      plan.reopen.push({ last: previous, finding: f });
    else plan.open.push(f);
  }
  return plan;
}

/** The log's order: what the rule did or held back first, then why it did not act, the worst first within each. */
const ORDER: readonly AlertEvaluationOutcome[] = [
  'acted',
  'daily_cap',
  'cooldown',
  'fired',
  'recovered',
  'unsynced_spend',
  'estimated_revenue',
  'below_min_spend',
  'not_matched',
];

/**
 * The evaluation log's entries of one rule's evaluation: each subject it looked at with its
 * outcome, at most EVALUATION_SUBJECTS (the rule's actions and holds first).
 */
export function evaluationEntries(
  ruleId: string,
  all: readonly Verdict[],
  found: readonly (Finding | GuardedFinding)[],
  recovered: GuardDecision['recovered'],
  plan: AlertPlan,
  cooldownMinutes: number,
): AlertEvaluationInput[] {
  const out: AlertEvaluationInput[] = [];
  const seen = new Set<string>();
  const push = (e: Omit<AlertEvaluationInput, 'rule_id'>) => {
    if (seen.has(e.subject)) return;
    seen.add(e.subject);
    out.push({ rule_id: ruleId, ...e });
  };
  const reopened = new Set(plan.reopen.map((r) => r.finding.subject));
  for (const f of found) {
    const base = { subject: f.subject, value: f.value, threshold: f.threshold, figures: f.figures, reason: f.message };
    // A guarded finding's sentence ends with the guard's words: the entry keeps them apart.
    if ('outcome' in f && f.guard) push({ ...base, outcome: f.outcome, guard: f.guard, reason: f.message.replace(` · ${f.guard}`, '') });
    else if (reopened.has(f.subject))
      push({
        ...base,
        outcome: 'cooldown',
        guard: `vuelve a cumplirse dentro de la espera entre avisos (${cooldownMinutes} min): se reabre sin aviso nuevo`,
      });
    else push({ ...base, outcome: 'fired', guard: null });
  }
  const resumed = new Map(recovered.map((r) => [r.subject, r]));
  const resolved = new Set(plan.resolve.map((a) => a.subject));
  for (const v of all) {
    if (v.outcome === 'matched') continue;
    const base = { subject: v.subject, value: v.value, threshold: v.threshold, figures: v.figures, reason: v.message };
    const r = resumed.get(v.subject);
    if (r) push({ ...base, outcome: r.outcome, guard: r.guard, reason: r.reason });
    else if (resolved.has(v.subject)) push({ ...base, outcome: 'recovered', guard: null });
    else push({ ...base, outcome: v.outcome, guard: null });
  }
  for (const a of plan.resolve)
    push({
      subject: a.subject,
      outcome: 'recovered',
      value: null,
      threshold: null,
      figures: {},
      guard: null,
      reason: `${a.subject}: ya no cumple la condición (sin datos en la ventana)`,
    });
  const rank = (o: AlertEvaluationOutcome) => ORDER.indexOf(o);
  // A stable sort keeps each outcome's own order (the rule's: worst first).
  return out.sort((a, b) => rank(a.outcome) - rank(b.outcome)).slice(0, EVALUATION_SUBJECTS);
}
