// 'Página X de Y' with 'Anterior' / 'Siguiente', disabled at the ends; at least one page.
import { pageLabel } from '@adops/core';

export interface PaginationProps {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
}

const button =
  'rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-white';

export function Pagination({ page, pageCount, onPage }: PaginationProps) {
  const count = Math.max(1, Math.floor(pageCount) || 1);
  const current = Math.min(count, Math.max(1, Math.floor(page) || 1));
  return (
    <nav aria-label="Paginación" className="flex items-center gap-3">
      <button type="button" className={button} disabled={current <= 1} onClick={() => onPage(current - 1)}>
        Anterior
      </button>
      <span className="text-sm text-gray-600">{pageLabel(current, count)}</span>
      <button type="button" className={button} disabled={current >= count} onClick={() => onPage(current + 1)}>
        Siguiente
      </button>
    </nav>
  );
}
