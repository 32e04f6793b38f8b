// Finance month tables: the columns a user reads (one per month, Total, TOTAL row) and the
// margin row of the chosen product, including months the answer lacks.
import { describe, expect, test } from 'vitest';
import { marginIsEmpty, marginRow, monthLabel, monthTable } from './financeTable';

const MONTHS = ['2025-11', '2025-12', '2026-01'];

describe('monthTable', () => {
  test('each row gets a value per month (missing months count 0) and its Total; TOTAL sums every column', () => {
    const t = monthTable(
      [
        { advertiser: 'AdNova', '2025-11': 10.5, '2026-01': 4 },
        { advertiser: 'BidSphere', '2025-11': 1, '2025-12': 2, '2026-01': 3, '2026-02': 99 },
      ],
      'advertiser',
      MONTHS,
    );
    expect(t.months).toEqual(MONTHS);
    expect(t.rows).toEqual([
      { name: 'AdNova', '2025-11': 10.5, '2025-12': 0, '2026-01': 4, total: 14.5 },
      { name: 'BidSphere', '2025-11': 1, '2025-12': 2, '2026-01': 3, total: 6 },
    ]);
    expect(t.totalRow).toEqual({ name: 'TOTAL', '2025-11': 11.5, '2025-12': 2, '2026-01': 7, total: 20.5 });
  });

  test('non-numeric or non-finite amounts count 0 instead of poisoning the totals', () => {
    const t = monthTable([{ publisher: 'P', '2025-11': 'x', '2025-12': Number.NaN, '2026-01': 5 }], 'publisher', MONTHS);
    expect(t.rows[0]).toMatchObject({ '2025-11': 0, '2025-12': 0, total: 5 });
    expect(t.totalRow.total).toBe(5);
  });

  test('no rows: an empty table whose TOTAL row is all zero', () => {
    const t = monthTable([], 'advertiser', MONTHS);
    expect(t.rows).toEqual([]);
    expect(t.totalRow.total).toBe(0);
  });
});

describe('marginRow', () => {
  test("reads by_month under the product's name; months outside by_month fall back to the top-level keys", () => {
    const row = marginRow([{ segment: 'uno.com', by_month: { '2025-11': 3, '2025-12': -1 }, '2026-01': 2, total: 4 }], 'uno.com', MONTHS);
    expect(row).toEqual({ name: 'uno.com', '2025-11': 3, '2025-12': -1, '2026-01': 2, total: 4 });
    expect(marginIsEmpty(row, MONTHS)).toBe(false);
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
