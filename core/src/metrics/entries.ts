// The one metrics registry: every figure of the console — the revenue reports' columns, Rentabilidad's
// figures and the referrers' IVT rate — with its key, family, label, kind, decimals, definition and,
// for a derived figure, its formula over its family's additive sums (a ratio carries its base rule).
// Everything else is a view of it: METRICS, PROFIT_METRICS and IVT_RATE, the key types, the
// contract's figure fields (contract/figures.ts), the SQL formulas (sql.ts), the glossary and the
// formatting by kind; so a derived figure is added here, in one place, and nowhere else.
import { isFiniteNumber } from '../format.js';

/** How a figure is shown: text, a count, money, a percentage or a plain ratio (TQ, ROAS). */
export type MetricKind = 'text' | 'int' | 'money' | 'percent' | 'ratio';

/** The registry's families: which screens show them and which sums their formulas read. */
export type FigureFamily = 'report' | 'profit' | 'ivt' | 'alert';

/**
 * The additive sums of a group of zone-report rows; every ratio is computed from them, never
 * averaged. `ctr_base` sums each row's CTR base (CTR_BASE: monetized impressions when > 0, else
 * impressions: the one CTR of every screen); `tq_weighted` / `tq_weight` sum tq × impressions and
 * impressions over rows with tq > 0 and impressions > 0 (TQ_WEIGHT).
 */
export const SUM_KEYS = [
  'rows',
  'impressions',
  'monetized_impressions',
  'ctr_base',
  'clicks',
  'revenue',
  'p_revenue',
  'margin',
  'tq_weighted',
  'tq_weight',
] as const;
export type SumKey = (typeof SUM_KEYS)[number];

/**
 * What each report sum adds: a count (an integer column: rows, impressions, clicks, weights in
 * impressions) or an amount (a double: money and tq × impressions). The warehouse's rollup columns
 * and the casts of its sums read it.
 */
export const SUM_KINDS = {
  rows: 'count',
  impressions: 'count',
  monetized_impressions: 'count',
  ctr_base: 'count',
  clicks: 'count',
  revenue: 'amount',
  p_revenue: 'amount',
  margin: 'amount',
  tq_weighted: 'amount',
  tq_weight: 'count',
} as const satisfies Record<SumKey, 'count' | 'amount'>;

/**
 * The additive sums of a profit group (a campaign, ad set, ad, keyword or day): Meta's spend
 * (converted to the network's currency; null when a month's exchange rate is missing), clicks and
 * impressions, the human visits attributed to it, the revenue they earned (Σ zone RPV × visits)
 * and the visit-weighted zone TQ. Every ratio is computed from them, never averaged.
 */
export const PROFIT_SUM_KEYS = ['spend', 'meta_clicks', 'meta_impressions', 'visits', 'revenue', 'tq_weighted', 'tq_weight'] as const;
export type ProfitSumKey = (typeof PROFIT_SUM_KEYS)[number];

/** The additive sums of a zone's or publisher's referrer events: every hit and the flagged ones. */
export const IVT_SUM_KEYS = ['hits', 'bot_hits'] as const;
export type IvtSumKey = (typeof IVT_SUM_KEYS)[number];

/** Each family's additive sums (an alert's own figures are measured, not summed: none). */
export const FAMILY_SUM_KEYS = { report: SUM_KEYS, profit: PROFIT_SUM_KEYS, ivt: IVT_SUM_KEYS, alert: [] } as const;

/**
 * The CTR base rule (SPEC §5), the one place it is written: a row's monetized impressions when
 * above 0, else its impressions. rowCtrBase applies it in JS, ctrBaseSql (metrics/sql.ts) in SQL.
 */
export const CTR_BASE = { preferred: 'monetized_impressions', fallback: 'impressions' } as const;

/** The TQ weight rule: a row weighs in a group's TQ with its impressions, only when its tq and impressions are above 0. */
export const TQ_WEIGHT = { value: 'tq', weight: 'impressions' } as const;

/**
 * Rentabilidad's TQ weight rule: a zone-day's TQ weighs in a profit group's TQ with the group's
 * visits to it, only when the zone-day has a TQ (its own, or its trailing week's).
 */
