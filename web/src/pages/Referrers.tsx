// Referrers report (SPEC §2): the distinct referrers seen in the applied filter's range, 20
// per page as the server pages them, with a CSV download of every matching row (the server's
// export) when there are any; 'Incluir bots' adds the traffic flagged as bots or spam, and the
// IVT table below gives each zone's or publisher's share of it — with, for admins, the
// referrer-spam list that decides which referrers count as spam.
import { useMemo, useState } from 'react';
import { formatInt, REFERRERS_PAGE_SIZE, contract, formatDateTimeDMY, referrersCsvName, type ReferrerRow } from '@adops/core';
import { useApi } from '../hooks/useApi';
import { shownPage, useServerTable } from '../hooks/useServerTable';
import { useUrlTableView } from '../hooks/useUrlState';
import { Card } from '../components/Card';
import { DataTable, type Column } from '../components/DataTable';
import { ErrorBanner } from '../components/ErrorBanner';
import { Loading } from '../components/Loading';
import { Pagination } from '../components/Pagination';
import { errorText } from '../lib/errors';
import { ReferrerFilterBar } from '../components/referrers/ReferrerFilterBar';
import { useReferrerFilters } from '../components/referrers/useReferrerFilters';
import { CsvButton, ReferrerCell, dashed } from '../components/referrers/cells';
import { IvtCard } from '../components/referrers/IvtCard';
import { SpamListCard } from '../components/referrers/SpamListCard';
import { VisitsLine } from '../components/referrers/VisitsLine';
import { ZoneNote } from '../components/ZoneNote';
import { useSession } from '../hooks/useSession';
import { secondaryButton } from '../components/styles';

const TABLE_VIEW = { pageSize: REFERRERS_PAGE_SIZE, pageSizes: [REFERRERS_PAGE_SIZE] };

export default function Referrers() {
  const api = useApi();
  const filters = useReferrerFilters();
  const { tz, query, applied } = filters;
  const view = useUrlTableView(filters.url, '', TABLE_VIEW);
  const [showIvt, setShowIvt] = useState(false);
  const isAdmin = useSession().user?.is_admin === true;

  const report = useServerTable(
    query,
    (q, signal) =>
      api.referrers.report(q, { signal }).catch((e: unknown) => {
        if (!signal.aborted) console.error('Error al cargar datos de referrers', e);
        throw e;
      }),
    { pageSize: REFERRERS_PAGE_SIZE, store: view },
  );
  const page = report.error ? undefined : shownPage(report);
  const rows = page?.rows ?? [];
  const total = page?.total_rows ?? 0;

  const columns = useMemo<Column<ReferrerRow>[]>(
    () => [
      { key: 'date', header: 'Date', cell: (r) => <span className="tabular-nums">{formatDateTimeDMY(r.seen_at, tz)}</span> },
      { key: 'zone_id', header: 'Zone ID', cell: (r) => dashed(r.zone_id) },
      { key: 'source', header: 'Source', cell: (r) => dashed(r.parent_domain) },
      { key: 'referrer', header: 'Referrer', cell: (r) => <ReferrerCell url={r.referrer} /> },
    ],
    [tz],
  );

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold text-gray-900">Referrers</h1>
        {total > 0 && report.fresh && (
          <CsvButton
            file={referrersCsvName(applied.from, applied.to)}
            open={(signal, csv) => api.open(contract.referrers.report, { ...query, format: 'csv', csv }, { signal })}
          />
        )}
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
          <>
            <ZoneNote />
            <span className="text-sm text-gray-500" data-testid="referrers-count">
              {report.loading && !report.fresh ? 'Cargando…' : `${formatInt(total)} ${total === 1 ? 'referrer' : 'referrers'}`}
            </span>
          </>
        }
      >
        <div className="mb-3">
          <VisitsLine query={query} />
        </div>
        {report.loading && report.data === undefined ? (
          <Loading label="Cargando referrers…" />
        ) : (
          <div>
            <DataTable
              busy={report.loading}
              columns={columns}
              rows={rows}
              rowKey={(r) => `${r.zone_id}\u0000${r.parent_domain ?? ''}\u0000${r.referrer ?? ''}`}
              emptyText={report.error ? 'No se pudieron cargar los referrers' : 'No hay resultados'}
              caption="Referrers"
            />
          </div>
        )}
        <div className="mt-4 flex justify-end">
          <Pagination page={page?.page ?? 1} pageCount={page?.page_count ?? 1} onPage={report.setPage} />
        </div>
      </Card>

      <div>
        <button type="button" className={secondaryButton} aria-expanded={showIvt} onClick={() => setShowIvt((v) => !v)}>
          {showIvt
            ? `Ocultar tráfico inválido (IVT)${isAdmin ? ' y lista de spam' : ''}`
            : `Ver tráfico inválido (IVT) por zona y publisher${isAdmin ? ' y lista de spam' : ''}`}
        </button>
      </div>
      {showIvt ? <IvtCard query={query} /> : null}
      {showIvt && isAdmin ? <SpamListCard /> : null}
    </div>
  );
}
