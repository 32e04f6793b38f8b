// 'Campañas con métricas (Facebook)' (SPEC §2, §9): the ad account's campaigns with their
// Meta metrics for a range; status filter (default Activas), range default yesterday,
// totals, sortable columns and 20 rows per page. Derived metrics come from core's formulas.
import { useMemo, useState } from 'react';
import {
  ApiError,
  DEFAULT_PAGE_SIZE,
  INSIGHTS_STATUS_LABELS,
  derive,
  formatDateDMY,
  formatDateTime,
  formatInt,
  formatMetric,
  formatMoney,
  isValidYmd,
  presetRange,
  totals,
  type CampaignInsight,
  type InsightsStatus,
} from '@adops/core';
import { useApi } from '../hooks/useApi';
import { useAsync } from '../hooks/useAsync';
import { useTable } from '../hooks/useTable';
import { errorText } from '../lib/errors';
import { Card } from '../components/Card';
import { DataTable, type Column } from '../components/DataTable';
import { Loading } from '../components/Loading';
import { Pagination } from '../components/Pagination';
import { inputClass, labelClass, secondaryButton } from '../components/styles';
import { NoDataIcon, StatusIcon } from '../components/campaigns/CampaignStatus';
import { reportingTimeZone } from '../lib/timezone';

const EMPTY = 'No se encontraron campañas con métricas.';
const STATUSES = Object.keys(INSIGHTS_STATUS_LABELS) as InsightsStatus[];

/** A campaign row with the ratios of its spend (CTR, CPC, CPM) from core. */
interface CampaignRow extends CampaignInsight {
  ctr: number | null;
  cpc: number | null;
  cpm: number | null;
}


/** Spend plays the part of revenue in core's ratios: CPC = spend / clicks, CPM = spend / impressions × 1000. */
const asMetrics = (c: CampaignInsight) => ({ impressions: c.impressions, clicks: c.clicks, revenue: c.spend });

function toRow(c: CampaignInsight): CampaignRow {
  const d = derive(asMetrics(c));
  return { ...c, ctr: d.ctr, cpc: d.cpc, cpm: d.cpm };
}

/** '2025-03-05T09:10:00Z' → '05/03/2025 10:10' on the browser's clock. */
function createdAt(iso: string, tz: string): string {
  const local = formatDateTime(iso, tz);
  return local.length >= 16 ? `${formatDateDMY(local.slice(0, 10))} ${local.slice(11)}` : local;
}

function loadError(error: unknown): string {
  const text = errorText(error, 'Error al cargar las campañas');
  return error instanceof ApiError && error.status > 0 ? `Error al cargar las campañas (HTTP ${error.status}): ${text}` : text;
}