export const PROFIT_TQ_WEIGHT = { value: 'tq', weight: 'visits' } as const;

/**
 * A figure's formula over its family's sums `S`: one sum, the difference of two, or a ratio
 * `num / den × scale` whose base rule is: null on a 0 base, or — `positiveBase` — on one not above
 * 0. A ratio's numerator may name another figure `R` of the family (ROI's profit).
 */
export type FigureFormula<S extends string, R extends string = never> =
  | { op: 'sum'; key: S }
  | { op: 'diff'; a: S; b: S }
  | { op: 'ratio'; num: S | R; den: S; scale: number; positiveBase?: boolean };

/** A revenue report's derived metric: a ratio or a difference of sums (a summed one names its `sum`). */
export type Formula = Exclude<FigureFormula<SumKey>, { op: 'sum' }>;
/** A Rentabilidad figure's formula (a ratio's numerator may be the profit). */
export type ProfitFormula = FigureFormula<ProfitSumKey, 'profit'>;

/** What every registry entry tells about its figure. */
interface FigureInfo {
  /** The short column header (Dashboard / Api Explorer wording). */
  label: string;
  /** The full name, for cards, legends and help. */
  name: string;
  /** What the figure is, in the staff's words: the tooltip on every screen and `adops metrics`. */
  definition: string;
  kind: MetricKind;
  /** Decimals shown; 0 for text and counts. */
  decimals: number;
}

export interface MetricDef extends FigureInfo {
  /** The sum a summed metric reads. */
  sum?: SumKey;
  /** How a derived metric is computed from sums. */
  formula?: Formula;
  /** A stored row carries its own value (its reported TQ); only a group derives it by the formula. */
  stored?: true;
}

export interface ProfitMetricDef extends FigureInfo {
  kind: Exclude<MetricKind, 'text'>;
  formula: ProfitFormula;
}

/** An alert's own figure (measured by its rule, not derived from a family's sums): how it is named and shown. */
export interface AlertFigureDef extends FigureInfo {
  kind: Exclude<MetricKind, 'text'>;
}

export interface IvtMetricDef extends FigureInfo {
  kind: Exclude<MetricKind, 'text'>;
  formula: FigureFormula<IvtSumKey>;
}

/** A registry entry as stored: its definition stamped with its key and family. */
export type FigureEntry<D, K, F extends FigureFamily> = D & { readonly key: K; readonly family: F };

/** A family's entries, each stamped with its key and family (so an entry read alone still says what it is). */
function family<F extends FigureFamily, T extends Record<string, object>>(name: F, defs: T): { readonly [K in keyof T]: FigureEntry<T[K], K, F> } {
  return Object.fromEntries(Object.entries(defs).map(([key, def]) => [key, { key, family: name, ...def }])) as {
    readonly [K in keyof T]: FigureEntry<T[K], K, F>;
  };
}

const ratio = (num: SumKey, den: SumKey, scale = 1, positiveBase = false): Formula => ({ op: 'ratio', num, den, scale, positiveBase });
const psum = (key: ProfitSumKey): ProfitFormula => ({ op: 'sum', key });
/** Every Rentabilidad ratio is null unless its base is above 0 (no ROI on a negative spend). */
const pratio = (num: ProfitSumKey | 'profit', den: ProfitSumKey, scale = 1): ProfitFormula => ({ op: 'ratio', num, den, scale, positiveBase: true });

/**
 * The one registry. `report`: the revenue reports' columns (text dimensions, summed measures and
 * ratios of sums). `profit`: the Rentabilidad columns — revenue is an estimate (zone RPV × visits);
 * break-even CPC is the CPC at which the same clicks would have cost exactly what they earned.
 * `ivt`: the referrers' invalid-traffic rate (events flagged as bots or spam over every event).
 */
