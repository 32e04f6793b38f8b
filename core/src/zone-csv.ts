// The zone table's CSV (adreport_zonas.csv, ad_report.csv) written column by column from the
// engine's chunks: each column's formatter is chosen once, each column's cells are written in one
// loop over its values, and a chunk's lines are joined into one string — no object per row (the
// row path built four: the engine's row, the zone row, its sums and its ratios). The cells are
// the row path's exactly (csvRow over zoneRow and TABLE_CSV's fields): same headers, figures,
// rounding and quoting; server/test/export-columns.test.ts compares the two files byte by byte.
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
import { shownFigureText } from './rounding.js';

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

/** A text column's cell writer that writes each distinct value once (its formula guard and quoting are a regex each). */
function remembered(write: (value: unknown) => string): (value: unknown) => string {
  const cells = new Map<unknown, string>();
  return (value) => {
    let cell = cells.get(value);
    if (cell === undefined) {
      cell = write(value);
      if (cells.size >= REMEMBERED) cells.clear();
      cells.set(value, cell);
    }
    return cell;
  };
}

/** How one column's value becomes its cell, as metricCsvFields writes it (text, a sum at stored precision, a ratio at its shown decimals). */
function cellOf(key: MetricKey, dialect: CsvDialect): (value: unknown) => string {
  if (METRICS[key].kind === 'text') return remembered(csvCellWriter(dialect, key === 'date' ? 'date' : undefined));
  if (isAdditiveMetric(key)) return csvCellWriter(dialect);
  const decimals = METRICS[key].decimals;
  if (csvDialectRules(dialect).decimal === '.') return (value) => shownFigureText(value, decimals);
  return (value) => shownFigureText(value, decimals).replace('.', ',');
}

/**
 * A writer of the zone table's CSV lines (no header) under `list`'s columns: each call writes one
 * chunk's lines as one string.
 */
export function zoneCsvWriter(list: readonly MetricColumn[], dialect: CsvDialect): (chunk: ZoneColumns) => string {
  const { separator, eol } = csvDialectRules(dialect);
  const cells = list.map(({ key }) => cellOf(key, dialect));
  const derived = list.flatMap(({ key }, c) => {
    if (STORED.has(key)) return [];
    if (!(ROW_DERIVED_KEYS as string[]).includes(key)) throw new Error(`zoneCsvWriter: ${key} is neither stored nor derived by a row`);
    return [{ c, derive: deriverOf(key as RowDerivedKey) }];
  });
  // Reused by every chunk: the columns' texts, the derived columns' values, one row's measures and sums.
  const texts: string[][] = list.map(() => []);
  const values: Array<Array<number | null>> = derived.map(() => []);
  const measures: Record<string, unknown> = { impressions: 0, monetized_impressions: null, clicks: 0, revenue: 0, p_revenue: 0, margin: 0, tq: null };
  const sums: Sums = { ...EMPTY_SUMS };
  const width = list.length;

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
    for (let c = 0; c < width; c++) {
      const out = texts[c];
      const cell = cells[c];
      const column = derived[d]?.c === c ? values[d++] : columns[list[c].key];
      for (let i = 0; i < n; i++) out[i] = cell(column[i]);
    }
    let text = '';
    for (let i = 0; i < n; i++) {
      let line = texts[0][i];
      for (let c = 1; c < width; c++) line += separator + texts[c][i];
      text += line + eol;
    }
    return text;
  };
}
