// 'Campañas con métricas (Facebook)' (SPEC §2, §9): the ad account's campaigns with their
// Meta metrics for a range; status filter (default Activas), range default yesterday, totals
// over every matching campaign, sortable columns and 20 rows per page — sorted, paged and
// totalled by the server (CTR, CPC and CPM arrive computed). Rentabilidad's estimated revenue,
// profit and ROI of each campaign over the range arrive beside them (the same profit query); a
// missing exchange rate is named in a banner and leaves profit and ROI empty; unsynced spend,
// estimated and partial days are said in a note and marked in the cells, as on Rentabilidad.
import { DATE_RANGE_INCOMPLETE, DATE_RANGE_REVERSED } from '../lib/voice';
import { useMemo } from 'react';
import {
  ApiError,
  CAMPAIGNS_PAGE_SIZE,
  completenessNotes,
  syncedAtText,
  UNSYNCED_CELL,
  CAMPAIGN_SORT_KEYS,
  contract,
  INSIGHTS_STATUS_LABELS,
  formatDateTimeDMY,
  formatInt,
  formatMetric,
  formatAmount,
  formatMoney,
  isValidYmd,
  PROFIT_METRICS,
  profitMetricHelp,
  presetRange,
  type CampaignInsight,
  type InsightsStatus,
} from '@adops/core';
import { useApi } from '../hooks/useApi';
import { shownPage, useServerTable } from '../hooks/useServerTable';
import { errorText } from '../lib/errors';
import { Card } from '../components/Card';
import { DataTable, type Column } from '../components/DataTable';
import { Loading } from '../components/Loading';
import { Pagination } from '../components/Pagination';
import { inputClass, secondaryButton } from '../components/styles';
import { FormField } from '../components/FormField';
import { NoDataIcon, StatusIcon } from '../components/campaigns/CampaignStatus';
import { reportingTimeZone } from '../lib/timezone';
import { DateInput } from '../components/DateInput';
import { ExportButton } from '../components/ExportButton';
import { useUrlParams, useUrlTableView, useUrlValue } from '../hooks/useUrlState';
import { clearPages, readDay, setParam } from '../lib/urlState';
import { useSession } from '../hooks/useSession';
import { LosingMark } from '../components/profit/ProfitTable';
import { MissingRatesBanner } from '../components/profit/MissingRatesBanner';
import { networkMoney, profitText } from '../components/profit/format';

const EMPTY = 'No se encontraron campañas con métricas.';
const STATUSES = Object.keys(INSIGHTS_STATUS_LABELS) as InsightsStatus[];
/** Newest campaign first until a header is clicked (the server's default order, shown with its arrow). */
const DEFAULT_SORT = { key: 'created_at', dir: 'desc' } as const;

const TABLE_VIEW = { pageSize: CAMPAIGNS_PAGE_SIZE, pageSizes: [CAMPAIGNS_PAGE_SIZE], sort: DEFAULT_SORT, sortKeys: CAMPAIGN_SORT_KEYS };

/** The list's filters in the URL: status (default ACTIVE), from and to (default yesterday). */
export interface CampaignFilters {
  status: InsightsStatus;
  from: string;
  to: string;
}

export function readCampaignFilters(params: URLSearchParams, yesterday: string): CampaignFilters {
  const status = params.get('status');
  return {
    status: status !== null && STATUSES.includes(status as InsightsStatus) ? (status as InsightsStatus) : 'ACTIVE',
    from: readDay(params, 'from') ?? yesterday,
    to: readDay(params, 'to') ?? yesterday,
  };
}

export function writeCampaignFilters(params: URLSearchParams, f: CampaignFilters, yesterday: string): void {
  setParam(params, 'status', f.status, 'ACTIVE');
  setParam(params, 'from', f.from, yesterday);
  setParam(params, 'to', f.to, yesterday);
  clearPages(params);
}

const campaignsText = (n: number) => (n === 1 ? '1 campaña' : `${formatInt(n)} campañas`);

/** '2025-03-05T09:10:00Z' → '05/03/2025 10:10' on the reporting zone's clock. */
const createdAt = (iso: string, tz: string): string => formatDateTimeDMY(iso, tz);

/**
 * A campaign's (or the totals') revenue, profit or ROI: 'sin sincronizar' for profit and ROI when
 * no day of the range has synced spend, '(est.)' beside an estimated revenue, and the revenue of
 * unsynced days, left out, beside it.
 */
function CampaignFigure({
  figure,
  of,
  currency,
}: {
  figure: 'revenue' | 'profit' | 'roi';
  of: Pick<CampaignInsight, 'revenue' | 'profit' | 'roi' | 'spend_unsynced' | 'unsynced_revenue'> & { estimated?: boolean };
  currency: string;
}) {
  if (figure !== 'revenue' && of.spend_unsynced)
    return (
      <span data-testid="unsynced-cell" className="text-xs italic text-amber-700">
        {UNSYNCED_CELL}
      </span>
    );
  return (
    <>
      {profitText(figure, of[figure], currency)}
      {figure === 'revenue' && of.estimated && <span className="ml-1 text-xs text-amber-700">(est.)</span>}
      {figure === 'revenue' && of.unsynced_revenue > 0 && (
        <div className="text-xs text-amber-700" title="Revenue de días con el gasto sin sincronizar: fuera del beneficio y el ROI">
          + {networkMoney(of.unsynced_revenue, currency)} sin sinc.
        </div>
      )}
    </>
  );
}

