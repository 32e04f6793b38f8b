// The evaluation log on lowdb: its own file beside adops.json (alert-evaluations.json), so the
// evaluator's write each round rewrites the log only, never the entities, and a backup of the
// entities does not carry a diagnostic log. Written through its own serialised, copy-first writer.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { type AlertEvaluationFilter, type AlertEvaluationRecord, type AlertEvaluationRepository, sameEvaluation } from '../alert-evaluation-types.js';
import { JsonFileData } from './file.js';

interface EvaluationData {
  version: 1;
  entries: AlertEvaluationRecord[];
}

export const EVALUATIONS_FILE = 'alert-evaluations.json';

/** Latest evaluation first, then the latest started; one evaluation's entries in the order it logged them (the file's). */
const newestFirst = (list: readonly AlertEvaluationRecord[]) =>
  list
    .map((e, i) => ({ e, i }))
    .sort((x, y) => y.e.last_at.localeCompare(x.e.last_at) || y.e.first_at.localeCompare(x.e.first_at) || x.i - y.i)
    .map((x) => x.e);

const matches = (e: AlertEvaluationRecord, f: AlertEvaluationFilter) =>
  e.rule_id === f.rule_id &&
  (f.subject === undefined || e.subject === f.subject) &&
  (f.outcome === undefined || e.outcome === f.outcome) &&
  (f.since === undefined || e.last_at >= f.since);

export async function openLowdbAlertEvaluations(dataDir: string): Promise<{ repository: AlertEvaluationRepository; drain: () => Promise<void> }> {
  const db = new Low<EvaluationData>(new JSONFile(path.join(dataDir, EVALUATIONS_FILE)), { version: 1, entries: [] });
  await db.read();
  db.data = { version: 1, entries: Array.isArray(db.data?.entries) ? db.data.entries : [] };
  const file = new JsonFileData<EvaluationData>(db);
  const repository: AlertEvaluationRepository = {
    record: async (at, entries, bounds) => {
      if (entries.length === 0 && file.data.entries.every((e) => e.last_at >= bounds.keepSince)) return;
      await file.update((d) => {
        // The newest entry of each rule and subject: the one an evaluation may extend.
        const latest = new Map<string, AlertEvaluationRecord>();
        for (const e of newestFirst(d.entries)) {
          const key = JSON.stringify([e.rule_id, e.subject]);
          if (!latest.has(key)) latest.set(key, e);
        }
        for (const input of entries) {
          const key = JSON.stringify([input.rule_id, input.subject]);
          const last = latest.get(key);
          if (last && last.last_at < at && sameEvaluation(last, input)) {
            last.last_at = at;
            last.evaluations++;
            continue;
          }
          const entry: AlertEvaluationRecord = { ...structuredClone(input), id: randomUUID(), first_at: at, last_at: at, evaluations: 1 };
          d.entries.push(entry);
          latest.set(key, entry);
        }
        // The bounds: nothing older than the retention; each rule of the round keeps its newest perRule.
        const rules = new Set(entries.map((e) => e.rule_id));
        const kept = new Map<string, number>();
        d.entries = newestFirst(d.entries.filter((e) => e.last_at >= bounds.keepSince)).filter((e) => {
          if (!rules.has(e.rule_id)) return true;
          const n = (kept.get(e.rule_id) ?? 0) + 1;
          kept.set(e.rule_id, n);
          return n <= bounds.perRule;
        });
      });
    },
    list: async (filter, offset, limit) => {
      const matched = newestFirst(file.data.entries.filter((e) => matches(e, filter)));
      return { rows: matched.slice(offset, offset + limit).map((e) => structuredClone(e)), total: matched.length };
    },
    lastEvaluated: async (ruleId) => {
      let last: string | null = null;
      for (const e of file.data.entries) if (e.rule_id === ruleId && (last === null || e.last_at > last)) last = e.last_at;
      return last;
    },
    removeRule: async (ruleId) => {
      if (!file.data.entries.some((e) => e.rule_id === ruleId)) return;
      await file.update((d) => {
        d.entries = d.entries.filter((e) => e.rule_id !== ruleId);
      });
    },
  };
  return { repository, drain: () => file.drain() };
}
