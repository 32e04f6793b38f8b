// Graph's wire as the sandbox speaks it: its error shape (a GraphFailure thrown here is answered
// by the server), parameters as they arrive (JSON inside query strings, nested field lists) and
// as they are checked, and the calendar days insights are asked in.
import type { GraphErrorBody } from '../../providers/meta/client.js';

const STATUSES = new Set(['ACTIVE', 'PAUSED']);

export class GraphFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: GraphErrorBody,
  ) {
    super(body.message);
  }
}

export const ymd = (d: Date) => d.toISOString().slice(0, 10);
export const addDays = (day: string, n: number) => ymd(new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000));
export const isYmd = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && ymd(new Date(`${v}T00:00:00Z`)) === v;

export function parseValue(v: string): unknown {
  const t = v.trim();
  if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) {
    try {
      return JSON.parse(t);
    } catch {
      return v;
    }
  }
  return v;
}

/** Splits "a,b{c,d},e(f,g)" at top-level commas. */
export function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '{' || ch === '(') depth++;
    if (ch === '}' || ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

export function fail(status: number, message: string, extra: Partial<GraphErrorBody> = {}): never {
  throw new GraphFailure(status, { message, type: 'OAuthException', code: 100, ...extra });
}

export function missing(field: string): never {
  fail(400, `(#100) The parameter ${field} is required`, {
    error_user_title: 'Falta un campo obligatorio',
    error_user_msg: `Falta el campo obligatorio "${field}".`,
  });
}

export function invalid(field: string, why: string): never {
  fail(400, `(#100) Invalid parameter`, {
    error_subcode: 1487390,
    error_user_title: 'Parámetro no válido',
    error_user_msg: `El campo "${field}" no es válido: ${why}.`,
  });
}

/** A required parameter as text (Graph accepts numbers where it wants text). */
export function requireText(p: Record<string, unknown>, field: string): string {
  const v = p[field];
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) missing(field);
  if (typeof v !== 'string' && typeof v !== 'number') invalid(field, 'debe ser texto');
  return String(v);
}

/** A required whole amount in the account's smallest unit, at least `min`. */
export function requireCents(p: Record<string, unknown>, field: string, min: number): number {
  const raw = requireText(p, field);
  if (!/^\d+$/.test(raw)) invalid(field, 'debe ser un número entero en céntimos');
  const n = Number(raw);
  if (n < min) invalid(field, `debe ser al menos ${min} céntimos`);
  return n;
}

export function requireStatus(p: Record<string, unknown>): string {
  const status = requireText(p, 'status');
  if (!STATUSES.has(status)) invalid('status', 'debe ser ACTIVE o PAUSED');
  return status;
}
