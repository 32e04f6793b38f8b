// The Dashboard's 'Trends' area chart by date (height 300): series Revenue, TQ, Margin, Clicks
// and Impressions toggled on and off (revenue, tq and margin at first). Money on the left axis,
// TQ on the right; Clicks and Impressions each on an axis of their own (not drawn), so a large
// count never flattens the rest. Today's partial day is labelled '(parcial)'. When comparing,
// the previous period is drawn as dashed lines, day by day under the current one.
// Tremor v3's AreaChart has no second axis, so this draws with recharts (Tremor's own engine).
import { useMemo, useState } from 'react';
import { Area, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipProps } from 'recharts';
import { formatDateDMY, formatMetric, type ChartPoint } from '@adops/core';
import { networkCurrency } from '../../lib/currency';

export type TrendSeries = 'revenue' | 'tq' | 'margin' | 'clicks' | 'impressions';

export const TREND_SERIES: ReadonlyArray<{ key: TrendSeries; label: string; color: string }> = [
  { key: 'revenue', label: 'Revenue', color: '#3b82f6' },
  { key: 'tq', label: 'TQ', color: '#a855f7' },
  { key: 'margin', label: 'Margin', color: '#22c55e' },
  { key: 'clicks', label: 'Clicks', color: '#f59e0b' },
  { key: 'impressions', label: 'Impressions', color: '#d1d5db' },
];

export const DEFAULT_TRENDS: readonly TrendSeries[] = ['revenue', 'tq', 'margin'];

/** The axis each series is drawn against: money together, the rest each on its own scale. */
export const SERIES_AXIS: Record<TrendSeries, string> = {
  revenue: 'money',
  margin: 'money',
  tq: 'tq',
  clicks: 'clicks',
  impressions: 'impressions',
};

export const PARTIAL = '(parcial)';

const compact = new Intl.NumberFormat('es-ES', { notation: 'compact', maximumFractionDigits: 1 });

/** A chart row: the day's point plus, when comparing, the same day of the previous period (prev_*). */
type Row = ChartPoint & { prev_date?: string } & Partial<Record<`prev_${TrendSeries}`, number | null>>;

/** The current points with the previous period's, paired by position (day 1 with day 1). */
export function pairWithPrevious(points: readonly ChartPoint[], previous: readonly ChartPoint[] | undefined): Row[] {
  return points.map((p, i) => {
    const before = previous?.[i];
    if (!before) return { ...p };
    const row: Row = { ...p, prev_date: before.date };
    for (const s of TREND_SERIES) row[`prev_${s.key}`] = before[s.key];
    return row;
  });
}

function TrendTooltip({ active, payload, label, today }: TooltipProps<number, string> & { today?: string }) {
  if (!active || !payload?.length) return null;
  const row = payload[0]?.payload as Row | undefined;
  return (
    <div className="rounded-md border border-gray-200 bg-white px-3 py-2 text-xs shadow-md">
      <div className="mb-1 font-semibold text-gray-900">
        {formatDateDMY(String(label))}
        {label === today ? ` ${PARTIAL}` : ''}
        {row?.prev_date ? <span className="font-normal text-gray-500"> · anterior {formatDateDMY(row.prev_date)}</span> : null}
      </div>
      {payload.map((p) => {
        const key = String(p.dataKey);
        const isPrev = key.startsWith('prev_');
        const series = TREND_SERIES.find((s) => s.key === (isPrev ? key.slice(5) : key));
        if (!series) return null;
        return (
          <div key={key} className="flex items-center justify-between gap-4">
            <span className="flex items-center gap-1.5 text-gray-600">
              <span className={`h-0 w-3 border-t-2 ${isPrev ? 'border-dashed' : ''}`} style={{ borderColor: series.color }} aria-hidden />
              {series.label}
              {isPrev ? ' (anterior)' : ''}
            </span>
            <span className="font-medium tabular-nums text-gray-900">{formatMetric(series.key, p.value, networkCurrency())}</span>
          </div>
        );
      })}
    </div>
  );
}

