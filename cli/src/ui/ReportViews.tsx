// Terminal views of the reports that are not one sortable table: the Api Explorer's revenue
// cards, Demand's per-advertiser tables with bars, Finance's three monthly tables.
import React from 'react';
import { Box, Text } from 'ink';
import {
  barPercent,
  formatMoney,
  type AdvertiserRevenue,
  type FinanceAdvertiserRow,
  type FinanceMarginRow,
  type FinancePublisherRow,
} from '@adops/core';
import { Table, type Column } from './Table.js';

/** A row's Total column in Finance: the sum of its month columns. */
export function monthSum(row: Record<string, unknown>, months: readonly string[]): number {
  return months.reduce((sum, m) => sum + (typeof row[m] === 'number' ? (row[m] as number) : 0), 0);
}

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
          <Text bold>{formatMoney(value)}</Text>
        </Box>
      ))}
    </Box>
  );
}

export function DemandView({ data, title }: { data: AdvertiserRevenue; title: string }) {
  const entries = Object.entries(data);
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
              { key: 'date', header: 'Date' },
              { key: 'revenue', header: 'Revenue', align: 'right', format: (v) => formatMoney(v as number, '€') },
              { key: 'margin', header: 'Margin', align: 'right', format: (v) => formatMoney(v as number, '€') },
              { key: 'bar', header: '', format: (_v, p) => bar(p.revenue, largest, 24), color: () => 'blue' },
            ]}
            rows={points}
          />
        </Box>
      ))}
    </Box>
  );
}

interface MonthlyRow extends Record<string, unknown> {
  name: string;
}

function MonthlyTable({
  title,
  titleColor,
  months,
  rows,
  emptyText,
  withTotalsRow,
}: {
  title: string;
  titleColor?: string;
  months: readonly string[];
  rows: MonthlyRow[];
  emptyText: string;
  withTotalsRow: boolean;
}) {
  const money = (v: unknown) => formatMoney(typeof v === 'number' ? v : 0);
  const columns: Column<MonthlyRow>[] = [
    { key: 'name', header: 'Nombre', maxWidth: 30 },
    ...months.map((m) => ({ key: m, header: m, align: 'right' as const, format: money })),
    { key: 'total', header: 'Total', align: 'right', format: money },
  ];
  const shown = rows.map((r) => ({ ...r, id: r.name, total: typeof r.total === 'number' ? r.total : monthSum(r, months) }));
  const sums: Record<string, unknown> = { name: 'TOTAL' };
  for (const key of [...months, 'total']) sums[key] = shown.reduce((s, r) => s + ((r as Record<string, unknown>)[key] as number), 0);
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold color={titleColor}>
        {title}
      </Text>
      <Table columns={columns} rows={shown} totals={withTotalsRow ? sums : null} emptyText={emptyText} />
    </Box>
  );
}

export function FinanceView({
  subtitle,
  months,
  advertisers,
  publishers,
  margin,
}: {
  subtitle: string;
  months: readonly string[];
  advertisers: FinanceAdvertiserRow[];
  publishers: FinancePublisherRow[];
  /** The first (only) margin element: the chosen domain or 'Total'. */
  margin: FinanceMarginRow | null;
}) {
  const hasMargin = margin !== null && Object.values(margin.by_month).some((v) => v !== 0);
  return (
    <Box flexDirection="column">
      <Text bold color="cyan">
        Finance
      </Text>
      <Text dimColor>{subtitle}</Text>
      <MonthlyTable
        title="Revenue mensual - Advertisers"
        months={months}
        rows={advertisers.map((r) => ({ ...r, name: r.advertiser }))}
        emptyText="No hay datos disponibles"
        withTotalsRow
      />
      <MonthlyTable
        title="Revenue mensual - Publishers"
        titleColor="green"
        months={months}
        rows={publishers.map((r) => ({ ...r, name: r.publisher }))}
        emptyText="No hay datos disponibles"
        withTotalsRow
      />
      <MonthlyTable
        title={`Margen mensual - ${margin?.segment ?? 'Total'}`}
        months={months}
        rows={hasMargin && margin ? [{ ...margin.by_month, name: margin.segment, total: margin.total }] : []}
        emptyText="No hay datos de margen"
        withTotalsRow={false}
      />
    </Box>
  );
}
