// Alertas: what fired (open, muted, resolved) with mute / unmute — one's own, or an admin's for
// everyone — the rules (create, edit, switch off, delete) and the user's channels (bell, e-mail,
// webhook). Opening the page marks the alerts read, so the bell in the nav goes to 0.
import { MarkIcon, MarkedText } from '../components/icons';
import { CheckedForm } from '../components/CheckedForm';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  formatDateTimeDMY,
  ALERT_KIND_LABELS,
  ALERT_RULE_KINDS,
  ALERT_STATE_LABELS,
  alertRuleActionText,
  alertStateText,
  alertRuleCondition,
  deliveryText,
  type Alert,
  type AlertRule,
  type AlertRuleKind,
  type AlertSubscription,
} from '@adops/core';
import { reportingTimeZone } from '../lib/timezone';
import { ZoneNote } from '../components/ZoneNote';
import { useApi } from '../hooks/useApi';
import { useAsync } from '../hooks/useAsync';
import { useSession } from '../hooks/useSession';
import { ALERTS_READ_EVENT } from '../components/AlertBell';
import { Card } from '../components/Card';
import { ErrorBanner } from '../components/ErrorBanner';
import { AlertActionsCard, RuleActionFields } from '../components/alerts/AlertActions';
import { BACKTEST_INTRO, BacktestAnswer, BacktestControls, RuleBacktestPanel } from '../components/alerts/BacktestPanel';
import { EvaluationLog } from '../components/alerts/EvaluationLog';
import { flappingTitle } from '../components/alerts/BacktestResult';
import { useBacktest } from '../components/alerts/useBacktest';
import { FormField } from '../components/FormField';
import { Loading } from '../components/Loading';
import { dangerButton, inputClass, primaryButton, secondaryButton } from '../components/styles';
import { errorText } from '../lib/errors';
import { Pagination } from '../components/Pagination';
import { useUrlParams } from '../hooks/useUrlState';
import { readPositiveInt, setParam } from '../lib/urlState';

type FieldDef = {
  key: string;
  label: string;
  type: 'number' | 'text' | 'select' | 'checkbox';
  options?: Array<[string, string]>;
  initial: string | boolean;
};

const TARGET = (label: string): FieldDef => ({ key: 'target', label, type: 'text', initial: '' });
/** What a rule watches ('De'): the first option is the default. */
const SCOPE = (...options: Array<[string, string]>): FieldDef => ({ key: 'scope', label: 'De', type: 'select', options, initial: options[0][0] });
const FIELDS: Record<AlertRuleKind, FieldDef[]> = {
  tq_low: [
    SCOPE(['zone', 'Zona'], ['publisher', 'Publisher']),
    TARGET('Zona o publisher (vacío: todas)'),
    { key: 'threshold', label: 'TQ menor que', type: 'number', initial: '0.5' },
    { key: 'hours', label: 'Últimas horas', type: 'number', initial: '6' },
    { key: 'min_impressions', label: 'Impresiones mínimas', type: 'number', initial: '1000' },
  ],
  revenue_drop: [
    SCOPE(['zone', 'Zona'], ['publisher', 'Publisher'], ['advertiser', 'Advertiser']),
    TARGET('Zona, publisher o advertiser (vacío: todos)'),
    { key: 'drop_percent', label: 'Caída mínima (%)', type: 'number', initial: '30' },
    { key: 'hours', label: 'Horas (días completos)', type: 'number', initial: '24' },
    { key: 'min_revenue', label: 'Revenue mínimo de la semana anterior', type: 'number', initial: '10' },
  ],
  referrer_burst: [
    TARGET('Host del referrer (vacío: cualquiera)'),
    { key: 'new_only', label: 'Solo referrers nunca vistos', type: 'checkbox', initial: false },
    { key: 'visits', label: 'Más de N visitas', type: 'number', initial: '500' },
    { key: 'minutes', label: 'En M minutos', type: 'number', initial: '10' },
  ],
  ip_burst: [
    { key: 'visits', label: 'Más de N visitas', type: 'number', initial: '100' },
    { key: 'minutes', label: 'En M minutos', type: 'number', initial: '10' },
  ],
  campaign_roi: [
    {
      key: 'level',
      label: 'Nivel',
      type: 'select',
      options: [
        ['campaign', 'Campaña'],
        ['adset', 'Conjunto de anuncios'],
      ],
      initial: 'campaign',
    },
    TARGET('Id de campaña o conjunto (vacío: todos)'),
    {
      key: 'metric',
      label: 'Condición',
      type: 'select',
      options: [
        ['roi', 'ROI bajo un umbral'],
        ['cpc', 'CPC sobre el de equilibrio'],
      ],
      initial: 'roi',
    },
    { key: 'threshold', label: 'ROI menor que (%)', type: 'number', initial: '0' },
    { key: 'hours', label: 'Últimas horas', type: 'number', initial: '24' },
    { key: 'min_spend', label: 'Gasto mínimo', type: 'number', initial: '10' },
    // Off: only days with synced spend and a final zone report count (never a pause on a partial day).
    { key: 'use_estimates', label: 'Usar revenue estimado (días con informe parcial o sin informe)', type: 'checkbox', initial: false },
  ],
};