export interface TrendsChartProps {
  points: readonly ChartPoint[];
  /** The previous period's points (comparison), drawn dashed. */
  previous?: readonly ChartPoint[];
  /** Today in the reporting zone: its point is a partial day. */
  today?: string;
}

export function TrendsChart({ points, previous, today }: TrendsChartProps) {
  const [shown, setShown] = useState<ReadonlySet<TrendSeries>>(() => new Set(DEFAULT_TRENDS));
  const toggle = (key: TrendSeries) =>
    setShown((s) => {
      const next = new Set(s);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const visible = TREND_SERIES.filter((s) => shown.has(s.key));
  const moneyShown = shown.has('revenue') || shown.has('margin');
  const data = useMemo(() => pairWithPrevious(points, previous), [points, previous]);
  const hasPartial = !!today && points.some((p) => p.date === today);
  const dayLabel = (ymd: string) => (ymd === today ? `${formatDateDMY(ymd)} ${PARTIAL}` : formatDateDMY(ymd));

  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <fieldset className="flex flex-wrap gap-2" aria-label="Series">
          {TREND_SERIES.map((s) => {
            const on = shown.has(s.key);
            return (
              <button
                key={s.key}
                type="button"
                aria-pressed={on}
                onClick={() => toggle(s.key)}
                className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-xs font-medium transition ${
                  on ? 'border-gray-300 bg-white text-gray-800 shadow-sm' : 'border-dashed border-gray-300 bg-gray-50 text-gray-500'
                }`}
              >
                <span className="h-2.5 w-2.5 rounded-full" style={{ background: on ? s.color : '#e5e7eb' }} />
                {s.label}
              </button>
            );
          })}
        </fieldset>
        <p className="text-xs text-gray-500" data-testid="trends-legend">
          {previous ? <span className="mr-3">- - - período anterior</span> : null}
          {shown.has('clicks') || shown.has('impressions') ? 'Clicks e Impressions con escala propia' : null}
          {hasPartial ? <span className="ml-3">Hoy {PARTIAL}: día en curso</span> : null}
        </p>
      </div>
      <div
        style={{ height: 300 }}
        data-testid="trends-chart"
        data-series={visible.map((s) => s.key).join(',')}
        data-previous={previous ? 'on' : 'off'}
      >
        <ResponsiveContainer width="100%" height={300}>
          <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
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
              tickFormatter={dayLabel}
              tick={{ fontSize: 12, fill: '#6b7280' }}
              tickLine={false}
              axisLine={{ stroke: '#e5e7eb' }}
              minTickGap={16}
            />
            <YAxis
              yAxisId="money"
              hide={!moneyShown}
              tickFormatter={(v: number) => compact.format(v)}
              tick={{ fontSize: 12, fill: '#6b7280' }}
              tickLine={false}
              axisLine={false}
              width={56}
            />
            <YAxis
              yAxisId="tq"
              orientation="right"
              hide={!shown.has('tq')}
              tickFormatter={(v: number) => formatMetric('tq', v)}
              tick={{ fontSize: 12, fill: '#a855f7' }}
              tickLine={false}
              axisLine={false}
              width={48}
            />
            <YAxis yAxisId="clicks" hide />
            <YAxis yAxisId="impressions" hide />
            <Tooltip content={<TrendTooltip today={today} />} />
            {visible.map((s) => (
              <Area
                key={s.key}
                type="monotone"
                dataKey={s.key}
                name={s.label}
                yAxisId={SERIES_AXIS[s.key]}
                stroke={s.color}
                strokeWidth={2}
                fill={`url(#trend-${s.key})`}
                dot={false}
                activeDot={{ r: 4 }}
                isAnimationActive={false}
              />
            ))}
            {previous &&
              visible.map((s) => (
                <Line
                  key={`prev_${s.key}`}
                  type="monotone"
                  dataKey={`prev_${s.key}`}
                  name={`${s.label} (anterior)`}
                  yAxisId={SERIES_AXIS[s.key]}
                  stroke={s.color}
                  strokeWidth={1.5}
                  strokeDasharray="5 4"
                  strokeOpacity={0.8}
                  dot={false}
                  activeDot={{ r: 3 }}
                  isAnimationActive={false}
                  className="trend-previous"
                />
              ))}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}
