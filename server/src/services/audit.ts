// The audit trail: one small call records a change made by the request's caller
// (`audit.record(actorOf(ctx), {...})`) or by the system (`audit.system({...})`), with secrets redacted;
// the admin route reads it back as a table (filters, pages, CSV / NDJSON). Entries are
// append-only and kept forever (see docs/operations.md: Audit log).
import { randomUUID } from 'node:crypto';
import { AUDIT_CSV, type AuditEntry, type AuditTable, type TableRequest } from '@adops/core';
import type { AuditFilter, AuditRecord, EntityStore } from '../store/types.js';
import type { TableExport } from '../tables.js';

/** What changed: a stable action name (`user.create`), the thing it changed, and the record before and after. */
export interface AuditChange {
  action: string;
  target: { kind: string; id?: string | null; label?: string | null };
  before?: unknown;
  after?: unknown;
}

/** Who made a change when there is no request (or it is made on someone's behalf). */
export interface AuditActor {
  type: AuditRecord['actor_type'];
  id?: string | null;
  email?: string | null;
  ip?: string | null;
  requestId?: string | null;
}

/** Words that make a key secret: passwords and their hashes, tokens, keys, TOTP secrets, recovery codes. */
const SECRET_WORDS = new Set(['password', 'passwd', 'pass', 'hash', 'token', 'secret', 'sealed', 'recovery', 'totp', 'otp', 'key', 'codes', 'salt']);
/** …unless the key ends in a word naming a time, a count, an id or a flag about the secret, not the secret itself. */
const HARMLESS_LAST = new Set(['at', 'id', 'count', 'enabled', 'name', 'changed', 'ended']);
const HARMLESS_KEYS = new Set(['image_hash']);

/** Whether a field named `key` holds a secret: one of its words (snake_case or camelCase) is a secret word. */
export function isSecretKey(key: string): boolean {
  if (HARMLESS_KEYS.has(key)) return false;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.length > 1 && HARMLESS_LAST.has(words[words.length - 1])) return false;
  return words.some((w) => SECRET_WORDS.has(w));
}
export const REDACTED = '[oculto]';
const MAX_TEXT = 1000;
const MAX_ITEMS = 100;

/**
 * A copy of `value` fit for the trail: secret fields replaced by '[oculto]', NUL characters
 * dropped (PostgreSQL's jsonb cannot hold them), long texts and lists cut.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (value === undefined) return null;
  if (typeof value === 'string') {
    const clean = value.replaceAll('\u0000', '');
    return clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT)}…` : clean;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value === null || typeof value !== 'object') return typeof value === 'boolean' ? value : value == null ? null : String(value);
  if (depth > 6) return '…';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => redact(v, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`… (${value.length - MAX_ITEMS} más)`);
    return items;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const key = k.replaceAll('\u0000', '');
    out[key] = isSecretKey(key) ? REDACTED : redact(v, depth + 1);
  }
  return out;
}

/** The fields of an audit query the store filters by (the route's parsed `AuditQuery`): the store's filter, with its free text as `q`. */
export type AuditQueryInput = Omit<AuditFilter, 'text'> & { q?: string };

const EXPORT_CHUNK = 1000;

export class AuditService {
  constructor(
    private readonly store: EntityStore,
    private readonly log: (line: string) => void,
  ) {}

  /** Records a change the server made by itself (start-up, timers, automatic actions). */
  system(change: AuditChange): Promise<void> {
    return this.record({ type: 'system' }, change);
  }

  /**
   * Records a change made by `actor` (a request's caller: `actorOf(ctx)` in the HTTP layer).
   * Never throws: the change it follows has happened already; a failure is logged with the entry.
   */
  async record(actor: AuditActor, change: AuditChange): Promise<void> {
    const clip = (v: string | null | undefined, max = 500) => (v == null ? null : v.replaceAll('\u0000', '').slice(0, max));
    const entry: AuditRecord = {
      id: randomUUID(),
      at: new Date().toISOString(),
      actor_type: actor.type,
      actor_id: clip(actor.id, 200),
      actor_email: clip(actor.email, 254),
      ip: clip(actor.ip, 64),
      action: change.action,
      target_kind: change.target.kind,
      target_id: clip(change.target.id, 200),
      target_label: clip(change.target.label),
      before: redact(change.before ?? null),
      after: redact(change.after ?? null),
      request_id: clip(actor.requestId, 64),
    };
    try {
      await this.store.audit.append(entry);
    } catch (e) {
      this.log(`audit: entry could not be stored (${(e as Error).message}): ${JSON.stringify(entry)}`);
    }
  }

