import { Box, Text } from 'ink';
import {
  FINANCE_ROUNDING_NOTE,
  barPercent,
  formatDateDMY,
  formatMoney,
  formatMonthName,
  type AdvertiserRevenue,
  type FinanceMarginRow,
  type FinanceTotals,
} from '@adops/core/lite';
import { networkCurrency } from '../currency.js';
import { Table, layoutTable, type Column } from './Table.js';

/** A proportional bar of `width` cells (core barPercent). */
export function bar(value: number, largest: number, width: number): string {
  return '█'.repeat(Math.round((barPercent(value, largest) / 100) * width));
}

export function RevenueCards({ cards }: { cards: ReadonlyArray<readonly [string, number | null]> }) {
  return (
    <Box flexWrap="wrap">
      {cards.map(([label, value]) => (
        <Box key={label} borderStyle="round" borderColor="gray" paddingX={1} marginRight={1} flexDirection="column" minWidth={18}>
          <Text dimColor>{label}</Text>
          <Text bold>{formatMoney(value, networkCurrency())}</Text>
        </Box>
      ))}
    </Box>
  );
}

/** Demand: a table per advertiser (its days, a revenue bar on one scale for all) and its 'Totales' as the server answered them. */
export function DemandView({ data, title }: { data: AdvertiserRevenue; title: string }) {
  const entries = Object.entries(data.advertisers);
  const largest = Math.max(0, ...entries.flatMap(([, points]) => points.map((p) => p.revenue)));
  return (
    <Box flexDirection="column">
      <Text bold color="cyan">
        {title}
      </Text>
      {entries.length === 0 ? <Text dimColor>No hay datos para este rango de fechas.</Text> : null}
      {entries.map(([advertiser, points]) => (
        <Box key={advertiser} flexDirection="column" marginTop={1}>
          <Text bold>{advertiser}</Text>
          <Table
            rowKey={(p) => p.date}
            columns={[
              { key: 'date', header: 'Date', format: (v) => formatDateDMY(v as string) },
              { key: 'revenue', header: 'Revenue', align: 'right', format: (v) => formatMoney(v as number, networkCurrency()) },
              { key: 'margin', header: 'Margin', align: 'right', format: (v) => formatMoney(v as number, networkCurrency()) },
              { key: 'bar', header: '', format: (_v, p) => bar(p.revenue, largest, 24), color: () => 'blue' },
            ]}
            rows={points}
            totals={data.totals[advertiser] ?? null}
            totalsLabel="Totales"
          />
        </Box>
      ))}
    </Box>
  );
}

interface MonthlyRow extends Record<string, unknown> {
  name: string;
}

/** A Finance table as the server answers it: its rows (each with its Total) and the TOTAL row. */
export interface MonthlyTableData {
  rows: MonthlyRow[];
  totals: FinanceTotals | null;
}

const money = (v: unknown) => formatMoney(typeof v === 'number' ? v : null, networkCurrency());

function monthlyColumns(months: readonly string[]): Column<MonthlyRow>[] {
  return [
    { key: 'name', header: 'Nombre', maxWidth: 30 },
    ...months.map((m) => ({ key: m, header: formatMonthName(m), align: 'right' as const, format: money })),
    { key: 'total', header: 'Total', align: 'right', format: money },
  ];
}

function MonthlyTable({
  title,
  titleColor,
  months,
  table,
  emptyText,
}: {
  title: string;
  titleColor?: string;
  months: readonly string[];
  table: MonthlyTableData;
  emptyText: string;
}) {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold color={titleColor}>
        {title}
      </Text>
      <Table
        columns={monthlyColumns(months)}
        rows={table.rows}
        rowKey={(r) => r.name}
        totals={table.totals ? { ...table.totals, name: 'TOTAL' } : null}
        emptyText={emptyText}
      />
    </Box>
  );
}

/**
 * The months a terminal `width` columns wide can show beside the name and the Total: the latest
 * ones (the older ones are hidden, never cut mid-figure). Widths are those the tables will draw.
 */
export function monthsThatFit(width: number | undefined, months: readonly string[], tables: readonly MonthlyTableData[]): string[] {
  if (!width || months.length === 0) return [...months];
  const columns = monthlyColumns(months);
  const widths = columns.map(() => 0);
  for (const t of tables) {
    layoutTable(columns, t.rows, t.totals ? { ...t.totals, name: 'TOTAL' } : null).widths.forEach((w, i) => {
      widths[i] = Math.max(widths[i], w);
    });
  }
  const gap = 2;
  let used = widths[0] + gap + widths[widths.length - 1];
  let first = months.length;
  while (first > 0 && used + gap + widths[first] <= width) {
    used += gap + widths[first];
    first--;
  }
  return months.slice(Math.min(first, months.length - 1));
}

export function FinanceView({
  subtitle,
  months: allMonths,
  advertisers,
  publishers,
  margin,
  width,
}: {
  subtitle: string;
  months: readonly string[];
  /** The terminal's width: only the latest months that fit are drawn (the rest is said). */
  width?: number;
  advertisers: MonthlyTableData;
  publishers: MonthlyTableData;
  /** The first (only) margin element: the chosen domain or 'Total'. */
  margin: FinanceMarginRow | null;
}) {
  const hasMargin = margin !== null && Object.values(margin.by_month).some((v) => v !== 0);
  const marginTable: MonthlyTableData = {
    rows: hasMargin && margin ? [{ ...margin.by_month, name: margin.segment, total: margin.total }] : [],
    totals: null,
  };
  const months = monthsThatFit(width, allMonths, [advertisers, publishers, marginTable]);
  const hidden = allMonths.slice(0, allMonths.length - months.length);
  return (
    <Box flexDirection="column">
      <Text bold color="cyan">
        Finance
      </Text>
      <Text dimColor>{subtitle}</Text>
      {hidden.length > 0 && (
        <Text color="yellow">
          {`${hidden.length === 1 ? `No cabe el mes ${formatMonthName(hidden[0])}` : `No caben ${hidden.length} meses (${formatMonthName(hidden[0])} a ${formatMonthName(hidden[hidden.length - 1])})`} en ${width} columnas: los totales los incluyen; --from acorta el rango, --csv o --json los dan todos.`}
        </Text>
      )}
      <MonthlyTable title="Revenue mensual - Advertisers" months={months} table={advertisers} emptyText="No hay datos disponibles" />
      <MonthlyTable title="Revenue mensual - Publishers" titleColor="green" months={months} table={publishers} emptyText="No hay datos disponibles" />
      <MonthlyTable title={`Margen mensual - ${margin?.segment ?? 'Total'}`} months={months} table={marginTable} emptyText="No hay datos de margen" />
      <Text dimColor>{FINANCE_ROUNDING_NOTE}</Text>
    </Box>
  );
}
