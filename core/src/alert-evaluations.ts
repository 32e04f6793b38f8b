// The words of 'Historial de evaluación' and 'Probar en el pasado', defined once for the web and
// the terminal: each outcome's name, a rule's figures in one line (formatted as Rentabilidad and
// the reports format them, in the network's currency), and a backtest's summary.
import type { AlertRuleKind } from './contract/alerts.js';
import type { AlertBacktest, AlertOutcome, BacktestAction } from './contract/alert-evaluations.js';
import { formatInt, formatMoney } from './format.js';
import { type AnyFigureDef, REGISTRY, formatByKind } from './metrics.js';

export const ALERT_OUTCOME_LABELS: Readonly<Record<AlertOutcome, string>> = {
  fired: 'Disparó',
  acted: 'Actuó',
  cooldown: 'En espera',
  daily_cap: 'Límite diario',
  below_min_spend: 'Pocos datos',
  unsynced_spend: 'Gasto sin sincronizar',
  estimated_revenue: 'Revenue estimado',
  recovered: 'Recuperada',
  not_matched: 'No se cumple',
};

/** Each outcome as a short answer to "why did it act or not". */
export const ALERT_OUTCOME_WHY: Readonly<Record<AlertOutcome, string>> = {
  fired: 'se cumplió la condición y avisó',
  acted: 'se cumplió la condición y actuó en Meta',
  cooldown: 'se cumplió, pero estaba en su espera entre avisos o acciones',
  daily_cap: 'se cumplió, pero ya se había llegado al límite diario de acciones',
  below_min_spend: 'no se juzgó: no llegaba al mínimo de datos de la regla',
  unsynced_spend: 'no se juzgó: su gasto no estaba sincronizado',
  estimated_revenue: 'no se juzgó: su revenue solo era estimado y la regla cuenta días cerrados',
  recovered: 'dejó de cumplirse: su alerta se resolvió o se reactivó',
  not_matched: 'se juzgó y no se cumple la condición',
};

/**
 * Whose figures a rule's are: a zone's TQ, impressions and revenue are the revenue report's
 * (reported revenue), a campaign's the profit figures (estimated revenue, spend, ROI…); what a
 * rule measures that no report derives (last week's revenue, the change, visits in a window) is
 * the registry's `alert` family.
 */
const RULE_FAMILY: Readonly<Record<AlertRuleKind, Readonly<Record<string, AnyFigureDef>>>> = {
  tq_low: REGISTRY.report,
  revenue_drop: REGISTRY.report,
  referrer_burst: REGISTRY.alert,
  ip_burst: REGISTRY.alert,
  campaign_roi: REGISTRY.profit,
};

/** A figure's registry entry for a rule's kind: its family's, else the alert family's. */
function alertFigureDef(kind: AlertRuleKind, key: string): AnyFigureDef | undefined {
  const own = RULE_FAMILY[kind];
  if (Object.hasOwn(own, key)) return own[key];
  return Object.hasOwn(REGISTRY.alert, key) ? (REGISTRY.alert as Readonly<Record<string, AnyFigureDef>>)[key] : undefined;
}

/** A column header's unit is said by the figure itself in a line: 'ROI -80,00%', not 'ROI % -80,00%'. */
const inLine = (label: string) => label.replace(/ %$/, '');

/**
 * A figure's name in a line: the report's figures by their names ('Revenue', not the table
 * header 'Rev'), the others by their labels ('Revenue est.', 'Beneficio', 'ROI').
 */
const lineLabel = (def: AnyFigureDef) => inLine(def.family === 'report' ? def.name : def.label);

/**
 * A rule's figures in one line, each with its registry label and format (in the rule kind's
 * family, see RULE_FAMILY): 'Gasto $50,00 · Revenue est. $10,00 · Beneficio -$40,00 · ROI
 * -80,00%'. Unknown figures are skipped; missing ones read '-'.
 */
export function alertFiguresText(figures: Readonly<Record<string, number | null>>, currency: string, kind: AlertRuleKind): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(figures)) {
    const def = alertFigureDef(kind, key);
    if (!def || def.kind === 'text') continue;
    const n = def.kind === 'int' && value !== null ? Math.round(value) : value;
    parts.push(`${lineLabel(def)} ${formatByKind(def.kind, n, def.decimals, currency)}`);
  }
  return parts.join(' · ');
}

export const BACKTEST_ACTION_LABELS: Readonly<Record<BacktestAction['action'], string>> = {
  alert: 'Alerta',
  pause: 'Pausa',
  resume: 'Reactivación',
};

/** A backtest's summary as lines: what it would have done and its money effect, in the network's currency. */
export function backtestSummaryLines(b: Pick<AlertBacktest, 'summary' | 'currency' | 'days' | 'evaluations'>): string[] {
  const s = b.summary;
  const money = (v: number) => formatMoney(v, b.currency);
  const lines = [
    `En los últimos ${formatInt(b.days)} días (${formatInt(b.evaluations)} evaluaciones, una por hora): ${formatInt(s.alerts)} alertas, ${formatInt(s.pauses)} pausas, ${formatInt(s.resumes)} reactivaciones`,
    `Gasto evitado ${money(s.spend_avoided)} · Revenue perdido ${money(s.revenue_forgone)} · Efecto neto ${money(s.net)}`,
  ];
  if (s.held.cooldown || s.held.daily_cap)
    lines.push(`Retenidas: ${formatInt(s.held.cooldown)} por la espera, ${formatInt(s.held.daily_cap)} por el límite diario`);
  if (s.flapping.length)
    lines.push(
      `Cambiaría de estado más de una vez (flapping): ${s.flapping.map((f) => `${f.name ? `${f.name} (${f.subject})` : f.subject} ×${formatInt(f.offs)}`).join(', ')}`,
    );
  return lines;
}
