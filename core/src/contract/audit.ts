// The audit trail's route: every change an admin or the system made, newest first, filtered,
// paged and exported like every other table (admins only).
import { z } from 'zod';
import { instantBound } from './instants.js';
import { DATE_RANGE_REVERSED } from '../voice.js';
import { route, optionalFilter } from './route.js';
import { tableFields, tablePage } from './table.js';
import { AUDIT_PAGE_SIZE, AUDIT_SORT_KEYS } from './values.js';

export { AUDIT_SORT_KEYS, AUDIT_PAGE_SIZE } from './values.js';

/** One entry: who, when (UTC), from which address, what, on what, before and after (secrets redacted). */
export const AuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  actor_type: z.enum(['user', 'system', 'ingest_key']),
  actor_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  ip: z.string().nullable(),
  action: z.string(),
  target_kind: z.string(),
  target_id: z.string().nullable(),
  target_label: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  request_id: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** A machine name such as `user.create`, or its prefix (`user`). */
const machineName = () =>
  z
    .string()
    .trim()
    .max(64)
    .optional()
    .transform((v) => (v === undefined || v === '' || v === 'Todos' ? undefined : v))
    .pipe(
      z
        .string()
        .regex(/^[a-z0-9_.]+$/, 'solo letras minúsculas, números, «_» y «.»')
        .optional(),
    );

export const AuditQuery = z
  .object({
    /** A user id, 'system', 'ingest_key', or part of the actor's e-mail. */
    actor: optionalFilter(254),
    action: machineName(),
    target_kind: machineName(),
    target_id: optionalFilter(200),
    since: instantBound(false),
    until: instantBound(true),
    /** Free text: part of the e-mail, action, target, address or before/after. */
    q: optionalFilter(200),
    ...tableFields(AUDIT_SORT_KEYS, AUDIT_PAGE_SIZE),
  })
  .superRefine((f, ctx) => {
    if (f.since && f.until && f.since >= f.until) ctx.addIssue({ code: 'custom', path: ['since'], message: DATE_RANGE_REVERSED });
  });
export type AuditQuery = z.input<typeof AuditQuery>;

export const AuditTable = tablePage(AuditEntry, z.object({}));
export type AuditTable = z.infer<typeof AuditTable>;

export const auditRoutes = {
  /** The audit trail: newest first; `format=csv|ndjson` streams every matching entry. */
  list: route({ method: 'GET', path: '/api/admin/audit', access: 'admin', query: AuditQuery, response: AuditTable }),
};
