// The audit trail on PostgreSQL: appended, never changed (the table's trigger refuses it), and
// searched with the same rules as the lowdb engine's auditMatches.
import type pg from 'pg';
import type { AuditFilter, AuditRecord, AuditRepository } from '../types.js';
import { hasNul, iso, type Query } from './db.js';

const AUDIT_COLUMNS = 'id, at, actor_type, actor_id, actor_email, ip, action, target_kind, target_id, target_label, before, after, request_id';

const auditRecord = (r: pg.QueryResultRow): AuditRecord => ({
  id: r.id,
  at: iso(r.at),
  actor_type: r.actor_type,
  actor_id: r.actor_id,
  actor_email: r.actor_email,
  ip: r.ip,
  action: r.action,
  target_kind: r.target_kind,
  target_id: r.target_id,
  target_label: r.target_label,
  before: r.before,
  after: r.after,
  request_id: r.request_id,
});

/** The WHERE clause of an audit query and its parameters (the rules of lowdb/audit.ts's auditMatches). */
function auditWhere(f: AuditFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const clauses: string[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.actor !== undefined) {
    const a = p(f.actor);
    clauses.push(
      `((actor_type <> 'user' AND actor_type = lower(${a})) OR actor_id = ${a} OR strpos(lower(coalesce(actor_email, '')), lower(${a})) > 0)`,
    );
  }
  if (f.action !== undefined) {
    const a = p(f.action);
    clauses.push(`(action = ${a} OR left(action, length(${a}) + 1) = ${a} || '.')`);
  }
  if (f.target_kind !== undefined) clauses.push(`target_kind = ${p(f.target_kind)}`);
  if (f.target_id !== undefined) clauses.push(`target_id = ${p(f.target_id)}`);
  if (f.since !== undefined) clauses.push(`at >= ${p(f.since)}::timestamptz`);
  if (f.until !== undefined) clauses.push(`at < ${p(f.until)}::timestamptz`);
  if (f.text !== undefined)
    clauses.push(
      `strpos(lower(concat_ws(' ', actor_email, action, target_kind, target_id, target_label, ip, before::text, after::text)), lower(${p(f.text)})) > 0`,
    );
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export function postgresAudit(q: Query): AuditRepository {
  return {
    async append(e) {
      const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
      await q(`INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12::jsonb, $13)`, [
        e.id,
        e.at,
        e.actor_type,
        e.actor_id,
        e.actor_email,
        e.ip,
        e.action,
        e.target_kind,
        e.target_id,
        e.target_label,
        json(e.before),
        json(e.after),
        e.request_id,
      ]);
    },
    async query(filter, order, offset, limit) {
      if (hasNul(filter)) return { rows: [], total: 0 };
      const { where, params } = auditWhere(filter);
      const dir = order === 'asc' ? 'ASC' : 'DESC';
      const n = params.length;
      const [page, count] = await Promise.all([
        q(`SELECT ${AUDIT_COLUMNS} FROM audit_log ${where} ORDER BY at ${dir}, seq ${dir} OFFSET $${n + 1} LIMIT $${n + 2}`, [
          ...params,
          offset,
          limit,
        ]),
        q(`SELECT count(*)::int AS n FROM audit_log ${where}`, params),
      ]);
      return { rows: page.rows.map(auditRecord), total: count.rows[0].n };
    },
  };
}
