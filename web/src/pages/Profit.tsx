// Rentabilidad (issue 13): Meta spend against the estimated revenue its visits earned, for a
// range (presets as elsewhere, in the URL): one row per campaign opening to ad sets, ads and
// keywords, totals, sorting and pages by the server, losing rows marked, spend vs revenue by
// day, the CSV export, which days are estimates, missing exchange rates named instead of
// figures; admins sync spend from Meta and keep the monthly rates. Every figure arrives computed.
// What the figures lack is said above them: days without synced spend ('sin sincronizar', never
// 0), estimated and partial days, and when spend was last synced; an admin opening a stale range
// syncs it and the screen loads again.
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  addDays,
  completenessNotes,
  PROFIT_PAGE_SIZE,
  PROFIT_SORT_KEYS,
  SCREEN_DEFAULT_PRESET,
  SCREEN_PRESETS,
  contract,
  daysBetween,
  formatDateDMY,
  formatInt,
  MAX_SPEND_SYNC_DAYS,
  profitCsvFile,
  syncedAtText,
  type MissingRate,
  type ProfitRow,
  type ProfitTable as ProfitPage,
  type SpendSyncResult,
} from '@adops/core';
import { Card } from '../components/Card';
import { ErrorBanner } from '../components/ErrorBanner';
import { ExportButton } from '../components/ExportButton';
import { Loading, Reloading } from '../components/Loading';
import { ReportFilterBar, initialReportFilters, rangeProblem, useReportFiltersInUrl } from '../components/ReportFilterBar';
import { primaryButton } from '../components/styles';
import { ExchangeRatesCard } from '../components/profit/ExchangeRatesCard';
import { MissingRatesBanner } from '../components/profit/MissingRatesBanner';
import { ProfitLevel, figureText } from '../components/profit/ProfitTable';
import { SpendRevenueChart } from '../components/profit/SpendRevenueChart';
import { profitText } from '../components/profit/format';
import { useApi } from '../hooks/useApi';
import { useAsync } from '../hooks/useAsync';
import { useServerTable, type ServerTable } from '../hooks/useServerTable';
import { useSession } from '../hooks/useSession';
import { useUrlParams, useUrlTableView } from '../hooks/useUrlState';
import { errorText } from '../lib/errors';
import { reportingTimeZone } from '../lib/timezone';

const DEFAULT_PRESET = SCREEN_DEFAULT_PRESET.profit;
const URL_FILTERS = { preset: DEFAULT_PRESET, presets: SCREEN_PRESETS.profit };
/** Most spend first until a header is clicked (the server's default order, shown with its arrow). */
const DEFAULT_SORT = { key: 'spend', dir: 'desc' } as const;
const TABLE_VIEW = { pageSize: PROFIT_PAGE_SIZE, pageSizes: [PROFIT_PAGE_SIZE], sort: DEFAULT_SORT, sortKeys: PROFIT_SORT_KEYS };
const HIDDEN = ['zone_id', 'advertiser', 'publisher', 'geo', 'source'] as const;
/** The chart reads every day of the range: pages of this size, as many as the range needs. */
const DAYS_PAGE = 500;

function syncText(r: SpendSyncResult): string {
  return (
    `Gasto sincronizado del ${formatDateDMY(r.start_date)} al ${formatDateDMY(r.end_date)}: ${formatInt(r.rows)} filas de Meta ` +
    `(${formatInt(r.inserted)} nuevas, ${formatInt(r.updated)} cambiadas, ${formatInt(r.unchanged)} sin cambios) de ${formatInt(r.ads)} anuncios` +
    (r.currencies.length ? ` en ${r.currencies.join(', ')}.` : '.')
  );
}

