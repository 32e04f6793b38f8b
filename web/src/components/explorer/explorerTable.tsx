// The Api Explorer table's columns: core's list (Date … TQ), each cell formatted by the metrics
// registry, the 'Totales' row from the server's totals of every matching row (CPC with 4
// decimals, SPEC §9).
import {
  API_EXPLORER_COLUMNS,
  API_EXPLORER_TOTAL_DECIMALS,
  METRICS,
  formatMetric,
  metricHelp,
  type MetricKey,
  type ReportTotals,
  type ZoneRow,
} from '@adops/core';
import type { Column } from '../DataTable';
import { networkCurrency } from '../../lib/currency';

const cellValue = (row: object, key: MetricKey): unknown => (row as Record<string, unknown>)[key];

export function explorerColumns(totals: ReportTotals | undefined): Column<ZoneRow>[] {
  return API_EXPLORER_COLUMNS.map(({ key, header }) => {
    const numeric = METRICS[key].kind !== 'text';
    return {
      key,
      header,
      help: metricHelp(key),
      align: numeric ? 'right' : 'left',
      cell: (row: ZoneRow) => formatMetric(key, cellValue(row, key), networkCurrency()),
      total: numeric && totals ? formatMetric(key, cellValue(totals, key), networkCurrency(), { decimals: API_EXPLORER_TOTAL_DECIMALS[key] }) : '',
    } satisfies Column<ZoneRow>;
  });
}
