// CSV out (RFC 4180 quoting, optional BOM, spreadsheet formula-injection guard; the standard
// dialect for machines and 'excel-es' for Spanish spreadsheets) and CSV in (the ingest parser),
// plus the export file names the screens use.
import { plainDecimal } from './rounding.js';

export interface CsvColumn<K extends string = string> {
  key: K;
  header: string;
}

/**
 * How a CSV is written. `standard` for machines: ',' between fields, '.' decimals, ISO dates,
 * LF. `excel-es` for a spreadsheet with Spanish settings: ';' between fields, ',' decimals,
 * dates dd/MM/yyyy, CRLF, always a BOM.
 */
export const CSV_DIALECTS = ['standard', 'excel-es'] as const;
export type CsvDialect = (typeof CSV_DIALECTS)[number];

export interface DialectRules {
  separator: string;
  decimal: '.' | ',';
  eol: '\n' | '\r\n';
  spanishDates: boolean;
}

const DIALECTS: Record<CsvDialect, DialectRules> = {
  standard: { separator: ',', decimal: '.', eol: '\n', spanishDates: false },
  'excel-es': { separator: ';', decimal: ',', eol: '\r\n', spanishDates: true },
};

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

/**
 * Characters that make a text cell quoted, whatever the dialect: either separator (a file read
 * with the other one's settings must not split a cell and start a new one with '=' or '+'),
 * tab (a separator to spreadsheet import), quotes and line ends.
 */
const NEEDS_QUOTES = /[",;\t\r\n]/;

function quote(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A number as written: the stored precision without binary noise, plain notation, the dialect's decimal mark. */
function numberText(value: number, decimal: '.' | ','): string {
  if (!Number.isFinite(value)) return '';
  const text = plainDecimal(value);
  return decimal === '.' ? text : text.replace('.', ',');
}

const YMD_AT_START = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?))?/;

/** 'YYYY-MM-DD[ HH:mm[:ss]]' (or an ISO instant) as 'dd/MM/yyyy[ HH:mm[:ss]]'; other text as it is. */
export function spanishDateText(text: string): string {
  const m = YMD_AT_START.exec(text);
  if (!m) return text;
  return `${m[3]}/${m[2]}/${m[1]}${m[4] ? ` ${m[4]}` : ''}`;
}

/** One cell as written: numbers never quoted, text guarded against formulas and quoted as needed. */
function cell(value: unknown, rules: DialectRules, kind?: CsvCellKind): string {
  if (value == null) return '';
  if (typeof value === 'number') return numberText(value, rules.decimal);
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  let text: string;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    text = value.toISOString();
  } else text = String(value);
  if (kind && rules.spanishDates) text = spanishDateText(text);
  return quote(guardFormula(text));
}

/** How a dialect writes one kind of value, chosen once for a column (an export's column writer). */
export function csvCellWriter(dialect: CsvDialect, kind?: CsvCellKind): (value: unknown) => string {
  const rules = DIALECTS[dialect];
  return (value) => cell(value, rules, kind);
}

/** A dialect's field separator, record end and decimal mark. */
export function csvDialectRules(dialect: CsvDialect): Readonly<DialectRules> {
  return DIALECTS[dialect];
}

/** One CSV record: the cells quoted as needed and joined, ended by eol. */
export function csvLine(cells: readonly unknown[], separator = ',', eol = '\n'): string {
  const rules: DialectRules = { ...DIALECTS.standard, separator };
  let out = '';
  for (let i = 0; i < cells.length; i++) out += (i ? separator : '') + cell(cells[i], rules);
  return out + eol;
}

/**
 * A header line plus one line per row, each ended by eol. Missing and non-finite values are
 * empty fields; numbers are written at their precision without binary noise (round them first for display).
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

/** What a column holds when the dialect writes it its own way: a day ('YYYY-MM-DD') or a day and time. */
export type CsvCellKind = 'date' | 'datetime';

/** A CSV column of a table export: its header, how a row's cell is written, and whether it holds dates. */
export interface CsvField<Row> {
  header: string;
  cell: (row: Row) => unknown;
  kind?: CsvCellKind;
  /**
   * The cell already written, '.' as its decimal mark (a figure the hot loop writes the cheap way):
   * the same text `cell` would give. Exports use it when present.
   */
  text?: (row: Row) => string;
}

/** The header line of an export (with the BOM spreadsheet programs need for accents; `excel-es` always has it). */
export function csvHeader<Row>(fields: readonly CsvField<Row>[], options: { bom?: boolean; dialect?: CsvDialect } = {}): string {
  const dialect = options.dialect ?? 'standard';
  const rules = DIALECTS[dialect];
  const bom = dialect === 'excel-es' || options.bom !== false;
  let out = '';
  for (let i = 0; i < fields.length; i++) out += (i ? rules.separator : '') + cell(fields[i].header, rules);
  return (bom ? BOM : '') + out + rules.eol;
}

/** One row of an export (the hot loop of a million-row export: no intermediate array). */
export function csvRow<Row>(fields: readonly CsvField<Row>[], row: Row, dialect: CsvDialect = 'standard'): string {
  const rules = DIALECTS[dialect];
  let out = '';
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    let text: string;
    if (field.text) {
      text = field.text(row);
      if (rules.decimal === ',') text = text.replace('.', ',');
    } else text = cell(field.cell(row), rules, field.kind);
    out += (i ? rules.separator : '') + text;
  }
  return out + rules.eol;
}

/** A whole CSV document of some rows. */
export function csvDocument<Row>(fields: readonly CsvField<Row>[], rows: Iterable<Row>, dialect: CsvDialect = 'standard'): string {
  let out = csvHeader(fields, { dialect });
  for (const row of rows) out += csvRow(fields, row, dialect);
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
