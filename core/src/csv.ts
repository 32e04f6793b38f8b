// CSV out (RFC 4180 quoting, optional BOM, spreadsheet formula-injection guard) and CSV in
// (the ingest parser), plus the export file names the screens use.

export interface CsvColumn<K extends string = string> {
  key: K;
  header: string;
}

export interface ToCsvOptions {
  /** Prefix a UTF-8 byte-order mark so spreadsheet programs read accents correctly. */
  bom?: boolean;
  /** Field separator, ',' by default. */
  separator?: string;
  /** Record terminator, '\n' by default (RFC 4180 says CRLF; every consumer we feed accepts LF). */
  eol?: '\n' | '\r\n';
}

export const BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** A text cell a spreadsheet would run as a formula gets a leading apostrophe; numbers stay numbers. */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

function cellText(value: unknown): string {
  if (value == null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  return guardFormula(String(value));
}

const NEEDS_QUOTES = /["\r\n]/;

function quote(text: string, separator: string): string {
  const needsQuotes = text.includes(separator) || NEEDS_QUOTES.test(text);
  return needsQuotes ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One cell as written: numbers as JavaScript prints them (never quoted), text guarded and quoted as needed. */
function cell(value: unknown, separator: string): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return quote(cellText(value), separator);
}

/** One CSV record: the cells quoted as needed and joined, ended by eol. */
export function csvLine(cells: readonly unknown[], separator = ',', eol = '\n'): string {
  let out = '';
  for (let i = 0; i < cells.length; i++) out += (i ? separator : '') + cell(cells[i], separator);
  return out + eol;
}

/**
 * A header line plus one line per row, each ended by eol. Missing and non-finite values are
 * empty fields; numbers are written as JavaScript prints them (round them first for display).
 */
export function toCsv<K extends string>(
  columns: readonly CsvColumn<K>[],
  rows: readonly Partial<Record<K, unknown>>[],
  options: ToCsvOptions = {},
): string {
  const separator = options.separator ?? ',';
  const eol = options.eol ?? '\n';
  const header = csvLine(
    columns.map((c) => c.header),
    separator,
    eol,
  );
  const body = rows
    .map((row) =>
      csvLine(
        columns.map((c) => row[c.key]),
        separator,
        eol,
      ),
    )
    .join('');
  return (options.bom ? BOM : '') + header + body;
}

/** A CSV column of a table export: its header and how a row's cell is written. */
export interface CsvField<Row> {
  header: string;
  cell: (row: Row) => unknown;
}

/** The header line of an export (with the BOM spreadsheet programs need for accents). */
export function csvHeader<Row>(fields: readonly CsvField<Row>[], options: { bom?: boolean } = { bom: true }): string {
  return (options.bom === false ? '' : BOM) + csvLine(fields.map((f) => f.header));
}

/** One row of an export (the hot loop of a million-row export: no intermediate array). */
export function csvRow<Row>(fields: readonly CsvField<Row>[], row: Row): string {
  let out = '';
  for (let i = 0; i < fields.length; i++) out += (i ? ',' : '') + cell(fields[i].cell(row), ',');
  return `${out}\n`;
}

/** A whole CSV document of some rows (a page shown on screen). */
export function csvDocument<Row>(fields: readonly CsvField<Row>[], rows: Iterable<Row>): string {
  let out = csvHeader(fields);
  for (const row of rows) out += csvRow(fields, row);
  return out;
}

export class CsvParseError extends Error {
  constructor(
    message: string,
    /** 1-based physical line where the problem starts. */
    readonly line: number,
  ) {
    super(`${message} (line ${line})`);
    this.name = 'CsvParseError';
  }
}

/**
 * Records as arrays of fields. Accepts a leading BOM, quoted fields with "" escapes and
 * embedded separators or newlines, and LF, CRLF or CR line ends. Empty lines are skipped.
 * An unterminated quote throws CsvParseError.
 */
export function parseCsv(text: string, separator = ','): string[][] {
  const src = text.startsWith(BOM) ? text.slice(1) : text;
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let line = 1;
  let recordHasContent = false;
  let i = 0;

  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    if (recordHasContent) records.push(record);
    record = [];
    recordHasContent = false;
  };

  while (i < src.length) {
    const ch = src[i];
    if (ch === '"' && field === '') {
      const openedAt = line;
      recordHasContent = true;
      i++;
      for (;;) {
        if (i >= src.length) throw new CsvParseError('Unterminated quoted field', openedAt);
        const c = src[i];
        if (c === '"') {
          if (src[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (c === '\n' || (c === '\r' && src[i + 1] !== '\n')) line++;
        field += c;
        i++;
      }
    } else if (ch === separator) {
      recordHasContent = true;
      endField();
      i++;
    } else if (ch === '\r' || ch === '\n') {
      endRecord();
      i += ch === '\r' && src[i + 1] === '\n' ? 2 : 1;
      line++;
    } else {
      recordHasContent = true;
      field += ch;
      i++;
    }
  }
  if (recordHasContent || field !== '') endRecord();
  return records;
}

/** Export file names (SPEC §2, §9). */
export const CSV_FILE_NAMES = {
  dashboard: 'resumen_diario.csv',
  adReport: 'adreport_zonas.csv',
  apiExplorer: 'ad_report.csv',
} as const;

/** 'referrers-2026-03-01_to_2026-03-07.csv' from two YYYY-MM-DD dates. */
export function referrersCsvName(start: string, end: string): string {
  return `referrers-${start}_to_${end}.csv`;
}
