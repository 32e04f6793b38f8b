// The Dashboard's six summary cards (Revenue, Margin, Impressions, Clicks, CTR%, TQ Avg)
// and six delta cards: yesterday against the day before, green ▲ above 0, else red ▼, '-' when absent.
import { DASHBOARD_CARDS, formatMetric, formatPercent, isFiniteNumber, type DailyDeltas, type DashboardSummary } from '@adops/core';

const cardClass = 'rounded-lg border border-gray-200 bg-white px-4 py-3 shadow-sm';
const labelClass = 'text-xs font-medium uppercase tracking-wide text-gray-500';

export function SummaryCards({ summary, loading }: { summary: DashboardSummary | undefined; loading: boolean }) {
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" data-testid="summary-cards">
      {DASHBOARD_CARDS.map(({ key, header }) => (
        <div key={key} className={cardClass} data-testid={`card-${key}`} aria-busy={loading}>
          <div className={labelClass}>{header}</div>
          <div className={`mt-1 truncate text-2xl font-semibold tabular-nums text-gray-900 ${loading ? 'opacity-50' : ''}`}>
            {summary ? formatMetric(key, summary[key as keyof DashboardSummary]) : loading ? '…' : '-'}
          </div>
        </div>
      ))}
    </div>
  );
}

/** One delta: the absolute percentage, ▲ green when above 0, ▼ red otherwise, '-' when null. */
export function DeltaValue({ value }: { value: number | null | undefined }) {
  if (!isFiniteNumber(value)) return <span className="text-gray-400">-</span>;
  const up = value > 0;
  return (
    <span className={`inline-flex items-center gap-1 ${up ? 'text-green-600' : 'text-red-600'}`} data-trend={up ? 'up' : 'down'}>
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
          <div className={labelClass}>{header}</div>
          <div className={`mt-1 text-lg font-semibold tabular-nums ${loading ? 'opacity-50' : ''}`}>
            {deltas ? <DeltaValue value={deltas[key as keyof DailyDeltas]} /> : loading ? '…' : '-'}
          </div>
          <div className="text-xs text-gray-400">ayer vs. día anterior</div>
        </div>
      ))}
    </div>
  );
}
