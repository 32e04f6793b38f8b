// The IVT table of the Referrers screen: for the applied filters' range, every hit and the hits
// flagged as bots or spam per zone or per publisher, and their share (the IVT rate, computed
// by the server from core's one definition), sortable and paged by the server.
import { useId, useMemo, useState } from 'react';
import { IVT_RATE, REFERRERS_PAGE_SIZE, formatInt, formatIvtRate, type IvtRow, type ReferrerFilter } from '@adops/core';
import { useApi } from '../../hooks/useApi';
import { shownPage, useServerTable } from '../../hooks/useServerTable';
import { Card } from '../Card';
import { DataTable, type Column } from '../DataTable';
import { ErrorBanner } from '../ErrorBanner';
import { Pagination } from '../Pagination';
import { inputClass } from '../styles';
import { errorText } from '../../lib/errors';
import { dashed } from './cells';

type By = 'zone' | 'publisher';

export function IvtCard({ query }: { query: ReferrerFilter }) {
  const api = useApi();
  const byId = useId();
  const [by, setBy] = useState<By>('zone');
  // The table counts flagged and human traffic alike: 'Incluir bots' does not change it.
  const filters = useMemo(() => ({ ...query, include_bots: undefined, by }), [query, by]);
  const table = useServerTable(filters, (q, signal) => api.referrers.ivt(q, { signal }), { pageSize: REFERRERS_PAGE_SIZE });
  const page = table.error ? undefined : shownPage(table);
  const totals = page?.totals;

  const columns = useMemo<Column<IvtRow>[]>(
    () => [
      ...(by === 'zone' ? [{ key: 'zone_id', header: 'Zone ID', sortable: true, cell: (r: IvtRow) => dashed(r.zone_id), total: 'Totales' }] : []),
      { key: 'publisher', header: 'Publisher', sortable: true, cell: (r) => dashed(r.publisher), total: by === 'publisher' ? 'Totales' : undefined },
      {
        key: 'hits',
        header: 'Visitas',
        align: 'right',
        sortable: true,
        cell: (r) => formatInt(r.hits),
        total: totals ? formatInt(totals.hits) : undefined,
      },
      {
        key: 'bot_hits',
        header: 'Bots y spam',
        align: 'right',
        sortable: true,
        cell: (r) => formatInt(r.bot_hits),
        total: totals ? formatInt(totals.bot_hits) : undefined,
      },
      {
        key: 'ivt_rate',
        header: IVT_RATE.label,
        help: `${IVT_RATE.name}: ${IVT_RATE.definition}`,
        align: 'right',
        sortable: true,
        cell: (r) => <span className="tabular-nums">{formatIvtRate(r.ivt_rate)}</span>,
        total: totals ? formatIvtRate(totals.ivt_rate) : undefined,
      },
    ],
    [by, totals],
  );

  return (
    <Card
      title={IVT_RATE.name}
      actions={
        <label htmlFor={byId} className="flex items-center gap-2 whitespace-nowrap text-sm text-gray-600">
          Agrupar por
          <select id={byId} value={by} onChange={(e) => setBy(e.target.value as By)} className={inputClass}>
            <option value="zone">Zona</option>
            <option value="publisher">Publisher</option>
          </select>
        </label>
      }
    >
      {table.error ? <ErrorBanner error={`Error al cargar el tráfico inválido: ${errorText(table.error, 'error desconocido')}`} /> : null}
      <div data-testid="ivt-table">
        <DataTable
          busy={table.loading}
          columns={columns}
          rows={page?.rows ?? []}
          sort={table.view.sort}
          onSort={table.sortBy}
          rowKey={(r) => `${r.zone_id ?? ''}\u0000${r.publisher ?? ''}`}
          emptyText={table.error ? 'No se pudo cargar el tráfico inválido' : 'No hay resultados'}
          caption={IVT_RATE.name}
        />
      </div>
      <div className="mt-4 flex justify-end">
        <Pagination page={page?.page ?? 1} pageCount={page?.page_count ?? 1} onPage={table.setPage} />
      </div>
    </Card>
  );
}
