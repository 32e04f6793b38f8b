// What a backtest keeps instead of the entity store and Meta: the actions the rule would have
// taken and the daily cap, in memory (the guard engine's ledger), and a stand-in for Meta that
// only remembers what it was asked to pause — it has no client and cannot reach Meta.
import type { AlertActionRecord, AlertRecord } from '../store/types.js';
import type { GuardLedger, GuardMeta } from './alert-guard-engine.js';

const standing = (a: AlertActionRecord) => a.action === 'pause' && a.status === 'done' && a.undone_at === null;

export class MemoryLedger implements GuardLedger {
  /** Every action, in the order taken. */
  readonly records: AlertActionRecord[] = [];
  private readonly latestBy = new Map<string, AlertActionRecord>();
  private readonly slots = new Map<string, number>();

  constructor(private readonly alertOf: (subject: string) => Pick<AlertRecord, 'state' | 'opened_at'> | undefined) {}

  async latest(_ruleId: string, subject: string) {
    return this.latestBy.get(subject);
  }

  async standing() {
    return this.records.filter(standing);
  }

  async lastAlert(_ruleId: string, subject: string) {
    return this.alertOf(subject);
  }

  async takeSlot(account: string, day: string, cap: number) {
    const key = `${account}|${day}`;
    const used = this.slots.get(key) ?? 0;
    if (used >= cap) return false;
    this.slots.set(key, used + 1);
    return true;
  }

  async returnSlot(account: string, day: string) {
    const key = `${account}|${day}`;
    this.slots.set(key, Math.max(0, (this.slots.get(key) ?? 0) - 1));
  }

  async create(record: AlertActionRecord) {
    this.records.push(record);
    this.latestBy.set(record.subject, record);
  }

  async markUndone(id: string, by: string, at: string, byRule: boolean) {
    const a = this.records.find((r) => r.id === id);
    if (!a || !standing(a)) return undefined;
    Object.assign(a, { undone_at: at, undone_by: by, undone_by_rule: byRule });
    return a;
  }
}

/** Meta as a backtest sees it: every campaign active unless the replay paused it. */
export class SimulatedMeta implements GuardMeta {
  readonly simulated = true;
  private readonly paused = new Set<string>();

  constructor(readonly account: string) {}

  async objectStatus(id: string) {
    return { status: this.paused.has(id) ? 'PAUSED' : 'ACTIVE' };
  }

  async setStatus(id: string, status: 'ACTIVE' | 'PAUSED') {
    if (status === 'PAUSED') this.paused.add(id);
    else this.paused.delete(id);
  }
}