export const REGISTRY = {
  report: family('report', {
    date: { label: 'Date', name: 'Date', kind: 'text', decimals: 0, definition: 'Día natural en la zona horaria del informe (ADOPS_TZ).' },
    advertiser: { label: 'Advertiser', name: 'Advertiser', kind: 'text', decimals: 0, definition: 'Anunciante que compró el tráfico (la demanda).' },
    publisher: {
      label: 'Publisher',
      name: 'Publisher',
      kind: 'text',
      decimals: 0,
      definition: 'Editor dueño de la zona, al que se paga su parte del revenue.',
    },
    zone_id: {
      label: 'Zone ID',
      name: 'Zone ID',
      kind: 'text',
      decimals: 0,
      definition: 'Identificador de la zona (el espacio de anuncio del publisher).',
    },
    geo: { label: 'Geo', name: 'Geo', kind: 'text', decimals: 0, definition: 'País del tráfico según el informe de zona.' },
    source: { label: 'Source', name: 'Source', kind: 'text', decimals: 0, definition: 'Fuente del tráfico según el informe de zona.' },
    domain: { label: 'Domain', name: 'Domain', kind: 'text', decimals: 0, definition: 'Dominio (producto) al que pertenece la zona.' },
    impressions: {
      label: 'Impr.',
      name: 'Impressions',
      kind: 'int',
      decimals: 0,
      sum: 'impressions',
      definition: 'Impresiones servidas, sumadas.',
    },
    monetized_impressions: {
      label: 'M. Impr.',
      name: 'Monetized impressions',
      kind: 'int',
      decimals: 0,
      sum: 'monetized_impressions',
      definition: 'Impresiones que generaron revenue (monetizadas), sumadas.',
    },
    clicks: { label: 'Clicks', name: 'Clicks', kind: 'int', decimals: 0, sum: 'clicks', definition: 'Clics, sumados.' },
    /** The one CTR of every screen (SPEC §5): clicks over monetized impressions, or impressions where a row gives none. */
    ctr: {
      label: 'CTR%',
      name: 'CTR%',
      kind: 'percent',
      decimals: 2,
      formula: ratio('clicks', 'ctr_base', 100),
      definition: 'Clics ÷ impresiones monetizadas × 100 (las impresiones, en las filas sin impresiones monetizadas).',
    },
    cpm: {
      label: 'CPM',
      name: 'CPM',
      kind: 'money',
      decimals: 2,
      formula: ratio('revenue', 'impressions', 1000),
      definition: 'Revenue ÷ impresiones × 1.000.',
    },
    cpc: { label: 'CPC', name: 'CPC', kind: 'money', decimals: 2, formula: ratio('revenue', 'clicks'), definition: 'Revenue ÷ clics.' },
    revenue: {
      label: 'Rev',
      name: 'Revenue',
      kind: 'money',
      decimals: 2,
      sum: 'revenue',
      definition: 'Lo que pagan los anunciantes por el tráfico, sumado (en la moneda de la red).',
    },
    margin: {
      label: 'Marg.',
      name: 'Margin',
      kind: 'money',
      decimals: 2,
      sum: 'margin',
      definition: 'Lo que queda a la red: revenue − P.Revenue (lo pagado al publisher).',
    },
    /** Margin over revenue, only when revenue > 0; the Dashboard heads it 'Marg %'. */
    rs_percent: {
      label: 'RS%',
      name: 'RS%',
      kind: 'percent',
      decimals: 2,
      formula: ratio('margin', 'revenue', 100, true),
      definition: 'Margen ÷ revenue × 100, solo con revenue mayor que 0.',
    },
    /** What the publisher is paid: the network's cost of the traffic (the only name for it on every screen). */
    p_revenue: {
      label: 'P.Revenue',
      name: 'Publisher revenue',
      kind: 'money',
      decimals: 2,
      sum: 'p_revenue',
      definition: 'Lo que se paga al publisher (el coste del tráfico para la red): revenue × revenue share = revenue − margen.',
    },
    p_cpm: {
      label: 'P.CPM',
      name: 'Publisher CPM',
      kind: 'money',
      decimals: 2,
      formula: ratio('p_revenue', 'impressions', 1000),
      definition: 'P.Revenue ÷ impresiones × 1.000.',
    },
    p_cpc: {
      label: 'P.CPC',
      name: 'Publisher CPC',
      kind: 'money',
      decimals: 2,
      formula: ratio('p_revenue', 'clicks'),
      definition: 'P.Revenue ÷ clics.',
    },
    /** Impression-weighted TQ of a group (a stored row shows its own reported tq). */
    tq: {
      label: 'TQ',
      name: 'TQ Avg',
      kind: 'ratio',
      decimals: 2,
      formula: ratio('tq_weighted', 'tq_weight'),
      stored: true,
      definition: 'Calidad del tráfico: media del TQ de las filas ponderada por sus impresiones (solo filas con TQ e impresiones mayores que 0).',
    },
  } as const satisfies Record<string, MetricDef>),
  profit: family('profit', {
    spend: {
      label: 'Gasto',
      name: 'Gasto en Meta',
      kind: 'money',
      decimals: 2,
      formula: psum('spend'),
      definition: 'Lo gastado en Meta, pasado a la moneda de la red con el tipo de cambio del mes (solo días con el gasto sincronizado).',
    },
    meta_clicks: {
      label: 'Clics Meta',
      name: 'Clics en Meta',
      kind: 'int',
      decimals: 0,
      formula: psum('meta_clicks'),
      definition: 'Clics que Meta cuenta en los anuncios.',
    },
    meta_impressions: {
      label: 'Impr. Meta',
      name: 'Impresiones en Meta',
      kind: 'int',
      decimals: 0,
      formula: psum('meta_impressions'),
      definition: 'Impresiones que Meta cuenta en los anuncios.',
    },
    visits: {
      label: 'Visitas',
      name: 'Visitas (humanas)',
      kind: 'int',
      decimals: 0,
      formula: psum('visits'),
      definition: 'Visitas humanas que llegaron desde los anuncios (sin bots ni spam).',
    },
    revenue: {
      label: 'Revenue est.',
      name: 'Revenue estimado',
      kind: 'money',
      decimals: 2,
      formula: psum('revenue'),
      definition:
        'Σ visitas × revenue por visita de su zona ese día (revenue del informe de zona ÷ visitas humanas); un día sin informe final toma el de los 7 días anteriores y es una estimación.',
    },
    profit: {
      label: 'Beneficio',
      name: 'Beneficio (revenue − gasto)',
      kind: 'money',
      decimals: 2,
      formula: { op: 'diff', a: 'revenue', b: 'spend' },
      definition: 'Revenue estimado − gasto en Meta.',
    },
    roi: {
      label: 'ROI %',
      name: 'ROI (beneficio / gasto)',
      kind: 'percent',
      decimals: 2,
      formula: pratio('profit', 'spend', 100),
      definition: 'Beneficio ÷ gasto × 100.',
    },
    roas: {
      label: 'ROAS',
      name: 'ROAS (revenue / gasto)',
      kind: 'ratio',
      decimals: 2,
      formula: pratio('revenue', 'spend'),
      definition: 'Revenue estimado ÷ gasto.',
    },
    rpv: {
      label: 'RPV',
      name: 'Revenue por visita',
      kind: 'money',
      decimals: 4,
      formula: pratio('revenue', 'visits'),
      definition: 'Revenue estimado ÷ visitas.',
    },
    cpc: {
      label: 'CPC',
      name: 'Coste por clic en Meta',
      kind: 'money',
      decimals: 4,
      formula: pratio('spend', 'meta_clicks'),
      definition: 'Gasto ÷ clics en Meta.',
    },
    break_even_cpc: {
      label: 'CPC equilibrio',
      name: 'CPC de equilibrio (revenue / clics Meta)',
      kind: 'money',
      decimals: 4,
      formula: pratio('revenue', 'meta_clicks'),
      definition: 'El CPC al que los mismos clics habrían costado justo lo que ganaron: revenue estimado ÷ clics en Meta.',
    },
    tq: {
      label: 'TQ',
      name: 'TQ (ponderado por visitas)',
      kind: 'ratio',
      decimals: 2,
      formula: pratio('tq_weighted', 'tq_weight'),
      definition: 'TQ de las zonas visitadas, ponderado por las visitas a cada una.',
    },
  } as const satisfies Record<string, ProfitMetricDef>),
  ivt: family('ivt', {
    ivt_rate: {
      label: 'IVT %',
      name: 'Tasa de tráfico inválido (IVT)',
      kind: 'percent',
      decimals: 2,
      formula: { op: 'ratio', num: 'bot_hits', den: 'hits', scale: 100, positiveBase: true },
      definition: 'Visitas marcadas como bots o spam ÷ todas las visitas × 100.',
    },
  } as const satisfies Record<string, IvtMetricDef>),
  /**
   * `alert`: the figures an alert rule measures that no report derives (the other figures of an
   * alert are its family's: a zone's TQ, impressions and revenue the report's, a campaign's the
   * profit's) — shown in 'Cifras' of the evaluation log and the backtest, web and terminal alike.
   */
  alert: family('alert', {
    revenue_last_week: {
      label: 'Revenue semana anterior',
      name: 'Revenue de la semana anterior',
      kind: 'money',
      decimals: 2,
      definition: 'Revenue de la zona en las mismas horas de hace una semana (regla de caída de revenue).',
    },
    change_percent: {
      label: 'Cambio',
      name: 'Cambio frente a la semana anterior',
      kind: 'percent',
      decimals: 1,
      definition: '(revenue ÷ revenue de la semana anterior − 1) × 100.',
    },
    visits: {
      label: 'Visitas',
      name: 'Visitas humanas',
      kind: 'int',
      decimals: 0,
      definition: 'Visitas humanas (sin bots ni spam) en la ventana de la regla.',
    },
    minutes: {
      label: 'Minutos',
      name: 'Ventana en minutos',
      kind: 'int',
      decimals: 0,
      definition: 'Los minutos de la ventana que mira la regla.',
    },
    estimated_visits: {
      label: 'Visitas estimadas',
      name: 'Visitas con revenue estimado',
      kind: 'int',
      decimals: 0,
      definition: 'Visitas cuyo revenue es una estimación (informe parcial o sin informe ese día).',
    },
  } as const satisfies Record<string, AlertFigureDef>),
} as const;

