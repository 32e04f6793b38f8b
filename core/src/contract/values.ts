// The contract's plain values — sort keys, page sizes, labels and a few small helpers — apart from
// its zod schemas: each area's file uses and re-exports them, and a client that only calls the API
// reads them here without loading zod (`@adops/core/lite`: adops starts ~150 ms sooner).
import { type FigureKey, PROFIT_METRIC_KEYS } from '../metrics.js';

// ---- tables ------------------------------------------------------------------------------------

/** Largest page a table answers. */
export const MAX_PAGE_SIZE = 500;

// ---- reports -----------------------------------------------------------------------------------

const METRIC_SORT_KEYS = [
  'impressions',
  'monetized_impressions',
  'clicks',
  'revenue',
  'p_revenue',
  'margin',
  'tq',
  'ctr',
  'cpm',
  'cpc',
  'rs_percent',
  'p_cpm',
  'p_cpc',
] as const;

/**
 * The figures a list of sort keys leaves out: `never` when every registry figure (FigureKey: its
 * non-text metrics) is listed. A hand list because zod's enum wants a tuple the registry's object
 * cannot give, held to the registry by the check below (figure-fields.test.ts proves it fails).
 */
export type UnsortableFigures<Keys extends readonly string[]> = Exclude<FigureKey, Keys[number]>;
/** Fails to compile when a registry figure is missing from the sort keys: a new metric is sortable by adding its entry. */
const EVERY_FIGURE_SORTS: [UnsortableFigures<typeof METRIC_SORT_KEYS>] extends [never] ? true : never = true;
void EVERY_FIGURE_SORTS;

/** The zone table sorts by any of its columns; ties by the natural key. */
export const ZONE_SORT_KEYS = ['date', 'advertiser', 'publisher', 'zone_id', 'geo', 'source', 'domain', ...METRIC_SORT_KEYS] as const;

/** Zone tables' default page size (Ad Report, SPEC §9) and the summaries'. */
export const ZONE_PAGE_SIZE = 25;
export const SUMMARY_PAGE_SIZE = 10;

const summarySortKeys = <N extends 'publisher' | 'advertiser'>(name: N) => ['date', name, ...METRIC_SORT_KEYS] as const;
export const PUBLISHER_SUMMARY_SORT_KEYS = summarySortKeys('publisher');
export const ADVERTISER_SUMMARY_SORT_KEYS = summarySortKeys('advertiser');

/** The 'Analytics' table (Dashboard) sorts by its day and any metric. */
export const DAILY_SORT_KEYS = ['date', ...METRIC_SORT_KEYS] as const;

/** The footnote of every Finance face (web and terminal). */
export const FINANCE_ROUNDING_NOTE =
  'Cada importe se redondea por separado a partir de su valor exacto, así que la suma de las filas puede diferir ligeramente del total.';

// ---- referrers ---------------------------------------------------------------------------------

/**
 * Why an event is invalid traffic (IVT): a known bot or crawler by its user agent, a referrer
 * (or source) on the referrer-spam list, one IP over its hits-per-minute rate, or a zone no
 * zone report has ever named. Flagged events are stored but left out unless `include_bots`.
 */
export const BOT_REASONS = ['user_agent', 'spam_referrer', 'ip_rate', 'unknown_zone'] as const;

/** Each reason as the screens and the terminal name it. */
export const BOT_REASON_LABELS: Record<(typeof BOT_REASONS)[number], string> = {
  user_agent: 'Bot (user agent)',
  spam_referrer: 'Spam de referrer',
  ip_rate: 'IP por encima del límite',
  unknown_zone: 'Zona desconocida',
};

export const REFERRER_SORT_KEYS = ['seen_at', 'first_seen', 'zone_id', 'parent_domain', 'referrer', 'hits'] as const;

// ---- profit ------------------------------------------------------------------------------------

export const PROFIT_DIMENSIONS = ['campaign', 'adset', 'ad', 'keyword', 'day'] as const;

/** What each grouping is called on the screens. */
export const PROFIT_DIMENSION_LABELS: Record<(typeof PROFIT_DIMENSIONS)[number], string> = {
  campaign: 'Campaña',
  adset: 'Conjunto de anuncios',
  ad: 'Anuncio',
  keyword: 'Keyword',
  day: 'Día',
};

export const PROFIT_SORT_KEYS = ['key', 'name', ...PROFIT_METRIC_KEYS] as const;
export const PROFIT_PAGE_SIZE = 50;

// ---- campaigns ---------------------------------------------------------------------------------

/** The largest image a campaign accepts (upload or downloaded suggestion). */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
export const IMAGE_REQUIRED_MESSAGE = 'Debes subir una imagen o seleccionar una de Pixabay';
/** Keywords must be longer than 2 characters for suggestions (SPEC §7, §9). */
export const MIN_KEYWORD_LENGTH = 3;
/** Image suggestions come from a random page 1–5 (SPEC §9). */
export const MAX_SUGGESTION_PAGE = 5;

export const OBJECTIVES = ['OUTCOME_TRAFFIC', 'OUTCOME_SALES'] as const;

