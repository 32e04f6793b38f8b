// The Dashboard's 'Analytics' table as the server pages it: a row per day, sortable headers
// (same header toggles, a new one starts ascending), 'Mostrar' 10/25/50/100, 'Página X de Y',
// 'Descargar CSV' (resumen_diario.csv, every day from the server) and a 'Totales' footer over
// every day; revenue, P.Revenue and margin coloured by the rank the server gives each row, except
// today's partial day (marked '(parcial)': a day still running is not a bad day).
import {
  CSV_FILE_NAMES,
  DASHBOARD_COLUMNS,
  metricHelp,
  DASHBOARD_RANKED,
  DASHBOARD_SORT_KEYS,
  formatMetric,
  type DailyRow,
  type CsvDialect,
  type DailyTable,
  type RankLevel,
} from '@adops/core';
import { DataTable, type Column } from '../DataTable';
import { ExportButton } from '../ExportButton';
import { PageSizeSelect } from '../PageSizeSelect';
import { Pagination } from '../Pagination';
import { shownPage, type ServerTable } from '../../hooks/useServerTable';
import { networkCurrency } from '../../lib/currency';

/** Rank level (5 best … 0 worst) → cell colours on a green/red scale. */
export const RANK_CLASSES: Record<RankLevel, string> = {
  5: 'bg-green-200 text-green-900',
  4: 'bg-green-100 text-green-900',
  3: 'bg-green-50 text-green-800',
  2: 'bg-red-50 text-red-800',
  1: 'bg-red-100 text-red-900',
  0: 'bg-red-200 text-red-900',
};

type Ranked = (typeof DASHBOARD_RANKED)[number];
const isRanked = (key: string): key is Ranked => (DASHBOARD_RANKED as readonly string[]).includes(key);
const sortable = (key: string) => (DASHBOARD_SORT_KEYS as readonly string[]).includes(key);

/** A cell's colour classes from the row's rank level (none when the server could not rank it). */
export function rankClass(row: Pick<DailyRow, 'rank'>, key: Ranked): string {
  const level = row.rank[key];
  return level === null || level === undefined ? '' : RANK_CLASSES[level as RankLevel];
}

export interface AnalyticsTableProps {
  table: ServerTable<object, DailyTable>;
  /** Opens the export of every day (format=csv) in the order shown. */
  openExport: (signal: AbortSignal, csv: CsvDialect) => Promise<Response>;
  /** Today in the reporting zone: its row is a partial day, marked and never rank-coloured. */
  today?: string;
}

export function AnalyticsTable({ table, openExport, today }: AnalyticsTableProps) {
  const page = shownPage(table);
  const totals = page?.totals as Record<string, unknown> | undefined;

  const columns: Column<DailyRow>[] = DASHBOARD_COLUMNS.map(({ key, header }) => ({
    key,
    header,
    help: metricHelp(key),
    align: key === 'date' ? 'left' : 'right',
    sortable: sortable(key),
    cell:
      key === 'date'
        ? (r) => (
            <>
              {formatMetric(key, r.date)}
              {r.date === today && (
                <>
                  {' '}
                  <span className="text-xs font-normal text-amber-700" title="Día en curso: sus cifras aún crecen">
                    (parcial)
                  </span>
                </>
              )}
            </>
          )
        : (r) => formatMetric(key, r[key as keyof DailyRow], networkCurrency()),
    total: key === 'date' || !totals ? undefined : formatMetric(key, totals[key], networkCurrency()),
    cellClassName: isRanked(key) ? (r) => `tabular-nums ${r.date === today ? '' : rankClass(r, key)}` : () => 'tabular-nums',
  }));

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <PageSizeSelect value={table.view.pageSize} onChange={table.setPageSize} />
        <ExportButton
          label="Descargar CSV"
          file={CSV_FILE_NAMES.dashboard}
          open={openExport}
          disabled={!page || !table.fresh || page.total_rows === 0}
        />
      </div>
      <DataTable
        columns={columns}
        rows={page?.rows ?? []}
        rowKey={(r) => r.date}
        sort={page?.sort ?? null}
        onSort={table.sortBy}
        totals={!!totals}
        emptyText="No hay datos para este rango de fechas."
        caption="Analytics"
        busy={table.loading}
      />
      <div className="flex justify-end">
        <Pagination page={page?.page ?? 1} pageCount={page?.page_count ?? 1} onPage={table.setPage} />
      </div>
    </div>
  );
}
