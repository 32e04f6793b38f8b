// Dashboard (SPEC §2): Advertiser/Publisher/presets/dates filter bar ('Últimos 7 días (con
// hoy)' at first), summary and delta cards (or the server's comparison with the previous period), the 'Trends' chart, 'Top Zones', 'Top Advertisers' and
// the daily 'Analytics' table. Every number arrives computed; this screen only renders.
import { useMemo } from 'react';
import { DASHBOARD_SORT_KEYS, DEFAULT_PAGE_SIZE, SCREEN_DEFAULT_PRESET, SCREEN_PRESETS, contract, formatMoney, todayIn } from '@adops/core';
import { Card } from '../components/Card';
import { ErrorBanner } from '../components/ErrorBanner';
import { Loading, Reloading } from '../components/Loading';
import { ReportFilterBar, initialReportFilters, rangeProblem, toReportQuery, useReportFiltersInUrl } from '../components/ReportFilterBar';
import { DeltaCards, SummaryCards, rangeText } from '../components/dashboard/SummaryCards';
import { TrendsChart } from '../components/dashboard/TrendsChart';
import { TopList } from '../components/dashboard/TopList';
import { AnalyticsTable } from '../components/dashboard/AnalyticsTable';
import { useApi } from '../hooks/useApi';
import { useServerTable } from '../hooks/useServerTable';
import { useUrlParams, useUrlTableView } from '../hooks/useUrlState';
import { reportingTimeZone } from '../lib/timezone';
import {
  useDashboardComparison,
  useDashboardDeltas,
  useDashboardOverview,
  useDashboardTops,
  useRawOptions,
  type ReportQuery,
} from '../hooks/useReports';
import { networkCurrency } from '../lib/currency';

const DEFAULT_PRESET = SCREEN_DEFAULT_PRESET.dashboard;
const URL_FILTERS = { preset: DEFAULT_PRESET, presets: SCREEN_PRESETS.dashboard };
const TABLE_DEFAULTS = { pageSize: DEFAULT_PAGE_SIZE.dashboard, sortKeys: DASHBOARD_SORT_KEYS };

export default function Dashboard() {
  const url = useUrlParams();
  const [filters, setFilters] = useReportFiltersInUrl(url, URL_FILTERS);
  const dailyView = useUrlTableView(url, '', TABLE_DEFAULTS);
  const problem = rangeProblem(filters);
  const query: ReportQuery = useMemo(() => (problem ? null : toReportQuery(filters)), [filters, problem]);

  // 'Comparar con el período anterior' (compare=1 in the URL): the server compares like with like
  // (complete days only when the range runs into today) and says what it compared.
  const compare = url.params.get('compare') === '1';
  const setCompare = (on: boolean) => url.update((p) => (on ? p.set('compare', '1') : p.delete('compare')));
  const today = useMemo(() => todayIn(reportingTimeZone()), []);

  const api = useApi();
  const options = useRawOptions();
  const overview = useDashboardOverview(query);
  const comparison = useDashboardComparison(compare ? query : null);
  const compared = compare ? comparison.data : undefined;
  const daily = useServerTable(query, (q, signal) => api.dashboard.aggregated(q, { signal }), {
    pageSize: DEFAULT_PAGE_SIZE.dashboard,
    store: dailyView,
  });
  const deltas = useDashboardDeltas({ advertiser: query?.advertiser, publisher: query?.publisher });
  const tops = useDashboardTops(query);

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-gray-900">Dashboard</h1>

      <ReportFilterBar
        value={filters}
        onChange={setFilters}
        onReset={() => setFilters(initialReportFilters(DEFAULT_PRESET))}
        presets={SCREEN_PRESETS.dashboard}
        hide={['zone_id', 'geo', 'source']}
        options={{ advertisers: options.data?.advertisers, publishers: options.data?.publishers }}
      />
      <ErrorBanner error={options.error} fallback="Error al cargar los filtros" />
      <ErrorBanner error={problem} />

      <section aria-label="Resumen" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
          <label className="inline-flex cursor-pointer select-none items-center gap-2 text-sm font-medium text-gray-700">
            <input
              type="checkbox"
              checked={compare}
              onChange={(e) => setCompare(e.target.checked)}
              className="h-4 w-4 rounded border-gray-300 text-blue-600 focus:ring-blue-500"
            />
            Comparar con el período anterior
          </label>
          {compared && (
            <p className="text-xs text-gray-500" data-testid="compare-ranges">
              Período {rangeText(compared.period)} · Anterior {rangeText(compared.previous_period)} · {compared.note}
            </p>
          )}
        </div>
        <ErrorBanner error={overview.error} fallback="Error al cargar el resumen" />
        {compare && <ErrorBanner error={comparison.error} fallback="Error al cargar el período anterior" />}
        <SummaryCards
          summary={overview.data?.summary}
          loading={overview.loading && !!query}
          comparison={compare && query ? { answer: compared, loading: comparison.loading } : undefined}
        />
      </section>

      {/* SPEC's daily deltas (yesterday against the day before) unless the range is compared. */}
      {!compare && (
        <section aria-label="Variación diaria" className="space-y-3">
          <ErrorBanner error={deltas.error} fallback="Error al cargar las variaciones" />
          <DeltaCards deltas={deltas.data} loading={deltas.loading} />
        </section>
      )}

      <Card title="Trends" actions={overview.loading && query ? <Reloading /> : null}>
        {overview.data ? (
          <TrendsChart points={overview.data.chart} previous={compared?.previous_chart} today={today} />
        ) : overview.loading && query ? (
          <Loading />
        ) : (
          <p className="py-6 text-center text-sm text-gray-500">Sin datos</p>
        )}
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Top Zones" actions={tops.loading && query ? <Reloading /> : null}>
          <ErrorBanner error={tops.error} fallback="Error al cargar el top de zonas" />
          {!tops.data && tops.loading && query ? (
            <Loading />
          ) : (
            <TopList
              testId="top-zones"
              items={(tops.data?.zones ?? []).map((z) => ({
                key: `${z.publisher}\u0000${z.zone_id}`,
                label: `#${z.rank} ${z.publisher} - ${z.zone_id}`,
                value: `${formatMoney(z.revenue, networkCurrency())} / ${formatMoney(z.margin, networkCurrency())}`,
                amount: z.revenue,
              }))}
            />
          )}
        </Card>
        <Card title="Top Advertisers" actions={tops.loading && query ? <Reloading /> : null}>
          <ErrorBanner error={tops.error} fallback="Error al cargar el top de advertisers" />
          {!tops.data && tops.loading && query ? (
            <Loading />
          ) : (
            <TopList
              testId="top-advertisers"
              barColor="bg-indigo-500"
              items={(tops.data?.advertisers ?? []).map((a) => ({
                key: a.advertiser,
                label: `#${a.rank} ${a.advertiser}`,
                value: formatMoney(a.revenue, networkCurrency()),
                amount: a.revenue,
              }))}
            />
          )}
        </Card>
      </div>

      <Card title="Analytics" actions={daily.loading ? <Reloading /> : null}>
        <ErrorBanner error={daily.error} fallback="Error al cargar la tabla diaria" />
        {!daily.data && daily.loading ? (
          <Loading />
        ) : (
          <AnalyticsTable
            table={daily}
            today={today}
            openExport={(signal, csv) => {
              const { page: _page, page_size: _size, ...rest } = daily.request!;
              return api.open(contract.dashboard.aggregated, { ...rest, format: 'csv', csv }, { signal });
            }}
          />
        )}
      </Card>
    </div>
  );
}
