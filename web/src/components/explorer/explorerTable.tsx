// The Api Explorer table and its CSV: core's column list (Date … TQ), each cell formatted by
// the metrics registry, a 'Totales' row from core's totals (CPC with 4 decimals, SPEC §9).
import {
  API_EXPLORER_COLUMNS,
  METRICS,
  formatMetric,
  roundMetric,
  toCsv,
  totals,
  type MetricKey,
  type ZoneRow,
} from '@adops/core';
import type { Column } from '../DataTable';

/** The Api Explorer shows the CPC total with 4 decimals; every other cell uses the registry's. */
const TOTAL_DECIMALS: Partial<Record<MetricKey, number>> = { cpc: 4 };

const valueOf = (row: object, key: MetricKey): unknown => (row as Record<string, unknown>)[key];

export function explorerColumns(rows: readonly ZoneRow[]): Column<ZoneRow>[] {
  const sums = totals(rows);
  return API_EXPLORER_COLUMNS.map(({ key, header }) => {
    const numeric = METRICS[key].kind !== 'text';
    return {
      key,
      header,
      align: numeric ? 'right' : 'left',
      cell: (row: ZoneRow) => formatMetric(key, valueOf(row, key)),
      total: numeric ? formatMetric(key, valueOf(sums, key), '$', { decimals: TOTAL_DECIMALS[key] }) : '',
    } satisfies Column<ZoneRow>;
  });
}

/** ad_report.csv: the same columns, numbers rounded as shown (plain dots, no currency). */
export function explorerCsv(rows: readonly ZoneRow[]): string {
  const shown = rows.map((row) => {
    const out: Partial<Record<MetricKey, unknown>> = {};
    for (const { key } of API_EXPLORER_COLUMNS)
      out[key] = METRICS[key].kind === 'text' ? valueOf(row, key) : roundMetric(key, valueOf(row, key));
    return out;
  });
  return toCsv(API_EXPLORER_COLUMNS, shown, { bom: true });
}
