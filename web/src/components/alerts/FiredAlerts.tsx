// 'Alertas disparadas': what fired, filtered by state (in the URL), with its deliveries and the
// mute / unmute buttons (one's own, or an admin's for everyone). Seeing the list marks it read.
import { useEffect, useState } from 'react';
import { ALERT_KIND_LABELS, ALERT_STATE_LABELS, type Alert, alertStateText, deliveryText, formatDateTimeDMY } from '@adops/core';
import { ALERTS_READ_EVENT } from '../AlertBell';
import { Card } from '../Card';
import { ErrorBanner } from '../ErrorBanner';
import { MarkIcon } from '../icons';
import { Loading } from '../Loading';
import { Pagination } from '../Pagination';
import { inputClass, secondaryButton } from '../styles';
import { ZoneNote } from '../ZoneNote';
import { useApi } from '../../hooks/useApi';
import { useAsync } from '../../hooks/useAsync';
import { useSession } from '../../hooks/useSession';
import { useUrlParams } from '../../hooks/useUrlState';
import { errorText } from '../../lib/errors';
import { reportingTimeZone } from '../../lib/timezone';
import { readPositiveInt, setParam } from '../../lib/urlState';

const STATE_BADGE: Record<Alert['state'], string> = {
  open: 'bg-red-50 text-red-700 ring-red-200',
  muted: 'bg-amber-50 text-amber-700 ring-amber-200',
  resolved: 'bg-green-50 text-green-700 ring-green-200',
};
/** An instant as dd/MM/yyyy HH:mm on the reporting zone's clock. */
const when = (iso: string) => formatDateTimeDMY(iso, reportingTimeZone());

type AlertListState = 'open' | 'muted' | 'resolved' | 'all';
const ALERT_LIST_STATES: readonly AlertListState[] = ['open', 'muted', 'resolved', 'all'];

/** The list's state from the URL; anything else is the default, Abiertas. */
export function readAlertState(params: URLSearchParams): AlertListState {
  const v = params.get('state');
  return ALERT_LIST_STATES.find((s) => s === v) ?? 'open';
}

