// A report table from a column config: optional sortable headers, an optional 'Totales'
// footer and an empty-state text. Rows arrive sorted, paged and totalled by the server
// (see useServerTable); while the next page loads the table is marked busy.
import { Fragment, useLayoutEffect, useRef, type ReactNode } from 'react';
import type { SortState } from '@adops/core';
import { SortHeader } from './SortHeader';
import { ScrollRegion } from './ScrollRegion';

export interface Column<T> {
  /** Unique id of the column; also the sort key when sortable. */
  key: string;
  header: ReactNode;
  /** What the column's figure is (the registry's definition): the header's tooltip. */
  help?: string;
  cell: (row: T) => ReactNode;
  /** What the 'Totales' row shows in this column. */
  total?: ReactNode;
  align?: 'left' | 'right';
  sortable?: boolean;
  /** Extra classes for a body cell (e.g. rank colours). */
  cellClassName?: (row: T) => string;
  /** Stays in view while the table scrolls sideways (leading columns only; from the lg width up). */
  sticky?: boolean;
}

export interface DataTableProps<T> {
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string;
  sort?: SortState | null;
  onSort?: (key: string) => void;
  /** Show the 'Totales' footer row (column.total values). */
  totals?: boolean;
  emptyText?: string;
  caption?: string;
  /** The next page is loading: the rows shown are the previous answer's. */
  busy?: boolean;
  /** Wide tables: sortable headers without the ↕ of the ones not sorted by. */
  compactHeaders?: boolean;
  /** Extra classes and data attributes of a body row (e.g. a losing row). */
  rowProps?: (row: T) => { className?: string; [data: `data-${string}`]: string | undefined };
  /** Content shown under a row across every column (an expanded row's detail); null when closed. */
  expanded?: (row: T) => ReactNode;
}

/** The leading sticky columns' classes (the offsets are measured: column widths follow their content). */
function stickyClass(last: boolean, bg: string): string {
  return `lg:sticky lg:z-[1] ${bg} ${last ? 'lg:shadow-[inset_-1px_0_0_#e5e7eb]' : ''}`;
}

export function DataTable<T>({
  columns,
  rows,
  rowKey,
  sort,
  onSort,
  totals,
  emptyText = 'No hay datos',
  caption,
  busy = false,
  compactHeaders = false,
  rowProps,
  expanded,
}: DataTableProps<T>) {
  const alignOf = (c: Column<T>) => (c.align === 'right' ? 'text-right' : 'text-left');
  let stickyCount = 0;
  while (stickyCount < columns.length && columns[stickyCount].sticky) stickyCount++;
  const sticky = (i: number, bg: string) => (i < stickyCount ? stickyClass(i === stickyCount - 1, bg) : '');
  const stickyAttr = (i: number) => (i < stickyCount ? { 'data-sticky': i } : undefined);

  // Each sticky column sits right after the ones before it: their widths, measured after layout.
  const tableRef = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => {
    const table = tableRef.current;
    if (!table || stickyCount === 0) return;
    const heads = [...table.querySelectorAll<HTMLElement>('thead th[data-sticky]')];
    let left = 0;
    const lefts = heads.map((th) => {
      const at = left;
      left += th.getBoundingClientRect().width;
      return at;
    });
    for (const cell of table.querySelectorAll<HTMLElement>('[data-sticky]')) cell.style.left = `${lefts[Number(cell.dataset.sticky)] ?? 0}px`;
  });

  return (
    <ScrollRegion
      label={caption}
      aria-busy={busy}
      className={`overflow-x-auto rounded-md border border-gray-200 transition-opacity ${busy ? 'opacity-60' : ''}`}
    >
      <table ref={tableRef} className="min-w-full divide-y divide-gray-200 text-sm">
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead className="bg-gray-50">
          <tr>
            {columns.map((c, i) =>
              c.sortable && onSort ? (
                <SortHeader
                  key={c.key}
                  label={c.header}
                  help={c.help}
                  sortKey={c.key}
                  sort={sort}
                  onSort={onSort}
                  align={c.align}
                  className={sticky(i, 'bg-gray-50')}
                  cellProps={stickyAttr(i)}
                  compact={compactHeaders}
                />
              ) : (
                <th
                  key={c.key}
                  scope="col"
                  {...stickyAttr(i)}
                  title={c.help}
                  className={`whitespace-nowrap px-3 py-2 text-xs font-semibold uppercase tracking-wide text-gray-600 ${alignOf(c)} ${sticky(i, 'bg-gray-50')} ${c.help ? 'cursor-help' : ''}`}
                >
                  {c.header}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100 bg-white">
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-3 py-8 text-center text-gray-500">
                {emptyText}
              </td>
            </tr>
          ) : (
            rows.map((row, i) => {
              const { className: rowClass = '', ...rowData } = rowProps?.(row) ?? {};
              const detail = expanded?.(row);
              return (
                <Fragment key={rowKey(row, i)}>
                  <tr className={`hover:bg-gray-50 ${rowClass}`} {...rowData}>
                    {columns.map((c, i) => (
                      <td
                        key={c.key}
                        {...stickyAttr(i)}
                        className={`whitespace-nowrap px-3 py-2 text-gray-800 ${alignOf(c)} ${c.cellClassName?.(row) ?? ''} ${sticky(i, 'bg-white')}`}
                      >
                        {c.cell(row)}
                      </td>
                    ))}
                  </tr>
                  {detail != null && (
                    <tr>
                      <td colSpan={columns.length} className="bg-gray-50 px-3 py-3">
                        {detail}
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })
          )}
        </tbody>
        {totals && rows.length > 0 && (
          <tfoot className="border-t-2 border-gray-200 bg-gray-50 font-semibold">
            <tr>
              {columns.map((c, i) => (
                <td key={c.key} {...stickyAttr(i)} className={`whitespace-nowrap px-3 py-2 text-gray-900 ${alignOf(c)} ${sticky(i, 'bg-gray-50')}`}>
                  {i === 0 ? 'Totales' : c.total}
                </td>
              ))}
            </tr>
          </tfoot>
        )}
      </table>
    </ScrollRegion>
  );
}
