import { Box, Text } from 'ink';
import {
  DASHBOARD_CARDS,
  DASHBOARD_COLUMNS,
  DASHBOARD_RANKED,
  DASHBOARD_SORT_KEYS,
  formatDateDMY,
  formatMetric,
  formatMoney,
  type ChartPoint,
  type DailyDeltas,
  type DailyRow,
  type DailyTable,
  type DashboardComparison,
  type DashboardOverview,
  type PresetKey,
  type TopAdvertiser,
  type TopZone,
} from '@adops/core/lite';
import { ReportScreen, pagingOf, type ReportView, type TableQuery } from './ReportScreen.js';
import { networkCurrency } from '../currency.js';
import { metricColumns, totalsRow, withRankColours } from './columns.js';
import { bar } from './ReportViews.js';
import { deltaText } from '../text.js';

export { deltaText };

/** Everything the Dashboard shows for one range and filter set. */
export interface DashboardData {
  title: string;
  /** Range and filters in words. */
  subtitle: string;
  overview: DashboardOverview;
  deltas: DailyDeltas;
  /** One page of the 'Analytics' table with its totals (the TQ Avg card's TQ). */
  daily: DailyTable;
  topZones: TopZone[];
  topAdvertisers: TopAdvertiser[];
  /** --compare: the cards against the previous period, as the server compared them (its Δ replaces yesterday's). */
  comparison?: DashboardComparison;
}

/** The Δ row's figures and what they compare, in words. */
function deltasOf(data: DashboardData): { deltas: DailyDeltas; caption: string } {
  if (data.comparison) return { deltas: data.comparison.change, caption: `Δ frente al período anterior. ${data.comparison.note}` };
  return { deltas: data.deltas, caption: 'Δ: variación de ayer frente a anteayer (días completos)' };
}

const DELTA_KEYS = ['revenue', 'margin', 'impressions', 'clicks', 'ctr', 'tq'] as const;
const DELTA_LABELS: Record<(typeof DELTA_KEYS)[number], string> = {
  revenue: 'Revenue',
  margin: 'Margin',
  impressions: 'Impressions',
  clicks: 'Clicks',
  ctr: 'CTR%',
  tq: 'TQ',
};

const SPARK = '▁▂▃▄▅▆▇█';
const SPARK_WIDTH = 60;

/** One block per day (consecutive days summed when the range is wider than the line). */
export function sparkline(values: readonly number[], width = SPARK_WIDTH): string {
  if (values.length === 0) return '';
  const size = Math.ceil(values.length / width);
  const buckets: number[] = [];
  for (let i = 0; i < values.length; i += size) buckets.push(values.slice(i, i + size).reduce((a, b) => a + b, 0));
  const min = Math.min(...buckets);
  const max = Math.max(...buckets);
  if (!(max > min)) return (max > 0 ? SPARK[3] : SPARK[0]).repeat(buckets.length);
  return buckets.map((v) => SPARK[Math.round(((v - min) / (max - min)) * (SPARK.length - 1))]).join('');
}

function Card({ label, value, color, width = 17 }: { label: string; value: string; color?: string; width?: number }) {
  return (
    <Box borderStyle="round" borderColor="gray" paddingX={1} marginRight={1} flexDirection="column" width={width}>
      <Text dimColor wrap="truncate-end">
        {label}
      </Text>
      <Text bold color={color} wrap="truncate-end">
        {value}
      </Text>
    </Box>
  );
}

