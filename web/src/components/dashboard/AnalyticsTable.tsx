// The Dashboard's 'Analytics' table: a row per day, sortable headers (same header toggles,
// a new one starts ascending), 'Mostrar' 10/25/50/100, 'Página X de Y', 'Descargar CSV'
// (resumen_diario.csv) and a 'Totales' footer; revenue, cost and margin coloured by rank.
import { useMemo } from 'react';
import {
  CSV_FILE_NAMES,
  DASHBOARD_COLUMNS,
  DASHBOARD_SORT_KEYS,
  DEFAULT_PAGE_SIZE,
  METRICS,
  formatMetric,
  minMax,
  rankColor,
  roundMetric,
  toCsv,
  totals,
  type DailyRow,
  type MetricKey,
  type RankLevel,
} from '@adops/core';
import { DataTable, type Column } from '../DataTable';
import { PageSizeSelect } from '../PageSizeSelect';
import { Pagination } from '../Pagination';
import { secondaryButton } from '../styles';
import { useTable } from '../../hooks/useTable';
import { downloadCsv } from '../../lib/download';

/** Rank level (5 best … 0 worst) → cell colours on a green/red scale. */
export const RANK_CLASSES: Record<RankLevel, string> = {
  5: 'bg-green-200 text-green-900',
  4: 'bg-green-100 text-green-900',
  3: 'bg-green-50 text-green-800',
  2: 'bg-red-50 text-red-800',
  1: 'bg-red-100 text-red-900',
  0: 'bg-red-200 text-red-900',
};

const RANKED: readonly MetricKey[] = ['revenue', 'cost', 'margin'];

/** A daily row as resumen_diario.csv writes it: numbers rounded to their shown decimals. */
function csvRow(row: DailyRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key } of DASHBOARD_COLUMNS)
    out[key] = METRICS[key].kind === 'text' ? row[key as keyof DailyRow] : roundMetric(key, row[key as keyof DailyRow]);
  return out;
}

export function AnalyticsTable({ rows, totalTq }: { rows: readonly DailyRow[]; totalTq?: number | null }) {
  const table = useTable(rows, { pageSize: DEFAULT_PAGE_SIZE.dashboard });

  const ranges = useMemo(() => Object.fromEntries(RANKED.map((k) => [k, minMax(rows, k as keyof DailyRow)])), [rows]);
  const sums = useMemo(() => {
    const t = totals(rows, { ctrBasis: 'impressions' });
    return { ...t, tq: totalTq === undefined ? t.tq : totalTq } as Record<string, unknown>;
  }, [rows, totalTq]);

  const columns: Column<DailyRow>[] = DASHBOARD_COLUMNS.map(({ key, header }) => ({
    key,
    header,
    align: key === 'date' ? 'left' : 'right',
    sortable: DASHBOARD_SORT_KEYS.includes(key),
    cell: (r) => formatMetric(key, r[key as keyof DailyRow]),
    total: key === 'date' ? undefined : formatMetric(key, sums[key]),
    cellClassName: RANKED.includes(key)
      ? (r) => {
          const range = ranges[key];
          const level = range ? rankColor(r[key as keyof DailyRow], range.min, range.max) : null;
          return `tabular-nums ${level === null ? '' : RANK_CLASSES[level]}`;
        }
      : () => 'tabular-nums',
  }));

  const download = () => {
    if (table.sorted.length === 0) return;
    downloadCsv(CSV_FILE_NAMES.dashboard, toCsv(DASHBOARD_COLUMNS, table.sorted.map(csvRow), { bom: true }));
  };

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <PageSizeSelect value={table.pageSize} onChange={table.setPageSize} />
        <button type="button" className={secondaryButton} onClick={download} disabled={rows.length === 0}>
          Descargar CSV
        </button>
      </div>
      <DataTable
        columns={columns}
        rows={table.pageRows}
        rowKey={(r) => r.date}
        sort={table.sort}
        onSort={(k) => table.toggleSort(k as keyof DailyRow & string)}
        totals
        emptyText="No hay datos para este rango de fechas."
        caption="Analytics"
      />
      <div className="flex justify-end">
        <Pagination page={table.page} pageCount={table.pageCount} onPage={table.setPage} />
      </div>
    </div>
  );
}
