// Api Explorer (SPEC §2, §5, §9): zone rows of the ad report filtered by zone, advertiser,
// publisher and dates, four revenue cards, a table paged by the server with 'Totales' over
// every matching row, and ad_report.csv (every matching row, from the server). Opens on today.
import { useEffect, useMemo, useState } from 'react';
import { CSV_FILE_NAMES, contract, formatDateDMY, formatInt, isValidYmd, todayIn, type ZoneRow } from '@adops/core';
import { useApi } from '../hooks/useApi';
import { useAsync } from '../hooks/useAsync';
import { useRawOptions } from '../hooks/useReports';
import { shownPage, useServerTable } from '../hooks/useServerTable';
import { Card } from '../components/Card';
import { DataTable } from '../components/DataTable';
import { ErrorBanner } from '../components/ErrorBanner';
import { ExportButton } from '../components/ExportButton';
import { Loading } from '../components/Loading';
import { PageSizeSelect } from '../components/PageSizeSelect';
import { Pagination } from '../components/Pagination';
import { secondaryButton } from '../components/styles';
import { ALL, ExplorerFilters, type ExplorerDraft } from '../components/explorer/ExplorerFilters';
import { RevenueCards } from '../components/explorer/RevenueCards';
import { MarkIcon } from '../components/icons';
import { explorerColumns } from '../components/explorer/explorerTable';
import { reportingTimeZone } from '../lib/timezone';
import { useUrlParams, useUrlTableView, useUrlValue } from '../hooks/useUrlState';
import { clearPages, readChoice, readDay, readText, setParam } from '../lib/urlState';
import { DATE_RANGE_INCOMPLETE, DATE_RANGE_REVERSED } from '../lib/voice';

/** Rows per page of the table (the spec's table had no paging; the shared default of reports). */
const EXPLORER_PAGE_SIZE = 25;
const EMPTY = 'No hay datos para este rango de fechas.';

const TABLE_VIEW = { pageSize: EXPLORER_PAGE_SIZE };

/** The search applied, from the URL (zone_id, advertiser, publisher, from, to); the default is today. */
export function readExplorerSearch(params: URLSearchParams, today: string): ExplorerDraft {
  return {
    zone_id: readText(params, 'zone_id').trim(),
    advertiser: readChoice(params, 'advertiser', ALL),
    publisher: readChoice(params, 'publisher', ALL),
    from: readDay(params, 'from') ?? today,
    to: readDay(params, 'to') ?? today,
  };
}

export function writeExplorerSearch(params: URLSearchParams, f: ExplorerDraft, today: string): void {
  setParam(params, 'zone_id', f.zone_id.trim());
  setParam(params, 'advertiser', f.advertiser, ALL);
  setParam(params, 'publisher', f.publisher, ALL);
  setParam(params, 'from', f.from, today);
  setParam(params, 'to', f.to, today);
  clearPages(params);
}

/** What keeps a search's dates from being asked for, or null. */
export function explorerRangeProblem({ from, to }: Pick<ExplorerDraft, 'from' | 'to'>): string | null {
  if (!isValidYmd(from) || !isValidYmd(to)) return DATE_RANGE_INCOMPLETE;
  return from > to ? DATE_RANGE_REVERSED : null;
}

/** The report query of a search: 'Todos' and blank filters are left out. */
function queryOf(f: ExplorerDraft) {
  const zone = f.zone_id.trim();
  return {
    start_date: f.from,
    end_date: f.to,
    zone_id: zone || undefined,
    advertiser: f.advertiser === ALL ? undefined : f.advertiser,
    publisher: f.publisher === ALL ? undefined : f.publisher,
  };
}

