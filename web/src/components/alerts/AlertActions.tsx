// The profit guard on Alertas: the action fields of a campaign rule (admins only: notify only,
// or pause on Meta with its cooldown, daily cap and 'reactivar') and the 'Acciones' section —
// what the rules' actions did on Meta, with 'Deshacer' on a standing pause for admins.
import { useState } from 'react';
import { alertActionLabel, formatDateTimeDMY, formatProfitFigure, type AlertAction, type AlertRuleAction } from '@adops/core';
import { reportingTimeZone } from '../../lib/timezone';
import { networkCurrency } from '../../lib/currency';
import { useApi } from '../../hooks/useApi';
import { useAsync } from '../../hooks/useAsync';
import { useSession } from '../../hooks/useSession';
import { Card } from '../Card';
import { ErrorBanner } from '../ErrorBanner';
import { Loading } from '../Loading';
import { inputClass, labelClass, secondaryButton } from '../styles';
import { errorText } from '../../lib/errors';
import { Pagination } from '../Pagination';

// The guards' defaults (act at once, stay paused); their fields on this form come with the web's part of issue 28.
export const DEFAULT_RULE_ACTION: AlertRuleAction = {
  mode: 'notify',
  reactivate: false,
  cooldown_minutes: 60,
  daily_cap: 5,
  confirm_evaluations: 1,
  hold_minutes: null,
};

/** The action part of a campaign rule's form (shown to admins only). */
export function RuleActionFields({ value, onChange }: { value: AlertRuleAction | null; onChange: (next: AlertRuleAction | null) => void }) {
  const a = value ?? DEFAULT_RULE_ACTION;
  const set = (change: Partial<AlertRuleAction>) => onChange({ ...a, ...change });
  return (
    <fieldset className="grid gap-3 rounded-md border border-amber-200 bg-amber-50 p-3 sm:col-span-2 sm:grid-cols-2 lg:col-span-4 lg:grid-cols-4">
      <legend className="px-1 text-sm font-medium text-amber-800">Acción sobre Meta (solo administradores)</legend>
      <div>
        <label className={labelClass} htmlFor="rule-action-mode">
          Acción
        </label>
        <select
          id="rule-action-mode"
          className={inputClass}
          value={value ? value.mode : 'none'}
          onChange={(e) => (e.target.value === 'none' ? onChange(null) : set({ mode: e.target.value as AlertRuleAction['mode'] }))}
        >
          <option value="none">Ninguna</option>
          <option value="notify">Solo avisar de lo que pausaría</option>
          <option value="pause">Pausar en Meta</option>
        </select>
      </div>
      {value && (
        <>
          <div>
            <label className={labelClass} htmlFor="rule-action-cooldown">
              Espera entre acciones (min)
            </label>
            <input
              id="rule-action-cooldown"
              type="number"
              min={0}
              className={inputClass}
              value={a.cooldown_minutes}
              onChange={(e) => set({ cooldown_minutes: Number(e.target.value) })}
            />
          </div>
          <div>
            <label className={labelClass} htmlFor="rule-action-cap">
              Máximo de acciones al día por cuenta
            </label>
            <input
              id="rule-action-cap"
              type="number"
              min={1}
              className={inputClass}
              value={a.daily_cap}
              onChange={(e) => set({ daily_cap: Number(e.target.value) })}
            />
          </div>
          <div>
            <label className={labelClass} htmlFor="rule-action-confirm">
              Evaluaciones seguidas antes de actuar
            </label>
            <input
              id="rule-action-confirm"
              type="number"
              min={1}
              className={inputClass}
              value={a.confirm_evaluations}
              onChange={(e) => set({ confirm_evaluations: Number(e.target.value) })}
            />
          </div>
          <div>
            <label className={labelClass} htmlFor="rule-action-hold">
              Pausa temporal (min; vacío: hasta reactivar)
            </label>
            <input
              id="rule-action-hold"
              type="number"
              min={1}
              className={inputClass}
              value={a.hold_minutes ?? ''}
              onChange={(e) => set({ hold_minutes: e.target.value === '' ? null : Number(e.target.value) })}
            />
          </div>
          <label className="flex items-end gap-2 pb-2 text-sm text-gray-700">
            <input type="checkbox" checked={a.reactivate} onChange={(e) => set({ reactivate: e.target.checked })} />
            Reactivar cuando el ROI se recupere
          </label>
        </>
      )}
    </fieldset>
  );
}

