// How the server answers a table: one page (rows, counts, totals) for format=json, or every
// matching row streamed as CSV / NDJSON for exports — in constant memory, with backpressure,
// stopping the query when the client goes away. Small tables held in memory (finance, campaign
// metrics, the daily table) are sorted and paged here by core's rules. The HTTP answer of an
// export (its headers and streamed body) is http-export.ts's.
import {
  pageWindow,
  sortRows,
  type CsvDialect,
  type CsvField,
  type SortState,
  type TableFormat,
  type TablePage,
  type TableRequest,
} from '@adops/core';

export type TablePageOf<Row, Totals> = TablePage<Row, Totals>;

/** A page of rows held in memory: sorted by the request (then `natural`, for a total order), paged. */
export function memoryPage<Row, Totals>(
  rows: readonly Row[],
  request: Pick<TableRequest, 'sort' | 'page' | 'page_size'>,
  natural: ReadonlyArray<SortState>,
  totals: Totals,
): TablePageOf<Row, Totals> {
  const sorted = sortRows(
    rows,
    request.sort as SortState<Extract<keyof Row, string>> | null,
    natural as ReadonlyArray<SortState<Extract<keyof Row, string>>>,
  );
  const w = pageWindow(sorted.length, request.page, request.page_size);
  return {
    rows: sorted.slice(w.offset, w.offset + request.page_size),
    total_rows: sorted.length,
    page: w.page,
    page_size: request.page_size,
    page_count: w.page_count,
    sort: request.sort,
    totals,
  };
}

/**
 * A page read from the warehouse: `read(offset)` fetches the rows at an offset while `count`
 * says how many match; a page past the last is answered as the last (one more read).
 */
export async function warehousePage<Row, Totals>(
  request: Pick<TableRequest, 'sort' | 'page' | 'page_size'>,
  count: Promise<{ total: number; totals: Totals }>,
  read: (offset: number) => Promise<Row[]>,
): Promise<TablePageOf<Row, Totals>> {
  const asked = (request.page - 1) * request.page_size;
  const [{ total, totals }, first] = await Promise.all([count, read(asked)]);
  const w = pageWindow(total, request.page, request.page_size);
  const rows = w.offset === asked ? first : await read(w.offset);
  return { rows, total_rows: total, page: w.page, page_size: request.page_size, page_count: w.page_count, sort: request.sort, totals };
}

/**
 * A page read from a query that counts its matches as it reads (groups, referrers, logs):
 * `read(offset)` answers the rows at an offset with the count; `totals` takes that first answer.
 * A page past the last is answered as the last (one more read).
 */
export async function countedPage<Row, Answer extends { rows: Row[]; total: number }, Totals>(
  request: Pick<TableRequest, 'sort' | 'page' | 'page_size'>,
  read: (offset: number) => Promise<Answer>,
  totals: (first: Answer) => Totals | Promise<Totals>,
): Promise<TablePageOf<Row, Totals>> {
  const asked = (request.page - 1) * request.page_size;
  const first = await read(asked);
  const w = pageWindow(first.total, request.page, request.page_size);
  const [rows, t] = await Promise.all([w.offset === asked ? first.rows : read(w.offset).then((a) => a.rows), totals(first)]);
  return { rows, total_rows: first.total, page: w.page, page_size: request.page_size, page_count: w.page_count, sort: request.sort, totals: t };
}

/** Every row of a table as a file: its name, CSV columns and the rows in chunks. */
export interface TableExport<Row> {
  file: string;
  fields: ReadonlyArray<CsvField<Row>>;
  chunks: AsyncIterable<readonly Row[]> | Iterable<readonly Row[]>;
  /** NDJSON writes this view of a row (default: the row itself). */
  json?: (row: Row) => unknown;
  /** Lines a CSV ends with that are not rows (Finance's TOTAL); NDJSON leaves them out. */
  csvFooter?: readonly Row[];
  /**
   * The CSV's lines (no header) written another way than a line per row of `chunks` — the zone
   * table's, column by column from the engine's chunks — the same bytes; CSV uses it when present.
   */
  csvLines?: (dialect: CsvDialect) => AsyncIterable<Uint8Array>;
}

/** What an export asks for: CSV (in a dialect) or NDJSON. */
export interface ExportRequest {
  format: Exclude<TableFormat, 'json'>;
  /** How a CSV is written (standard unless asked); NDJSON ignores it. */
  csv?: CsvDialect;
}
