// Referrers report (SPEC §2): the distinct referrers seen in the applied filter's range,
// 20 per page, with a CSV download of every row when there are any.
import { useMemo } from 'react';
import { formatDateTime, type ReferrerRow } from '@adops/core';
import { useApi } from '../hooks/useApi';
import { useAsync } from '../hooks/useAsync';
import { useTable } from '../hooks/useTable';
import { Card } from '../components/Card';
import { DataTable, type Column } from '../components/DataTable';
import { ErrorBanner } from '../components/ErrorBanner';
import { Loading } from '../components/Loading';
import { Pagination } from '../components/Pagination';
import { downloadCsv } from '../lib/download';
import { errorText } from '../lib/errors';
import { ReferrerFilterBar } from '../components/referrers/ReferrerFilterBar';
import { useReferrerFilters } from '../components/referrers/useReferrerFilters';
import { referrersCsv, referrersCsvName } from '../components/referrers/csv';
import { CsvButton, ReferrerCell, dashed } from '../components/referrers/cells';

const REFERRERS_PAGE_SIZE = 20;
const NO_ROWS: ReferrerRow[] = [];

export default function Referrers() {
  const api = useApi();
  const filters = useReferrerFilters();
  const { tz, query, applied } = filters;

  const report = useAsync(
    (signal) =>
      api.referrers.report(query, { signal }).catch((e: unknown) => {
        if (!signal.aborted) console.error('Error al cargar datos de referrers', e);
        throw e;
      }),
    [api, query],
  );
  const rows = report.error ? NO_ROWS : (report.data ?? NO_ROWS);
  const table = useTable(rows, { pageSize: REFERRERS_PAGE_SIZE });

  const columns = useMemo<Column<ReferrerRow>[]>(
    () => [
      { key: 'date', header: 'Date', cell: (r) => <span className="tabular-nums">{formatDateTime(r.seen_at, tz)}</span> },
      { key: 'zone_id', header: 'Zone ID', cell: (r) => dashed(r.zone_id) },
      { key: 'source', header: 'Source', cell: (r) => dashed(r.parent_domain) },
      { key: 'referrer', header: 'Referrer', cell: (r) => <ReferrerCell url={r.referrer} /> },
    ],
    [tz],
  );

  const download = () => {
    if (rows.length === 0) return;
    downloadCsv(referrersCsvName(applied.from, applied.to), referrersCsv(rows, tz));
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold text-gray-900">Referrers</h1>
        {rows.length > 0 && <CsvButton onClick={download} />}
      </div>

      <ReferrerFilterBar
        applied={applied}
        onApply={filters.apply}
        onReset={filters.reset}
        options={filters.options.data}
        optionsLoading={filters.options.loading}
        optionsError={filters.options.error}
        tz={tz}
      />

      {report.error ? <ErrorBanner error={`Error al cargar datos de referrers: ${errorText(report.error, 'error desconocido')}`} /> : null}

      <Card
        title="Resultados"
        actions={
          <span className="text-sm text-gray-500" data-testid="referrers-count">
            {report.loading ? 'Cargando…' : `${rows.length.toLocaleString('es-ES')} ${rows.length === 1 ? 'referrer' : 'referrers'}`}
          </span>
        }
      >
        {report.loading && report.data === undefined ? (
          <Loading label="Cargando referrers…" />
        ) : (
          <div className={report.loading ? 'opacity-60 transition-opacity' : ''} aria-busy={report.loading || undefined}>
            <DataTable
              columns={columns}
              rows={table.pageRows}
              rowKey={(r) => `${r.zone_id}\u0000${r.parent_domain ?? ''}\u0000${r.referrer ?? ''}`}
              emptyText={report.error ? 'No se pudieron cargar los referrers' : 'No hay resultados'}
              caption="Referrers"
            />
          </div>
        )}
        <div className="mt-4 flex justify-end">
          <Pagination page={table.page} pageCount={table.pageCount} onPage={table.setPage} />
        </div>
      </Card>
    </div>
  );
}
