// Auditoría (admins): every change an admin or the system made, newest first, as the server
// filters and pages it; each row opens to show the record before and after; 'Descargar CSV'
// saves the server's export of every matching entry. The applied filters, page and page size
// live in the URL, so a reload, Back or a shared link shows the same entries.
import { CheckedForm } from '../components/CheckedForm';
import { Fragment, useEffect, useState, type FormEvent } from 'react';
import {
  formatInt,
  AUDIT_ACTIONS,
  AUDIT_CSV,
  AUDIT_PAGE_SIZE,
  AUDIT_TARGET_KINDS,
  auditActionLabel,
  auditActorLabel,
  auditBound,
  auditChangeSummary,
  contract,
  formatDateTimeDMY,
  timeZoneLabel,
  type AuditEntry,
  type AuditQuery,
  type AuditTable,
} from '@adops/core';
import { useApi } from '../hooks/useApi';
import { shownPage, useServerTable } from '../hooks/useServerTable';
import { Card } from '../components/Card';
import { DateInput } from '../components/DateInput';
import { ErrorBanner } from '../components/ErrorBanner';
import { ExportButton } from '../components/ExportButton';
import { Loading } from '../components/Loading';
import { PageSizeSelect } from '../components/PageSizeSelect';
import { Pagination } from '../components/Pagination';
import { inputClass, primaryButton, secondaryButton } from '../components/styles';
import { FormField } from '../components/FormField';
import { errorText } from '../lib/errors';
import { reportingTimeZone } from '../lib/timezone';
import { ZoneNote } from '../components/ZoneNote';
import { ScrollRegion } from '../components/ScrollRegion';
import { useUrlParams, useUrlTableView, useUrlValue } from '../hooks/useUrlState';
import { clearPages, readDay, readText, setParam } from '../lib/urlState';
import { DATE_RANGE_REVERSED } from '../lib/voice';

interface Filters {
  actor: string;
  action: string;
  target_kind: string;
  since: string;
  until: string;
  q: string;
}

const EMPTY: Filters = { actor: '', action: '', target_kind: '', since: '', until: '', q: '' };
const TEXT_KEYS = ['actor', 'action', 'target_kind', 'q'] as const;
/** The sizes 'Mostrar' offers here (a larger one than other tables: the log is long). */
const TABLE_VIEW = { pageSize: AUDIT_PAGE_SIZE, pageSizes: [25, 50, 100, 200] };

/** The applied filters from the URL (?actor=&action=&target_kind=&since=&until=&q=; days as YYYY-MM-DD). */
export function readAuditFilters(params: URLSearchParams): Filters {
  const f = { ...EMPTY };
  for (const key of TEXT_KEYS) f[key] = readText(params, key).trim();
  f.since = readDay(params, 'since') ?? '';
  f.until = readDay(params, 'until') ?? '';
  return f;
}

export function writeAuditFilters(params: URLSearchParams, f: Filters): void {
  for (const key of [...TEXT_KEYS, 'since', 'until'] as const) setParam(params, key, f[key].trim());
  clearPages(params);
}

/** The route's query for the applied filters (blank fields left out; days are the reporting zone's, sent as instants). */
const queryOf = (f: Filters, tz: string): AuditQuery =>
  Object.fromEntries(
    Object.entries({ ...f, since: auditBound(f.since, false, tz) ?? '', until: auditBound(f.until, true, tz) ?? '' }).filter(
      ([, v]) => v.trim() !== '',
    ),
  ) as AuditQuery;

/** An entry's instant on the reporting zone's clock, with seconds. */
const when = (at: string, tz: string) => formatDateTimeDMY(at, tz, { seconds: true });

function Json({ label, value }: { label: string; value: unknown }) {
  return (
    <div className="min-w-0 flex-1">
      <div className="mb-1 text-xs font-semibold uppercase tracking-wide text-gray-500">{label}</div>
      <pre className="max-h-72 overflow-auto whitespace-pre-wrap break-all rounded-md bg-gray-50 p-3 text-xs text-gray-800 ring-1 ring-inset ring-gray-200">
        {value == null ? '—' : JSON.stringify(value, null, 2)}
      </pre>
    </div>
  );
}

function Details({ e }: { e: AuditEntry }) {
  return (
    <div className="space-y-3" data-testid="audit-details">
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-xs text-gray-600 sm:grid-cols-2">
        <div>
          <dt className="inline font-medium">Acción: </dt>
          <dd className="inline font-mono">{e.action}</dd>
        </div>
        <div>
          <dt className="inline font-medium">Objeto: </dt>
          <dd className="inline break-all">
            {e.target_label ? `${e.target_label} ` : ''}
            <span className="font-mono">
              ({e.target_kind}
              {e.target_id ? ` · ${e.target_id}` : ''})
            </span>
          </dd>
        </div>
        <div>
          <dt className="inline font-medium">IP: </dt>
          <dd className="inline font-mono">{e.ip ?? '—'}</dd>
        </div>
        <div>
          <dt className="inline font-medium">Petición: </dt>
          <dd className="inline break-all font-mono">{e.request_id ?? '—'}</dd>
        </div>
      </dl>
      <div className="flex flex-col gap-3 md:flex-row">
        <Json label="Antes" value={e.before} />
        <Json label="Después" value={e.after} />
      </div>
    </div>
  );
}

