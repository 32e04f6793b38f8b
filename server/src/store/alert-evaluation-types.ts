// The entity store's part for the evaluation log ('Historial de evaluación'): what each
// evaluation of a rule made of each subject it looked at — figures, threshold, the guard's words
// and the outcome. Consecutive evaluations that say the same of a subject are one entry (its first
// and last instant and how many evaluations), so a steady rule costs one entry per subject, not
// one a minute. Bounded: entries last seen more than the retention ago go, and each rule keeps
// its newest `perRule`. lowdb/alert-evaluations.ts and postgres/alert-evaluations.ts implement it.

export type AlertEvaluationOutcome =
  | 'fired'
  | 'acted'
  | 'cooldown'
  | 'daily_cap'
  | 'below_min_spend'
  | 'unsynced_spend'
  | 'estimated_revenue'
  | 'recovered'
  | 'not_matched';

/** What one evaluation made of one subject. */
export interface AlertEvaluationInput {
  rule_id: string;
  subject: string;
  outcome: AlertEvaluationOutcome;
  value: number | null;
  threshold: number | null;
  figures: Record<string, number | null>;
  /** The guard's words on it (cooldown until, cap reached, standing pause …); null when none spoke. */
  guard: string | null;
  /** Why, in a sentence with the figures. */
  reason: string;
}

export interface AlertEvaluationRecord extends AlertEvaluationInput {
  id: string;
  /** The first and the latest evaluation that said this (ISO instants). */
  first_at: string;
  last_at: string;
  /** How many consecutive evaluations said it. */
  evaluations: number;
}

export interface AlertEvaluationFilter {
  rule_id: string;
  subject?: string;
  /** Entries last seen at or after this instant (ISO). */
  since?: string;
  outcome?: AlertEvaluationOutcome;
}

export interface AlertEvaluationBounds {
  /** Entries last seen before this instant (ISO) are dropped. */
  keepSince: string;
  /** Entries each rule keeps at most, its newest (by last evaluation). */
  perRule: number;
}

export interface AlertEvaluationRepository {
  /**
   * Records one evaluation round at `at`: each entry extends its subject's newest entry of the
   * same rule when that says exactly the same (outcome, value, threshold, figures, guard, reason),
   * else starts a new one; then applies the bounds to the rules of the round. One write (lowdb) or
   * one transaction (PostgreSQL) however many entries.
   */
  record(at: string, entries: readonly AlertEvaluationInput[], bounds: AlertEvaluationBounds): Promise<void>;
  /** Matching entries, latest evaluation first, from `offset`, at most `limit`, and how many match. */
  list(filter: AlertEvaluationFilter, offset: number, limit: number): Promise<{ rows: AlertEvaluationRecord[]; total: number }>;
  /** The instant of the rule's latest recorded evaluation (null: none kept). */
  lastEvaluated(ruleId: string): Promise<string | null>;
  /** Drops a rule's entries (the rule was deleted). */
  removeRule(ruleId: string): Promise<void>;
}

/** Whether two entries say the same of a subject (then the later only extends the earlier). */
export const sameEvaluation = (a: AlertEvaluationInput, b: AlertEvaluationInput): boolean =>
  a.outcome === b.outcome &&
  a.value === b.value &&
  a.threshold === b.threshold &&
  a.guard === b.guard &&
  a.reason === b.reason &&
  JSON.stringify(a.figures) === JSON.stringify(b.figures);