/** Any entry of the registry, whichever its family. */
export type AnyFigureDef = (MetricDef | ProfitMetricDef | IvtMetricDef | AlertFigureDef) & { readonly key: string; readonly family: FigureFamily };

/**
 * Every ratio of every family: num / den × scale; null when a value is not finite, the base is 0,
 * or — with `positiveBase` — not above 0.
 */
export function ratioValue(num: unknown, den: unknown, scale: number, positiveBase = false): number | null {
  if (!isFiniteNumber(num) || !isFiniteNumber(den) || den === 0 || (positiveBase && den < 0)) return null;
  const value = (num / den) * scale;
  return Number.isFinite(value) ? value : null;
}

/** The one evaluator: a formula over `value` (a sum, or another figure of the family); null where a value is missing. */
export function evaluateFormula<S extends string, R extends string>(
  formula: FigureFormula<S, R>,
  value: (key: S | R) => number | null | undefined,
): number | null {
  const v = (key: S | R): number | null => {
    const n = value(key);
    return isFiniteNumber(n) ? n : null;
  };
  if (formula.op === 'sum') return v(formula.key);
  if (formula.op === 'diff') {
    const a = v(formula.a);
    const b = v(formula.b);
    return a === null || b === null ? null : a - b;
  }
  return ratioValue(v(formula.num), v(formula.den), formula.scale, formula.positiveBase);
}

/** An entry's formula, a summed report metric's as `{ op: 'sum' }`; none for a text dimension or an alert's measured figure. */
function formulaOfEntry(def: AnyFigureDef): FigureFormula<string, string> | undefined {
  if ('sum' in def && def.sum !== undefined) return { op: 'sum', key: def.sum };
  return 'formula' in def ? def.formula : undefined;
}

/**
 * Any figure of a family from that family's sums: its formula, where a name that is not a sum is
 * another figure of the family (ROI reads profit). `defs` defaults to the registry's family.
 */
export function figureValue(
  name: FigureFamily,
  key: string,
  sums: Readonly<Record<string, number | null | undefined>>,
  defs: Readonly<Record<string, AnyFigureDef>> = REGISTRY[name],
): number | null {
  const def = defs[key];
  const formula = def ? formulaOfEntry(def) : undefined;
  if (!formula) return null;
  const sumKeys: readonly string[] = FAMILY_SUM_KEYS[name];
  return evaluateFormula(formula, (k) => (sumKeys.includes(k) ? sums[k] : figureValue(name, k, sums, defs)));
}
