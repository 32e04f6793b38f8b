// Finance reads its answers as they come: month headers in Spanish and the margin row of the
// chosen product with the server's months and total (nothing summed on the screen).
import { describe, expect, test } from 'vitest';
import { marginIsEmpty, marginRow, monthLabel } from './financeTable';

const MONTHS = ['2025-11', '2025-12', '2026-01'];

describe('marginRow', () => {
  test("reads by_month under the product's name, falls back to the top-level keys and keeps the server's total", () => {
    const row = marginRow([{ segment: 'uno.com', by_month: { '2025-11': 3, '2025-12': -1 }, '2026-01': 2, total: 4.01 }], 'uno.com', MONTHS);
    expect(row).toEqual({ name: 'uno.com', '2025-11': 3, '2025-12': -1, '2026-01': 2, total: 4.01 });
    expect(marginIsEmpty(row, MONTHS)).toBe(false);
  });

  test('a month the answer lacks is empty, not zero', () => {
    const row = marginRow([{ by_month: { '2025-11': 3 }, total: 3 }], 'Total', MONTHS);
    expect(row).toMatchObject({ '2025-11': 3, '2025-12': null, '2026-01': null });
  });

  test('no element, or every month zero, is the empty margin state', () => {
    expect(marginRow([], 'Total', MONTHS)).toBeNull();
    expect(marginIsEmpty(null, MONTHS)).toBe(true);
    const zero = marginRow([{ by_month: { '2025-11': 0, '2025-12': 0, '2026-01': 0 }, total: 0 }], 'Total', MONTHS);
    expect(marginIsEmpty(zero, MONTHS)).toBe(true);
  });
});

test("month headers read 'Ene 2025' … 'Dic 2025'", () => {
  expect(['2025-01', '2025-08', '2025-12'].map(monthLabel)).toEqual(['Ene 2025', 'Ago 2025', 'Dic 2025']);
  expect(monthLabel('total')).toBe('total');
});
