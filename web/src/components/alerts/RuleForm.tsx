// A rule's form (new or edited): name, kind, the kind's fields, the wait between notices and,
// for an admin on a campaign rule, the action on Meta.
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ALERT_KIND_LABELS, ALERT_RULE_KINDS, type AlertRule, type AlertRuleKind } from '@adops/core';
import { CheckedForm } from '../CheckedForm';
import { FormField } from '../FormField';
import { MarkedText } from '../icons';
import { inputClass, primaryButton, secondaryButton } from '../styles';
import { useApi } from '../../hooks/useApi';
import { useSession } from '../../hooks/useSession';
import { errorText } from '../../lib/errors';
import { RuleActionFields } from './AlertActions';
import { BACKTEST_INTRO, BacktestAnswer, BacktestControls } from './BacktestPanel';
import { flappingTitle } from './BacktestResult';
import { useBacktest } from './useBacktest';
import { FIELDS, initialValues, paramsOf, type Values, valuesOf } from './ruleFields';

export function RuleForm({ editing, onDone }: { editing: AlertRule | null; onDone: () => void }) {
  const api = useApi();
  const { user } = useSession();
  const [action, setAction] = useState<AlertRule['action']>(editing?.action ?? null);
  const [name, setName] = useState(editing?.name ?? '');
  const [kind, setKind] = useState<AlertRuleKind>(editing?.kind ?? 'tq_low');
  const [values, setValues] = useState<Values>(editing ? valuesOf(editing) : initialValues('tq_low'));
  const [cooldown, setCooldown] = useState(String(editing?.cooldown_minutes ?? 60));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // The button that opened the form goes away ('Nueva regla') or sits above: the cursor waits in the first field.
  const nameField = useRef<HTMLInputElement>(null);
  useEffect(() => nameField.current?.focus(), []);
  // 'Probar en el pasado' replays the form's rule as it stands, unsaved (its fields checked first).
  const backtest = useBacktest();
  const spec = () => ({
    name,
    kind,
    params: paramsOf(kind, values),
    cooldown_minutes: Number(cooldown),
    action: kind === 'campaign_roi' ? action : null,
  });
  const specKey = JSON.stringify(spec());
  const tried = backtest.data && backtest.ran === specKey ? backtest.data : null;
  const flaps = tried && flappingTitle(tried);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (((e.nativeEvent as SubmitEvent).submitter as HTMLElement | null)?.dataset.intent === 'backtest') {
      const body = spec();
      backtest.start((days, signal) => api.alerts.backtest({ ...body, days } as Parameters<typeof api.alerts.backtest>[0], { signal }), specKey);
      return;
    }
    setError(null);
    setSaving(true);
    try {
      // The action (profit guard) is an admin's, on a campaign rule only; staff never send it.
      const withAction = user?.is_admin ? { action: kind === 'campaign_roi' ? action : null } : {};
      const body = { name, kind, params: paramsOf(kind, values), cooldown_minutes: Number(cooldown), ...withAction };
      if (editing) await api.alerts.updateRule({ id: editing.id, ...body });
      else await api.alerts.createRule(body as Parameters<typeof api.alerts.createRule>[0]);
      onDone();
    } catch (err) {
      setError(errorText(err, editing ? 'Error al guardar la regla' : 'Error al crear la regla'));
    } finally {
      setSaving(false);
    }
  };
  return (
    <CheckedForm
      onSubmit={submit}
      className="grid gap-3 rounded-md border border-gray-200 bg-gray-50 p-4 sm:grid-cols-2 lg:grid-cols-4"
      aria-label="Regla de alerta"
    >
      <FormField id="rule-name" label="Nombre" required className="sm:col-span-2">
        <input
          ref={nameField}
          id="rule-name"
          className={inputClass}
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={120}
        />
      </FormField>
      <FormField id="rule-kind" label="Tipo">
        <select
          id="rule-kind"
          className={inputClass}
          value={kind}
          onChange={(e) => {
            const k = e.target.value as AlertRuleKind;
            setKind(k);
            setValues(initialValues(k));
          }}
        >
          {ALERT_RULE_KINDS.map((k) => (
            <option key={k} value={k}>
              {ALERT_KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </FormField>
      <FormField id="rule-cooldown" label="Espera entre avisos (min)" required>
        {/* Required: an empty wait is not 0 minutes (the form says so before anything is sent). */}
        <input
          id="rule-cooldown"
          type="number"
          min={0}
          required
          className={inputClass}
          value={cooldown}
          onChange={(e) => setCooldown(e.target.value)}
        />
      </FormField>
      {FIELDS[kind]
        .filter((f) => !(f.key === 'threshold' && kind === 'campaign_roi' && values.metric === 'cpc'))
        .map((f) =>
          f.type === 'checkbox' ? (
            <div key={`${kind}-${f.key}`} className="flex items-end">
              <label className="flex items-center gap-2 text-sm text-gray-700">
                <input type="checkbox" checked={Boolean(values[f.key])} onChange={(e) => setValues({ ...values, [f.key]: e.target.checked })} />
                {f.label}
              </label>
            </div>
          ) : (
            <FormField key={`${kind}-${f.key}`} id={`rule-${f.key}`} label={f.label}>
              {f.type === 'select' ? (
                <select
                  id={`rule-${f.key}`}
                  className={inputClass}
                  value={String(values[f.key])}
                  onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
                >
                  {f.options?.map(([v, l]) => (
                    <option key={v} value={v}>
                      {l}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={`rule-${f.key}`}
                  className={inputClass}
                  type={f.type === 'number' ? 'number' : 'text'}
                  step="any"
                  value={String(values[f.key])}
                  onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
                />
              )}
            </FormField>
          ),
        )}
      {user?.is_admin && kind === 'campaign_roi' && <RuleActionFields value={action} onChange={setAction} />}
      <section
        aria-labelledby="rule-backtest-title"
        className="min-w-0 space-y-3 rounded-md border border-gray-200 bg-white p-3 sm:col-span-2 lg:col-span-4"
        data-testid="form-backtest"
      >
        <h3 id="rule-backtest-title" className="text-sm font-semibold text-gray-900">
          Probar en el pasado
        </h3>
        <p className="text-xs text-gray-600">{BACKTEST_INTRO}</p>
        <BacktestControls state={backtest} submit />
        {backtest.data && !tried && !backtest.busy && (
          <p className="text-xs text-amber-800">La regla ha cambiado desde esta prueba: vuelve a probarla.</p>
        )}
        <BacktestAnswer state={backtest} />
      </section>
      <div className="flex flex-wrap items-end gap-2 sm:col-span-2 lg:col-span-4">
        <button type="submit" className={primaryButton} disabled={saving}>
          {saving ? 'Guardando...' : editing ? 'Guardar' : 'Crear regla'}
        </button>
        <button type="button" className={secondaryButton} onClick={onDone}>
          Cancelar
        </button>
        {flaps && (
          <p className="text-sm text-amber-800" data-testid="form-flapping">
            ⚠ {flaps}: mira la prueba antes de {editing ? 'guardarla' : 'crearla'}.
          </p>
        )}
        {error && (
          <p role="alert" className="text-sm text-red-600">
            <MarkedText text={`❌ ${error}`} />
          </p>
        )}
      </div>
    </CheckedForm>
  );
}
