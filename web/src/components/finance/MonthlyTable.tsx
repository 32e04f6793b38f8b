// A Finance month table: a name column, one column per month, Total and the TOTAL row, all as
// the server answered them. Header clicks ask the server to sort (core's toggle rule); the
// arrow shows the order answered. Amounts in $ with es-ES numbers.
import { useLayoutEffect, useRef } from 'react';
import { formatMoney, type SortState } from '@adops/core';
import { monthLabel, type MonthRow } from './financeTable';
import { networkCurrency } from '../../lib/currency';
import { ScrollRegion } from '../ScrollRegion';

export type HeaderTone = 'blue' | 'green' | 'violet';

const TONES: Record<HeaderTone, { head: string; total: string }> = {
  blue: { head: 'bg-blue-600 text-white', total: 'bg-blue-50' },
  green: { head: 'bg-emerald-700 text-white', total: 'bg-emerald-50' },
  violet: { head: 'bg-violet-600 text-white', total: 'bg-violet-50' },
};

export interface MonthlyTableProps {
  caption: string;
  /** Header of the name column (Advertiser, Publisher, Producto). */
  nameHeader: string;
  /** The rows' key holding the name (also its sort key). */
  nameKey: string;
  months: readonly string[];
  rows: readonly MonthRow[];
  /** The TOTAL row: each month's amount and 'total'. */
  totals?: MonthRow;
  tone: HeaderTone;
  emptyText: string;
  /** The order answered (arrow); with onSort the headers are buttons. */
  sort?: SortState | null;
  onSort?: (key: string) => void;
  busy?: boolean;
}

const money = (v: unknown) => formatMoney(typeof v === 'number' ? v : null, networkCurrency());

export function MonthlyTable({ caption, nameHeader, nameKey, months, rows, totals, tone, emptyText, sort, onSort, busy = false }: MonthlyTableProps) {
  const colors = TONES[tone];
  // Name and Total stay pinned; the months scroll between them, opening on the latest.
  const scroller = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls to the latest month when the table's shape changes, not on every render
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollLeft = el.scrollWidth;
  }, [months.length, rows.length]);
  const pin = (key: string, i: number, bg: string) =>
    i === 0 ? `sticky left-0 z-10 ${bg}` : key === 'total' ? `sticky right-0 z-10 border-l border-gray-200 ${bg}` : '';
  const columns = [
    { key: nameKey, label: nameHeader, numeric: false },
    ...months.map((m) => ({ key: m, label: monthLabel(m), numeric: true })),
    { key: 'total', label: 'Total', numeric: true },
  ];

  return (
    <ScrollRegion
      ref={scroller}
      label={caption}
      aria-busy={busy}
      className={`overflow-x-auto rounded-md border border-gray-200 transition-opacity ${busy ? 'opacity-60' : ''}`}
    >
      <table className="min-w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className={colors.head}>
          <tr>
            {columns.map((c, i) => {
              const active = sort?.key === c.key;
              const sticky = pin(c.key, i, colors.head);
              const align = c.numeric ? 'text-right' : 'text-left';
              return (
                <th
                  key={c.key}
                  scope="col"
                  title={c.numeric && c.key !== 'total' ? c.key : undefined}
                  aria-sort={onSort && active ? (sort!.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                  className={`whitespace-nowrap px-3 py-2 text-xs font-semibold uppercase tracking-wide ${align} ${sticky}`}
                >
                  {onSort && rows.length > 0 ? (
                    <button
                      type="button"
                      onClick={() => onSort(c.key)}
                      className={`inline-flex items-center gap-1 uppercase hover:underline ${c.numeric ? 'flex-row-reverse' : ''}`}
                    >
                      <span>{c.label}</span>
                      <span aria-hidden className={active ? 'text-white' : 'text-white/50'}>
                        {active ? (sort!.dir === 'asc' ? '▲' : '▼') : '↕'}
                      </span>
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100 bg-white">
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-3 py-8 text-center text-gray-500">
                {emptyText}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={String(row[nameKey])} className="group hover:bg-gray-50">
                {columns.map((c, i) => (
                  <td
                    key={c.key}
                    className={`whitespace-nowrap px-3 py-2 ${pin(c.key, i, 'bg-white group-hover:bg-gray-50')} ${
                      !c.numeric
                        ? 'font-medium text-gray-900'
                        : `text-right tabular-nums ${c.key === 'total' ? 'font-semibold text-gray-900' : row[c.key] === 0 ? 'text-gray-500' : 'text-gray-800'}`
                    }`}
                  >
                    {c.numeric ? money(row[c.key]) : String(row[c.key] ?? '-')}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
        {totals && rows.length > 0 && (
          <tfoot className={`border-t-2 border-gray-300 font-semibold text-gray-900 ${colors.total}`}>
            <tr>
              {columns.map((c, i) => (
                <td key={c.key} className={`whitespace-nowrap px-3 py-2 ${pin(c.key, i, colors.total)} ${i === 0 ? '' : 'text-right tabular-nums'}`}>
                  {c.numeric ? money(totals[c.key]) : 'TOTAL'}
                </td>
              ))}
            </tr>
          </tfoot>
        )}
      </table>
    </ScrollRegion>
  );
}
