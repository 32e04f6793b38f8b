// Rentabilidad's chart: spend and estimated revenue by day (the API's by=day rows, as answered),
// bars side by side; a day whose zone report has not arrived is labelled '(estimado)', and a day
// whose spend lacks an exchange rate has no spend bar.
import { useMemo } from 'react';
// The chart's own module (Tremor's index would bundle all of Tremor; see Demand's chart).
import BarChart from '@tremor/react/dist/components/chart-elements/BarChart/BarChart.js';
import { PROFIT_METRICS, formatDateDMY, type ProfitRow } from '@adops/core';
import { networkMoney } from './format';

export const ESTIMATED = '(estimado)';

/** The x-axis label of a day: dd/MM/yyyy, with '(estimado)' when its revenue is an estimate. */
export function profitDayLabel(ymd: string, estimatedDays: ReadonlySet<string>): string {
  const day = formatDateDMY(ymd);
  return estimatedDays.has(ymd) ? `${day} ${ESTIMATED}` : day;
}

export interface SpendRevenueChartProps {
  days: readonly ProfitRow[];
  estimatedDays: readonly string[];
  currency: string;
}

export function SpendRevenueChart({ days, estimatedDays, currency }: SpendRevenueChartProps) {
  const spend = PROFIT_METRICS.spend.label;
  const revenue = PROFIT_METRICS.revenue.label;
  const data = useMemo(() => {
    const estimated = new Set(estimatedDays);
    return days.filter((d) => d.key !== null).map((d) => ({ Día: profitDayLabel(d.key!, estimated), [spend]: d.spend, [revenue]: d.revenue }));
  }, [days, estimatedDays, spend, revenue]);
  return (
    <div data-testid="profit-chart">
      <BarChart
        className="h-72"
        data={data}
        index="Día"
        categories={[spend, revenue]}
        colors={['rose-600', 'emerald-600']}
        valueFormatter={(v: number) => networkMoney(v, currency)}
        yAxisWidth={88}
        showAnimation={false}
        noDataText="Sin datos"
      />
    </div>
  );
}