export default function Profit() {
  const api = useApi();
  const { user } = useSession();
  const isAdmin = !!user?.is_admin;
  const url = useUrlParams();
  const [filters, setFilters] = useReportFiltersInUrl(url, URL_FILTERS);
  const view = useUrlTableView(url, '', TABLE_VIEW);
  const problem = rangeProblem(filters);
  const range = useMemo(() => (problem ? null : { start_date: filters.from, end_date: filters.to }), [problem, filters.from, filters.to]);
  /** Bumped after a sync or a rate change: every table and the chart load again. */
  const [version, setVersion] = useState(0);
  const refresh = () => setVersion((v) => v + 1);

  const campaigns = useServerTable(range ? { ...range, by: 'campaign' as const } : null, (q, signal) => api.profit.table(q, { signal }), {
    pageSize: PROFIT_PAGE_SIZE,
    sort: DEFAULT_SORT,
    store: view,
    version,
  });
  const totals = campaigns.fresh ? campaigns.data?.totals : undefined;
  const currency = totals?.currency ?? 'USD';

  const days = useAsync(
    async (signal): Promise<{ rows: ProfitRow[]; totals: ProfitPage['totals'] } | undefined> => {
      if (!range) return undefined;
      const rows: ProfitRow[] = [];
      for (let page = 1; ; page++) {
        const answer = await api.profit.table({ ...range, by: 'day', sort: 'key:asc', page, page_size: DAYS_PAGE }, { signal });
        rows.push(...answer.rows);
        if (page >= answer.page_count) return { rows, totals: answer.totals };
      }
    },
    [api, range?.start_date, range?.end_date, version],
  );

  const rates = useAsync((signal) => api.profit.rates(undefined, { signal }), [api]);
  const [ratesAfter, setRatesAfter] = useState<typeof rates.data>(undefined);
  const [prefill, setPrefill] = useState<MissingRate | null>(null);

  const [sync, setSync] = useState<{ busy: boolean; auto: boolean; result: SpendSyncResult | null; error: string | null }>({
    busy: false,
    auto: false,
    result: null,
    error: null,
  });
  /** Syncs the range shown (its last MAX_SPEND_SYNC_DAYS days when longer; by hand with no range, the default days). */
  const runSync = async (auto = false) => {
    setSync({ busy: true, auto, result: null, error: null });
    try {
      const body = !range
        ? {}
        : daysBetween(range.start_date, range.end_date) <= MAX_SPEND_SYNC_DAYS
          ? range
          : { start_date: addDays(range.end_date, -(MAX_SPEND_SYNC_DAYS - 1)), end_date: range.end_date };
      const result = await api.profit.syncSpend(body);
      setSync({ busy: false, auto, result, error: null });
      refresh();
    } catch (e) {
      setSync({ busy: false, auto, result: null, error: errorText(e, 'No se pudo sincronizar el gasto') });
    }
  };

  // An admin opening a stale range (unsynced days, or a sync older than the schedule's) syncs it once and loads again.
  const autoSynced = useRef(new Set<string>());
  useEffect(() => {
    if (!isAdmin || !range || !totals?.spend_stale || sync.busy) return;
    const key = `${range.start_date}|${range.end_date}`;
    if (autoSynced.current.has(key)) return;
    autoSynced.current.add(key);
    void runSync(true);
  });

  const tz = useMemo(reportingTimeZone, []);
  const missing = totals?.missing_rates ?? [];
  const notes = totals ? completenessNotes(totals, (v) => profitText('revenue', v, currency)) : [];

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold text-gray-900">Rentabilidad</h1>
        <p className="text-sm text-gray-500">Gasto en Meta frente al revenue estimado de sus visitas ({currency})</p>
      </div>
      {totals && (
        <p data-testid="spend-synced-at" className="-mt-4 text-xs text-gray-500">
          {syncedAtText(totals.spend_synced_at, tz)}
        </p>
      )}

      <ReportFilterBar
        value={filters}
        onChange={setFilters}
        onReset={() => setFilters(initialReportFilters(DEFAULT_PRESET))}
        presets={SCREEN_PRESETS.profit}
        hide={HIDDEN}
      />
      <ErrorBanner error={problem} />

      <div className="flex flex-wrap items-center gap-3">
        <ExportButton
          label="Descargar CSV"
          file={range ? profitCsvFile('campaign', range.start_date, range.end_date) : 'rentabilidad.csv'}
          disabled={!range || campaigns.loading || !campaigns.fresh || !!campaigns.error || (campaigns.data?.total_rows ?? 0) === 0}
          open={(signal, csv) => {
            const { page: _page, page_size: _size, ...rest } = campaigns.request!;
            return api.open(contract.profit.table, { ...rest, format: 'csv', csv }, { signal });
          }}
        />
        {isAdmin && (
          <button type="button" className={primaryButton} onClick={() => void runSync()} disabled={sync.busy}>
            {sync.busy ? 'Sincronizando…' : 'Sincronizar gasto'}
          </button>
        )}
        {sync.busy && sync.auto && (
          <p role="status" data-testid="auto-sync" className="text-sm text-blue-700">
            El gasto de este rango no estaba al día: sincronizando con Meta…
          </p>
        )}
        {totals && (
          <p className="ml-auto text-sm text-gray-600" data-testid="profit-summary">
            Beneficio{' '}
            <strong data-testid="profit-total" className={totals.profit !== null && totals.profit < 0 ? 'text-red-700' : 'text-gray-900'}>
              {figureText('profit', totals, currency)}
            </strong>{' '}
            · ROI <strong className="text-gray-900">{figureText('roi', totals, currency)}</strong>
          </p>
        )}
      </div>
      {sync.result && (
        <p role="status" data-testid="sync-result" className="rounded-md border border-green-200 bg-green-50 px-4 py-2 text-sm text-green-800">
          {sync.auto ? 'El gasto de este rango no estaba al día y se ha sincronizado. ' : ''}
          {syncText(sync.result)}
        </p>
      )}
      {sync.error && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-2 text-sm text-red-700">
          {sync.error}
        </p>
      )}

      <MissingRatesBanner
        missing={missing}
        currency={currency}
        isAdmin={isAdmin}
        onAdd={(m) => {
          setPrefill({ ...m });
          document.getElementById('tipos-de-cambio')?.scrollIntoView({ block: 'start' });
        }}
      />
      {notes.length > 0 && (
        <div
          role="note"
          data-testid="completeness-notes"
          className="space-y-1 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          {notes.map((n) => (
            <p key={n.kind}>{n.text}</p>
          ))}
          {totals?.spend_stale && !isAdmin && (
            <p className="text-amber-800">Un administrador puede sincronizar el gasto al abrir esta pantalla o con «Sincronizar gasto».</p>
          )}
        </div>
      )}

      <Card title="Gasto y revenue por día" actions={days.loading && range ? <Reloading /> : null}>
        <ErrorBanner error={days.error} fallback="Error al cargar el gráfico" />
        {days.data ? (
          <SpendRevenueChart
            days={days.data.rows}
            estimatedDays={days.data.totals.estimated_days}
            unsyncedDays={days.data.totals.unsynced_days}
            currency={days.data.totals.currency}
          />
        ) : days.loading && range ? (
          <Loading />
        ) : null}
      </Card>

      <Card title="Campañas" actions={campaigns.loading && campaigns.data ? <Reloading /> : null}>
        {range ? (
          <ProfitLevel
            by="campaign"
            table={campaigns as ServerTable<object, ProfitPage>}
            range={range}
            version={version}
            caption="Rentabilidad por campaña"
          />
        ) : (
          <p className="py-6 text-center text-sm text-gray-500">Elige un rango de fechas.</p>
        )}
      </Card>

      <div id="tipos-de-cambio" className="scroll-mt-20">
        <ExchangeRatesCard
          rates={ratesAfter ?? rates.data}
          loading={rates.loading}
          error={rates.error}
          isAdmin={isAdmin}
          prefill={prefill}
          onChanged={(after) => {
            setRatesAfter(after);
            refresh();
          }}
        />
      </div>
      {!isAdmin && <p className="text-xs text-gray-500">Solo un administrador sincroniza el gasto y fija los tipos de cambio.</p>}
    </div>
  );
}
