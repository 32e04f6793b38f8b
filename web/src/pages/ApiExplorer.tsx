// Api Explorer (SPEC §2, §5, §9): zone rows of the ad report filtered by zone, advertiser,
// publisher and dates, four revenue cards, a paged table with 'Totales' and ad_report.csv.
// Opens on today's report; the cards' Ayer/Hoy/Mes come from one global month-to-date load.
import { useEffect, useMemo, useState } from 'react';
import {
  CSV_FILE_NAMES,
  DEFAULT_ZONE_ROW_LIMIT,
  addDays,
  formatDateDMY,
  formatInt,
  isInRange,
  isValidYmd,
  startOfMonth,
  todayIn,
  totals,
  type DailyRow,
  type ZoneRow,
} from '@adops/core';
import { useApi } from '../hooks/useApi';
import { useAsync } from '../hooks/useAsync';
import { useTable } from '../hooks/useTable';
import { downloadCsv } from '../lib/download';
import { Card } from '../components/Card';
import { DataTable } from '../components/DataTable';
import { ErrorBanner } from '../components/ErrorBanner';
import { Loading } from '../components/Loading';
import { PageSizeSelect } from '../components/PageSizeSelect';
import { Pagination } from '../components/Pagination';
import { ALL, ExplorerFilters, type ExplorerDraft } from '../components/explorer/ExplorerFilters';
import { RevenueCards } from '../components/explorer/RevenueCards';
import { explorerColumns, explorerCsv } from '../components/explorer/explorerTable';
import { reportingTimeZone } from '../lib/timezone';

/** Rows per page of the table (the spec's table had no paging; the shared default of reports). */
const EXPLORER_PAGE_SIZE = 25;
const INVALID_RANGE = '❌ Rango de fechas no válido.';
const EMPTY = 'No hay datos para este rango de fechas.';


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
  const yesterday = addDays(today, -1);
  const monthStart = startOfMonth(today);

  const initial: ExplorerDraft = { zone_id: '', advertiser: ALL, publisher: ALL, from: today, to: today };
  const [draft, setDraft] = useState<ExplorerDraft>(initial);
  const [applied, setApplied] = useState<ExplorerDraft>(initial);

  const report = useAsync((signal) => api.adReport.explorer(queryOf(applied), { signal }), [api, applied]);
  // Revenue Filtro from daily sums of the same filters: exact even when the row list is capped.
  const filtered = useAsync((signal) => api.dashboard.aggregated(queryOf(applied), { signal }), [api, applied]);
  // Loaded once: every day from the month's start (or yesterday, on the 1st) to today, unfiltered.
  const global = useAsync(
    (signal) =>
      api.dashboard.aggregated({ start_date: yesterday < monthStart ? yesterday : monthStart, end_date: today }, { signal }),
    [api],
  );

  // The Publisher list grows with every answer, so choosing one never hides the others.
  const [publishers, setPublishers] = useState<string[]>([]);
  useEffect(() => {
    if (!report.data?.length) return;
    setPublishers((known) => {
      const all = new Set(known);
      for (const row of report.data!) if (row.publisher) all.add(row.publisher);
      return all.size === known.length ? known : [...all].sort((a, b) => a.localeCompare(b, 'es'));
    });
  }, [report.data]);

  const rows: readonly ZoneRow[] = report.data ?? [];
  const table = useTable(rows, { pageSize: EXPLORER_PAGE_SIZE });
  const columns = useMemo(() => explorerColumns(rows), [rows]);

  const revenueOn = (days: readonly DailyRow[] | undefined, from: string, to: string) =>
    days ? totals(days.filter((d) => isInRange(d.date, { from, to }))).revenue : null;
  const globalFigure = (from: string, to: string) => ({
    value: revenueOn(global.data, from, to),
    loading: global.loading,
    error: global.error,
  });

  function search() {
    const { from, to } = draft;
    if (!isValidYmd(from) || !isValidYmd(to) || from > to) {
      window.alert(INVALID_RANGE);
      return;
    }
    setApplied({ ...draft });
  }

  function download() {
    if (rows.length) downloadCsv(CSV_FILE_NAMES.apiExplorer, explorerCsv(table.sorted));
  }

  const capped = rows.length >= DEFAULT_ZONE_ROW_LIMIT;

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
          onDownload={download}
          publishers={publishers}
          loading={report.loading}
          canDownload={!report.loading && rows.length > 0}
        />
      </Card>

      <RevenueCards
        yesterday={globalFigure(yesterday, yesterday)}
        today={globalFigure(today, today)}
        month={globalFigure(monthStart, today)}
        filter={{
          value: filtered.data ? totals(filtered.data).revenue : null,
          loading: filtered.loading,
          error: filtered.error,
        }}
      />

      <Card
        title={
          <span>
            Resultados{' '}
            <span className="font-normal text-gray-500">
              {formatDateDMY(applied.from)} – {formatDateDMY(applied.to)}
              {!report.loading && !report.error && ` · ${formatInt(rows.length)} filas`}
            </span>
          </span>
        }
        actions={<PageSizeSelect value={table.pageSize} onChange={table.setPageSize} />}
      >
        {report.error ? (
          <ErrorBanner error={report.error} fallback="Error al cargar el ad report" />
        ) : report.loading ? (
          <Loading label="Cargando ad report…" />
        ) : (
          <div className="space-y-4">
            {capped && (
              <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-800">
                Se muestran las primeras {formatInt(DEFAULT_ZONE_ROW_LIMIT)} filas (las más recientes); acota el rango o los
                filtros para ver el resto. Los totales de la tabla cubren solo estas filas; Revenue Filtro cubre todas.
              </p>
            )}
            {/* 15 columns: tighter cell padding so the whole row fits a laptop screen. */}
            <div className="[&_table]:text-[13px] [&_td]:px-2 [&_th]:px-2">
            <DataTable
              caption="Ad report por zona"
              columns={columns}
              rows={table.pageRows}
              rowKey={(r) => `${r.date}|${r.advertiser}|${r.publisher}|${r.zone_id}|${r.geo}|${r.source}`}
              totals
              emptyText={EMPTY}
            />
            </div>
            {rows.length > 0 && (
              <div className="flex justify-end">
                <Pagination page={table.page} pageCount={table.pageCount} onPage={table.setPage} />
              </div>
            )}
          </div>
        )}
      </Card>
    </div>
  );
}
