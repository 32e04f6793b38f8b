// 'Probar en el pasado''s chart: each campaign's (ad set's) daily profit as stored today, one line
// each, with the pauses and resumes the rule would have made marked on its line that day (a red
// square, a green triangle: told apart by shape as well as colour). Drawn with recharts, the
// engine the Dashboard's chart already ships. At most 8 campaigns: those paused most.
import { useMemo } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceDot, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipProps } from 'recharts';
import { formatDateDMY, formatInt, formatMoney, todayIn, type AlertBacktest } from '@adops/core';
import { ChartLegend } from '../ChartLegend';

/** Line colours (Tailwind's 600/700 shades), none red or green: those are the markers'. */
const LINE_COLORS = ['#2563eb', '#7c3aed', '#d97706', '#0891b2', '#4f46e5', '#c026d3', '#0f766e', '#475569'];
const PAUSE = '#dc2626';
const RESUME = '#16a34a';
export const CHART_SUBJECTS = 8;

type Daily = AlertBacktest['daily'];
type Row = { date: string } & Record<string, number | string | null>;

interface Series {
  subject: string;
  label: string;
  color: string;
  key: string;
}

/** The campaigns to draw: most paused hours first (then most actions), at most CHART_SUBJECTS. */
export function chartSubjects(b: Pick<AlertBacktest, 'daily' | 'actions'>): Series[] {
  const hours = new Map<string, number>();
  for (const d of b.daily) hours.set(d.subject, (hours.get(d.subject) ?? 0) + d.paused_hours);
  const acts = new Map<string, number>();
  const names = new Map<string, string>();
  for (const a of b.actions) {
    acts.set(a.subject, (acts.get(a.subject) ?? 0) + 1);
    if (a.name) names.set(a.subject, a.name);
  }
  return [...hours.keys()]
    .sort((x, y) => (hours.get(y) ?? 0) - (hours.get(x) ?? 0) || (acts.get(y) ?? 0) - (acts.get(x) ?? 0) || x.localeCompare(y))
    .slice(0, CHART_SUBJECTS)
    .map((subject, i) => ({
      subject,
      label: names.has(subject) ? `${names.get(subject)} (${subject})` : subject,
      color: LINE_COLORS[i % LINE_COLORS.length],
      key: `s${i}`,
    }));
}

function rowsOf(daily: Daily, series: readonly Series[]): Row[] {
  const byDate = new Map<string, Row>();
  const keyOf = new Map(series.map((s) => [s.subject, s.key]));
  for (const d of daily) {
    const key = keyOf.get(d.subject);
    if (!key) continue;
    const row = byDate.get(d.date) ?? { date: d.date };
    row[key] = d.profit;
    row[`${key}_hours`] = d.paused_hours;
    byDate.set(d.date, row);
  }
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
}

const PauseMark = ({ cx = 0, cy = 0 }: { cx?: number; cy?: number }) => (
  <g>
    <rect x={cx - 6} y={cy - 6} width={12} height={12} rx={2} fill={PAUSE} stroke="#fff" strokeWidth={1.5} />
    <rect x={cx - 3} y={cy - 3.5} width={2} height={7} fill="#fff" />
    <rect x={cx + 1} y={cy - 3.5} width={2} height={7} fill="#fff" />
  </g>
);
const ResumeMark = ({ cx = 0, cy = 0 }: { cx?: number; cy?: number }) => (
  <path d={`M${cx - 5} ${cy - 7} L${cx + 7} ${cy} L${cx - 5} ${cy + 7} Z`} fill={RESUME} stroke="#fff" strokeWidth={1.5} />
);

function DayTooltip({ active, payload, label, series, currency }: TooltipProps<number, string> & { series: readonly Series[]; currency: string }) {
  if (!active || !payload?.length) return null;
  const row = payload[0]?.payload as Row | undefined;
  return (
    <div className="max-w-xs rounded-md border border-gray-200 bg-white px-3 py-2 text-xs shadow-md">
      <div className="mb-1 font-semibold text-gray-900">{formatDateDMY(String(label))}</div>
      {series.map((s) => {
        const hours = Number(row?.[`${s.key}_hours`] ?? 0);
        return (
          <div key={s.key} className="flex items-start justify-between gap-3">
            <span className="flex min-w-0 items-center gap-1.5 break-all text-gray-600">
              <span className="h-2 w-2 flex-none rounded-full" style={{ background: s.color }} aria-hidden />
              {s.label}
            </span>
            <span className="whitespace-nowrap font-medium tabular-nums text-gray-900">
              {formatMoney(row?.[s.key] as number | null, currency)}
              {hours > 0 ? ` · en pausa ${formatInt(hours)} h` : ''}
            </span>
          </div>
        );
      })}
    </div>
  );
}

