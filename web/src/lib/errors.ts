// Turns any thrown value into the text a user should read: the server's detail in the user's
// words — a field's key that starts a detail ('password: La contraseña debe…') is dropped when
// the message already names the field, or replaced by the field's label ('start_date: …' →
// 'Desde: …'); a key nobody labelled stays, rather than losing where the problem is.
import { ApiError } from '@adops/core';

/** The labels the screens give the fields the server names in its details. */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  email: 'Email',
  password: 'Contraseña',
  current_password: 'Contraseña actual',
  new_password: 'Nueva contraseña',
  code: 'Código',
  totp: 'Código de verificación',
  first_name: 'Nombre',
  last_name: 'Apellido',
  is_admin: 'Es administrador',
  publisher_name: 'Publisher',
  start_date: 'Desde',
  end_date: 'Hasta',
  from_date: 'Desde',
  to_date: 'Hasta',
  zone_id: 'Zone ID',
  advertiser: 'Advertiser',
  publisher: 'Publisher',
  keyword: 'Palabra clave',
  headline: 'Titular',
  body: 'Texto',
  cta: 'Llamada a la acción',
  daily_budget: 'Presupuesto diario',
  bid_amount: 'Puja',
  base_url: 'URL base',
  revenue_share: 'Revenue share',
  // A publisher token's policy ('allowed_ips.0: "10.0.0.0/33" no es una dirección IP…').
  allowed_ips: 'IPs permitidas',
  rate_limit: 'Límite por hora',
  expires_at: 'Caduca el',
  // The referrer-spam list's change ('add.0: cada dominio debe ser…').
  add: 'Dominio',
  remove: 'Dominio',
};

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** A server detail without field keys: 'password: La contraseña debe…' → 'La contraseña debe…'. */
export function readableDetail(detail: string): string {
  const m = /^([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*): (.+)$/s.exec(detail);
  if (!m) return detail;
  const key = m[1].split('.')[0];
  const label = FIELD_LABELS[key];
  if (!label) return detail;
  const message = m[2];
  if (fold(message).includes(fold(label))) return message.charAt(0).toUpperCase() + message.slice(1);
  return `${label}: ${message}`;
}

/** The server's detail for an ApiError, the message for other errors, else the fallback. */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.detail) return readableDetail(error.detail);
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}
