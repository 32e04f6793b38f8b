// The referrers' visits against the previous period, as the server compared them (like with
// like: a period still running up to the same time of day, 'hasta las 03:00 frente a ayer a la
// misma hora'). The screen only prints the server's figures and words.
import { formatInt, type ReferrerFilter, type VisitsComparison } from '@adops/core';
import { useApi } from '../../hooks/useApi';
import { useAsync } from '../../hooks/useAsync';
import { DeltaValue } from '../dashboard/SummaryCards';

export function VisitsLine({ query }: { query: ReferrerFilter }) {
  const api = useApi();
  const answer = useAsync<VisitsComparison>((signal) => api.referrers.comparison(query, { signal }), [api, JSON.stringify(query)]);
  const c = answer.data;
  if (answer.error) return <p className="text-xs text-red-600">Error al cargar la comparación de visitas</p>;
  if (!c) return <p className="text-xs text-gray-500">Comparando visitas…</p>;
  return (
    <p className="text-sm text-gray-600" data-testid="visits-comparison" title={c.note} aria-busy={answer.loading}>
      {c.current && c.previous ? (
        <>
          <span className="font-medium text-gray-900 tabular-nums">{formatInt(c.current.hits)} visitas</span> <DeltaValue value={c.change_percent} />{' '}
          <span className="text-gray-500">{c.label}</span> <span className="text-gray-500 tabular-nums">(antes {formatInt(c.previous.hits)})</span>
        </>
      ) : (
        <span className="text-gray-500">Visitas: {c.note}</span>
      )}
    </p>
  );
}