/**
 * Spend in the network's currency (Rentabilidad's: profit is computed from it; 'sin sincronizar'
 * while unknown) with Meta's own amount in the ad account's currency beside it, labelled by its
 * code: "$74,04 · 67,31 EUR".
 */
function SpendFigure({
  of,
  currency,
}: {
  of: Pick<CampaignInsight, 'spend' | 'spend_unsynced'> & { account_spend: number | null; account_currency: string | null };
  currency: string;
}) {
  const own = of.account_spend !== null && of.account_currency ? formatAmount(of.account_spend, of.account_currency) : null;
  return (
    <>
      {of.spend === null && of.spend_unsynced ? (
        <span data-testid="unsynced-cell" className="text-xs italic text-amber-700">
          {UNSYNCED_CELL}
        </span>
      ) : (
        <span data-testid="spend-network">{formatMoney(of.spend, currency)}</span>
      )}
      {own && (
        <span className="text-xs text-gray-500" data-testid="spend-account" title="Gasto según Meta, en la moneda de la cuenta publicitaria">
          {' · '}
          {own}
        </span>
      )}
    </>
  );
}

function loadError(error: unknown): string {
  const text = errorText(error, 'Error al cargar las campañas');
  return error instanceof ApiError && error.status > 0 ? `Error al cargar las campañas (HTTP ${error.status}): ${text}` : text;
}