/** An instant as dd/MM/yyyy HH:mm on the reporting zone's clock. */
const when = (iso: string) => formatDateTimeDMY(iso, reportingTimeZone());
/** Figures rounded once by core's rule (half away from zero), as on every screen. */
/** An action's figures as Rentabilidad and `adops alerts actions` show them (core's one formatter, network currency). */
const figure = (key: 'spend' | 'roi', v: number | null | undefined) => formatProfitFigure(key, v, networkCurrency());

/** 'Acciones': what the campaign rules' actions did on Meta; admins undo a standing pause. */
export function AlertActionsCard() {
  const api = useApi();
  const { user } = useSession();
  const [page, setPage] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const list = useAsync(() => api.alerts.actions({ page, page_size: 20 }), [api, page]);
  const undo = async (a: AlertAction) => {
    if (!window.confirm(`¿Reactivar en Meta ${a.level === 'campaign' ? 'la campaña' : 'el conjunto'} ${a.subject}?`)) return;
    setError(null);
    setBusy(a.id);
    try {
      await api.alerts.undoAction({ id: a.id });
      list.reload();
    } catch (e) {
      setError(errorText(e, 'No se pudo deshacer la pausa'));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Card
      title="Acciones"
      actions={
        list.data && (
          <span className="text-sm text-gray-500">
            Hoy en {list.data.totals.account}: {list.data.totals.today} acciones automáticas
          </span>
        )
      }
    >
      {list.error ? <ErrorBanner error={list.error} fallback="Error al cargar las acciones" /> : null}
      {error && <p className="mb-3 text-sm text-red-600">{error}</p>}
      {list.loading && !list.data ? (
        <Loading />
      ) : list.data?.rows.length === 0 ? (
        <p className="text-sm text-gray-500">
          Ninguna regla ha actuado en Meta. Un administrador puede añadir la acción «Pausar en Meta» a una regla de campaña.
        </p>
      ) : (
        <div>
          <table className="block min-w-full text-sm md:table md:divide-y md:divide-gray-200" data-testid="alert-actions-table">
            <thead className="hidden bg-gray-50 text-left md:table-header-group text-xs font-semibold uppercase tracking-wide text-gray-500">
              <tr>
                <th className="px-3 py-2">Cuándo</th>
                <th className="px-3 py-2">Acción</th>
                <th className="px-3 py-2">Campaña / conjunto</th>
                <th className="px-3 py-2">Regla y motivo</th>
                <th className="px-3 py-2 text-right">Gasto</th>
                <th className="px-3 py-2 text-right">ROI</th>
                <th className="px-3 py-2" />
              </tr>
            </thead>
            <tbody className="block divide-y divide-gray-100 md:table-row-group">
              {list.data?.rows.map((a) => (
                <tr key={a.id} className="block py-2 md:table-row md:py-0">
                  <td className="block px-0 py-1 md:table-cell md:px-3 md:py-2 whitespace-nowrap text-gray-600">{when(a.at)}</td>
                  <td className="block px-0 py-1 md:table-cell md:px-3 md:py-2">
                    <span className={a.status === 'failed' ? 'font-medium text-red-700' : 'font-medium text-gray-900'}>{alertActionLabel(a)}</span>
                    {a.detail && <div className="text-xs text-red-600">{a.detail}</div>}
                  </td>
                  <td className="block px-0 py-1 md:table-cell md:px-3 md:py-2 font-mono text-xs">{a.subject}</td>
                  <td className="block px-0 py-1 md:table-cell md:px-3 md:py-2 max-w-xl text-gray-700">
                    <div className="font-medium text-gray-900">{a.rule_name}</div>
                    <div className="text-xs">{a.reason}</div>
                    {a.undone_at && (
                      <div className="text-xs text-green-700">
                        Deshecha {when(a.undone_at)} por {a.undone_by}
                      </div>
                    )}
                  </td>
                  <td className="block px-0 py-1 md:table-cell md:px-3 md:py-2 md:text-right">{figure('spend', a.figures.spend)}</td>
                  <td className="block px-0 py-1 md:table-cell md:px-3 md:py-2 md:text-right">{figure('roi', a.figures.roi)}</td>
                  <td className="block px-0 py-1 md:table-cell md:px-3 md:py-2 md:text-right">
                    {user?.is_admin && a.undoable && (
                      <button type="button" className={secondaryButton} disabled={busy === a.id} onClick={() => undo(a)}>
                        {busy === a.id ? 'Deshaciendo...' : 'Deshacer'}
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