export default function FbCampaigns() {
  const api = useApi();
  const tz = useMemo(reportingTimeZone, []);
  const yesterday = useMemo(() => presetRange('ayer', new Date(), tz), [tz]);
  const [status, setStatus] = useState<InsightsStatus>('ACTIVE');
  const [from, setFrom] = useState(yesterday.from);
  const [to, setTo] = useState(yesterday.to);

  const rangeProblem = !isValidYmd(from) || !isValidYmd(to) ? 'Indica las fechas Desde y Hasta.' : from > to ? 'La fecha Desde debe ser anterior o igual a Hasta.' : null;

  const { data, error, loading, reload } = useAsync(
    (signal) => (rangeProblem ? Promise.resolve([]) : api.campaigns.insights({ from_date: from, to_date: to, status }, { signal })),
    [from, to, status, rangeProblem],
  );

  const rows = useMemo(() => (data ?? []).map(toRow), [data]);
  const table = useTable(rows, { pageSize: DEFAULT_PAGE_SIZE.campaigns, sort: { key: 'created_at', dir: 'desc' } });
  const sum = useMemo(() => totals(rows.map(asMetrics)), [rows]);
  const withoutData = rows.filter((r) => !r.has_data).length;

  const columns: Column<CampaignRow>[] = [
    { key: 'effective_status', header: 'Estado', sortable: true, cell: (r) => <StatusIcon status={r.effective_status} /> },
    {
      key: 'name',
      header: 'Campaña',
      sortable: true,
      total: rows.length === 1 ? '1 campaña' : `${formatInt(rows.length)} campañas`,
      cell: (r) => (
        <div className="min-w-0 max-w-xs">
          <div className="flex items-center gap-1.5">
            <span className="truncate font-medium text-gray-900" title={r.name}>
              {r.name || '-'}
            </span>
            {!r.has_data && <NoDataIcon />}
          </div>
          <div data-testid="campaign-id" className="font-mono text-xs text-gray-400">
            {r.id}
          </div>
        </div>
      ),
    },
    { key: 'impressions', header: 'Impresiones', sortable: true, align: 'right', cell: (r) => formatInt(r.impressions), total: formatInt(sum.impressions) },
    { key: 'clicks', header: 'Clicks', sortable: true, align: 'right', cell: (r) => formatInt(r.clicks), total: formatInt(sum.clicks) },
    { key: 'ctr', header: 'CTR%', sortable: true, align: 'right', cell: (r) => formatMetric('ctr', r.ctr), total: formatMetric('ctr', sum.ctr) },
    { key: 'spend', header: 'Gasto', sortable: true, align: 'right', cell: (r) => formatMoney(r.spend, '€'), total: formatMoney(sum.revenue, '€') },
    { key: 'cpc', header: 'CPC', sortable: true, align: 'right', cell: (r) => formatMoney(r.cpc, '€'), total: formatMoney(sum.cpc, '€') },
    { key: 'cpm', header: 'CPM', sortable: true, align: 'right', cell: (r) => formatMoney(r.cpm, '€'), total: formatMoney(sum.cpm, '€') },
    { key: 'created_at', header: 'Creada', sortable: true, align: 'right', cell: (r) => createdAt(r.created_at, tz) },
  ];

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-gray-900">Campañas con métricas (Facebook)</h1>

      <Card>
        <div className="flex flex-wrap items-end gap-4" role="group" aria-label="Filtros">
          <div>
            <label htmlFor="fb-status" className={labelClass}>
              Estado
            </label>
            <select id="fb-status" value={status} onChange={(e) => setStatus(e.target.value as InsightsStatus)} className={`${inputClass} h-10 w-40`}>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {INSIGHTS_STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="fb-from" className={labelClass}>
              Desde
            </label>
            <input id="fb-from" type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} className={`${inputClass} h-10 w-44`} />
          </div>
          <div>
            <label htmlFor="fb-to" className={labelClass}>
              Hasta
            </label>
            <input id="fb-to" type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} className={`${inputClass} h-10 w-44`} />
          </div>
          <button type="button" onClick={reload} disabled={loading || rangeProblem !== null} className={`${secondaryButton} h-10`}>
            Actualizar
          </button>
          {!loading && !error && !rangeProblem && (
            <p className="ml-auto text-sm text-gray-500" data-testid="campaign-count">
              {rows.length === 1 ? '1 campaña' : `${formatInt(rows.length)} campañas`}
              {withoutData > 0 && ` · ${formatInt(withoutData)} sin métricas en el rango`}
            </p>
          )}
        </div>
      </Card>

      <Card>
        {rangeProblem ? (
          <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-800">
            {rangeProblem}
          </p>
        ) : loading ? (
          <Loading label="Cargando campañas…" />
        ) : error ? (
          <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
            {loadError(error)}
          </div>
        ) : (
          <div className="space-y-4">
            <DataTable
              columns={columns}
              rows={table.pageRows}
              rowKey={(r) => r.id}
              sort={table.sort}
              onSort={(key) => table.toggleSort(key as keyof CampaignRow & string)}
              totals
              emptyText={EMPTY}
              caption="Campañas con métricas"
            />
            <div className="flex justify-end">
              <Pagination page={table.page} pageCount={table.pageCount} onPage={table.setPage} />
            </div>
          </div>
        )}
      </Card>
    </div>
  );
}
