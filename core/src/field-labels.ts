// Every input field of the contract by the name people see on the screens: the one table a
// refused request's `detail` reads, so it names "Horas", never `params.hours`.

/** A label, or a label and the gender of one element of a list (for "IPs permitidas (1.ª)"). */
type Entry = string | readonly [label: string, item: 'm' | 'f'];

/**
 * Keyed by the field's last key, or by its dotted path (indices left out) where the same key
 * means another thing inside an object: `action.mode` is not `mode`.
 */
export const FIELD_LABELS: Record<string, Entry> = {
  // Sign-in, accounts, sessions
  email: 'Email',
  password: 'Contraseña',
  current_password: 'Contraseña actual',
  new_password: 'Nueva contraseña',
  first_name: 'Nombre',
  last_name: 'Apellido',
  is_admin: 'Es administrador',
  code: 'Código',
  totp: 'Código de verificación',
  passphrase: 'Frase de paso',
  id: 'Identificador',
  session_id: 'Sesión',
  access_token: 'Token de acceso',
  device_token: 'Token del dispositivo',
  // Publisher tokens and revenue shares
  publisher_name: 'Publisher',
  token: 'Token',
  allowed_ips: ['IPs permitidas', 'f'],
  rate_limit: 'Límite por hora',
  expires_at: 'Caduca el',
  name: 'Nombre',
  revenue_share: 'Revenue share',
  // Report filters and tables
  start_date: 'Fecha de inicio',
  end_date: 'Fecha de fin',
  startDate: 'Fecha de inicio',
  endDate: 'Fecha de fin',
  from_date: 'Fecha de inicio',
  to_date: 'Fecha de fin',
  since: 'Desde',
  subject: 'Campaña u objeto',
  outcome: 'Resultado',
  days: 'Días',
  until: 'Hasta',
  zone_id: 'Zone ID',
  zoneId: 'Zone ID',
  advertiser: 'Advertiser',
  publisher: 'Publisher',
  parentDomain: 'Source',
  domain: 'Dominio',
  geo: 'Geo',
  source: 'Source',
  limit: 'Límite',
  page: 'Página',
  page_size: 'Filas por página',
  sort: 'Orden',
  format: 'Formato',
  csv: 'Formato CSV',
  q: 'Búsqueda',
  query: 'Búsqueda',
  by: 'Agrupar por',
  include_bots: 'Incluir bots',
  report: 'Estado del informe',
  status: 'Estado',
  before_id: 'Anterior a',
  // Referrer events and the spam list
  event_id: 'Id del evento',
  ref: 'Referrer',
  kw: 'Keyword',
  src: 'Source',
  cid: 'Campaña',
  asid: 'Conjunto de anuncios',
  adid: 'Anuncio',
  plc: 'Ubicación',
  referrer: 'Referrer',
  parent_domain: 'Source',
  ip: 'IP',
  country: 'País',
  seen_at: 'Momento de la visita',
  user_agent: 'User agent',
  ad_id: 'Anuncio',
  placement: 'Ubicación',
  add: ['Dominios que añadir', 'm'],
  remove: ['Dominios que quitar', 'm'],
  // Audit
  actor: 'Usuario',
  action: 'Acción',
  target_kind: 'Tipo de objeto',
  target_id: 'Objeto',
  // Campaigns (the creator's form and the insights)
  keyword: 'Keyword',
  headline: 'Título',
  body: 'Texto principal',
  alias: 'Alias',
  base_url: 'URL base',
  fb_page: 'Página de Facebook',
  cta: 'Botón (CTA)',
  daily_budget: 'Presupuesto diario',
  bid_amount: 'Puja CPC',
  objective: 'Objetivo',
  countries: ['Países', 'm'],
  advantage_audience: 'Público Advantage+',
  image_url: 'Imagen sugerida',
  campaign_id: 'Campaña',
  adset_id: 'Conjunto de anuncios',
  // Profit and exchange rates
  rates: ['Tipos de cambio', 'm'],
  currency: 'Moneda',
  month: 'Mes',
  rate: 'Tipo de cambio',
  // Alerts: rules, their parameters, the profit guard, channels
  kind: 'Tipo',
  params: 'Parámetros',
  enabled: 'Activa',
  cooldown_minutes: 'Espera entre avisos',
  scope: 'De',
  target: 'Objetivo',
  threshold: 'Umbral',
  hours: 'Horas',
  min_impressions: 'Impresiones mínimas',
  drop_percent: 'Caída mínima (%)',
  min_revenue: 'Revenue mínimo',
  new_only: 'Solo referrers nunca vistos',
  visits: 'Visitas',
  minutes: 'Minutos',
  level: 'Nivel',
  metric: 'Condición',
  min_spend: 'Gasto mínimo',
  min_clicks: 'Clics mínimos en Meta',
  min_visits: 'Visitas mínimas',
  use_estimates: 'Usar revenue estimado',
  mode: 'Acción',
  daily_cap: 'Máximo de acciones al día por cuenta',
  reactivate: 'Reactivar cuando el ROI se recupere',
  confirm_evaluations: 'Evaluaciones seguidas antes de actuar',
  hold_minutes: 'Pausa temporal (min)',
  'action.cooldown_minutes': 'Espera entre acciones',
  state: 'Estado',
  rule_id: 'Regla',
  rule_ids: ['Reglas', 'f'],
  for_everyone: 'Para todos',
  in_app: 'Campana',
  webhook_url: 'Webhook',
  digest: 'Resumen diario',
  lastEventId: 'Último evento',
};

/** "1.ª", "2.º": an element's place in a list, as Spanish writes it. */
const ordinal = (index: number, item: 'm' | 'f') => `${index + 1}.${item === 'f' ? 'ª' : 'º'}`;

const entryOf = (key: string): Entry | undefined => (Object.hasOwn(FIELD_LABELS, key) ? FIELD_LABELS[key] : undefined);
const labelOf = (e: Entry) => (typeof e === 'string' ? e : e[0]);

/**
 * The label of the field at `path` (a zod issue's path): the deepest named key, by its dotted
 * path first, then by itself; a list element adds its place: ['allowed_ips', 0] →
 * "IPs permitidas (1.ª)". Empty path: null (the message is about the whole input). A key
 * missing from the table falls back to itself, which core's label test refuses.
 */
export function fieldLabel(path: ReadonlyArray<PropertyKey>): string | null {
  const keys = path.filter((p): p is string => typeof p === 'string');
  if (keys.length === 0) return null;
  const last = keys[keys.length - 1];
  const entry = entryOf(keys.join('.')) ?? entryOf(keys.slice(-2).join('.')) ?? entryOf(last);
  const label = entry ? labelOf(entry) : last;
  let at = path.length - 1;
  while (at >= 0 && typeof path[at] !== 'number') at--;
  if (at < 0) return label;
  const listKey = path[at - 1];
  const list = typeof listKey === 'string' ? entryOf(listKey) : undefined;
  const item = list && typeof list !== 'string' ? list[1] : 'm';
  return `${label} (${ordinal(path[at] as number, item)})`;
}
