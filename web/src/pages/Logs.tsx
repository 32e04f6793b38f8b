// Referrers (live) (SPEC §2 Logs, §4 live mode): the raw referrer events of the applied
// filter, newest first, 20 per page as the server pages them, kept current by the SSE stream
// or by polling; 'Descargar CSV' saves the server's export of every matching event. 'Valor'
// (URL ?valor=1) shows what each visit is worth: its zone's RPV that day and TQ, as the server sends them.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  formatInt,
  BOT_REASON_LABELS,
  REFERRERS_PAGE_SIZE,
  contract,
  formatDateTimeDMY,
  formatProfitMetric,
  logCsvFile,
  recordKey,
  type BotReason,
  type LiveRecord,
} from '@adops/core';
import { useApi } from '../hooks/useApi';
import { useLiveLog, type LiveMode } from '../hooks/useLiveLog';
import { ZoneNote } from '../components/ZoneNote';
import { Card } from '../components/Card';
import { DataTable, type Column } from '../components/DataTable';
import { ErrorBanner } from '../components/ErrorBanner';
import { Loading } from '../components/Loading';
import { Pagination } from '../components/Pagination';
import { errorText } from '../lib/errors';
import { ReferrerFilterBar } from '../components/referrers/ReferrerFilterBar';
import { useReferrerFilters } from '../components/referrers/useReferrerFilters';
import { CsvButton, ReferrerCell, dashed } from '../components/referrers/cells';
import { ScrollRegion } from '../components/ScrollRegion';

