// An Ad Report table over metric columns: sortable headers (asc/desc with an arrow, missing
// values last), a 'Totales' row, 'Mostrar' page sizes, 'Página X de Y' and, when given a file
// name, 'Descargar CSV' of the current page's rows.
import { type ReactNode } from 'react';
import { METRICS, formatInt, formatMetric, roundMetric, toCsv, type MetricColumn, type SortState } from '@adops/core';
import { DataTable, type Column } from '../DataTable';
import { PageSizeSelect } from '../PageSizeSelect';
import { Pagination } from '../Pagination';
import { secondaryButton } from '../styles';
import { useTable } from '../../hooks/useTable';
import { downloadCsv } from '../../lib/download';

type Row = object;

const valueOf = (row: Row, key: string): unknown => (row as Record<string, unknown>)[key];

/** A row as a CSV writes it: text as is, numbers rounded to their shown decimals. */
export function csvRecord(row: Row, columns: readonly MetricColumn[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key } of columns) out[key] = METRICS[key].kind === 'text' ? valueOf(row, key) : roundMetric(key, valueOf(row, key));
  return out;
}

export interface ReportTableProps<T extends Row> {
  rows: readonly T[];
  columns: readonly MetricColumn[];
  /** The 'Totales' row's values by column key (text columns are left blank). */
  totals?: object;
  rowKey: (row: T) => string;
  pageSize: number;
  /** 'Descargar CSV' of the page shown, under this file name. */
  csvFileName?: string;
  emptyText?: string;
  caption: string;
  /** Shown above the table (e.g. a truncation note). */
  notice?: ReactNode;
  testId?: string;
}

export function ReportTable<T extends Row>({
  rows,
  columns,
  totals,
  rowKey,
  pageSize,
  csvFileName,
  emptyText = 'No hay datos para este rango de fechas.',
  caption,
  notice,
  testId,
}: ReportTableProps<T>) {
  const table = useTable(rows, { pageSize });

  const tableColumns: Column<T>[] = columns.map(({ key, header }) => {
    const text = METRICS[key].kind === 'text';
    return {
      key,
      header,
      align: text ? 'left' : 'right',
      sortable: true,
      cell: (r) => formatMetric(key, valueOf(r, key)),
      total: text || !totals ? undefined : formatMetric(key, valueOf(totals, key)),
      cellClassName: text ? undefined : () => 'tabular-nums',
    };
  });

  const download = () => {
    if (table.pageRows.length === 0 || !csvFileName) return;
    downloadCsv(csvFileName, toCsv(columns, table.pageRows.map((r) => csvRecord(r, columns)), { bom: true }));
  };

  return (
    <div className="space-y-3" data-testid={testId}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <PageSizeSelect value={table.pageSize} onChange={table.setPageSize} />
        {csvFileName && (
          <button type="button" className={secondaryButton} onClick={download} disabled={table.pageRows.length === 0}>
            Descargar CSV
          </button>
        )}
      </div>
      {notice}
      <DataTable
        columns={tableColumns}
        rows={table.pageRows}
        rowKey={rowKey}
        sort={table.sort as SortState | null}
        onSort={(k) => table.toggleSort(k as Extract<keyof T, string>)}
        totals={!!totals}
        emptyText={emptyText}
        caption={caption}
      />
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-gray-500">
        <span>{rows.length > 0 ? `${formatInt(rows.length)} filas` : ''}</span>
        <Pagination page={table.page} pageCount={table.pageCount} onPage={table.setPage} />
      </div>
    </div>
  );
}
