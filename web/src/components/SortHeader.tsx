// A sortable table header: click asks to sort by its key; the active one shows ▲ or ▼.
import type { ReactNode } from 'react';
import type { SortState } from '@adops/core';

export interface SortHeaderProps<K extends string> {
  label: ReactNode;
  /** What the column's figure is: the tooltip (with 'ordenar' in compact headers). */
  help?: string;
  sortKey: K;
  sort: SortState<K> | null | undefined;
  onSort: (key: K) => void;
  align?: 'left' | 'right';
  className?: string;
  /** Extra attributes for the cell (a sticky column's index). */
  cellProps?: Record<string, string | number | undefined>;
  /** Wide tables: no ↕ on the headers not sorted by (the arrow shows on the one sorted by). */
  compact?: boolean;
}

export function SortHeader<K extends string>({
  label,
  help,
  sortKey,
  sort,
  onSort,
  align = 'left',
  className = '',
  cellProps,
  compact = false,
}: SortHeaderProps<K>) {
  const active = sort?.key === sortKey;
  const arrow = active ? (sort!.dir === 'asc' ? '▲' : '▼') : '↕';
  return (
    <th
      scope="col"
      aria-sort={active ? (sort!.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
      {...cellProps}
      className={`whitespace-nowrap px-3 py-2 text-xs font-semibold uppercase tracking-wide text-gray-600 ${align === 'right' ? 'text-right' : 'text-left'} ${className}`}
    >
      <button
        type="button"
        onClick={() => onSort(sortKey)}
        title={help ?? (compact && typeof label === 'string' ? `Ordenar por ${label}` : undefined)}
        className={`inline-flex items-center gap-1 hover:text-gray-900 ${compact ? 'hover:underline' : ''} ${align === 'right' ? 'flex-row-reverse' : ''}`}
      >
        <span>{label}</span>
        {(active || !compact) && (
          <span aria-hidden className={active ? 'text-blue-600' : 'text-gray-300'}>
            {arrow}
          </span>
        )}
      </button>
    </th>
  );
}