export function BacktestChart({ backtest: b, tz }: { backtest: Pick<AlertBacktest, 'daily' | 'actions' | 'currency'>; tz: string }) {
  const series = useMemo(() => chartSubjects(b), [b]);
  const data = useMemo(() => rowsOf(b.daily, series), [b.daily, series]);
  const all = new Set(b.daily.map((d) => d.subject)).size;
  // Each pause and resume on its campaign's line, on its day in the reporting zone.
  const marks = useMemo(() => {
    const profit = new Map(data.map((r) => [r.date, r]));
    return b.actions.flatMap((a, i) => {
      const s = series.find((x) => x.subject === a.subject);
      if (!s || a.action === 'alert') return [];
      const day = todayIn(tz, new Date(a.at));
      if (!profit.has(day)) return [];
      const y = profit.get(day)?.[s.key];
      return [{ id: `${i}`, day, y: typeof y === 'number' ? y : 0, pause: a.action === 'pause' }];
    });
  }, [b.actions, data, series, tz]);
  const pauses = marks.filter((m) => m.pause).length;
  const resumes = marks.length - pauses;
  return (
    <figure data-testid="backtest-chart" data-pauses={pauses} data-resumes={resumes}>
      <figcaption className="mb-2 text-xs text-gray-500">
        Beneficio diario (revenue − gasto, datos de hoy) de{' '}
        {series.length < all ? `${formatInt(series.length)} de ${formatInt(all)}` : formatInt(all)} {all === 1 ? 'campaña' : 'campañas'}, con las
        pausas y reactivaciones que habría hecho la regla: {formatInt(pauses)} pausas y {formatInt(resumes)} reactivaciones marcadas.
      </figcaption>
      <ChartLegend
        className="justify-start"
        items={[
          ...series.map((s) => ({
            name: s.label,
            swatch: <span aria-hidden className="inline-block h-2 w-2 flex-none rounded-full" style={{ background: s.color }} />,
          })),
          {
            name: 'Pausa',
            swatch: (
              <svg aria-hidden width="14" height="14" viewBox="0 0 14 14" className="flex-none">
                <PauseMark cx={7} cy={7} />
              </svg>
            ),
          },
          {
            name: 'Reactivación',
            swatch: (
              <svg aria-hidden width="14" height="14" viewBox="0 0 14 14" className="flex-none">
                <ResumeMark cx={6} cy={7} />
              </svg>
            ),
          },
        ]}
      />
      <div style={{ height: 260 }}>
        <ResponsiveContainer width="100%" height={260}>
          <LineChart data={data} margin={{ top: 10, right: 12, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="#f3f4f6" vertical={false} />
            <XAxis
              dataKey="date"
              tickFormatter={(d: string) => formatDateDMY(d).slice(0, 5)}
              tick={{ fontSize: 12, fill: '#6b7280' }}
              tickLine={false}
              axisLine={{ stroke: '#e5e7eb' }}
              minTickGap={16}
            />
            <YAxis
              tickFormatter={(v: number) => formatMoney(v, b.currency, 0)}
              tick={{ fontSize: 12, fill: '#6b7280' }}
              tickLine={false}
              axisLine={false}
              width={64}
            />
            <ReferenceLine y={0} stroke="#9ca3af" />
            <Tooltip content={<DayTooltip series={series} currency={b.currency} />} />
            {series.map((s) => (
              <Line
                key={s.key}
                type="linear"
                dataKey={s.key}
                name={s.label}
                stroke={s.color}
                strokeWidth={2}
                dot={false}
                activeDot={{ r: 3 }}
                connectNulls={false}
                isAnimationActive={false}
              />
            ))}
            {marks.map((m) => (
              <ReferenceDot
                key={m.id}
                x={m.day}
                y={m.y}
                ifOverflow="extendDomain"
                shape={m.pause ? <PauseMark /> : <ResumeMark />}
                className={m.pause ? 'backtest-pause' : 'backtest-resume'}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
