// Terminal table columns from core's metrics registry: headers, es-ES formats and alignment,
// and the rank colours of money columns (the server's rank levels → terminal colours).
import { METRICS, formatMetric, type CurrencySymbol, type MetricColumn, type MetricKey, type RankLevel } from '@adops/core/lite';
import { networkCurrency } from '../currency.js';
import type { Column } from './Table.js';

export interface MetricColumnOptions {
  currency?: CurrencySymbol;
  /** Decimals per key for the totals row (the Api Explorer's 4-decimal CPC total). */
  totalsDecimals?: Partial<Record<MetricKey, number>>;
  /** Longest text cell (zone ids, publisher names). */
  textWidth?: number;
}

/** Columns for a metric list; the totals row is recognised by its `__totals` marker. */
export function metricColumns<Row>(list: readonly MetricColumn[], options: MetricColumnOptions = {}): Column<Row>[] {
  return list.map(({ key, header }) => {
    const text = METRICS[key].kind === 'text';
    return {
      key,
      header,
      align: text ? 'left' : 'right',
      maxWidth: text ? (options.textWidth ?? 28) : undefined,
      format: (value: unknown, row: Row) => {
        const decimals = (row as { __totals?: boolean }).__totals ? options.totalsDecimals?.[key] : undefined;
        return formatMetric(key, value, options.currency ?? networkCurrency(), { decimals });
      },
    } satisfies Column<Row>;
  });
}

/** A totals object marked so column formats can tell it from a row. */
export function totalsRow(values: object): Record<string, unknown> {
  return { ...values, __totals: true };
}

const RANK_COLOURS: Record<RankLevel, string> = {
  5: 'greenBright',
  4: 'green',
  3: 'yellow',
  2: 'yellowBright',
  1: 'red',
  0: 'redBright',
};

/** Colours the given columns by the rank level the server gave each row (`row.rank[key]`, SPEC's thresholds). */
export function withRankColours<Row extends { rank: Partial<Record<string, number | null>> }>(
  columns: Column<Row>[],
  keys: readonly MetricKey[],
): Column<Row>[] {
  return columns.map((col) => {
    if (!keys.includes(col.key as MetricKey)) return col;
    return {
      ...col,
      color: (_value: unknown, row: Row) => {
        if ((row as { __totals?: boolean }).__totals) return undefined;
        const level = row.rank?.[col.key];
        return level === null || level === undefined ? undefined : RANK_COLOURS[level as RankLevel];
      },
    };
  });
}