export default function ApiExplorer() {
  const api = useApi();
  const today = useMemo(() => todayIn(reportingTimeZone()), []);

  const url = useUrlParams();
  /** The search applied lives in the URL; Buscar again with the same filters reloads them (searches). */
  const [filters, setFilters] = useUrlValue(
    url,
    (p) => readExplorerSearch(p, today),
    (p, f) => writeExplorerSearch(p, f, today),
  );
  const [searches, setSearches] = useState(0);
  const [draft, setDraft] = useState<ExplorerDraft>(filters);
  /** A search refused for its dates: said where the results were (old results never stay under new dates) until the dates change. */
  const [refused, setRefused] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dates changed, so the refusal no longer applies
  useEffect(() => setRefused(null), [draft.from, draft.to]);
  // A search from elsewhere (Back, a link) is shown in the form.
  const filtersKey = JSON.stringify(filters);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search by content, not a new object for the same one
  useEffect(() => setDraft(filters), [filtersKey]);
  const query = useMemo(() => queryOf(filters), [filters]);
  const tableView = useUrlTableView(url, '', TABLE_VIEW);

  const options = useRawOptions();
  const report = useServerTable(query, (q, signal) => api.adReport.explorer(q, { signal }), {
    pageSize: EXPLORER_PAGE_SIZE,
    version: searches,
    store: tableView,
  });
  const cards = useAsync((signal) => api.adReport.revenueCards(query, { signal }), [api, query, searches]);

  function search() {
    const problem = explorerRangeProblem(draft);
    setRefused(problem);
    if (problem) return;
    setFilters({ ...draft });
    url.update(clearPages);
    setSearches((n) => n + 1);
  }

  const page = shownPage(report);
  const rows: readonly ZoneRow[] = page?.rows ?? [];
  const columns = explorerColumns(page?.totals);
  const firstLoad = report.loading && !report.fresh;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold text-gray-900">Api Explorer</h1>
        <p className="text-sm text-gray-500">Ad report por zona, advertiser y publisher</p>
      </div>

      <Card>
        <ExplorerFilters
          draft={draft}
          onChange={setDraft}
          onSearch={search}
          publishers={options.data?.publishers ?? []}
          loading={report.loading}
          download={
            <ExportButton
              label="Descargar CSV"
              file={CSV_FILE_NAMES.apiExplorer}
              className={`${secondaryButton} py-2`}
              disabled={report.loading || !page || page.total_rows === 0}
              open={(signal, csv) => api.open(contract.adReport.explorer, { ...query, format: 'csv', csv }, { signal })}
            />
          }
        />
        {options.error != null && (
          <div className="mt-3">
            <ErrorBanner error={options.error} fallback="Error al cargar los publishers" />
          </div>
        )}
      </Card>

      {!refused && <RevenueCards cards={cards.data} loading={cards.loading} error={cards.error} />}

      <Card
        title={
          <span>
            Resultados{' '}
            <span className="font-normal text-gray-500" hidden={refused !== null}>
              {formatDateDMY(filters.from)} – {formatDateDMY(filters.to)}
              {page && !firstLoad && !report.error && ` · ${formatInt(page.total_rows)} filas`}
            </span>
          </span>
        }
        actions={<PageSizeSelect value={report.view.pageSize} onChange={report.setPageSize} />}
      >
        {refused ? (
          <p role="alert" className="flex items-center gap-2 py-6 text-sm text-red-700">
            <MarkIcon mark="error" /> {refused}
          </p>
        ) : report.error ? (
          <ErrorBanner error={report.error} fallback="Error al cargar el ad report" />
        ) : firstLoad ? (
          <Loading label="Cargando ad report…" />
        ) : (
          <div className="space-y-4">
            {/* 15 columns: tighter cell padding so the whole row fits a laptop screen. */}
            <div className="[&_table]:text-[13px] [&_td]:px-2 [&_th]:px-2">
              <DataTable
                caption="Ad report por zona"
                columns={columns}
                rows={rows}
                rowKey={(r) => `${r.date}|${r.advertiser}|${r.publisher}|${r.zone_id}|${r.geo}|${r.source}`}
                totals
                emptyText={EMPTY}
                busy={report.loading}
              />
            </div>
            {rows.length > 0 && (
              <div className="flex justify-end">
                <Pagination page={page?.page ?? 1} pageCount={page?.page_count ?? 1} onPage={report.setPage} />
              </div>
            )}
          </div>
        )}
      </Card>
    </div>
  );
}
