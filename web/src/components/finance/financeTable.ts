// Shapes the Finance answers into month tables: one row per advertiser / publisher with a
// value per 'YYYY-MM' of the range, its Total, and the TOTAL row of every column.
import { isFiniteNumber } from '@adops/core';

/** A table row: its label and one amount per month key plus 'total'. */
export type MonthRow = { name: string; total: number } & Record<string, string | number>;

export interface MonthTable {
  months: string[];
  rows: MonthRow[];
  /** Per-month sums and the grand total (the TOTAL row). */
  totalRow: MonthRow;
}

const MONTH_NAMES = ['Ene', 'Feb', 'Mar', 'Abr', 'May', 'Jun', 'Jul', 'Ago', 'Sep', 'Oct', 'Nov', 'Dic'];

/** '2025-03' → 'Mar 2025'; anything else as it is. */
export function monthLabel(month: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  const name = m ? MONTH_NAMES[Number(m[2]) - 1] : undefined;
  return m && name ? `${name} ${m[1]}` : month;
}

const amount = (v: unknown): number => (isFiniteNumber(v) ? v : 0);

/**
 * Rows of an answer keyed by nameKey ('advertiser' / 'publisher'), one column per month of
 * `months` (a month the answer lacks counts 0), in the answer's order.
 */
export function monthTable(answer: readonly Record<string, unknown>[], nameKey: string, months: readonly string[]): MonthTable {
  const totalRow = { name: 'TOTAL', total: 0 } as MonthRow;
  for (const m of months) totalRow[m] = 0;
  const rows = answer.map((source) => {
    const row = { name: String(source[nameKey] ?? '-'), total: 0 } as MonthRow;
    for (const m of months) {
      const v = amount(source[m]);
      row[m] = v;
      row.total += v;
      totalRow[m] = (totalRow[m] as number) + v;
    }
    totalRow.total += row.total;
    return row;
  });
  return { months: [...months], rows, totalRow };
}

/** The margin answer's one row (by_month, falling back to top-level month keys) as a table row. */
export function marginRow(
  answer: readonly { by_month?: Record<string, number>; total?: number; [key: string]: unknown }[],
  name: string,
  months: readonly string[],
): MonthRow | null {
  const first = answer[0];
  if (!first) return null;
  const row = { name, total: 0 } as MonthRow;
  for (const m of months) {
    const v = amount(first.by_month?.[m] ?? first[m]);
    row[m] = v;
    row.total += v;
  }
  return row;
}

/** True when a margin row has nothing to show: every month is zero. */
export function marginIsEmpty(row: MonthRow | null, months: readonly string[]): boolean {
  return !row || months.every((m) => row[m] === 0);
}
