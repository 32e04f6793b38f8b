import { Box, Text } from 'ink';

export interface Column<Row> {
  /** The row field shown in this column (also the key of the totals row). */
  key: string;
  header: string;
  align?: 'left' | 'right';
  /** Cell text; default: the value as text, '' for null/undefined. */
  format?: (value: unknown, row: Row) => string;
  /** Ink colour of a cell (e.g. rank colours), or undefined for the default. */
  color?: (value: unknown, row: Row) => string | undefined;
  /** Longest cell allowed; longer text is cut with '…'. */
  maxWidth?: number;
}

export interface TableProps<Row> {
  columns: ReadonlyArray<Column<Row>>;
  rows: readonly Row[];
  /** Values of the totals row by column key; the first column shows `totalsLabel` when it has none. */
  totals?: Record<string, unknown> | null;
  totalsLabel?: string;
  /** A stable key per row (an id); defaults to the row's `id` field. */
  rowKey?: (row: Row, index: number) => string;
  /** Shown instead of the table when there are no rows. */
  emptyText?: string;
  title?: string;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes (ESC sequences) take no width
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
// Zero-width spaces and joiners, variation selectors and combining marks (alternatives, so a
// selector is never read as joined to the character before it).
const ZERO_WIDTH = /[\u200b-\u200f]|\u2060|[\ufe00-\ufe0f]|\p{M}/u;
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|\p{Extended_Pictographic}/u;

/** Columns a text takes in a terminal (ANSI codes and combining marks take none, wide glyphs two). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text.replace(ANSI, '')) {
    if (ZERO_WIDTH.test(ch)) continue;
    width += WIDE.test(ch) ? 2 : 1;
  }
  return width;
}

function cut(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  let out = '';
  for (const ch of text) {
    if (displayWidth(out + ch) > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

const plain = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

export interface TableLayout {
  widths: number[];
  header: string[];
  body: string[][];
  totals: string[] | null;
}

/** Cell texts and column widths (the widest of header, cells and totals). */
export function layoutTable<Row>(
  columns: ReadonlyArray<Column<Row>>,
  rows: readonly Row[],
  totals?: Record<string, unknown> | null,
  totalsLabel = 'Total',
): TableLayout {
  const cell = (col: Column<Row>, row: Row, value: unknown) => {
    const text = (col.format ? col.format(value, row) : plain(value)).replace(/[\r\n\t]+/g, ' ');
    return col.maxWidth ? cut(text, col.maxWidth) : text;
  };
  const body = rows.map((row) => columns.map((col) => cell(col, row, (row as Record<string, unknown>)[col.key])));
  const totalsCells = totals
    ? columns.map((col, i) => {
        const value = totals[col.key];
        if (value === undefined) return i === 0 ? totalsLabel : '';
        return cell(col, totals as Row, value);
      })
    : null;
  const header = columns.map((col) => col.header);
  const widths = columns.map((_, i) =>
    Math.max(displayWidth(header[i]), ...body.map((r) => displayWidth(r[i])), totalsCells ? displayWidth(totalsCells[i]) : 0),
  );
  return { widths, header, body, totals: totalsCells };
}

const GAP = '  ';

export function Table<Row>({ columns, rows, totals, totalsLabel, rowKey, emptyText, title }: TableProps<Row>) {
  if (rows.length === 0 && emptyText) {
    return (
      <Box flexDirection="column">
        {title ? <Text bold>{title}</Text> : null}
        <Text dimColor>{emptyText}</Text>
      </Box>
    );
  }
  const layout = layoutTable(columns, rows, totals, totalsLabel);
  const align = (i: number) => columns[i].align ?? 'left';
  const rule = '─'.repeat(layout.widths.reduce((sum, w) => sum + w, 0) + GAP.length * Math.max(0, columns.length - 1));
  const keyOf = (row: Row, index: number) => {
    if (rowKey) return rowKey(row, index);
    const id = (row as Record<string, unknown>).id;
    return id === undefined || id === null ? `row-${index}` : String(id);
  };
  return (
    <Box flexDirection="column">
      {title ? <Text bold>{title}</Text> : null}
      <Text bold wrap="truncate-end">
        {layout.header.map((h, i) => pad(h, layout.widths[i], align(i))).join(GAP)}
      </Text>
      <Text dimColor wrap="truncate-end">
        {rule}
      </Text>
      {layout.body.map((cells, r) => (
        <Text key={keyOf(rows[r], r)} wrap="truncate-end">
          {cells.map((text, i) => {
            const col = columns[i];
            const color = col.color?.((rows[r] as Record<string, unknown>)[col.key], rows[r]);
            return (
              <Text key={col.key} color={color}>
                {pad(text, layout.widths[i], align(i))}
                {i < cells.length - 1 ? GAP : ''}
              </Text>
            );
          })}
        </Text>
      ))}
      {layout.totals ? (
        <>
          <Text dimColor wrap="truncate-end">
            {rule}
          </Text>
          <Text bold wrap="truncate-end">
            {layout.totals.map((t, i) => pad(t, layout.widths[i], align(i))).join(GAP)}
          </Text>
        </>
      ) : null}
    </Box>
  );
}
