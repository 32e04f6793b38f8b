// Rentabilidad's chart: spend and estimated revenue by day (the API's by=day rows, as answered),
// bars side by side; a day whose zone report has not arrived (or is partial) is labelled
// '(estimado)', and a day whose spend is not synced or lacks an exchange rate has no spend bar
// (the first is labelled '(gasto sin sincronizar)').
import { useMemo } from 'react';
// The chart's own module (Tremor's index would bundle all of Tremor; see Demand's chart).
import BarChart from '@tremor/react/dist/components/chart-elements/BarChart/BarChart.js';
import { PROFIT_METRICS, formatDateDMY, type ProfitRow } from '@adops/core';
import { networkMoney } from './format';
import { ChartLegend } from '../ChartLegend';

export const ESTIMATED = '(estimado)';
export const UNSYNCED = '(gasto sin sincronizar)';

/** The x-axis label of a day: dd/MM/yyyy, with '(estimado)' when its revenue is an estimate and '(gasto sin sincronizar)' when its spend is unknown. */
export function profitDayLabel(ymd: string, estimatedDays: ReadonlySet<string>, unsyncedDays: ReadonlySet<string> = new Set()): string {
  const day = formatDateDMY(ymd);
  return [day, estimatedDays.has(ymd) ? ESTIMATED : '', unsyncedDays.has(ymd) ? UNSYNCED : ''].filter(Boolean).join(' ');
}

export interface SpendRevenueChartProps {
  days: readonly ProfitRow[];
  estimatedDays: readonly string[];
  /** Days whose spend is not synced: no spend bar (it is not 0). */
  unsyncedDays?: readonly string[];
  currency: string;
}

export function SpendRevenueChart({ days, estimatedDays, unsyncedDays = [], currency }: SpendRevenueChartProps) {
  const spend = PROFIT_METRICS.spend.label;
  const revenue = PROFIT_METRICS.revenue.label;
  const data = useMemo(() => {
    const estimated = new Set(estimatedDays);
    const unsynced = new Set(unsyncedDays);
    return days
      .filter((d) => d.key !== null)
      .map((d) => ({ Día: profitDayLabel(d.key!, estimated, unsynced), [spend]: d.spend, [revenue]: d.revenue }));
  }, [days, estimatedDays, unsyncedDays, spend, revenue]);
  return (
    <div data-testid="profit-chart">
      <ChartLegend
        items={[
          { name: spend, color: 'rose-600' },
          { name: revenue, color: 'emerald-600' },
        ]}
      />
      <BarChart
        className="h-72"
        data={data}
        index="Día"
        categories={[spend, revenue]}
        colors={['rose-600', 'emerald-600']}
        valueFormatter={(v: number) => networkMoney(v, currency)}
        yAxisWidth={88}
        showAnimation={false}
        showLegend={false}
        noDataText="Sin datos"
      />
    </div>
  );
}