function ModeBadge({ mode, live }: { mode: LiveMode; live: boolean }) {
  const tone = !live
    ? 'bg-gray-100 text-gray-500 ring-gray-300'
    : mode === 'sse'
      ? 'bg-green-50 text-green-700 ring-green-600/30'
      : 'bg-amber-50 text-amber-700 ring-amber-600/30';
  return (
    <span
      data-testid="live-mode"
      title={mode === 'sse' ? 'Eventos en vivo por Server-Sent Events' : 'Consulta cada 5 segundos'}
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${tone}`}
    >
      <span
        className={`h-1.5 w-1.5 rounded-full ${live ? (mode === 'sse' ? 'animate-pulse bg-green-500' : 'bg-amber-500') : 'bg-gray-400'}`}
        aria-hidden
      />
      {mode === 'sse' ? 'SSE' : 'Polling'}
    </span>
  );
}

function Toggle({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="inline-flex cursor-pointer select-none items-center gap-2 text-sm font-medium text-gray-700">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="h-4 w-4 rounded border-gray-300 text-blue-600 focus:ring-blue-500"
      />
      {label}
    </label>
  );
}

export default function Logs() {
  const api = useApi();
  const filters = useReferrerFilters();
  const { tz, query, applied } = filters;
  const [live, setLive] = useState(true);
  const [autoscroll, setAutoscroll] = useState(false);
  const [params, setParams] = useSearchParams();
  const showValue = params.get('valor') === '1';
  const setShowValue = (on: boolean) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (on) next.set('valor', '1');
        else next.delete('valor');
        return next;
      },
      { replace: true },
    );
  // Page 1 again whenever the applied filters change; live arrivals never move the page.
  const log = useLiveLog(query, live, { pageSize: REFERRERS_PAGE_SIZE });

  const scroller = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: new arrivals scroll the log; switching autoscroll on waits for the next one
  useEffect(() => {
    if (!autoscroll || log.arrivals === 0) return;
    const box = scroller.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [log.arrivals]);

  const columns = useMemo<Column<LiveRecord>[]>(
    () => [
      { key: 'date', header: 'Date', cell: (r) => <span className="tabular-nums">{formatDateTimeDMY(r.seen_at, tz)}</span> },
      { key: 'zone_id', header: 'Zone ID', cell: (r) => dashed(r.zone_id) },
      // With 'Valor': the zone's revenue per visit that day (estimated until its report arrives) and its TQ.
      ...(showValue
        ? [
            {
              key: 'value',
              header: (
                <span title="Revenue por visita de su zona ese día (estimado con los 7 días anteriores si aún no llegó su informe)">Valor</span>
              ),
              align: 'right' as const,
              cell: (r: LiveRecord) => <span className="tabular-nums">{formatProfitMetric('rpv', r.value ?? null)}</span>,
            },
            {
              key: 'tq',
              header: 'TQ',
              align: 'right' as const,
              cell: (r: LiveRecord) => <span className="tabular-nums">{formatProfitMetric('tq', r.tq ?? null)}</span>,
            },
          ]
        : []),
      { key: 'source', header: 'Source', cell: (r) => dashed(r.parent_domain) },
      { key: 'referrer', header: 'Referrer', cell: (r) => <ReferrerCell url={r.referrer} width="max-w-[15rem] xl:max-w-[17rem]" /> },
      { key: 'keyword', header: 'Keyword', cell: (r) => dashed(r.keyword) },
      { key: 'ip', header: 'IP', cell: (r) => <span className="tabular-nums">{dashed(r.ip)}</span> },
      { key: 'country', header: 'Country', cell: (r) => dashed(r.country) },
      // With 'Incluir bots': why an event was flagged (empty for human traffic).
      ...(applied.includeBots
        ? [{ key: 'bot', header: 'Bot', cell: (r: LiveRecord) => (r.reason ? (BOT_REASON_LABELS[r.reason as BotReason] ?? r.reason) : '') }]
        : []),
    ],
    [tz, applied.includeBots, showValue],
  );

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold text-gray-900">Referrers (live)</h1>
        {log.total > 0 && (
          <CsvButton
            file={logCsvFile(applied.from, applied.to)}
            open={(signal, csv) => api.open(contract.referrers.logs, { ...query, format: 'csv', csv }, { signal })}
          />
        )}
      </div>

      <ReferrerFilterBar
        applied={applied}
        onApply={filters.apply}
        onReset={filters.reset}
        options={filters.options.data}
        optionsLoading={filters.options.loading}
        optionsError={filters.options.error}
        tz={tz}
      />

      {log.error ? <ErrorBanner error={`Error al cargar datos de referrers_logs: ${errorText(log.error, 'error desconocido')}`} /> : null}
      {live && log.pollError ? (
        <ErrorBanner error={`Error al cargar datos de referrers_logs (se reintenta en 5 s): ${errorText(log.pollError, 'error desconocido')}`} />
      ) : null}

      <Card
        title={
          <span className="flex items-center gap-3">
            Eventos <ModeBadge mode={log.mode} live={live} />
          </span>
        }
        actions={
          <>
            <ZoneNote className="mr-2" />
            <span className="mr-2 text-sm text-gray-500" data-testid="logs-count">
              {log.loading ? 'Cargando…' : `${formatInt(log.total)} ${log.total === 1 ? 'evento' : 'eventos'}`}
            </span>
            <Toggle label="Live" checked={live} onChange={setLive} />
            <Toggle label="Autoscroll" checked={autoscroll} onChange={setAutoscroll} />
            <Toggle label="Valor" checked={showValue} onChange={setShowValue} />
          </>
        }
      >
        {log.loading ? (
          <Loading label="Cargando eventos…" />
        ) : (
          <ScrollRegion label="Eventos del registro" ref={scroller} data-testid="logs-scroller" className="max-h-[32rem] overflow-y-auto">
            <DataTable
              columns={columns}
              rows={log.rows}
              busy={log.busy}
              rowKey={(r) => (r.id !== undefined ? `id:${r.id}` : recordKey(r))}
              emptyText={log.error && log.rows.length === 0 ? 'No se pudieron cargar los eventos' : 'No hay resultados'}
              caption="Referrers (live)"
            />
          </ScrollRegion>
        )}
        <div className="mt-4 flex justify-end">
          <Pagination page={log.page} pageCount={log.pageCount} onPage={log.setPage} />
        </div>
      </Card>
    </div>
  );
}
