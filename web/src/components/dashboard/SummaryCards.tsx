// The Dashboard's six summary cards (Revenue, Margin, Impressions, Clicks, CTR%, TQ Avg) — with
// the server's comparison when comparing (the change, the previous figure, and what was
// compared: complete days when the range runs into today) — and six delta cards: yesterday
// against the day before, green ▲ above 0, else red ▼, '-' when absent. Nothing is computed here.
import {
  DASHBOARD_CARDS,
  formatDateDMY,
  formatMetric,
  formatPercent,
  isFiniteNumber,
  metricHelp,
  type DailyDeltas,
  type DashboardComparison,
  type DashboardSummary,
  type DayRange,
} from '@adops/core';
import { networkCurrency } from '../../lib/currency';

const cardClass = 'rounded-lg border border-gray-200 bg-white px-4 py-3 shadow-sm';
const labelClass = 'text-xs font-medium uppercase tracking-wide text-gray-500';

/** The comparison with the previous period as the server answered it (while it loads: undefined). */
export interface CardComparison {
  answer: DashboardComparison | undefined;
  loading: boolean;
}

export function SummaryCards({
  summary,
  loading,
  comparison,
}: {
  summary: DashboardSummary | undefined;
  loading: boolean;
  /** Compare each card with the previous period: the server's change, the previous figure and, on complete days, the figure compared. */
  comparison?: CardComparison;
}) {
  const answer = comparison?.answer;
  const waiting = comparison?.loading ? '…' : '-';
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" data-testid="summary-cards">
      {DASHBOARD_CARDS.map(({ key, header }) => {
        const card = key as keyof DashboardSummary;
        const now = summary?.[card];
        return (
          <div key={key} className={`${cardClass} min-w-0`} data-testid={`card-${key}`} aria-busy={loading}>
            <div className={`${labelClass} cursor-help`} title={metricHelp(key)}>
              {header}
            </div>
            {/* The figure shrinks to fit a narrow card rather than being cut. */}
            <div
              className={`mt-1 text-lg font-semibold leading-tight tabular-nums text-gray-900 [overflow-wrap:anywhere] sm:text-2xl xl:text-xl ${loading ? 'opacity-50' : ''}`}
              data-testid="card-value"
            >
              {summary ? formatMetric(key, now, networkCurrency()) : loading ? '…' : '-'}
            </div>
            {comparison && (
              <div className="mt-1 space-y-0.5 text-xs text-gray-500" data-testid="card-previous">
                <div className="font-medium" data-testid="card-change" title={answer?.note}>
                  {answer ? <DeltaValue value={answer.change[card]} /> : waiting}
                  {answer && <span className="font-normal text-gray-500"> ({answer.label})</span>}
                </div>
                {answer?.basis === 'complete_days' && (
                  <div className="break-words tabular-nums">
                    Sin hoy: <span data-testid="card-compared-value">{formatMetric(key, answer.current?.summary[card], networkCurrency())}</span>
                  </div>
                )}
                <div className="break-words tabular-nums">
                  Anterior:{' '}
                  <span data-testid="card-previous-value">
                    {answer ? formatMetric(key, answer.previous?.summary[card], networkCurrency()) : waiting}
                  </span>
                </div>
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}

/** 'del 01/03/2026 al 07/03/2026' (one day: 'del 01/03/2026'). */
export function rangeText(range: DayRange): string {
  return range.from === range.to ? `del ${formatDateDMY(range.from)}` : `del ${formatDateDMY(range.from)} al ${formatDateDMY(range.to)}`;
}

/** One delta: the absolute percentage, ▲ green when above 0, ▼ red otherwise, '-' when null. */
export function DeltaValue({ value }: { value: number | null | undefined }) {
  if (!isFiniteNumber(value)) return <span className="text-gray-500">-</span>;
  const up = value > 0;
  return (
    <span className={`inline-flex items-center gap-1 ${up ? 'text-green-700' : 'text-red-600'}`} data-trend={up ? 'up' : 'down'}>
      <span aria-hidden>{up ? '▲' : '▼'}</span>
      <span className="sr-only">{up ? 'sube' : 'baja'}</span>
      {formatPercent(Math.abs(value))}
    </span>
  );
}

export function DeltaCards({ deltas, loading }: { deltas: DailyDeltas | undefined; loading: boolean }) {
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" data-testid="delta-cards">
      {DASHBOARD_CARDS.map(({ key, header }) => (
        <div key={key} className={cardClass} data-testid={`delta-${key}`} aria-busy={loading}>
          <div className={`${labelClass} cursor-help`} title={metricHelp(key)}>
            {header}
          </div>
          <div className={`mt-1 text-lg font-semibold tabular-nums ${loading ? 'opacity-50' : ''}`}>
            {deltas ? <DeltaValue value={deltas[key as keyof DailyDeltas]} /> : loading ? '…' : '-'}
          </div>
          <div className="text-xs text-gray-500">ayer vs. día anterior (días completos)</div>
        </div>
      ))}
    </div>
  );
}
