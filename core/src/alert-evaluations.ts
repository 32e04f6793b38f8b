// The words of 'Historial de evaluación' and 'Probar en el pasado', defined once for the web and
// the terminal: each outcome's name, a rule's figures in one line (formatted as Rentabilidad and
// the reports format them, in the network's currency), and a backtest's summary.
import type { AlertBacktest, AlertOutcome, BacktestAction } from './contract/alert-evaluations.js';
import { formatInt, formatMoney, formatNumber, formatPercent } from './format.js';
import { PROFIT_METRICS, formatProfitFigure, type ProfitMetricKey } from './metrics.js';

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

const OTHER_FIGURES: Readonly<Record<string, { label: string; show: (v: number, currency: string) => string }>> = {
  tq: { label: 'TQ', show: (v) => formatNumber(v, 2) },
  impressions: { label: 'Impresiones', show: (v) => formatInt(v) },
  revenue_last_week: { label: 'Revenue semana anterior', show: (v, c) => formatMoney(v, c) },
  change_percent: { label: 'Cambio', show: (v) => formatPercent(v, 1) },
  minutes: { label: 'Minutos', show: (v) => formatInt(v) },
  estimated_visits: { label: 'Visitas estimadas', show: (v) => formatInt(v) },
};

/** A column header's unit is said by the figure itself in a line: 'ROI -80,00%', not 'ROI % -80,00%'. */
const inLine = (label: string) => label.replace(/ %$/, '');

/**
 * A rule's figures in one line, each as every screen shows it: 'Gasto $50,00 · Revenue $10,00 ·
 * Beneficio -$40,00 · ROI -80,00%'. Unknown figures are skipped; missing ones read '-'.
 */
export function alertFiguresText(figures: Readonly<Record<string, number | null>>, currency: string): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(figures)) {
    if (key in PROFIT_METRICS)
      parts.push(`${inLine(PROFIT_METRICS[key as ProfitMetricKey].label)} ${formatProfitFigure(key as ProfitMetricKey, value, currency)}`);
    else if (OTHER_FIGURES[key]) parts.push(`${OTHER_FIGURES[key].label} ${value === null ? '-' : OTHER_FIGURES[key].show(value, currency)}`);
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
