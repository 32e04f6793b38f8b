// Client-side sorting and paging of a report's rows with core's rules (nulls last, header
// toggle, page count at least 1); page returns to 1 when rows, sort or page size change.
import { useEffect, useMemo, useState } from 'react';
import { nextSort, paginate, sortRows, type SortState } from '@adops/core';

export interface TableState<T> {
  pageRows: T[];
  page: number;
  pageCount: number;
  total: number;
  setPage: (page: number) => void;
  pageSize: number;
  setPageSize: (size: number) => void;
  sort: SortState<Extract<keyof T, string>> | null;
  toggleSort: (key: Extract<keyof T, string>) => void;
  /** All rows in the current order (for CSV of the whole list). */
  sorted: T[];
}

export function useTable<T>(
  rows: readonly T[],
  options: { pageSize?: number; sort?: SortState<Extract<keyof T, string>> | null } = {},
): TableState<T> {
  const [sort, setSort] = useState<SortState<Extract<keyof T, string>> | null>(options.sort ?? null);
  const [pageSize, setPageSizeState] = useState(options.pageSize ?? 10);
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [rows]);
  const sorted = useMemo(() => sortRows(rows, sort), [rows, sort]);
  const current = paginate(sorted, page, pageSize);
  return {
    pageRows: current.rows,
    page: current.page,
    pageCount: current.pageCount,
    total: current.total,
    setPage,
    pageSize,
    setPageSize: (size) => {
      setPageSizeState(size);
      setPage(1);
    },
    sort,
    toggleSort: (key) => {
      setSort((s) => nextSort(s, key));
      setPage(1);
    },
    sorted,
  };
}
