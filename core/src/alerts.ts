// Alertas' words, defined once: what each rule kind and state is called, a rule's condition as
// one sentence, and the one-line text every channel (bell, e-mail, webhook, terminal) says.
import type { Alert, AlertDelivery, AlertDeliveryChannel, AlertRule, AlertRuleKind, AlertState } from './contract/alerts.js';

export const ALERT_KIND_LABELS: Readonly<Record<AlertRuleKind, string>> = {
  tq_low: 'TQ bajo',
  revenue_drop: 'Caída de revenue',
  referrer_burst: 'Pico de un referrer',
  ip_burst: 'Pico de una IP',
  campaign_roi: 'Campaña que pierde dinero',
};

export const ALERT_STATE_LABELS: Readonly<Record<AlertState, string>> = {
  open: 'Abierta',
  resolved: 'Resuelta',
  muted: 'Silenciada',
};

/** An alert's state as its reader sees it: 'Silenciada para ti' (their own mute) or 'Silenciada para todos' (an admin's). */
export function alertStateText(a: Pick<Alert, 'state' | 'muted_for'>): string {
  if (a.state !== 'muted' || !a.muted_for) return ALERT_STATE_LABELS[a.state];
  return `${ALERT_STATE_LABELS.muted} ${a.muted_for === 'me' ? 'para ti' : 'para todos'}`;
}

const SCOPE_LABELS: Readonly<Record<string, string>> = {
  zone: 'zona',
  publisher: 'publisher',
  advertiser: 'advertiser',
  campaign: 'campaña',
  adset: 'conjunto de anuncios',
};

const n = (v: unknown, decimals = 0): string =>
  typeof v === 'number' && Number.isFinite(v) ? v.toLocaleString('es-ES', { minimumFractionDigits: decimals, maximumFractionDigits: decimals }) : '-';
const every = (target: unknown, what: string): string => (typeof target === 'string' && target ? `${what} ${target}` : `cualquier ${what}`);

/** A campaign rule's minimums besides spend: ', ≥ 50 clics de Meta y ≥ 100 visitas' ('' when none). */
function minimums(p: Record<string, unknown>): string {
  const parts = [
    typeof p.min_clicks === 'number' && p.min_clicks > 0 ? `≥ ${n(p.min_clicks)} clics de Meta` : '',
    typeof p.min_visits === 'number' && p.min_visits > 0 ? `≥ ${n(p.min_visits)} visitas` : '',
  ].filter(Boolean);
  return parts.length ? `, ${parts.join(' y ')}` : '';
}

/** A rule's condition in one Spanish sentence ('TQ de cualquier zona < 0,50 en las últimas 6 h (≥ 1.000 impresiones)'). */
export function alertRuleCondition(rule: Pick<AlertRule, 'kind' | 'params'>): string {
  const p = rule.params as Record<string, unknown>;
  switch (rule.kind) {
    case 'tq_low':
      return `TQ de ${every(p.target, SCOPE_LABELS[String(p.scope)] ?? 'zona')} < ${n(p.threshold, 2)} en las últimas ${n(p.hours)} h (≥ ${n(p.min_impressions)} impresiones)`;
    case 'revenue_drop':
      return `Revenue de ${every(p.target, SCOPE_LABELS[String(p.scope)] ?? 'zona')} cae ≥ ${n(p.drop_percent)} % frente a los mismos días de la semana anterior (${n(p.hours)} h; base ≥ ${n(p.min_revenue, 2)})`;
    case 'referrer_burst':
      return `${p.new_only ? 'Un referrer nunca visto' : every(p.target, 'referrer')} con > ${n(p.visits)} visitas humanas en ${n(p.minutes)} min`;
    case 'ip_burst':
      return `Una IP con > ${n(p.visits)} visitas humanas en ${n(p.minutes)} min`;
    case 'campaign_roi':
      return `${p.metric === 'cpc' ? 'CPC sobre el de equilibrio' : `ROI < ${n(p.threshold)} %`} en ${every(p.target, SCOPE_LABELS[String(p.level)] ?? 'campaña')}, últimas ${n(p.hours)} h con gasto ≥ ${n(p.min_spend, 2)}${minimums(p)}${p.use_estimates ? ', con revenue estimado' : ' (solo días cerrados)'}`;
  }
}

/** The one line every channel says: '[Alertas] Caída de revenue · zona Z-1: −45 % (umbral 30 %) — regla «Zonas»'. */
export function alertText(a: Pick<Alert, 'kind' | 'message' | 'rule_name' | 'state'>): string {
  const state = a.state === 'resolved' ? ' (resuelta)' : '';
  return `[Alertas] ${ALERT_KIND_LABELS[a.kind]}${state}: ${a.message} — regla «${a.rule_name}»`;
}

export const ALERT_DELIVERY_LABELS: Readonly<Record<AlertDeliveryChannel, string>> = {
  email: 'Email',
  webhook: 'Webhook',
};

/** One notice in words: 'Email a ana@example.com: enviado (1 intento)', 'Webhook de ana@…: falló tras 3 intentos — HTTP 503'. */
export function deliveryText(d: Pick<AlertDelivery, 'channel' | 'to' | 'status' | 'attempts' | 'detail'>): string {
  const who = `${ALERT_DELIVERY_LABELS[d.channel]} ${d.channel === 'email' ? 'a' : 'de'} ${d.to}`;
  const tries = `${d.attempts} ${d.attempts === 1 ? 'intento' : 'intentos'}`;
  return d.status === 'sent' ? `${who}: enviado (${tries})` : `${who}: falló tras ${tries}${d.detail ? ` — ${d.detail}` : ''}`;
}

/** The notices of an alert in one short line: 'Email ✓ · Webhook ✗ (4 intentos: HTTP 503)' ('-' when none). */
export function deliverySummary(deliveries: readonly Pick<AlertDelivery, 'channel' | 'status' | 'attempts' | 'detail'>[]): string {
  if (deliveries.length === 0) return '-';
  return deliveries
    .map((d) =>
      d.status === 'sent'
        ? `${ALERT_DELIVERY_LABELS[d.channel]} ✓`
        : `${ALERT_DELIVERY_LABELS[d.channel]} ✗ (${d.attempts} ${d.attempts === 1 ? 'intento' : 'intentos'}${d.detail ? `: ${d.detail}` : ''})`,
    )
    .join(' · ');
}
