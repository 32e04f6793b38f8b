// The Api Explorer's four revenue cards: Ayer, Hoy and Mes from the global month-to-date
// report, Filtro from the current search. Each card shows its own loading or error state.
import { formatMoney } from '@adops/core';
import { errorText } from '../../lib/errors';

export interface RevenueFigure {
  value: number | null | undefined;
  loading: boolean;
  error: unknown;
}

export interface RevenueCardsProps {
  yesterday: RevenueFigure;
  today: RevenueFigure;
  month: RevenueFigure;
  filter: RevenueFigure;
}

function RevenueCard({ label, figure, hint }: { label: string; figure: RevenueFigure; hint: string }) {
  const failed = figure.error != null && figure.error !== false;
  return (
    <section
      aria-label={label}
      className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm"
      aria-busy={figure.loading}
    >
      <h3 className="text-sm font-medium text-gray-500">{label}</h3>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-gray-900" data-testid="revenue-value">
        {figure.loading ? <span className="text-gray-300">…</span> : failed ? '-' : formatMoney(figure.value ?? null, '$')}
      </p>
      <p className={`mt-1 text-xs ${failed ? 'text-red-600' : 'text-gray-400'}`}>
        {failed ? errorText(figure.error, 'Error al cargar') : hint}
      </p>
    </section>
  );
}

export function RevenueCards({ yesterday, today, month, filter }: RevenueCardsProps) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <RevenueCard label="Revenue Ayer" figure={yesterday} hint="Todo el tráfico, ayer" />
      <RevenueCard label="Revenue Hoy" figure={today} hint="Todo el tráfico, hoy" />
      <RevenueCard label="Revenue Mes" figure={month} hint="Todo el tráfico, mes en curso" />
      <RevenueCard label="Revenue Filtro" figure={filter} hint="Filtros de la búsqueda" />
    </div>
  );
}
