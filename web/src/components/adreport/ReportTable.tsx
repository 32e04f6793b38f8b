// An Ad Report table over metric columns, as the server pages it: sortable headers (the click
// asks the server; the arrow shows the order answered), a 'Totales' row over every matching
// row, 'Mostrar' page sizes, 'N filas' and 'Página X de Y', plus the screen's CSV buttons.
import type { ReactNode } from 'react';
import { METRICS, formatInt, formatMetric, metricHelp, type MetricColumn } from '@adops/core';
import { DataTable, type Column } from '../DataTable';
import { PageSizeSelect } from '../PageSizeSelect';
import { Pagination } from '../Pagination';
import { shownPage, type PageAnswer, type ServerTable } from '../../hooks/useServerTable';
import { networkCurrency } from '../../lib/currency';

const cellValue = (row: object, key: string): unknown => (row as Record<string, unknown>)[key];

export interface ReportTableProps<T extends object> {
  table: ServerTable<object, PageAnswer<T, object>>;
  columns: readonly MetricColumn[];
  /** The keys the server sorts this table by (other headers do not sort). */
  sortKeys: readonly string[];
  rowKey: (row: T) => string;
  caption: string;
  emptyText: string;
  /** Buttons beside 'Mostrar' (CSV of the page, export of every row). */
  actions?: ReactNode;
  testId?: string;
  /** Columns the user chose not to see. */
  hidden?: ReadonlySet<string>;
  /** Key columns that stay in view while the table scrolls sideways (when leading). */
  stickyKeys?: readonly string[];
}

export function ReportTable<T extends object>({
  table,
  columns,
  sortKeys,
  rowKey,
  caption,
  emptyText,
  actions,
  testId,
  hidden,
  stickyKeys = [],
}: ReportTableProps<T>) {
  const page = shownPage(table);
  const rows = page?.rows ?? [];
  const totals = page?.totals;

  const tableColumns: Column<T>[] = columns
    .filter((c) => !hidden?.has(c.key))
    .map(({ key, header }) => {
      const text = METRICS[key].kind === 'text';
      return {
        key,
        header,
        help: metricHelp(key),
        align: text ? 'left' : 'right',
        sortable: sortKeys.includes(key),
        // Long names are cut with their whole text on hover, so they never push the figures away.
        cell:
          text && key !== 'date'
            ? (r) => {
                const shown = formatMetric(key, cellValue(r, key), networkCurrency());
                return (
                  <span className="block max-w-[8rem] truncate" title={shown}>
                    {shown}
                  </span>
                );
              }
            : (r) => formatMetric(key, cellValue(r, key), networkCurrency()),
        total: text || !totals ? undefined : formatMetric(key, cellValue(totals, key), networkCurrency()),
        cellClassName: text ? undefined : () => 'tabular-nums',
        sticky: stickyKeys.includes(key),
      };
    });

  return (
    <div className="space-y-3" data-testid={testId}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <PageSizeSelect value={table.view.pageSize} onChange={table.setPageSize} />
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </div>
      {/* Many columns: tighter cells so the money columns fit a laptop screen. */}
      <div className="[&_table]:text-[13px] [&_td]:px-2 [&_th]:px-2 xl:[&_table]:text-xs xl:[&_td]:px-[5px] xl:[&_th]:px-[5px]">
        <DataTable
          columns={tableColumns}
          rows={rows}
          rowKey={rowKey}
          sort={page?.sort ?? null}
          onSort={table.sortBy}
          totals={!!totals}
          emptyText={emptyText}
          caption={caption}
          busy={table.loading}
          compactHeaders
        />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-gray-500">
        <span>{page && page.total_rows > 0 ? `${formatInt(page.total_rows)} filas` : ''}</span>
        <Pagination page={page?.page ?? 1} pageCount={page?.page_count ?? 1} onPage={table.setPage} />
      </div>
    </div>
  );
}
