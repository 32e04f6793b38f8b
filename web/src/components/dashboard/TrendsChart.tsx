// The Dashboard's 'Trends' area chart by date (height 300): series Revenue, TQ, Margin, Clicks
// and Impressions toggled on and off (revenue, tq and margin at first); TQ on the right axis.
// Tremor v3's AreaChart has no second axis, so this draws with recharts (Tremor's own engine).
import { useState } from 'react';
import { Area, CartesianGrid, ComposedChart, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipProps } from 'recharts';
import { formatDateDMY, formatMetric, type ChartPoint } from '@adops/core';

export type TrendSeries = 'revenue' | 'tq' | 'margin' | 'clicks' | 'impressions';

export const TREND_SERIES: ReadonlyArray<{ key: TrendSeries; label: string; color: string }> = [
  { key: 'revenue', label: 'Revenue', color: '#3b82f6' },
  { key: 'tq', label: 'TQ', color: '#a855f7' },
  { key: 'margin', label: 'Margin', color: '#22c55e' },
  { key: 'clicks', label: 'Clicks', color: '#f59e0b' },
  { key: 'impressions', label: 'Impressions', color: '#d1d5db' },
];

export const DEFAULT_TRENDS: readonly TrendSeries[] = ['revenue', 'tq', 'margin'];

const compact = new Intl.NumberFormat('es-ES', { notation: 'compact', maximumFractionDigits: 1 });
const shortDate = (ymd: string) => formatDateDMY(ymd).slice(0, 5);

function TrendTooltip({ active, payload, label }: TooltipProps<number, string>) {
  if (!active || !payload?.length) return null;
  return (
    <div className="rounded-md border border-gray-200 bg-white px-3 py-2 text-xs shadow-md">
      <div className="mb-1 font-semibold text-gray-900">{formatDateDMY(String(label))}</div>
      {payload.map((p) => {
        const series = TREND_SERIES.find((s) => s.key === p.dataKey);
        if (!series) return null;
        return (
          <div key={series.key} className="flex items-center justify-between gap-4">
            <span className="flex items-center gap-1.5 text-gray-600">
              <span className="h-2 w-2 rounded-full" style={{ background: series.color }} />
              {series.label}
            </span>
            <span className="font-medium tabular-nums text-gray-900">{formatMetric(series.key, p.value)}</span>
          </div>
        );
      })}
    </div>
  );
}

export function TrendsChart({ points }: { points: readonly ChartPoint[] }) {
  const [shown, setShown] = useState<ReadonlySet<TrendSeries>>(() => new Set(DEFAULT_TRENDS));
  const toggle = (key: TrendSeries) =>
    setShown((s) => {
      const next = new Set(s);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const visible = TREND_SERIES.filter((s) => shown.has(s.key));
  const leftSeries = visible.filter((s) => s.key !== 'tq');

  return (
    <div>
      <fieldset className="mb-3 flex flex-wrap gap-2" aria-label="Series">
        {TREND_SERIES.map((s) => {
          const on = shown.has(s.key);
          return (
            <button
              key={s.key}
              type="button"
              aria-pressed={on}
              onClick={() => toggle(s.key)}
              className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-xs font-medium transition ${
                on ? 'border-gray-300 bg-white text-gray-800 shadow-sm' : 'border-dashed border-gray-300 bg-gray-50 text-gray-400'
              }`}
            >
              <span className="h-2.5 w-2.5 rounded-full" style={{ background: on ? s.color : '#e5e7eb' }} />
              {s.label}
            </button>
          );
        })}
      </fieldset>
      <div style={{ height: 300 }} data-testid="trends-chart" data-series={visible.map((s) => s.key).join(',')}>
        <ResponsiveContainer width="100%" height={300}>
          <ComposedChart data={points as ChartPoint[]} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <defs>
              {TREND_SERIES.map((s) => (
                <linearGradient key={s.key} id={`trend-${s.key}`} x1="0" y1="0" x2="0" y2="1">
                  <stop offset="5%" stopColor={s.color} stopOpacity={s.key === 'tq' ? 0.12 : 0.35} />
                  <stop offset="95%" stopColor={s.color} stopOpacity={0.02} />
                </linearGradient>
              ))}
            </defs>
            <CartesianGrid stroke="#f3f4f6" vertical={false} />
            <XAxis
              dataKey="date"
              tickFormatter={shortDate}
              tick={{ fontSize: 12, fill: '#6b7280' }}
              tickLine={false}
              axisLine={{ stroke: '#e5e7eb' }}
              minTickGap={16}
            />
            <YAxis
              yAxisId="left"
              hide={leftSeries.length === 0}
              tickFormatter={(v: number) => compact.format(v)}
              tick={{ fontSize: 12, fill: '#6b7280' }}
              tickLine={false}
              axisLine={false}
              width={56}
            />
            <YAxis
              yAxisId="right"
              orientation="right"
              hide={!shown.has('tq')}
              tickFormatter={(v: number) => formatMetric('tq', v)}
              tick={{ fontSize: 12, fill: '#a855f7' }}
              tickLine={false}
              axisLine={false}
              width={48}
            />
            <Tooltip content={<TrendTooltip />} />
            {visible.map((s) => (
              <Area
                key={s.key}
                type="monotone"
                dataKey={s.key}
                name={s.label}
                yAxisId={s.key === 'tq' ? 'right' : 'left'}
                stroke={s.color}
                strokeWidth={2}
                fill={`url(#trend-${s.key})`}
                dot={false}
                activeDot={{ r: 4 }}
                isAnimationActive={false}
              />
            ))}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}