export default function FbCampaigns() {
  const api = useApi();
  const tz = useMemo(reportingTimeZone, []);
  const yesterday = useMemo(() => presetRange('ayer', new Date(), tz), [tz]);
  const url = useUrlParams();
  const [filterValues, setFilterValues] = useUrlValue(
    url,
    (p) => readCampaignFilters(p, yesterday.from),
    (p, f) => writeCampaignFilters(p, f, yesterday.from),
    (f) => isValidYmd(f.from) && isValidYmd(f.to),
  );
  const { status, from, to } = filterValues;
  const setStatus = (v: InsightsStatus) => setFilterValues({ ...filterValues, status: v });
  const setFrom = (v: string) => setFilterValues({ ...filterValues, from: v });
  const setTo = (v: string) => setFilterValues({ ...filterValues, to: v });
  const tableView = useUrlTableView(url, '', TABLE_VIEW);

  const rangeProblem = !isValidYmd(from) || !isValidYmd(to) ? DATE_RANGE_INCOMPLETE : from > to ? DATE_RANGE_REVERSED : null;

  const filters = useMemo(() => (rangeProblem ? null : { from_date: from, to_date: to, status }), [from, to, status, rangeProblem]);
  const table = useServerTable(filters, (q, signal) => api.campaigns.insights(q, { signal }), {
    pageSize: CAMPAIGNS_PAGE_SIZE,
    sort: DEFAULT_SORT,
    store: tableView,
  });
  const { error, loading, reload } = table;
  const page = shownPage(table);
  const sum = page?.totals;
  const currency = sum?.currency ?? 'USD';
  const { user } = useSession();
  const losing = (profit: number | null) => profit !== null && profit < 0;
  const profitColumn = (key: 'revenue' | 'profit' | 'roi'): Column<CampaignInsight> => ({
    key,
    header: PROFIT_METRICS[key].label,
    help: profitMetricHelp(key),
    sortable: true,
    align: 'right',
    cellClassName: (r) => (key !== 'revenue' && losing(r.profit) ? '!text-red-700 font-semibold' : ''),
    cell: (r) => <CampaignFigure figure={key} of={r} currency={currency} />,
    total: sum && (
      <span className={key !== 'revenue' && losing(sum.profit) ? 'text-red-700' : ''}>
        <CampaignFigure figure={key} of={sum} currency={currency} />
      </span>
    ),
  });
  const notes = sum ? completenessNotes(sum, (v) => networkMoney(v, currency)) : [];

  const columns: Column<CampaignInsight>[] = [
    { key: 'effective_status', header: 'Estado', sortable: true, cell: (r) => <StatusIcon status={r.effective_status} /> },
    {
      key: 'name',
      header: 'Campaña',
      sortable: true,
      total: sum ? campaignsText(sum.campaigns) : undefined,
      cell: (r) => (
        <div className="min-w-0 max-w-xs">
          <div className="flex items-center gap-1.5">
            <span className="truncate font-medium text-gray-900" title={r.name}>
              {r.name || '-'}
            </span>
            {!r.has_data && <NoDataIcon />}
            {losing(r.profit) && <LosingMark />}
          </div>
          <div data-testid="campaign-id" className="font-mono text-xs text-gray-500">
            {r.id}
          </div>
        </div>
      ),
    },
    {
      key: 'impressions',
      header: 'Impresiones',
      sortable: true,
      align: 'right',
      cell: (r) => formatInt(r.impressions),
      total: sum && formatInt(sum.impressions),
    },
    { key: 'clicks', header: 'Clicks', sortable: true, align: 'right', cell: (r) => formatInt(r.clicks), total: sum && formatInt(sum.clicks) },
    {
      key: 'ctr',
      header: 'CTR%',
      sortable: true,
      align: 'right',
      cell: (r) => formatMetric('ctr', r.ctr),
      total: sum && formatMetric('ctr', sum.ctr),
    },
    {
      key: 'spend',
      header: 'Gasto',
      help: `${PROFIT_METRICS.spend.definition} Al lado, lo que Meta cuenta en la moneda de la cuenta publicitaria.`,
      sortable: true,
      align: 'right',
      cell: (r) => <SpendFigure of={r} currency={currency} />,
      total: sum && <SpendFigure of={sum} currency={currency} />,
    },
    {
      key: 'cpc',
      header: 'CPC',
      sortable: true,
      align: 'right',
      cell: (r) => formatMoney(r.cpc, currency),
      total: sum && formatMoney(sum.cpc, currency),
    },
    {
      key: 'cpm',
      header: 'CPM',
      sortable: true,
      align: 'right',
      cell: (r) => formatMoney(r.cpm, currency),
      total: sum && formatMoney(sum.cpm, currency),
    },
    profitColumn('revenue'),
    profitColumn('profit'),
    profitColumn('roi'),
    { key: 'created_at', header: 'Creada', sortable: true, align: 'right', cell: (r) => createdAt(r.created_at, tz) },
  ];

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-gray-900">Campañas con métricas (Facebook)</h1>

      <Card>
        <fieldset className="flex flex-wrap items-end gap-4" aria-label="Filtros">
          <FormField id="fb-status" label="Estado">
            <select id="fb-status" value={status} onChange={(e) => setStatus(e.target.value as InsightsStatus)} className={`${inputClass} h-10 w-40`}>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {INSIGHTS_STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </FormField>
          <FormField id="fb-from" label="Desde">
            <div className="w-44">
              <DateInput id="fb-from" label="Desde" value={from} onChange={setFrom} className="h-10" />
            </div>
          </FormField>
          <FormField id="fb-to" label="Hasta">
            <div className="w-44">
              <DateInput id="fb-to" label="Hasta" value={to} onChange={setTo} className="h-10" />
            </div>
          </FormField>
          <button type="button" onClick={reload} disabled={loading || rangeProblem !== null} className={`${secondaryButton} h-10`}>
            Actualizar
          </button>
          <ExportButton
            label="Descargar CSV"
            file={`campaigns_${from}_to_${to}.csv`}
            className={`${secondaryButton} h-10`}
            disabled={loading || !table.fresh || !!error || !!rangeProblem || !sum || sum.campaigns === 0}
            open={(signal, csv) => {
              const { page: _page, page_size: _size, ...rest } = table.request!;
              return api.open(contract.campaigns.insights, { ...rest, format: 'csv', csv }, { signal });
            }}
          />
          {sum && table.fresh && !error && !rangeProblem && (
            <p className="ml-auto text-sm text-gray-500" data-testid="campaign-count">
              {campaignsText(sum.campaigns)}
              {sum.without_data > 0 && ` · ${formatInt(sum.without_data)} sin métricas en el rango`}
            </p>
          )}
        </fieldset>
      </Card>

      <Card>
        {rangeProblem ? (
          <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-800">
            {rangeProblem}
          </p>
        ) : loading && !table.fresh ? (
          <Loading label="Cargando campañas…" />
        ) : error ? (
          <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
            {loadError(error)}
          </div>
        ) : (
          <div className="space-y-4">
            {table.fresh && sum && (
              <MissingRatesBanner missing={sum.missing_rates} currency={currency} isAdmin={!!user?.is_admin} hidden="el beneficio y el ROI" />
            )}
            {table.fresh && sum && notes.length > 0 && (
              <div
                role="note"
                data-testid="completeness-notes"
                className="space-y-1 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
              >
                <p className="font-medium">Revenue, beneficio y ROI (Rentabilidad) · {syncedAtText(sum.spend_synced_at, tz)}</p>
                {notes.map((n) => (
                  <p key={n.kind}>{n.text}</p>
                ))}
              </div>
            )}
            <DataTable
              columns={columns}
              rows={page?.rows ?? []}
              rowKey={(r) => r.id}
              sort={page?.sort ?? null}
              onSort={table.sortBy}
              totals
              emptyText={EMPTY}
              caption="Campañas con métricas"
              busy={loading}
              rowProps={(r) => ({ className: losing(r.profit) ? 'bg-red-50/60' : '', 'data-losing': losing(r.profit) ? 'true' : undefined })}
            />
            <div className="flex justify-end">
              <Pagination page={page?.page ?? 1} pageCount={page?.page_count ?? 1} onPage={table.setPage} />
            </div>
          </div>
        )}
      </Card>
    </div>
  );
}