export function FiredAlerts() {
  const api = useApi();
  const { user } = useSession();
  /** An admin's explicit choice: the mute buttons silence the alert for every user, not only for them. */
  const [forEveryone, setForEveryone] = useState(false);
  // The list's state filter and page live in the URL (?state=muted&page=2): reload, Back and a shared link keep them.
  const url = useUrlParams();
  const state = readAlertState(url.params);
  const page = readPositiveInt(url.params, 'page') ?? 1;
  const setPage = (next: number) => url.update((p) => setParam(p, 'page', String(next), '1'));
  const [actionError, setActionError] = useState<string | null>(null);
  const list = useAsync(() => api.alerts.list({ state, page }), [api, state, page]);
  useEffect(() => {
    if (!list.data) return;
    // Seen: the bell goes to 0.
    api.alerts.markRead({}).then(
      () => window.dispatchEvent(new Event(ALERTS_READ_EVENT)),
      () => undefined,
    );
  }, [api, list.data]);
  const act = async (call: () => Promise<unknown>) => {
    setActionError(null);
    try {
      await call();
      list.reload();
    } catch (e) {
      setActionError(errorText(e, 'No se pudo cambiar la alerta'));
    }
  };
  return (
    <Card
      title="Alertas disparadas"
      actions={
        <span className="flex flex-wrap items-center gap-3">
          <ZoneNote />
          {user?.is_admin && (
            <label className="flex items-center gap-2 text-sm text-gray-700" title="Sin marcar, silenciar solo te la oculta a ti">
              <input type="checkbox" checked={forEveryone} onChange={(e) => setForEveryone(e.target.checked)} />
              Silenciar para todos
            </label>
          )}
          <label className="flex items-center gap-2 text-sm text-gray-700">
            Estado
            <select
              aria-label="Estado"
              className={inputClass}
              value={state}
              onChange={(e) =>
                url.update((p) => {
                  setParam(p, 'state', e.target.value, 'open');
                  p.delete('page');
                })
              }
            >
              <option value="open">Abiertas</option>
              <option value="muted">Silenciadas</option>
              <option value="resolved">Resueltas</option>
              <option value="all">Todas</option>
            </select>
          </label>
        </span>
      }
    >
      {list.error ? <ErrorBanner error={list.error} fallback="Error al cargar las alertas" /> : null}
      {actionError && <p className="mb-3 text-sm text-red-600">{actionError}</p>}
      {list.loading && !list.data ? (
        <Loading />
      ) : list.data && list.data.rows.length === 0 ? (
        <p className="text-sm text-gray-500">No hay alertas {state === 'all' ? '' : `${ALERT_STATE_LABELS[state].toLowerCase()}s`}.</p>
      ) : (
        <div>
          <table className="block min-w-full text-sm md:table md:divide-y md:divide-gray-200" data-testid="alerts-table">
            <thead className="hidden bg-gray-50 text-left md:table-header-group text-xs font-semibold uppercase tracking-wide text-gray-500">
              <tr>
                <th className="px-3 py-2">Estado</th>
                <th className="px-3 py-2">Disparada</th>
                <th className="px-3 py-2">Regla</th>
                <th className="px-3 py-2">Sobre</th>
                <th className="px-3 py-2">Qué pasó</th>
                <th className="px-3 py-2" />
              </tr>
            </thead>
            <tbody className="block divide-y divide-gray-100 md:table-row-group">
              {list.data?.rows.map((a) => (
                <tr key={a.id} className="block py-2 md:table-row md:py-0">
                  <td className="block px-0 py-1 md:table-cell md:px-3 md:py-2">
                    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${STATE_BADGE[a.state]}`}>
                      {alertStateText(a)}
                    </span>
                    {a.fire_count > 1 && <span className="ml-1 text-xs text-gray-500">×{a.fire_count}</span>}
                  </td>
                  <td className="block px-0 py-1 md:table-cell md:px-3 md:py-2 whitespace-nowrap text-gray-600">{when(a.fired_at)}</td>
                  <td className="block px-0 py-1 md:table-cell md:px-3 md:py-2">
                    <div className="font-medium text-gray-900">{a.rule_name}</div>
                    <div className="text-xs text-gray-500">{ALERT_KIND_LABELS[a.kind]}</div>
                  </td>
                  <td className="block px-0 py-1 md:table-cell md:px-3 md:py-2 font-mono text-xs">{a.subject}</td>
                  <td className="block px-0 py-1 md:table-cell md:px-3 md:py-2 max-w-xl text-gray-700">
                    {a.message}
                    {a.state === 'muted' && (
                      <div className="text-xs text-amber-700">
                        {alertStateText(a)} {a.muted_until ? `hasta ${when(a.muted_until)}` : 'hasta que se resuelva'}
                        {a.muted_by && a.muted_for !== 'me' ? ` por ${a.muted_by}` : ''}
                      </div>
                    )}
                    {a.resolved_at && <div className="text-xs text-green-700">Resuelta {when(a.resolved_at)}</div>}
                    {a.deliveries.length > 0 && (
                      <ul className="mt-1 space-y-0.5 text-xs" aria-label="Avisos" data-testid="alert-deliveries">
                        {a.deliveries.map((d) => (
                          <li key={`${d.channel}-${d.to}-${d.at}`} className={d.status === 'sent' ? 'text-gray-500' : 'text-red-700'}>
                            <MarkIcon
                              mark={d.status === 'sent' ? 'ok' : 'error'}
                              label={d.status === 'sent' ? 'Enviado' : 'Fallido'}
                              className="mr-1"
                            />{' '}
                            {deliveryText(d)} · {when(d.at)}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td className="block px-0 py-1 md:table-cell md:px-3 md:py-2 md:whitespace-nowrap md:text-right">
                    {a.state === 'open' && (
                      <span className="inline-flex flex-wrap gap-2">
                        <button
                          type="button"
                          className={secondaryButton}
                          onClick={() => act(() => api.alerts.mute({ id: a.id, minutes: 60, for_everyone: forEveryone }))}
                        >
                          Silenciar 1 h
                        </button>
                        <button
                          type="button"
                          className={secondaryButton}
                          onClick={() => act(() => api.alerts.mute({ id: a.id, minutes: null, for_everyone: forEveryone }))}
                        >
                          Silenciar hasta que se resuelva
                        </button>
                      </span>
                    )}
                    {a.muted_for === 'me' && (
                      <button type="button" className={secondaryButton} onClick={() => act(() => api.alerts.unmute({ id: a.id }))}>
                        Quitar silencio
                      </button>
                    )}
                    {a.muted_for === 'everyone' && user?.is_admin && (
                      <button
                        type="button"
                        className={secondaryButton}
                        onClick={() => act(() => api.alerts.unmute({ id: a.id, for_everyone: true }))}
                      >
                        Quitar silencio para todos
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.data && list.data.page_count > 1 && (
            <div className="mt-3 flex justify-end">
              <Pagination page={list.data.page} pageCount={list.data.page_count} onPage={setPage} />
            </div>
          )}
        </div>
      )}
    </Card>
  );
}