export default function Audit() {
  const api = useApi();
  const url = useUrlParams();
  const [applied, setApplied] = useUrlValue(url, readAuditFilters, writeAuditFilters);
  const [draft, setDraft] = useState<Filters>(applied);
  // Filters from elsewhere (Back, a link) are shown in the form.
  const appliedKey = JSON.stringify(applied);
  // biome-ignore lint/correctness/useExhaustiveDependencies: new filters by content, not a new object for the same ones
  useEffect(() => setDraft(applied), [appliedKey]);
  const [rangeError, setRangeError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const tz = reportingTimeZone();
  const query = queryOf(applied, tz);
  const tableView = useUrlTableView(url, '', TABLE_VIEW);
  const table = useServerTable<AuditQuery, AuditTable>(query, (request, signal) => api.audit.list(request, { signal }), {
    pageSize: AUDIT_PAGE_SIZE,
    store: tableView,
  });
  const page = shownPage(table);
  const set = (key: keyof Filters) => (value: string) => {
    if (key === 'since' || key === 'until') setRangeError(null);
    setDraft((d) => ({ ...d, [key]: value }));
  };

  const apply = (e: FormEvent) => {
    e.preventDefault();
    // Said here, before asking: the server would refuse it too.
    if (draft.since && draft.until && draft.since > draft.until) {
      setRangeError(DATE_RANGE_REVERSED);
      return;
    }
    setApplied(draft);
  };
  const reset = () => {
    setRangeError(null);
    setDraft(EMPTY);
    setApplied(EMPTY);
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold text-gray-900">Auditoría</h1>
        <ExportButton
          label="Descargar CSV"
          file={AUDIT_CSV.file}
          disabled={!page || page.total_rows === 0}
          open={(signal, csv) => api.open(contract.audit.list, { ...query, format: 'csv', csv }, { signal })}
        />
      </div>

      <Card>
        <CheckedForm onSubmit={apply} className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-6" aria-label="Filtros de auditoría">
          <FormField id="audit-actor" label="Quién">
            <input
              id="audit-actor"
              className={inputClass}
              value={draft.actor}
              maxLength={254}
              placeholder="email, id o system"
              onChange={(e) => set('actor')(e.target.value)}
            />
          </FormField>
          <FormField id="audit-action" label="Acción">
            <select id="audit-action" className={inputClass} value={draft.action} onChange={(e) => set('action')(e.target.value)}>
              <option value="">Todas</option>
              {Object.entries(AUDIT_ACTIONS).map(([action, label]) => (
                <option key={action} value={action}>
                  {label}
                </option>
              ))}
            </select>
          </FormField>
          <FormField id="audit-kind" label="Objeto">
            <select id="audit-kind" className={inputClass} value={draft.target_kind} onChange={(e) => set('target_kind')(e.target.value)}>
              <option value="">Todos</option>
              {Object.entries(AUDIT_TARGET_KINDS).map(([kind, label]) => (
                <option key={kind} value={kind}>
                  {label}
                </option>
              ))}
            </select>
          </FormField>
          <FormField id="audit-since" label="Desde">
            <DateInput id="audit-since" label="Desde" value={draft.since} onChange={set('since')} invalid={rangeError !== null} />
          </FormField>
          <FormField id="audit-until" label="Hasta">
            <DateInput id="audit-until" label="Hasta" value={draft.until} onChange={set('until')} invalid={rangeError !== null} />
            {rangeError && (
              <p role="alert" className="mt-1 text-xs text-red-600">
                {rangeError}
              </p>
            )}
          </FormField>
          <FormField id="audit-q" label="Texto">
            <input
              id="audit-q"
              type="search"
              className={inputClass}
              value={draft.q}
              maxLength={200}
              placeholder="buscar…"
              onChange={(e) => set('q')(e.target.value)}
            />
          </FormField>
          <div className="flex gap-2 sm:col-span-2 lg:col-span-6">
            <button type="submit" className={primaryButton}>
              Aplicar
            </button>
            <button type="button" className={secondaryButton} onClick={reset}>
              Limpiar
            </button>
          </div>
        </CheckedForm>
      </Card>

      {table.error ? <ErrorBanner error={`Error al cargar la auditoría: ${errorText(table.error, 'error desconocido')}`} /> : null}

      <Card
        title="Cambios"
        actions={
          <>
            <ZoneNote />
            <span className="text-sm text-gray-500" data-testid="audit-count">
              {page ? `${formatInt(page.total_rows)} ${page.total_rows === 1 ? 'entrada' : 'entradas'}` : ''}
            </span>
            <PageSizeSelect value={table.view.pageSize} onChange={table.setPageSize} options={TABLE_VIEW.pageSizes} />
          </>
        }
      >
        {!page && table.loading ? (
          <Loading label="Cargando auditoría…" />
        ) : (
          <>
            {/* Below md: one block per entry, its details opening inside it. */}
            <ul aria-busy={table.loading} className={`space-y-3 md:hidden ${table.loading ? 'opacity-60' : ''}`} aria-label="Auditoría">
              {page && page.rows.length === 0 && <li className="py-6 text-center text-sm text-gray-500">No hay entradas de auditoría</li>}
              {page?.rows.map((e) => {
                const expanded = open === e.id;
                return (
                  <li key={e.id} data-testid="audit-row" className="min-w-0 rounded-md border border-gray-200 p-3 text-sm">
                    <div className="flex items-start justify-between gap-3">
                      <div className="min-w-0">
                        <div className="font-medium text-gray-900">{auditActionLabel(e.action)}</div>
                        <div className="truncate text-gray-700">{e.target_label ?? e.target_id ?? e.target_kind}</div>
                        <div className="truncate text-xs text-gray-500">
                          <span className="tabular-nums">{when(e.at, tz)}</span> · {auditActorLabel(e)}
                        </div>
                      </div>
                      <button
                        type="button"
                        className="shrink-0 text-sm font-medium text-blue-600 hover:underline"
                        aria-expanded={expanded}
                        onClick={() => setOpen(expanded ? null : e.id)}
                      >
                        {expanded ? 'Ocultar' : 'Ver'}
                      </button>
                    </div>
                    {expanded && (
                      <div className="mt-3">
                        <Details e={e} />
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
            <ScrollRegion
              label="Auditoría"
              aria-busy={table.loading}
              className={`relative hidden overflow-x-auto rounded-md md:block border border-gray-200 ${table.loading ? 'opacity-60' : ''}`}
            >
              <table className="min-w-full divide-y divide-gray-200 text-sm">
                <caption className="sr-only">Auditoría</caption>
                <thead className="bg-gray-50 text-left text-xs font-semibold uppercase tracking-wide text-gray-600">
                  <tr>
                    <th scope="col" className="px-3 py-2" title={`Horas en ${timeZoneLabel(tz)}`}>
                      Fecha
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Quién
                    </th>
                    <th scope="col" className="hidden px-3 py-2 lg:table-cell">
                      IP
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Acción
                    </th>
                    <th scope="col" className="hidden px-3 py-2 md:table-cell">
                      Objeto
                    </th>
                    <th scope="col" className="hidden px-3 py-2 xl:table-cell">
                      Cambio
                    </th>
                    <th scope="col" className="px-3 py-2">
                      <span className="sr-only">Detalle</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-gray-100 bg-white">
                  {page && page.rows.length === 0 && (
                    <tr>
                      <td colSpan={7} className="px-3 py-6 text-center text-gray-500">
                        No hay entradas de auditoría
                      </td>
                    </tr>
                  )}
                  {page?.rows.map((e) => {
                    const expanded = open === e.id;
                    return (
                      <Fragment key={e.id}>
                        <tr data-testid="audit-row" className="align-top">
                          <td className="whitespace-nowrap px-3 py-2 tabular-nums text-gray-700">{when(e.at, tz)}</td>
                          <td className="max-w-[12rem] truncate px-3 py-2 text-gray-900" title={auditActorLabel(e)}>
                            {auditActorLabel(e)}
                          </td>
                          <td className="hidden whitespace-nowrap px-3 py-2 tabular-nums text-gray-600 lg:table-cell">{e.ip ?? '—'}</td>
                          <td className="px-3 py-2 text-gray-900">{auditActionLabel(e.action)}</td>
                          <td className="hidden max-w-[14rem] truncate px-3 py-2 text-gray-700 md:table-cell" title={e.target_label ?? ''}>
                            {e.target_label ?? e.target_id ?? e.target_kind}
                          </td>
                          <td className="hidden max-w-[24rem] truncate px-3 py-2 text-gray-600 xl:table-cell" title={auditChangeSummary(e)}>
                            {auditChangeSummary(e) || '—'}
                          </td>
                          <td className="whitespace-nowrap px-3 py-2 text-right">
                            <button
                              type="button"
                              className="text-sm font-medium text-blue-600 hover:underline"
                              aria-expanded={expanded}
                              onClick={() => setOpen(expanded ? null : e.id)}
                            >
                              {expanded ? 'Ocultar' : 'Ver'}
                            </button>
                          </td>
                        </tr>
                        {expanded && (
                          <tr className="bg-gray-50/50">
                            <td colSpan={7} className="px-3 py-3">
                              <Details e={e} />
                            </td>
                          </tr>
                        )}
                      </Fragment>
                    );
                  })}
                </tbody>
              </table>
            </ScrollRegion>
          </>
        )}
        <div className="mt-4 flex justify-end">
          <Pagination page={page?.page ?? 1} pageCount={page?.page_count ?? 1} onPage={table.setPage} />
        </div>
      </Card>
    </div>
  );
}
