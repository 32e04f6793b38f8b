// The audit trail's words, defined once: each action's Spanish label and the CSV columns the
// server's export and any face use.
import type { AuditEntry } from './contract/audit.js';
import type { CsvField } from './csv.js';
import { formatDateDMY, parseDateDMY } from './format.js';
import { isValidYmd, zonedDayEnd, zonedDayStart } from './presets.js';

/** Every action the server records, with what the screens call it. */
export const AUDIT_ACTIONS: Readonly<Record<string, string>> = {
  'user.create': 'Usuario creado',
  'user.update': 'Usuario modificado',
  'user.delete': 'Usuario eliminado',
  'user.password_reset': 'Contraseña restablecida por un administrador',
  'user.password_change': 'Contraseña cambiada por el usuario',
  'user.admin_grant': 'Permiso de administrador concedido',
  'user.admin_revoke': 'Permiso de administrador retirado',
  'user.2fa_enable': 'Verificación en dos pasos activada',
  'user.2fa_disable': 'Verificación en dos pasos desactivada',
  'user.2fa_reset': 'Verificación en dos pasos desactivada por un administrador',
  'session.end': 'Sesión cerrada por un administrador',
  'session.end_all': 'Sesiones cerradas por un administrador',
  'token.create': 'Token de publisher creado',
  'token.renew': 'Token de publisher renovado',
  'token.update': 'Token de publisher modificado',
  'token.revoke': 'Token de publisher eliminado',
  'publisher.revenue_share': 'Revenue share modificado',
  'zone_report.import': 'Zone report importado',
  'referrers.import': 'Referrers importados',
  'campaign.create': 'Campaña creada',
  'referrer_spam.update': 'Lista de spam de referrers modificada',
  'backup.create': 'Copia de seguridad descargada',
  'spend.sync': 'Gasto de Meta sincronizado',
  'exchange_rates.update': 'Tipos de cambio modificados',
  'alert_rule.create': 'Regla de alerta creada',
  'alert_rule.update': 'Regla de alerta modificada',
  'alert_rule.delete': 'Regla de alerta eliminada',
  'alert.mute': 'Alerta silenciada',
  'alert.unmute': 'Silencio de alerta retirado',
  'alert_subscription.update': 'Canales de alerta modificados',
  'alerts.evaluate': 'Reglas de alerta evaluadas a mano',
};

/** What kinds of things an entry is about, as the screens name them. */
export const AUDIT_TARGET_KINDS: Readonly<Record<string, string>> = {
  user: 'Usuario',
  session: 'Sesión',
  publisher_token: 'Token de publisher',
  publisher: 'Publisher',
  zone_report: 'Zone report',
  referrers: 'Referrers',
  campaign: 'Campaña',
  referrer_spam: 'Lista de spam',
  backup: 'Copia de seguridad',
  ad_spend: 'Gasto de Meta',
  exchange_rates: 'Tipos de cambio',
  alert_rule: 'Regla de alerta',
  alert: 'Alerta',
  alert_subscription: 'Canales de alerta',
};

export const auditActionLabel = (action: string): string => AUDIT_ACTIONS[action] ?? action;

/** Who made the change, as one text: the e-mail (at the time), 'sistema' or 'clave de ingesta'. */
export const auditActorLabel = (e: Pick<AuditEntry, 'actor_type' | 'actor_email' | 'actor_id'>): string =>
  e.actor_type === 'system' ? 'sistema' : e.actor_type === 'ingest_key' ? 'clave de ingesta' : (e.actor_email ?? e.actor_id ?? '');

const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

/** The audit export's columns (instants in UTC, before/after as JSON). */
export const AUDIT_CSV: { fields: ReadonlyArray<CsvField<AuditEntry>>; file: string } = {
  file: 'auditoria.csv',
  fields: [
    { header: 'at', cell: (e) => e.at },
    { header: 'actor', cell: auditActorLabel },
    { header: 'actor_id', cell: (e) => e.actor_id },
    { header: 'ip', cell: (e) => e.ip },
    { header: 'action', cell: (e) => e.action },
    { header: 'target_kind', cell: (e) => e.target_kind },
    { header: 'target_id', cell: (e) => e.target_id },
    { header: 'target_label', cell: (e) => e.target_label },
    { header: 'before', cell: (e) => json(e.before) },
    { header: 'after', cell: (e) => json(e.after) },
    { header: 'request_id', cell: (e) => e.request_id },
  ],
};

/** Days in a recorded value read as every table's (dd/MM/yyyy); instants ('…T10:00:00Z') are left whole. */
const shownDays = (text: string) => text.replace(/\b\d{4}-\d{2}-\d{2}\b(?!T)/g, (ymd) => formatDateDMY(ymd));

const short = (v: unknown): string => {
  const text = shownDays(typeof v === 'string' ? v : JSON.stringify(v));
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
};
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What changed, in one line: 'campo: antes → después' for each field that differs (or the
 * fields given when there is only a before or only an after); '' when neither is recorded.
 */
export function auditChangeSummary(e: Pick<AuditEntry, 'before' | 'after'>): string {
  const before = isRecord(e.before) ? e.before : {};
  const after = isRecord(e.after) ? e.after : {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const parts: string[] = [];
  for (const k of keys) {
    const had = k in before;
    const has = k in after;
    if (had && has) {
      if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) parts.push(`${k}: ${short(before[k])} → ${short(after[k])}`);
    } else parts.push(`${k}: ${short(had ? before[k] : after[k])}`);
  }
  if (!parts.length && e.before == null && e.after == null) return '';
  return parts.join('; ');
}

/**
 * A `since`/`until` filter as the audit route takes it, days read in the reporting zone tz:
 * a day (YYYY-MM-DD or dd/MM/yyyy) becomes its first instant (since) or its last (until, which
 * the route takes inclusive); an ISO instant, or anything else (the route refuses it in words),
 * goes as it is.
 */
export function auditBound(value: string | undefined, end: boolean, tz: string): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  const day = isValidYmd(text) ? text : parseDateDMY(text);
  if (!day) return value;
  return (end ? zonedDayEnd(day, tz) : zonedDayStart(day, tz)).toISOString();
}
