// The entity store's part for the profit guard: what a campaign rule's action did on Meta (a
// pause, an automatic 'reactivar'), undone by whom and when, and the daily cap's counter per
// ad account and day (ADOPS_TZ), shared by every instance. lowdb/alert-actions.ts and
// postgres/alert-actions.ts implement it.

/** What a campaign rule does besides telling: notify only (default) or pause on Meta. */
export interface AlertRuleActionRecord {
  mode: 'notify' | 'pause';
  /** Resume what it paused when the subject's figures recover. */
  reactivate: boolean;
  /** Minutes after an action (or a failed try) on a subject before the rule acts on it again. */
  cooldown_minutes: number;
  /** Automatic actions per ad account and day (ADOPS_TZ), counted across every rule. */
  daily_cap: number;
  /** Act only once the condition held this many evaluations in a row (absent in records of earlier versions: 1). */
  confirm_evaluations?: number;
  /** A 'hold' pause resumes by itself this many minutes after (absent or null: it stays paused). */
  hold_minutes?: number | null;
}

export type AlertActionKind = 'pause' | 'resume';
export type AlertActionStatus = 'done' | 'failed';

export interface AlertActionRecord {
  id: string;
  rule_id: string;
  /** The rule's name then (the record outlives the rule). */
  rule_name: string;
  /** The campaign or ad set id (the alert's subject). */
  subject: string;
  level: 'campaign' | 'adset';
  /** The Meta ad account (act_…): the daily cap's unit. */
  account: string;
  action: AlertActionKind;
  /** 'rule': the rule's condition held; 'recovery': its figures recovered (reactivar); 'hold': its pause's time was up. */
  trigger: 'rule' | 'recovery' | 'hold';
  status: AlertActionStatus;
  /** Meta's error when it failed. */
  detail: string | null;
  /** Why: the finding's sentence. */
  reason: string;
  /** The figures at that moment (spend, revenue, profit, ROI, CPC, break-even CPC). */
  figures: Record<string, number | null>;
  at: string;
  undone_at: string | null;
  /** The admin's e-mail, or 'Regla «…» (reactivar)'. */
  undone_by: string | null;
  /** Undone by the rule's reactivation, not by a person. */
  undone_by_rule: boolean;
}

export interface AlertActionFilter {
  rule_id?: string;
}

export interface AlertActionRepository {
  /** Matching records, newest first, from `offset`, at most `limit`, and how many match. */
  list(filter: AlertActionFilter, offset: number, limit: number): Promise<{ rows: AlertActionRecord[]; total: number }>;
  byId(id: string): Promise<AlertActionRecord | undefined>;
  /** StoreConflictError (`id`) when the id is taken. */
  create(record: AlertActionRecord): Promise<void>;
  /** The rule's newest record on the subject. */
  latest(ruleId: string, subject: string): Promise<AlertActionRecord | undefined>;
  /** The rule's pauses that stand: done and not undone, oldest first. */
  standing(ruleId: string): Promise<AlertActionRecord[]>;
  /**
   * Marks a standing pause undone; the stored record, or undefined when it is not a standing
   * pause (gone, failed, a resume, already undone — by another instance a moment ago too).
   */
  markUndone(id: string, by: string, at: string, byRule: boolean): Promise<AlertActionRecord | undefined>;
  /** Takes back markUndone (resuming on Meta failed): the pause stands again. */
  unmarkUndone(id: string): Promise<void>;
  /** Takes one of the account's `cap` actions for `day` (YYYY-MM-DD): false when all are taken. */
  takeSlot(account: string, day: string, cap: number): Promise<boolean>;
  /** Gives a slot back (the action failed, nothing changed on Meta). */
  returnSlot(account: string, day: string): Promise<void>;
  /** Actions taken on the account on `day`. */
  slotsUsed(account: string, day: string): Promise<number>;
}
