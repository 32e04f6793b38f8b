// Demand (SPEC §2): revenue and margin by date for each advertiser, one bar-chart card each,
// under the shared filter bar (Zone ID, Publisher, presets, dates). Opens on 'Mes actual';
// Reset clears zone and publisher and goes back to the month's start through today. Each card's
// totals and the 'Descargar CSV' file (every advertiser's day) come from the server.
import { useMemo } from 'react';
import { SCREEN_DEFAULT_PRESET, SCREEN_PRESETS, TABLE_CSV, contract, todayIn, type AdvertiserRevenue } from '@adops/core';
import { reportingTimeZone } from '../lib/timezone';
import { useApi } from '../hooks/useApi';
import { useAsync } from '../hooks/useAsync';
import { ReportFilterBar, initialReportFilters, rangeProblem, toReportQuery, useReportFiltersInUrl } from '../components/ReportFilterBar';
import { useUrlParams } from '../hooks/useUrlState';
import { Card } from '../components/Card';
import { ErrorBanner } from '../components/ErrorBanner';
import { Loading } from '../components/Loading';
import { AdvertiserChart } from '../components/demand/AdvertiserChart';
import { ExportButton } from '../components/ExportButton';

/** Each advertiser is its own card, so the bar filters by zone and publisher only. */
const HIDDEN = ['advertiser', 'geo', 'source'] as const;
const URL_FILTERS = { preset: SCREEN_DEFAULT_PRESET.demand, presets: SCREEN_PRESETS.demand };

/** The largest revenue or margin bar of every advertiser (the shared axis' top); undefined when none. */
export function largestBar(data: AdvertiserRevenue | undefined): number | undefined {
  let top: number | undefined;
  for (const points of Object.values(data?.advertisers ?? {}))
    for (const p of points) for (const v of [p.revenue, p.margin]) if (Number.isFinite(v) && (top === undefined || v > top)) top = v;
  return top === undefined || top <= 0 ? undefined : top;
}

export default function Demand() {
  const api = useApi();
  const url = useUrlParams();
  const [filters, setFilters] = useReportFiltersInUrl(url, URL_FILTERS);
  const problem = rangeProblem(filters);
  const query = problem ? null : toReportQuery(filters);
  const key = JSON.stringify(query);

  const options = useAsync((signal) => api.dashboard.rawOptions(undefined, { signal }), [api]);
  const demand = useAsync((signal) => (query ? api.demand.advertiserRevenue(query, { signal }) : Promise.resolve(undefined)), [api, key]);
  const advertisers = Object.entries(demand.data?.advertisers ?? {});
  const today = useMemo(() => todayIn(reportingTimeZone()), []);
  // 'Misma escala': every chart's axis tops at the largest bar the server answered (scale=shared).
  const shared = url.params.get('scale') === 'shared';
  const setShared = (on: boolean) => url.update((p) => (on ? p.set('scale', 'shared') : p.delete('scale')));
  const sharedMax = useMemo(() => (shared ? largestBar(demand.data) : undefined), [shared, demand.data]);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold text-gray-900">Demand</h1>
        <p className="text-sm text-gray-500">Revenue y margen por advertiser y fecha (€)</p>
      </div>

      <ReportFilterBar
        value={filters}
        onChange={setFilters}
        onReset={() => setFilters(initialReportFilters('mes_actual'))}
        options={{ publishers: options.data?.publishers }}
        presets={SCREEN_PRESETS.demand}
        hide={HIDDEN}
      />
      {options.error != null && <ErrorBanner error={options.error} fallback="Error al cargar los filtros" />}
      {problem && (
        <p role="alert" className="text-sm text-red-600">
          {problem}
        </p>
      )}

      <div className="flex flex-wrap items-center justify-between gap-2">
        <label className="inline-flex cursor-pointer select-none items-center gap-2 text-sm font-medium text-gray-700">
          <input
            type="checkbox"
            checked={shared}
            onChange={(e) => setShared(e.target.checked)}
            className="h-4 w-4 rounded border-gray-300 text-blue-600 focus:ring-blue-500"
          />
          Misma escala para todos los advertisers
        </label>
        <ExportButton
          label="Descargar CSV"
          file={query ? TABLE_CSV.demand.file(query.start_date, query.end_date) : 'demand.csv'}
          disabled={!query || demand.loading || demand.error != null || advertisers.length === 0}
          open={(signal, csv) => api.open(contract.demand.advertiserRevenue, { ...query!, format: 'csv', csv }, { signal })}
        />
      </div>

      {demand.error ? (
        <ErrorBanner error={demand.error} fallback="Error al cargar el revenue de advertisers" />
      ) : demand.loading ? (
        <Card>
          <Loading label="Cargando revenue de advertisers…" />
        </Card>
      ) : query && advertisers.length === 0 ? (
        <Card>
          <p className="py-8 text-center text-sm text-gray-500">No hay datos de advertisers para este rango de fechas.</p>
        </Card>
      ) : (
        <div className="grid gap-6 xl:grid-cols-2">
          {advertisers.map(([advertiser, points]) => (
            <AdvertiserChart
              key={advertiser}
              advertiser={advertiser}
              points={points}
              totals={demand.data?.totals[advertiser]}
              maxValue={sharedMax}
              today={today}
            />
          ))}
        </div>
      )}
    </div>
  );
}
