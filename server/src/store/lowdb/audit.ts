// The embedded engine's audit trail: data/audit.ndjson, one JSON entry per line, only ever
// appended (O_APPEND, flushed to disk before the change is acknowledged) and held in memory for
// queries. Kept apart from adops.json so a growing trail never slows every other write down.
// A line torn by a crash mid-append was never acknowledged: it is cut off on open.
import { open, readFile, truncate } from 'node:fs/promises';
import path from 'node:path';
import type { AuditFilter, AuditRecord, AuditRepository } from '../types.js';

export const AUDIT_FILE = 'audit.ndjson';

/** Whether an entry matches a filter (the same rules the PostgreSQL query applies). */
export function auditMatches(e: AuditRecord, f: AuditFilter): boolean {
  if (f.actor !== undefined) {
    const a = f.actor.toLowerCase();
    const byKind = e.actor_type !== 'user' && e.actor_type === a;
    if (!byKind && e.actor_id !== f.actor && !(e.actor_email ?? '').toLowerCase().includes(a)) return false;
  }
  if (f.action !== undefined && e.action !== f.action && !e.action.startsWith(`${f.action}.`)) return false;
  if (f.target_kind !== undefined && e.target_kind !== f.target_kind) return false;
  if (f.target_id !== undefined && e.target_id !== f.target_id) return false;
  const at = Date.parse(e.at);
  if (f.since !== undefined && at < Date.parse(f.since)) return false;
  if (f.until !== undefined && at >= Date.parse(f.until)) return false;
  if (f.text !== undefined) {
    const t = f.text.toLowerCase();
    const hay = [e.actor_email, e.action, e.target_kind, e.target_id, e.target_label, e.ip, JSON.stringify(e.before), JSON.stringify(e.after)];
    if (!hay.some((v) => v != null && String(v).toLowerCase().includes(t))) return false;
  }
  return true;
}

export async function openLowdbAudit(dataDir: string): Promise<AuditRepository & { drain(): Promise<void> }> {
  const file = path.join(dataDir, AUDIT_FILE);
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) await truncate(file, Buffer.byteLength(text.slice(0, end)));
  const entries: AuditRecord[] = text
    .slice(0, end)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AuditRecord);
  let queue: Promise<unknown> = Promise.resolve();

  return {
    append(entry) {
      const line = `${JSON.stringify(entry)}\n`;
      const run = queue.then(async () => {
        const handle = await open(file, 'a', 0o600);
        try {
          await handle.appendFile(line, 'utf8');
          await handle.datasync();
        } finally {
          await handle.close();
        }
        entries.push(structuredClone(entry));
      });
      queue = run.catch(() => undefined);
      return run;
    },
    async query(filter, order, offset, limit) {
      // Newest first: by instant, then by append order.
      const matched = entries.map((e, i) => [e, i] as const).filter(([e]) => auditMatches(e, filter));
      matched.sort(([a, i], [b, j]) => (a.at === b.at ? i - j : a.at < b.at ? -1 : 1));
      if (order === 'desc') matched.reverse();
      return { rows: matched.slice(offset, offset + limit).map(([e]) => structuredClone(e)), total: matched.length };
    },
    drain: async () => {
      await queue;
    },
  };
}
