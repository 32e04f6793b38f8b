// The profit guard on lowdb: action records and the daily cap's counters in adops.json beside
// the other entities (absent until first used), written through the store's one serialised
// writer (so a check and its change never interleave).
import type { AlertActionRecord, AlertActionRepository } from '../alert-action-types.js';
import { StoreConflictError } from '../types.js';

export interface AlertActionStoreData {
  alertActions?: AlertActionRecord[];
  alertActionDays?: Array<{ account: string; day: string; used: number }>;
}

export interface AlertActionFile {
  readonly data: Readonly<AlertActionStoreData>;
  update<T>(change: (draft: AlertActionStoreData) => T): Promise<T>;
}

const copy = (a: AlertActionRecord): AlertActionRecord => structuredClone(a);
/** Newest first; records of one instant in the order they were stored, last first. */
const newestFirst = (list: readonly AlertActionRecord[]) =>
  list
    .map((a, i) => ({ a, i }))
    .sort((x, y) => y.a.at.localeCompare(x.a.at) || y.i - x.i)
    .map((x) => x.a);
const standing = (a: AlertActionRecord) => a.action === 'pause' && a.status === 'done' && a.undone_at === null;

export function lowdbAlertActions(file: AlertActionFile): AlertActionRepository {
  const all = () => file.data.alertActions ?? [];
  const used = (account: string, day: string) => file.data.alertActionDays?.find((d) => d.account === account && d.day === day)?.used ?? 0;
  return {
    list: async (filter, offset, limit) => {
      const matched = newestFirst(all().filter((a) => filter.rule_id === undefined || a.rule_id === filter.rule_id));
      return { rows: matched.slice(offset, offset + limit).map(copy), total: matched.length };
    },
    byId: async (id) => {
      const a = all().find((x) => x.id === id);
      return a ? copy(a) : undefined;
    },
    create: (record) =>
      file.update((d) => {
        d.alertActions ??= [];
        if (d.alertActions.some((a) => a.id === record.id)) throw new StoreConflictError('id');
        d.alertActions.push(copy(record));
      }),
    latest: async (ruleId, subject) => {
      const [a] = newestFirst(all().filter((x) => x.rule_id === ruleId && x.subject === subject));
      return a ? copy(a) : undefined;
    },
    standing: async (ruleId) =>
      newestFirst(all().filter((a) => a.rule_id === ruleId && standing(a)))
        .reverse()
        .map(copy),
    markUndone: async (id, by, at, byRule) => {
      const found = all().find((a) => a.id === id);
      if (!found || !standing(found)) return undefined;
      return file.update((d) => {
        const a = d.alertActions?.find((x) => x.id === id);
        if (!a || !standing(a)) return undefined;
        Object.assign(a, { undone_at: at, undone_by: by, undone_by_rule: byRule });
        return copy(a);
      });
    },
    unmarkUndone: async (id) => {
      if (!all().some((a) => a.id === id)) return;
      await file.update((d) => {
        const a = d.alertActions?.find((x) => x.id === id);
        if (a) Object.assign(a, { undone_at: null, undone_by: null, undone_by_rule: false });
      });
    },
    takeSlot: async (account, day, cap) => {
      if (used(account, day) >= cap) return false;
      return file.update((d) => {
        d.alertActionDays ??= [];
        let row = d.alertActionDays.find((x) => x.account === account && x.day === day);
        if (!row) {
          row = { account, day, used: 0 };
          d.alertActionDays.push(row);
        }
        if (row.used >= cap) return false;
        row.used++;
        return true;
      });
    },
    returnSlot: async (account, day) => {
      if (used(account, day) <= 0) return;
      await file.update((d) => {
        const row = d.alertActionDays?.find((x) => x.account === account && x.day === day);
        if (row && row.used > 0) row.used--;
      });
    },
    slotsUsed: async (account, day) => used(account, day),
  };
}
