// 'Reglas': the alert rules with their condition and action; switch off, edit, delete (one's own,
// or any for an admin); the form opens above the list and gives the keyboard back when it closes.
import { useEffect, useRef, useState } from 'react';
import { ALERT_KIND_LABELS, type AlertRule, alertRuleActionText, alertRuleCondition } from '@adops/core';
import { Card } from '../Card';
import { ErrorBanner } from '../ErrorBanner';
import { Loading } from '../Loading';
import { dangerButton, primaryButton, secondaryButton } from '../styles';
import { useApi } from '../../hooks/useApi';
import { useAsync } from '../../hooks/useAsync';
import { useSession } from '../../hooks/useSession';
import { errorText } from '../../lib/errors';
import { RuleBacktestPanel } from './BacktestPanel';
import { EvaluationLog } from './EvaluationLog';
import { RuleForm } from './RuleForm';

export function Rules() {
  const api = useApi();
  const { user } = useSession();
  const rules = useAsync(() => api.alerts.rules(), [api]);
  const [form, setForm] = useState<{ editing: AlertRule | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The panels open under each rule: 'Probar en el pasado' and 'Historial de evaluación' ("<id>:backtest", "<id>:log").
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  // Where the keyboard was when the form opened ('Editar' of a rule, or 'Nueva regla', gone
  // while the form shows): it goes back there when the form closes, not to the page's start.
  const opener = useRef<HTMLElement | null>(null);
  const newRule = useRef<HTMLButtonElement>(null);
  const openForm = (editing: AlertRule | null) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setForm({ editing });
  };
  useEffect(() => {
    if (form || !opener.current) return;
    (opener.current.isConnected ? opener.current : newRule.current)?.focus();
    opener.current = null;
  }, [form]);
  // A rule with an action on Meta is an admin's to change.
  const mayChange = (r: AlertRule) => Boolean(user?.is_admin || (user?.email === r.created_by && !r.action));
  const act = async (call: () => Promise<unknown>) => {
    setError(null);
    try {
      await call();
      rules.reload();
    } catch (e) {
      setError(errorText(e, 'No se pudo cambiar la regla'));
    }
  };
  return (
    <Card
      title="Reglas"
      actions={
        !form && (
          <button ref={newRule} type="button" className={primaryButton} onClick={() => openForm(null)}>
            Nueva regla
          </button>
        )
      }
    >
      {form && (
        <div className="mb-4">
          <RuleForm
            key={form.editing?.id ?? 'new'}
            editing={form.editing}
            onDone={() => {
              setForm(null);
              rules.reload();
            }}
          />
        </div>
      )}
      {rules.error ? <ErrorBanner error={rules.error} fallback="Error al cargar las reglas" /> : null}
      {error && <p className="mb-3 text-sm text-red-600">{error}</p>}
      {rules.loading && !rules.data ? (
        <Loading />
      ) : rules.data?.length === 0 ? (
        <p className="text-sm text-gray-500">Aún no hay reglas. Crea la primera con «Nueva regla».</p>
      ) : (
        <ul className="divide-y divide-gray-100" data-testid="alert-rules">
          {rules.data?.map((r) => (
            <li key={r.id} className="py-3">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <div className="min-w-0">
                  <div className="font-medium text-gray-900">
                    {r.name} {!r.enabled && <span className="ml-1 rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-500">Desactivada</span>}
                  </div>
                  <div className="text-sm text-gray-600">{alertRuleCondition(r)}</div>
                  {r.action && <div className="text-xs font-medium text-amber-700">{alertRuleActionText(r.action)}</div>}
                  <div className="text-xs text-gray-500">
                    {ALERT_KIND_LABELS[r.kind]} · espera {r.cooldown_minutes} min · creada por {r.created_by}
                  </div>
                </div>
                <div className="flex flex-wrap gap-2">
                  {(['backtest', 'log'] as const).map((panel) => (
                    <button
                      key={panel}
                      type="button"
                      className={secondaryButton}
                      aria-expanded={open.has(`${r.id}:${panel}`)}
                      aria-controls={`rule-${r.id}-${panel}`}
                      onClick={() => toggle(`${r.id}:${panel}`)}
                    >
                      {panel === 'backtest' ? 'Probar en el pasado' : 'Historial de evaluación'}
                    </button>
                  ))}
                  {mayChange(r) && (
                    <>
                      <button
                        type="button"
                        className={secondaryButton}
                        onClick={() => act(() => api.alerts.updateRule({ id: r.id, enabled: !r.enabled }))}
                      >
                        {r.enabled ? 'Desactivar' : 'Activar'}
                      </button>
                      <button type="button" className={secondaryButton} onClick={() => openForm(r)}>
                        Editar
                      </button>
                      <button
                        type="button"
                        className={dangerButton}
                        onClick={() =>
                          window.confirm(`¿Eliminar la regla «${r.name}» y sus alertas?`) && act(() => api.alerts.deleteRule({ id: r.id }))
                        }
                      >
                        Eliminar
                      </button>
                    </>
                  )}
                </div>
              </div>
              {open.has(`${r.id}:backtest`) && <RuleBacktestPanel rule={r} id={`rule-${r.id}-backtest`} />}
              {open.has(`${r.id}:log`) && <EvaluationLog rule={r} id={`rule-${r.id}-log`} />}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
