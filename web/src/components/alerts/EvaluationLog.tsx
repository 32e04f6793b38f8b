// A rule's 'Historial de evaluación': what every evaluation made of each campaign, zone or
// referrer it looked at — the outcome in core's words, its figures, the judged value and threshold,
// the guard's words and why — latest first, in pages; filtered by subject (its exact id) and outcome.
import { useId, useState, type FormEvent } from 'react';
import {
  ALERT_OUTCOMES,
  ALERT_OUTCOME_LABELS,
  ALERT_OUTCOME_WHY,
  alertFiguresText,
  formatDateTimeDMY,
  formatInt,
  type AlertOutcome,
  type AlertRule,
} from '@adops/core';
import { useApi } from '../../hooks/useApi';
import { useAsync } from '../../hooks/useAsync';
import { networkCurrency } from '../../lib/currency';
import { reportingTimeZone } from '../../lib/timezone';
import { ErrorBanner } from '../ErrorBanner';
import { FormField } from '../FormField';
import { Loading } from '../Loading';
import { Pagination } from '../Pagination';
import { ZoneNote } from '../ZoneNote';
import { inputClass, secondaryButton } from '../styles';
import { OUTCOME_BADGE, judgedText } from './trustFormat';

const PAGE_SIZE = 20;

export function EvaluationLog({ rule, id }: { rule: AlertRule; id: string }) {
  const api = useApi();
  const fieldId = useId();
  const [draft, setDraft] = useState('');
  const [subject, setSubject] = useState('');
  const [outcome, setOutcome] = useState<AlertOutcome | ''>('');
  const [page, setPage] = useState(1);
  const log = useAsync(
    (signal) =>
      api.alerts.evaluations({ id: rule.id, subject: subject || undefined, outcome: outcome || undefined, page, page_size: PAGE_SIZE }, { signal }),
    [api, rule.id, subject, outcome, page],
  );
  const tz = reportingTimeZone();
  const currency = networkCurrency();
  const campaigns = rule.kind === 'campaign_roi';
  const filter = (e: FormEvent) => {
    e.preventDefault();
    setSubject(draft.trim());
    setPage(1);
  };
  const data = log.data;
  const cell = 'block px-0 py-1 md:table-cell md:px-3 md:py-2';
  const label = (text: string) => (
    <span aria-hidden className="mr-1 text-xs font-medium text-gray-500 md:hidden">
      {text}:
    </span>
  );
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="mt-3 space-y-3 rounded-md border border-gray-200 bg-gray-50 p-3 sm:p-4"
      data-testid="evaluation-log"
    >
      <h3 id={`${id}-title`} className="text-sm font-semibold text-gray-900">
        Historial de evaluación: «{rule.name}»
      </h3>
      <p className="flex flex-wrap items-center gap-x-3 text-xs text-gray-600">
        <span>
          {data?.totals.last_evaluated_at
            ? `Última evaluación: ${formatDateTimeDMY(data.totals.last_evaluated_at, tz)}.`
            : data
              ? 'Aún no hay evaluaciones guardadas de esta regla.'
              : ''}{' '}
          Por qué actuó o no en cada {campaigns ? 'campaña o conjunto' : 'zona, publisher, advertiser, referrer o IP'}; se guardan{' '}
          {formatInt(data?.totals.retention_days ?? 30)} días y como máximo {formatInt(data?.totals.per_rule ?? 1000)} entradas por regla.
        </span>
        <ZoneNote />
      </p>
      <form onSubmit={filter} className="flex flex-wrap items-end gap-3" aria-label="Filtrar el historial">
        <FormField
          id={`${fieldId}-subject`}
          label={campaigns ? 'Campaña o conjunto (id)' : 'Sobre (id, zona, host o IP)'}
          className="min-w-0 flex-1 basis-48"
        >
          <input
            id={`${fieldId}-subject`}
            className={inputClass}
            value={draft}
            maxLength={200}
            list={`${fieldId}-subjects`}
            onChange={(e) => setDraft(e.target.value)}
          />
          <datalist id={`${fieldId}-subjects`}>
            {[...new Set(data?.rows.map((r) => r.subject) ?? [])].map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
        </FormField>
        <FormField id={`${fieldId}-outcome`} label="Resultado" className="basis-40">
          <select
            id={`${fieldId}-outcome`}
            className={inputClass}
            value={outcome}
            onChange={(e) => {
              setOutcome(e.target.value as AlertOutcome | '');
              setPage(1);
            }}
          >
            <option value="">Todos</option>
            {ALERT_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {ALERT_OUTCOME_LABELS[o]}
              </option>
            ))}
          </select>
        </FormField>
        <button type="submit" className={secondaryButton}>
          Filtrar
        </button>
        {(subject || outcome) && (
          <button
            type="button"
            className={secondaryButton}
            onClick={() => {
              setDraft('');
              setSubject('');
              setOutcome('');
              setPage(1);
            }}
          >
            Quitar filtros
          </button>
        )}
      </form>
      {log.error ? <ErrorBanner error={log.error} fallback="Error al cargar el historial de evaluación" /> : null}
      {log.loading && !data ? (
        <Loading />
      ) : data && data.rows.length === 0 ? (
        <p className="text-sm text-gray-500">
          {subject || outcome ? 'Nada guardado con estos filtros.' : 'Aún no hay evaluaciones guardadas de esta regla.'}
        </p>
      ) : (
        data && (
          <div aria-busy={log.loading} className={log.loading ? 'opacity-60' : undefined}>
            <table className="block min-w-full text-sm md:table md:divide-y md:divide-gray-200" data-testid="evaluation-table">
              <caption className="sr-only">Historial de evaluación de «{rule.name}», lo más reciente primero</caption>
              <thead className="hidden bg-gray-50 text-left text-xs font-semibold uppercase tracking-wide text-gray-500 md:table-header-group">
                <tr>
                  <th className="px-3 py-2">Cuándo</th>
                  <th className="px-3 py-2">Sobre</th>
                  <th className="px-3 py-2">Resultado</th>
                  <th className="px-3 py-2">Cifras</th>
                  <th className="px-3 py-2">Valor / umbral</th>
                  <th className="px-3 py-2">Guarda y por qué</th>
                </tr>
              </thead>
              <tbody className="block divide-y divide-gray-100 md:table-row-group">
                {data.rows.map((e) => (
                  <tr key={e.id} className="block py-2 md:table-row md:py-0" data-outcome={e.outcome}>
                    <td className={`${cell} text-gray-600`}>
                      <div className="whitespace-nowrap">{formatDateTimeDMY(e.last_at, tz)}</div>
                      {e.evaluations > 1 && (
                        <div className="text-xs text-gray-500">
                          {formatInt(e.evaluations)} evaluaciones desde {formatDateTimeDMY(e.first_at, tz)}
                        </div>
                      )}
                    </td>
                    <td className={`${cell} break-all font-mono text-xs`}>{e.subject}</td>
                    <td className={cell}>
                      <span
                        className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${OUTCOME_BADGE[e.outcome]}`}
                      >
                        {ALERT_OUTCOME_LABELS[e.outcome]}
                      </span>
                      <div className="text-xs text-gray-600">{ALERT_OUTCOME_WHY[e.outcome]}</div>
                    </td>
                    <td className={`${cell} text-gray-700`}>
                      {label('Cifras')}
                      {alertFiguresText(e.figures, currency, rule.kind) || '-'}
                    </td>
                    <td className={`${cell} whitespace-nowrap text-gray-700`}>
                      {label('Valor / umbral')}
                      {judgedText(rule, e.value, currency, 'value')} / {judgedText(rule, e.threshold, currency, 'threshold')}
                    </td>
                    <td className={`${cell} max-w-xl text-gray-700`}>
                      {e.guard && <div className="text-xs font-medium text-amber-800">Guarda: {e.guard}</div>}
                      <div>{e.reason}</div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
              <span className="text-xs text-gray-500">{formatInt(data.total_rows)} entradas</span>
              {data.page_count > 1 && <Pagination page={data.page} pageCount={data.page_count} onPage={setPage} />}
            </div>
          </div>
        )
      )}
    </section>
  );
}
