// Turns any thrown value into the text a user should read: the server's detail in the user's
// words. The server names fields by their labels itself (core's voice); a detail that still
// starts with a field's key ('password: La contraseña debe…') loses the key when the message
// already names the field, or has it replaced by core's label for it ('rate_limit: …' →
// 'Límite por hora: …'); a key nobody labelled stays, rather than losing where
// the problem is.
import { ApiError, FIELD_LABELS, fieldLabel } from '@adops/core';

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** A server detail without field keys: 'password: La contraseña debe…' → 'La contraseña debe…'. */
export function readableDetail(detail: string): string {
  const m = /^([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*): (.+)$/s.exec(detail);
  if (!m) return detail;
  // 'allowed_ips.0' is the path ['allowed_ips', 0]: core names it "IPs permitidas (1.ª)".
  const path = m[1].split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const keys = path.filter((p): p is string => typeof p === 'string');
  if (!keys.some((k) => Object.hasOwn(FIELD_LABELS, k))) return detail;
  const message = m[2];
  if (fold(message).includes(fold(fieldLabel(keys) ?? ''))) return message.charAt(0).toUpperCase() + message.slice(1);
  return `${fieldLabel(path)}: ${message}`;
}

/** The server's detail for an ApiError, the message for other errors, else the fallback. */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.detail) return readableDetail(error.detail);
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}
