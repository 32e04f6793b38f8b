// The evaluation log's judged figure and threshold in the unit the rule's kind judges — ROI %,
// CPC in the network's currency, TQ, change %, visits — through core's formatters, as the rest of
// Alertas shows them. The outcomes' and actions' words are core's (ALERT_OUTCOME_LABELS …).
import { formatInt, formatNumber, formatPercent, formatProfitFigure, type AlertRule, type AlertOutcome } from '@adops/core';

/** A judged value (or its threshold) of a rule of this kind. */
export function judgedText(rule: Pick<AlertRule, 'kind' | 'params'>, value: number | null, currency: string, role: 'value' | 'threshold'): string {
  switch (rule.kind) {
    case 'campaign_roi':
      return rule.params.metric === 'cpc' ? formatProfitFigure('cpc', value, currency) : formatProfitFigure('roi', value, currency);
    case 'tq_low':
      return formatNumber(value, 2);
    case 'revenue_drop':
      // The threshold is the smallest drop (30 → a change of −30 %); the value is the change itself.
      return role === 'threshold' ? formatPercent(value === null ? null : -value, 0) : formatPercent(value, 1);
    case 'referrer_burst':
    case 'ip_burst':
      return formatInt(value);
  }
}

/** Each outcome's badge: acting red, held back amber, not judged grey, recovered green (text-800 on a 50 tint: readable). */
export const OUTCOME_BADGE: Readonly<Record<AlertOutcome, string>> = {
  acted: 'bg-red-50 text-red-800 ring-red-200',
  fired: 'bg-red-50 text-red-800 ring-red-200',
  cooldown: 'bg-amber-50 text-amber-800 ring-amber-200',
  daily_cap: 'bg-amber-50 text-amber-800 ring-amber-200',
  below_min_spend: 'bg-gray-100 text-gray-700 ring-gray-200',
  unsynced_spend: 'bg-gray-100 text-gray-700 ring-gray-200',
  estimated_revenue: 'bg-gray-100 text-gray-700 ring-gray-200',
  recovered: 'bg-green-50 text-green-800 ring-green-200',
  not_matched: 'bg-gray-100 text-gray-700 ring-gray-200',
};