type Values = Record<string, string | boolean>;
const initialValues = (kind: AlertRuleKind): Values => Object.fromEntries(FIELDS[kind].map((f) => [f.key, f.initial]));
const valuesOf = (rule: AlertRule): Values =>
  Object.fromEntries(
    FIELDS[rule.kind].map((f) => {
      const v = rule.params[f.key];
      return [f.key, f.type === 'checkbox' ? Boolean(v) : v == null ? '' : String(v)];
    }),
  );
const paramsOf = (kind: AlertRuleKind, values: Values): Record<string, unknown> =>
  Object.fromEntries(
    FIELDS[kind]
      .filter((f) => !(f.key === 'threshold' && kind === 'campaign_roi' && values.metric === 'cpc'))
      .map((f) => [f.key, f.type === 'number' ? (values[f.key] === '' ? undefined : Number(values[f.key])) : values[f.key]]),
  );

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

function FiredAlerts() {
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

function RuleForm({ editing, onDone }: { editing: AlertRule | null; onDone: () => void }) {
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

function Rules() {
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

function Channels() {
  const api = useApi();
  const current = useAsync(() => api.alerts.subscription(), [api]);
  const [draft, setDraft] = useState<AlertSubscription | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    if (current.data) setDraft(current.data);
  }, [current.data]);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    setMessage(null);
    try {
      const saved = await api.alerts.setSubscription({
        in_app: draft.in_app,
        email: draft.email,
        webhook_url: draft.webhook_url || null,
        rule_ids: draft.rule_ids,
        digest: draft.digest,
      });
      setDraft(saved);
      setMessage('✅ Canales guardados');
    } catch (err) {
      setMessage(`❌ ${errorText(err, 'Error al guardar los canales')}`);
    }
  };
  return (
    <Card title="Mis canales">
      {current.error ? <ErrorBanner error={current.error} fallback="Error al cargar tus canales" /> : null}
      {!draft ? (
        <Loading />
      ) : (
        <CheckedForm onSubmit={save} className="grid gap-3" aria-label="Mis canales">
          <label className="flex items-center gap-2 text-sm text-gray-700">
            <input type="checkbox" checked={draft.in_app} onChange={(e) => setDraft({ ...draft, in_app: e.target.checked })} />
            En la app (campana)
          </label>
          <label className="flex items-center gap-2 text-sm text-gray-700">
            <input type="checkbox" checked={draft.email} onChange={(e) => setDraft({ ...draft, email: e.target.checked })} />
            Por email a mi dirección
          </label>
          <label className="flex items-center gap-2 text-sm text-gray-700">
            <input type="checkbox" checked={draft.digest} onChange={(e) => setDraft({ ...draft, digest: e.target.checked })} />
            Resumen diario por email (tarjetas de ayer, mayores cambios y alertas abiertas)
          </label>
          <FormField id="webhook-url" label="Webhook (Slack u otro; vacío: ninguno)">
            <input
              id="webhook-url"
              className={inputClass}
              placeholder="https://hooks.slack.com/services/…"
              value={draft.webhook_url ?? ''}
              onChange={(e) => setDraft({ ...draft, webhook_url: e.target.value })}
            />
            {draft.webhook_secret && (
              <p className="mt-1 break-all text-xs text-gray-500">
                Firma: cabecera <code>X-Adops-Signature</code> = <code>sha256=</code>HMAC-SHA-256 de «<code>X-Adops-Timestamp</code>.cuerpo» con la
                clave <code data-testid="webhook-secret">{draft.webhook_secret}</code>
              </p>
            )}
          </FormField>
          <div className="flex items-center gap-3">
            <button type="submit" className={primaryButton}>
              Guardar canales
            </button>
            {message && (
              <span
                role={message.startsWith('❌') ? 'alert' : 'status'}
                className={`text-sm ${message.startsWith('❌') ? 'text-red-600' : 'text-green-700'}`}
              >
                <MarkedText text={message} />
              </span>
            )}
          </div>
        </CheckedForm>
      )}
    </Card>
  );
}

export default function Alerts() {
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold text-gray-900">Alertas</h1>
      <FiredAlerts />
      <AlertActionsCard />
      <div className="grid gap-6 xl:grid-cols-3">
        <div className="xl:col-span-2">
          <Rules />
        </div>
        <Channels />
      </div>
    </div>
  );
}
