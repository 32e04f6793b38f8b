// One Demand card: an advertiser's revenue and margin bars by date in its brand colour (margin
// a lighter tint), every label in the network's currency with 2 decimals (SPEC's euros were the
// same amounts mislabelled), and the range's totals the server answered in the header (the card never sums).
import { useMemo } from 'react';
// Tremor's index has no sideEffects flag, so importing it bundles all of Tremor (444 KB); the
// chart's own module brings only what it uses.
import BarChart from '@tremor/react/dist/components/chart-elements/BarChart/BarChart.js';
import { formatDateDMY, formatMoney, type DemandPoint, type DemandTotals } from '@adops/core';
import { advertiserColor } from './advertiserColor';
import { networkCurrency } from '../../lib/currency';
import { ChartLegend } from '../ChartLegend';

const money = (n: number | null | undefined) => formatMoney(n, networkCurrency());

export interface AdvertiserChartProps {
  advertiser: string;
  points: readonly DemandPoint[];
  /** The advertiser's revenue and margin over the range, as the server answered them (undefined: '-'). */
  totals: DemandTotals | undefined;
  /** The top of the value axis when every card shares one scale (else each chart fits its own bars). */
  maxValue?: number;
  /** Today in the reporting zone: its bars are a partial day, labelled '(parcial)'. */
  today?: string;
}

/** The x-axis label of a day: dd/MM/yyyy, with '(parcial)' on today's. */
export function dayLabel(ymd: string, today?: string): string {
  const day = formatDateDMY(ymd);
  return ymd === today ? `${day} (parcial)` : day;
}

export function AdvertiserChart({ advertiser, points, totals, maxValue, today }: AdvertiserChartProps) {
  const colors = advertiserColor(advertiser);
  // x-axis as dd/MM/yyyy; the tooltip's title shows the same label.
  const data = useMemo(() => points.map((p) => ({ Fecha: dayLabel(p.date, today), Revenue: p.revenue, Margin: p.margin })), [points, today]);
  return (
    <section
      aria-label={advertiser}
      data-testid="advertiser-card"
      data-color={colors.base}
      data-scale={maxValue === undefined ? 'own' : 'shared'}
      className="rounded-lg border border-gray-200 bg-white p-5 shadow-sm"
    >
      <header className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <h2 className="flex items-center gap-2 text-base font-semibold text-gray-900">
          <span aria-hidden className={`inline-block h-3 w-3 rounded-full bg-${colors.revenue}`} />
          {advertiser}
        </h2>
        <dl className="flex gap-6 text-right text-sm">
          <div>
            <dt className="text-gray-500">Revenue</dt>
            <dd className={`font-semibold tabular-nums text-${colors.base}-700`} data-testid="advertiser-revenue">
              {money(totals?.revenue)}
            </dd>
          </div>
          <div>
            <dt className="text-gray-500">Margin</dt>
            <dd className="font-semibold tabular-nums text-gray-700" data-testid="advertiser-margin">
              {money(totals?.margin)}
            </dd>
          </div>
        </dl>
      </header>
      <ChartLegend
        items={[
          { name: 'Revenue', color: colors.revenue },
          { name: 'Margin', color: colors.margin },
        ]}
      />
      <BarChart
        className="h-72"
        data={data}
        index="Fecha"
        categories={['Revenue', 'Margin']}
        colors={[colors.revenue, colors.margin]}
        valueFormatter={money}
        yAxisWidth={96}
        minValue={maxValue === undefined ? undefined : 0}
        maxValue={maxValue}
        showAnimation={false}
        showLegend={false}
        noDataText="Sin datos"
      />
    </section>
  );
}
