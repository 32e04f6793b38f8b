// The zone table's CSV (adreport_zonas.csv, ad_report.csv) written from the engine's column
// chunks straight into UTF-8 bytes: each column's way of writing is chosen once, a figure's
// digits are written from a whole number (csv-bytes.ts), a plain text as it stands, any other
// text's cell encoded once — no object per row and no string per line (the row path built four
// objects a row: the engine's row, the zone row, its sums and its ratios). The cells are the row
// path's exactly (csvRow over zoneRow and TABLE_CSV's fields): same headers, figures, rounding
// and quoting; server/test/export-columns.test.ts compares the two files byte by byte.
import { CsvBytes, utf8 } from './csv-bytes.js';
import { csvCellWriter, csvDialectRules, type CsvDialect } from './csv.js';
import { isAdditiveMetric } from './exports.js';
import {
  EMPTY_SUMS,
  METRICS,
  ROW_DERIVED_KEYS,
  deriverOf,
  rowSumsInto,
  type MetricColumn,
  type MetricKey,
  type RowDerivedKey,
  type RowMeasures,
  type Sums,
} from './metrics.js';

/** A chunk of stored zone rows as columns: each stored field's values, `rows` of them (one engine chunk). */
export interface ZoneColumns {
  rows: number;
  columns: Readonly<Record<string, readonly unknown[]>>;
}

/**
 * A stored zone-report row's fields, in the order every engine stores and reads them (the
 * warehouse's ZONE_REPORT_COLUMNS); every other column of the zone table is a ratio derived from them.
 */
export const ZONE_REPORT_FIELDS = [
  'date',
  'advertiser',
  'publisher',
  'zone_id',
  'geo',
  'source',
  'domain',
  'impressions',
  'monetized_impressions',
  'clicks',
  'revenue',
  'rate_applied',
  'p_revenue',
  'margin',
  'tq',
] as const;
const STORED = new Set<string>(ZONE_REPORT_FIELDS);

/** The measures `rowSums` reads, in the order RowMeasures lists them. */
const MEASURES = ['impressions', 'monetized_impressions', 'clicks', 'revenue', 'p_revenue', 'margin', 'tq'] as const;

/** Distinct texts a text column remembers the cells of (a column's day, advertiser, geo… repeat row after row). */
const REMEMBERED = 8192;

/** A text column's cell writer that encodes each distinct value's cell once (its formula guard and quoting are a regex each). */
function remembered(write: (value: unknown) => string): (value: unknown) => Uint8Array {
  const cells = new Map<unknown, Uint8Array>();
  return (value) => {
    let cell = cells.get(value);
    if (cell === undefined) {
      cell = utf8(write(value));
      if (cells.size >= REMEMBERED) cells.clear();
      cells.set(value, cell);
    }
    return cell;
  };
}

/** How a column's cells are written: a text remembered, a figure at its stored precision, a ratio at its shown decimals. */
type Cell =
  | { kind: 'text'; write: (value: unknown) => Uint8Array; plain: boolean }
  | { kind: 'stored'; other: (value: unknown) => string }
  | { kind: 'shown'; decimals: number };

function cellOf(key: MetricKey, dialect: CsvDialect): Cell {
  // A date may be rewritten (dd/MM/yyyy): always through its writer; other texts as they stand when they can be.
  if (METRICS[key].kind === 'text')
    return { kind: 'text', write: remembered(csvCellWriter(dialect, key === 'date' ? 'date' : undefined)), plain: key !== 'date' };
  if (isAdditiveMetric(key)) return { kind: 'stored', other: csvCellWriter(dialect) };
  return { kind: 'shown', decimals: METRICS[key].decimals };
}

/**
 * A writer of the zone table's CSV lines (no header) under `list`'s columns: each call writes one
 * chunk's lines as UTF-8 bytes.
 */
export function zoneCsvWriter(list: readonly MetricColumn[], dialect: CsvDialect): (chunk: ZoneColumns) => Uint8Array {
  const { separator, eol, decimal } = csvDialectRules(dialect);
  const mark = decimal.charCodeAt(0);
  const sep = separator.charCodeAt(0);
  const end = utf8(eol);
  const cells = list.map(({ key }) => cellOf(key, dialect));
  const derived = list.flatMap(({ key }, c) => {
    if (STORED.has(key)) return [];
    if (!(ROW_DERIVED_KEYS as string[]).includes(key)) throw new Error(`zoneCsvWriter: ${key} is neither stored nor derived by a row`);
    return [{ c, derive: deriverOf(key as RowDerivedKey) }];
  });
  // Reused by every chunk: the derived columns' values, one row's measures and sums, the bytes.
  const values: Array<Array<number | null>> = derived.map(() => []);
  const measures: Record<string, unknown> = { impressions: 0, monetized_impressions: null, clicks: 0, revenue: 0, p_revenue: 0, margin: 0, tq: null };
  const sums: Sums = { ...EMPTY_SUMS };
  const width = list.length;
  const out = new CsvBytes();

  return ({ rows: n, columns }) => {
    if (derived.length > 0) {
      const measureColumns = MEASURES.map((k) => columns[k]);
      for (let i = 0; i < n; i++) {
        for (let m = 0; m < MEASURES.length; m++) measures[MEASURES[m]] = measureColumns[m][i];
        rowSumsInto(measures as unknown as RowMeasures, sums);
        for (let d = 0; d < derived.length; d++) values[d][i] = derived[d].derive(sums);
      }
    }
    let d = 0;
    const source = cells.map((_, c) => (derived[d]?.c === c ? values[d++] : columns[list[c].key]));
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < width; c++) {
        if (c > 0) out.byte(sep);
        const cell = cells[c];
        const value = source[c][i];
        if (cell.kind === 'text') {
          if (!(cell.plain && typeof value === 'string' && out.plainText(value))) out.raw(cell.write(value));
        } else if (typeof value === 'number') {
          if (cell.kind === 'stored') out.stored(value, mark);
          else out.shown(value, cell.decimals, mark);
        } else if (cell.kind === 'stored' && value != null) out.raw(utf8(cell.other(value)));
      }
      out.raw(end);
    }
    return out.take();
  };
}