/** Short terminals: each card and its delta on one line, two or three to a row. */
function CompactCards({ data }: { data: DashboardData }) {
  const { summary } = data.overview;
  const { deltas } = deltasOf(data);
  return (
    <Box flexWrap="wrap">
      {DASHBOARD_CARDS.map(({ key, header }) => {
        const d = deltaText(deltas[key as (typeof DELTA_KEYS)[number]] ?? null);
        return (
          <Box key={key} width={38} marginRight={1}>
            <Box width={12}>
              <Text dimColor>{header}</Text>
            </Box>
            <Box width={14} justifyContent="flex-end">
              <Text bold>{formatMetric(key, summary[key as keyof typeof summary], networkCurrency())}</Text>
            </Box>
            <Box width={11} justifyContent="flex-end">
              <Text color={d.color}>{d.text}</Text>
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

function Trend({ chart, compact }: { chart: ChartPoint[]; compact?: boolean }) {
  if (chart.length === 0) return null;
  const revenue = chart.map((p) => p.revenue);
  if (compact)
    return (
      <Box>
        <Text bold>Trends · Revenue </Text>
        <Text color="blue">{sparkline(revenue, 40)}</Text>
        <Text dimColor>
          {' '}
          mín. {formatMoney(Math.min(...revenue), networkCurrency())} · máx. {formatMoney(Math.max(...revenue), networkCurrency())}
        </Text>
      </Box>
    );
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>Trends · Revenue</Text>
      <Box>
        <Text dimColor>{formatDateDMY(chart[0].date)} </Text>
        <Text color="blue">{sparkline(revenue)}</Text>
        <Text dimColor> {formatDateDMY(chart[chart.length - 1].date)}</Text>
      </Box>
      <Text dimColor>
        mín. {formatMoney(Math.min(...revenue), networkCurrency())} · máx. {formatMoney(Math.max(...revenue), networkCurrency())}
      </Text>
    </Box>
  );
}

function TopList({ title, items }: { title: string; items: Array<{ key: string; label: string; amount: string; revenue: number }> }) {
  const largest = Math.max(0, ...items.map((i) => i.revenue));
  return (
    <Box flexDirection="column" marginRight={4} width={72}>
      <Text bold>{title}</Text>
      {items.length === 0 ? <Text dimColor>No data</Text> : null}
      {items.map((item) => (
        <Box key={item.key}>
          <Box width={30}>
            <Text wrap="truncate-end">{item.label}</Text>
          </Box>
          <Box width={24} justifyContent="flex-end">
            <Text>{item.amount}</Text>
          </Box>
          <Text color="blue"> {bar(item.revenue, largest, 16)}</Text>
        </Box>
      ))}
    </Box>
  );
}

export function DashboardHeader({ data, compact = false }: { data: DashboardData; compact?: boolean }) {
  const { summary, chart } = data.overview;
  const { deltas, caption } = deltasOf(data);
  const tops = (
    <Box marginTop={1} flexWrap="wrap">
      <TopList
        title="Top Zones"
        items={data.topZones.map((z) => ({
          key: `${z.publisher}\u0000${z.zone_id}`,
          label: `#${z.rank} ${z.publisher} - ${z.zone_id}`,
          amount: `${formatMoney(z.revenue, networkCurrency())} / ${formatMoney(z.margin, networkCurrency())}`,
          revenue: z.revenue,
        }))}
      />
      <TopList
        title="Top Advertisers"
        items={data.topAdvertisers.map((a) => ({
          key: a.advertiser,
          label: `#${a.rank} ${a.advertiser}`,
          amount: formatMoney(a.revenue, networkCurrency()),
          revenue: a.revenue,
        }))}
      />
    </Box>
  );
  if (compact)
    return (
      <Box flexDirection="column">
        <CompactCards data={data} />
        <Text dimColor>{caption}</Text>
        <Trend chart={chart} compact />
        {tops}
      </Box>
    );
  return (
    <Box flexDirection="column">
      <Box flexWrap="wrap">
        {DASHBOARD_CARDS.map(({ key, header }) => (
          <Card key={key} label={header} value={formatMetric(key, summary[key as keyof typeof summary], networkCurrency())} />
        ))}
      </Box>
      <Box flexWrap="wrap">
        {DELTA_KEYS.map((key) => {
          const d = deltaText(deltas[key]);
          return <Card key={key} label={`Δ ${DELTA_LABELS[key]}`} value={d.text} color={d.color} />;
        })}
      </Box>
      <Text dimColor>{caption}</Text>
      <Trend chart={chart} />
      {tops}
    </Box>
  );
}

/** The Dashboard as a report view: the header above the 'Analytics' page, rank colours and totals from the server. */
export function dashboardView(data: DashboardData, compact = false): ReportView<DailyRow> {
  return {
    title: data.title,
    subtitle: data.subtitle,
    header: <DashboardHeader data={data} compact={compact} />,
    tableTitle: 'Analytics',
    columns: withRankColours(metricColumns<DailyRow>(DASHBOARD_COLUMNS), DASHBOARD_RANKED),
    rows: data.daily.rows,
    totals: totalsRow(data.daily.totals),
    emptyText: 'No data',
    paging: pagingOf(data.daily),
  };
}

export interface DashboardProps {
  initial: DashboardData;
  /** The initial range's preset (null for --from/--to). */
  preset?: PresetKey | null;
  interactive: boolean;
  presets?: readonly PresetKey[];
  /** Fetches the Dashboard for a query: the whole of it for a new preset, else the table's page. */
  load: (query: TableQuery, shown: TableQuery) => Promise<DashboardData>;
  /** Terminal rows; below COMPACT_BELOW the cards shrink and Tab switches summary/table. */
  terminalRows?: number;
  /** Fit the table to the terminal's width (< and > scroll its columns). */
  fit?: boolean;
}

/** Terminals shorter than this get the compact, one-panel-at-a-time Dashboard. */
export const COMPACT_BELOW = 50;

export function Dashboard({ initial, preset = null, interactive, presets, load, terminalRows, fit }: DashboardProps) {
  const compact = interactive && terminalRows !== undefined && terminalRows < COMPACT_BELOW;
  return (
    <ReportScreen<DailyRow>
      split={compact}
      initial={dashboardView(initial, compact)}
      preset={preset}
      sortKeys={DASHBOARD_SORT_KEYS}
      interactive={interactive}
      presets={presets}
      load={async (query, shown) => dashboardView(await load(query, shown), compact)}
      rowKey={(row) => row.date}
      fit={fit}
    />
  );
}
