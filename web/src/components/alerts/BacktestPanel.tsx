// 'Probar en el pasado' on Alertas: the days (7, 14 or 30) and the button, busy while the server
// replays the rule (the button keeps the focus: aria-disabled, not disabled), a polite status line
// for screen readers, then the answer. The saved rule's panel here; the rule form uses the same
// controls with its own submit (so its fields are checked first) and the unsaved spec.
import { useId } from 'react';
import { BACKTEST_DAYS, formatInt, type AlertRule, type BacktestDays } from '@adops/core';
import { useApi } from '../../hooks/useApi';
import { reportingTimeZone } from '../../lib/timezone';
import { ErrorBanner } from '../ErrorBanner';
import { primaryButton } from '../styles';
import { BacktestResult } from './BacktestResult';
import { useBacktest, type BacktestState } from './useBacktest';

export const BACKTEST_INTRO =
  'Repite la regla cada hora de los últimos días con los datos guardados (las mismas ventanas, mínimos, esperas y límite diario) y dice qué habría hecho y cuánto habría ahorrado o costado. Nunca llama a Meta ni guarda nada.';

/** The days and the button; `submit`: the button submits its form (the rule form checks its fields and runs it). */
export function BacktestControls({ state, onRun, submit = false }: { state: BacktestState; onRun?: () => void; submit?: boolean }) {
  const id = useId();
  const { busy, data, days } = state;
  return (
    <div className="flex flex-wrap items-end gap-3">
      <fieldset className="flex flex-wrap items-center gap-3">
        <legend className="mb-1 text-sm font-medium text-gray-700">Días</legend>
        {BACKTEST_DAYS.map((d) => (
          <label key={d} className="inline-flex items-center gap-1.5 text-sm text-gray-700">
            <input type="radio" name={`${id}-days`} value={d} checked={days === d} onChange={() => state.setDays(d as BacktestDays)} />
            {d} días
          </label>
        ))}
      </fieldset>
      <button
        type={submit ? 'submit' : 'button'}
        data-intent="backtest"
        className={primaryButton}
        aria-disabled={busy || undefined}
        onClick={(e) => {
          if (busy) e.preventDefault();
          else if (!submit) onRun?.();
        }}
      >
        {busy ? 'Probando…' : 'Probar'}
      </button>
      <p role="status" className="text-sm text-gray-600">
        {busy
          ? `Probando la regla en los últimos ${days} días…`
          : data
            ? `Prueba hecha: ${formatInt(data.summary.alerts)} alertas, ${formatInt(data.summary.pauses)} pausas, ${formatInt(data.summary.resumes)} reactivaciones.`
            : ''}
      </p>
    </div>
  );
}

/** The answer of the last run, or its error (the server's Spanish detail). */
export function BacktestAnswer({ state }: { state: BacktestState }) {
  return (
    <div aria-busy={state.busy} className={state.busy ? 'opacity-60' : undefined}>
      {state.error ? <ErrorBanner error={state.error} fallback="No se pudo probar la regla" /> : null}
      {state.data && <BacktestResult backtest={state.data} tz={reportingTimeZone()} />}
    </div>
  );
}

/** A saved rule's 'Probar en el pasado'. */
export function RuleBacktestPanel({ rule, id }: { rule: AlertRule; id: string }) {
  const api = useApi();
  const state = useBacktest();
  const run = () => state.start((days, signal) => api.alerts.backtestRule({ id: rule.id, days }, { signal }));
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="mt-3 space-y-3 rounded-md border border-gray-200 bg-gray-50 p-3 sm:p-4"
      data-testid="rule-backtest"
    >
      <h3 id={`${id}-title`} className="text-sm font-semibold text-gray-900">
        Probar en el pasado: «{rule.name}»
      </h3>
      <p className="text-xs text-gray-600">{BACKTEST_INTRO}</p>
      <BacktestControls state={state} onRun={run} />
      <BacktestAnswer state={state} />
    </section>
  );
}
