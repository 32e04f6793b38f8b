// What the Finance screen reads from its answers without computing any figure: month headers
// ('Mar 2025') and the margin answer's one row for the chosen product (its months and total
// as the server sent them).
import { formatMonthName, isFiniteNumber } from '@adops/core';

/** '2025-03' → 'Mar 2025' (core's formatMonthName: the terminal heads its months the same). */
export const monthLabel = formatMonthName;

/** A month table row: its name and one amount per 'YYYY-MM' key plus 'total'. */
export type MonthRow = Record<string, unknown>;

/**
 * The margin answer's first element as a table row named `name` (by_month first, then the
 * top-level month keys; a month the answer lacks is null, shown as '-'), with the server's total.
 */
export function marginRow(
  answer: readonly { by_month?: Record<string, number>; total?: number; [key: string]: unknown }[],
  name: string,
  months: readonly string[],
): MonthRow | null {
  const first = answer[0];
  if (!first) return null;
  const row: MonthRow = { name, total: isFiniteNumber(first.total) ? first.total : null };
  for (const m of months) {
    const v = first.by_month?.[m] ?? first[m];
    row[m] = isFiniteNumber(v) ? v : null;
  }
  return row;
}

/** True when a margin row has nothing to show: no month with an amount other than zero. */
export function marginIsEmpty(row: MonthRow | null, months: readonly string[]): boolean {
  return !row || months.every((m) => !row[m]);
}