/** Meta call-to-action button types offered on link ads, with the label the screens show. */
export const CTA_LABELS = {
  LEARN_MORE: 'Más información',
  SHOP_NOW: 'Comprar',
  SIGN_UP: 'Registrarte',
  SUBSCRIBE: 'Suscribirte',
  DOWNLOAD: 'Descargar',
  GET_OFFER: 'Obtener oferta',
  CONTACT_US: 'Contactarnos',
  APPLY_NOW: 'Solicitar ahora',
  BOOK_TRAVEL: 'Reservar',
  ORDER_NOW: 'Pedir ahora',
  SEE_MORE: 'Ver más',
  GET_QUOTE: 'Solicitar presupuesto',
} as const;

/** Form defaults (SPEC §9): budget and bid in the ad account's currency, CPC bid. */
export const CAMPAIGN_DEFAULTS = {
  objective: 'OUTCOME_TRAFFIC' as (typeof OBJECTIVES)[number],
  daily_budget: 1.0,
  bid_amount: 0.05,
  cta: 'LEARN_MORE' as keyof typeof CTA_LABELS,
  countries: ['ES'],
  advantage_audience: false,
};

/** Status filter of the metrics list: Todas / Activas / Pausadas. */
export const INSIGHTS_STATUS_LABELS = { ALL: 'Todas', ACTIVE: 'Activas', PAUSED: 'Pausadas' } as const;

export const CAMPAIGN_SORT_KEYS = [
  'name',
  'effective_status',
  'impressions',
  'clicks',
  'ctr',
  'spend',
  'account_spend',
  'cpc',
  'cpm',
  'revenue',
  'profit',
  'roi',
  'created_at',
] as const;
/** SPEC §9: the campaign metrics list shows 20 rows a page. */
export const CAMPAIGNS_PAGE_SIZE = 20;

// ---- audit -------------------------------------------------------------------------------------

export const AUDIT_SORT_KEYS = ['at'] as const;
export const AUDIT_PAGE_SIZE = 50;

// ---- alerts ------------------------------------------------------------------------------------

export const ALERT_RULE_KINDS = ['tq_low', 'revenue_drop', 'referrer_burst', 'ip_burst', 'campaign_roi'] as const;

/** Each kind's parameter keys, in the order its form shows them (alerts.ts's schemas; a test holds them equal). */
export const ALERT_RULE_PARAM_KEYS: Record<(typeof ALERT_RULE_KINDS)[number], readonly string[]> = {
  tq_low: ['scope', 'target', 'threshold', 'hours', 'min_impressions'],
  revenue_drop: ['scope', 'target', 'drop_percent', 'hours', 'min_revenue'],
  referrer_burst: ['target', 'new_only', 'visits', 'minutes'],
  ip_burst: ['visits', 'minutes'],
  campaign_roi: ['level', 'target', 'metric', 'threshold', 'hours', 'min_spend', 'min_clicks', 'min_visits', 'use_estimates'],
};
/** The parameter keys a kind takes: an unknown one is a usage error naming these. */
export const alertRuleParamKeys = (kind: (typeof ALERT_RULE_KINDS)[number]): string[] => [...ALERT_RULE_PARAM_KEYS[kind]];
export const ALERT_STATES = ['open', 'resolved', 'muted'] as const;
export const ALERT_ACTION_MODES = ['notify', 'pause'] as const;

// ---- alerts: the evaluation log and the backtest ----

/**
 * What one evaluation made of one subject: `fired` (an alert fired or stays open; a guard's notify
 * only), `acted` (paused on Meta now), `cooldown` (held by the rule's wait between notices or
 * actions), `daily_cap` (the ad account's actions for the day are used up), `below_min_spend` (too
 * little data: spend, impressions, clicks, visits or last week's revenue under the rule's minimum),
 * `unsynced_spend` (spend not synced, or without its exchange rate), `estimated_revenue` (revenue
 * only estimated, and the rule counts closed days only), `recovered` (its alert resolved, or the
 * rule resumed it), `not_matched` (judged, and the condition does not hold).
 */
export const ALERT_OUTCOMES = [
  'fired',
  'acted',
  'cooldown',
  'daily_cap',
  'below_min_spend',
  'unsynced_spend',
  'estimated_revenue',
  'recovered',
  'not_matched',
] as const;

/** The days a backtest replays. */
export const BACKTEST_DAYS = [7, 14, 30] as const;

// ---- admin -------------------------------------------------------------------------------------

/** A token as lists show it unless asked to reveal it: its first and last 4 characters. */
export function maskToken(token: string): string {
  return token.length <= 12 ? '••••' : `${token.slice(0, 4)}…${token.slice(-4)}`;
}

/** Shortest passphrase a backup's secrets are encrypted with. */
export const BACKUP_PASSPHRASE_MIN = 12;

/** The URL a publisher uses to pull its own data (SPEC §2 Admin: the range is yesterday). */
export function publisherDataUrl(origin: string, token: string, startDate: string, endDate: string): string {
  const q = new URLSearchParams({ start_date: startDate, end_date: endDate, token });
  return `${origin.replace(/\/$/, '')}/api/publisher/data?${q.toString()}`;
}

// ---- auth --------------------------------------------------------------------------------------

/**
 * Where a session was opened, briefly, from its User-Agent: the browser and system ('Chrome en
 * macOS'), 'Terminal (adops)' for the adops command, 'Script (Node.js)' for other Node clients.
 */
export function sessionDevice(userAgent: string): string {
  if (!userAgent) return '-';
  if (userAgent === 'adops-cli') return 'Terminal (adops)';
  if (userAgent === 'node') return 'Script (Node.js)';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\/|Chromium\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : null;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return browser && system ? `${browser} en ${system}` : userAgent.slice(0, 40);
}
