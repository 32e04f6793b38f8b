// The one table query model: every table route takes `sort` ('key[:asc|desc]' over its own
// columns), `page`, `page_size` (at most 500) and `format`, and answers one page of rows with
// the counts and the totals over every matching row. `format=csv|ndjson` streams every
// matching row instead (open it with `openRoute`).
import { z } from 'zod';
import { CSV_DIALECTS, type CsvDialect } from '../csv.js';
import { parseSortText, type SortState } from '../table.js';
import { MAX_PAGE_SIZE } from './values.js';

export { MAX_PAGE_SIZE } from './values.js';

/** json: one page; csv (BOM, the screen's columns; money at stored precision, ratios as shown) and ndjson: every matching row. */
export const TABLE_FORMATS = ['json', 'csv', 'ndjson'] as const;
export type TableFormat = (typeof TABLE_FORMATS)[number];

/**
 * `csv`: how format=csv writes the file — `standard` (default: ',' and '.' decimals, ISO dates,
 * for machines) or `excel-es` (';', comma decimals, dates dd/MM/yyyy, for a Spanish spreadsheet).
 * Other formats ignore it.
 */
export const csvDialectParam = z.enum(CSV_DIALECTS, { error: 'debe ser standard o excel-es' }).default('standard');

/** `format` and `csv` of a report that is not a paged table: json (default), or csv|ndjson to download it as a file. */
export const exportFields = {
  format: z.enum(TABLE_FORMATS, { error: 'debe ser json, csv o ndjson' }).default('json'),
  csv: csvDialectParam,
};

/** A whole number in a query string or JSON body (a single value; arrays refused). */
export const queryInt = (min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^\d{1,10}$/, 'debe ser un número entero')])
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/**
 * `sort`: 'key' or 'key:asc|desc' over the given columns (or the keys a test accepts, named by
 * `described`); absent or empty = the table's default order.
 */
export function sortParam<K extends string>(keys: readonly K[] | ((key: string) => boolean), described?: string) {
  const accepts = typeof keys === 'function' ? keys : (key: string) => (keys as readonly string[]).includes(key);
  const names = described ?? (keys as readonly string[]).join(', ');
  return z
    .string()
    .max(64)
    .nullish()
    .transform((value, ctx): SortState<K> | null => {
      if (value == null || value.trim() === '') return null;
      const sort = parseSortText(value);
      if (!sort || !accepts(sort.key)) {
        ctx.addIssue({ code: 'custom', message: `columna de orden no válida: «${value.slice(0, 40)}» (usa CLAVE[:asc|desc]; claves: ${names})` });
        return z.NEVER;
      }
      return sort as SortState<K>;
    });
}

/** The fields every table query adds to its filters. */
export function tableFields<K extends string>(keys: readonly K[] | ((key: string) => boolean), defaultPageSize: number, described?: string) {
  return {
    sort: sortParam<K>(keys, described),
    page: queryInt(1, 1_000_000_000).default(1),
    page_size: queryInt(1, MAX_PAGE_SIZE).default(defaultPageSize),
    ...exportFields,
  };
}

/** The parsed table fields a service receives. */
export interface TableRequest<K extends string = string> {
  sort: SortState<K> | null;
  page: number;
  page_size: number;
  format: TableFormat;
  /** How a CSV export is written (format=csv). */
  csv: CsvDialect;
}

const SortAnswer = z.object({ key: z.string(), dir: z.enum(['asc', 'desc']) }).nullable();

/** One page of a table: its rows, how many rows match in all, the page served and the totals of every matching row. */
export function tablePage<R extends z.ZodType, T extends z.ZodType>(row: R, totals: T) {
  return z.object({
    rows: z.array(row),
    /** Rows matching the filters, in all pages. */
    total_rows: z.number(),
    /** 1-based; a page past the last is answered as the last. */
    page: z.number(),
    page_size: z.number(),
    /** At least 1, also with no rows. */
    page_count: z.number(),
    /** The order applied; null = the table's default order. */
    sort: SortAnswer,
    totals,
  });
}

/** What a table page carries besides its rows (for faces that render any table). */
export interface PageInfo {
  total_rows: number;
  page: number;
  page_size: number;
  page_count: number;
  sort: SortState | null;
}

/** One page of a table as every table route answers it: its rows and the totals of every matching row. */
export interface TablePage<Row, Totals = unknown> extends PageInfo {
  rows: Row[];
  totals: Totals;
}