  /** One page of the trail (newest first unless sorted `at:asc`). */
  async table(q: AuditQueryInput, request: TableRequest): Promise<AuditTable> {
    const order = request.sort?.dir === 'asc' ? 'asc' : 'desc';
    const asked = (request.page - 1) * request.page_size;
    let { rows, total } = await this.store.audit.query(filterOf(q), order, asked, request.page_size);
    const page_count = Math.max(1, Math.ceil(total / request.page_size));
    const page = Math.min(request.page, page_count);
    // A page past the last is answered as the last.
    if (page !== request.page)
      ({ rows, total } = await this.store.audit.query(filterOf(q), order, (page - 1) * request.page_size, request.page_size));
    return { rows: rows as AuditEntry[], total_rows: total, page, page_size: request.page_size, page_count, sort: request.sort, totals: {} };
  }

  /** Every matching entry, read in chunks, for a CSV / NDJSON download. */
  export(q: AuditQueryInput, request: TableRequest): TableExport<AuditEntry> {
    const store = this.store;
    const order = request.sort?.dir === 'asc' ? 'asc' : 'desc';
    const filter = filterOf(q);
    // Pinned to the entries up to now, so entries recorded while it streams never shift the chunks.
    const pinned = { ...filter, until: filter.until && filter.until < stamp() ? filter.until : stamp() };
    async function* chunks(): AsyncGenerator<AuditEntry[]> {
      for (let offset = 0; ; offset += EXPORT_CHUNK) {
        const { rows } = await store.audit.query(pinned, order, offset, EXPORT_CHUNK);
        if (rows.length) yield rows as AuditEntry[];
        if (rows.length < EXPORT_CHUNK) return;
      }
    }
    return { file: AUDIT_CSV.file, fields: AUDIT_CSV.fields, chunks: chunks() };
  }
}

/** The instant just after now (exclusive bound that still takes an entry recorded this millisecond). */
const stamp = () => new Date(Date.now() + 1).toISOString();

function filterOf({ actor, action, target_kind, target_id, since, until, q }: AuditQueryInput): AuditFilter {
  const given = { actor, action, target_kind, target_id, since, until, text: q };
  return Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
}

/** The targets entries name, one way each: the kind, its id and a label a person recognises. */
export const auditTarget = {
  user: (u: { id: string; email: string }) => ({ kind: 'user', id: u.id, label: u.email }),
  session: (userId: string, sessionId: string | null, email: string) => ({ kind: 'session', id: sessionId ?? userId, label: email }),
  publisherToken: (publisherName: string, id?: string | null) => ({ kind: 'publisher_token', id: id ?? publisherName, label: publisherName }),
  publisher: (name: string) => ({ kind: 'publisher', id: name, label: name }),
};

/**
 * The entries an admin's edit of a user makes, one per kind of change: profile fields
 * (`user.update`, only the fields that changed), the admin right (`user.admin_grant` /
 * `user.admin_revoke`) and a password set by the admin (`user.password_reset`, with the
 * sessions it ended). An edit that changed nothing records nothing.
 */
export function userEditChanges(
  before: { id: string; email: string; first_name: string; last_name: string; is_admin: boolean },
  after: { id: string; email: string; first_name: string; last_name: string; is_admin: boolean },
  passwordReset: { sessionsEnded: number } | null,
): AuditChange[] {
  const target = auditTarget.user(after);
  const changes: AuditChange[] = [];
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const k of ['first_name', 'last_name', 'email'] as const)
    if (before[k] !== after[k]) {
      was[k] = before[k];
      now[k] = after[k];
    }
  if (Object.keys(now).length) changes.push({ action: 'user.update', target, before: was, after: now });
  if (before.is_admin !== after.is_admin)
    changes.push({
      action: after.is_admin ? 'user.admin_grant' : 'user.admin_revoke',
      target,
      before: { is_admin: before.is_admin },
      after: { is_admin: after.is_admin },
    });
  if (passwordReset)
    changes.push({
      action: 'user.password_reset',
      target,
      before: null,
      after: { password_changed: true, sessions_ended: passwordReset.sessionsEnded },
    });
  return changes;
}
