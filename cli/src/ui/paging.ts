// Where a page sits in the whole result, as the server answered it (no Ink here: commands
// that only print machine output import it without loading the terminal UI).
import type { PageInfo, SortState } from '@adops/core/lite';

/** Where a page sits in the whole result, as the server answered it. */
export interface Paging {
  page: number;
  pageCount: number;
  totalRows: number;
  pageSize: number;
  /** The order applied; null = the table's default order. */
  sort: SortState | null;
}

/** The paging fields of a server table page. */
export function pagingOf(answer: PageInfo): Paging {
  return { page: answer.page, pageCount: answer.page_count, totalRows: answer.total_rows, pageSize: answer.page_size, sort: answer.sort };
}
