// The Api Explorer's four revenue cards, as the server computes them in one answer: Ayer, Hoy
// and Mes over all traffic, Filtro over the search's range under its filters. While loading
// each card shows '…'; a failed load shows '-' and the error under every card.
import { formatMoney, type RevenueCards as RevenueCardsAnswer } from '@adops/core';
import { errorText } from '../../lib/errors';
import { networkCurrency } from '../../lib/currency';

export interface RevenueCardsProps {
  cards: RevenueCardsAnswer | undefined;
  loading: boolean;
  error: unknown;
}

function RevenueCard({
  label,
  value,
  hint,
  loading,
  error,
}: {
  label: string;
  value: number | undefined;
  hint: string;
  loading: boolean;
  error: unknown;
}) {
  const failed = error != null && error !== false;
  return (
    <section aria-label={label} className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm" aria-busy={loading}>
      <h3 className="text-sm font-medium text-gray-500">{label}</h3>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-gray-900" data-testid="revenue-value">
        {loading ? <span className="text-gray-300">…</span> : failed ? '-' : formatMoney(value ?? null, networkCurrency())}
      </p>
      <p className={`mt-1 text-xs ${failed ? 'text-red-600' : 'text-gray-500'}`}>{failed ? errorText(error, 'Error al cargar') : hint}</p>
    </section>
  );
}

export function RevenueCards({ cards, loading, error }: RevenueCardsProps) {
  const common = { loading, error };
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <RevenueCard label="Revenue Ayer" value={cards?.yesterday} hint="Todo el tráfico, ayer" {...common} />
      <RevenueCard label="Revenue Hoy" value={cards?.today} hint="Todo el tráfico, hoy hasta ahora (parcial)" {...common} />
      <RevenueCard label="Revenue Mes" value={cards?.month} hint="Todo el tráfico, mes en curso" {...common} />
      <RevenueCard label="Revenue Filtro" value={cards?.filter} hint="Filtros de la búsqueda" {...common} />
    </div>
  );
}
