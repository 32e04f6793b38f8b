// Rentabilidad's figures as the screens show them: the registry's format (core) in the network's
// currency — $ and € as elsewhere, any other ISO code after the number.
import { PROFIT_METRICS, formatNumber, formatProfitMetric, type ProfitMetricKey } from '@adops/core';

export function profitText(key: ProfitMetricKey, value: number | null | undefined, currency: string): string {
  if (PROFIT_METRICS[key].kind !== 'money' || currency === 'USD') return formatProfitMetric(key, value, '$');
  if (currency === 'EUR') return formatProfitMetric(key, value, '€');
  const text = formatNumber(value ?? null, PROFIT_METRICS[key].decimals);
  return value === null || value === undefined ? text : `${text} ${currency}`;
}

/** A money amount of the network's currency with 2 decimals (the Fb Campaigns columns and the chart). */
export function networkMoney(value: number | null | undefined, currency: string): string {
  return profitText('revenue', value, currency);
}
