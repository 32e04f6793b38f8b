// What 'Probar en el pasado' answered, as the API answered it: the period replayed, the summary
// (alerts, pauses, resumes, spend avoided, revenue forgone, net effect in the network's currency),
// the campaigns it would toggle back and forth (flapping) said first, the server's notes (where
// today's data differs from what was known then, provisional figures), the chart and every action.
import { useState } from 'react';
import {
  BACKTEST_ACTION_LABELS,
  alertFiguresText,
  formatDateTimeDMY,
  formatInt,
  formatMoney,
  type AlertBacktest,
  type BacktestAction,
} from '@adops/core';
import { ZoneNote } from '../ZoneNote';
import { Pagination } from '../Pagination';
import { BacktestChart } from './BacktestChart';

const LEVEL_WORDS: Readonly<Record<BacktestAction['level'], [string, string]>> = {
  campaign: ['una campaña', 'campañas'],
  adset: ['un conjunto de anuncios', 'conjuntos de anuncios'],
  zone: ['una zona', 'zonas'],
  publisher: ['un publisher', 'publishers'],
  advertiser: ['un advertiser', 'advertisers'],
  referrer: ['un referrer', 'referrers'],
  ip: ['una IP', 'IPs'],
};

/** 'Esta regla alternaría 2 campañas entre pausada y activa (flapping)'; null when nothing flaps. */
export function flappingTitle(b: Pick<AlertBacktest, 'summary' | 'actions'>): string | null {
  const n = b.summary.flapping.length;
  if (n === 0) return null;
  const level = b.actions.find((a) => a.subject === b.summary.flapping[0].subject)?.level ?? 'campaign';
  const [one, many] = LEVEL_WORDS[level];
  const between = b.summary.pauses > 0 ? 'pausada y activa' : 'con alerta y sin ella';
  return `Esta regla alternaría ${n === 1 ? one : `${formatInt(n)} ${many}`} entre ${between} (flapping)`;
}

const subjectLabel = (subject: string, name: string | null) => (name ? `${name} (${subject})` : subject);

function Flapping({ b }: { b: AlertBacktest }) {
  const title = flappingTitle(b);
  if (!title) return null;
  const pauses = b.summary.pauses > 0;
  return (
    <section className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="backtest-flapping">
      <h4 className="font-semibold">⚠ {title}</h4>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {b.summary.flapping.map((f) => (
          <li key={f.subject} className="[overflow-wrap:anywhere]">
            {subjectLabel(f.subject, f.name)}: {formatInt(f.offs)} {pauses ? 'pausas' : 'alertas'} y {formatInt(f.ons)}{' '}
            {pauses ? 'reactivaciones' : 'resueltas'}
          </li>
        ))}
      </ul>
      <p className="mt-1 text-xs">Una espera más larga, más horas de datos o un gasto mínimo mayor suelen evitarlo.</p>
    </section>
  );
}

const ACTIONS_PAGE = 25;

function ActionsTable({ b, tz, campaigns }: { b: AlertBacktest; tz: string; campaigns: boolean }) {
  const [page, setPage] = useState(1);
  const pageCount = Math.max(1, Math.ceil(b.actions.length / ACTIONS_PAGE));
  const rows = b.actions.slice((page - 1) * ACTIONS_PAGE, page * ACTIONS_PAGE);
  const cell = 'block px-0 py-1 md:table-cell md:px-3 md:py-2';
  const label = (text: string) => (
    <span aria-hidden className="mr-1 text-xs font-medium text-gray-500 md:hidden">
      {text}:
    </span>
  );
  return (
    <div>
      <table className="block min-w-full text-sm md:table md:divide-y md:divide-gray-200" data-testid="backtest-actions">
        <caption className="sr-only">Lo que habría hecho la regla, lo más antiguo primero</caption>
        <thead className="hidden bg-gray-50 text-left text-xs font-semibold uppercase tracking-wide text-gray-500 md:table-header-group">
          <tr>
            <th className="px-3 py-2">Cuándo</th>
            <th className="px-3 py-2">{campaigns ? 'Campaña / conjunto' : 'Sobre'}</th>
            <th className="px-3 py-2">Acción</th>
            <th className="px-3 py-2">Cifras</th>
            <th className="px-3 py-2">Por qué</th>
          </tr>
        </thead>
        <tbody className="block divide-y divide-gray-100 md:table-row-group">
          {rows.map((a) => (
            <tr key={`${a.at}|${a.action}|${a.subject}`} className="block py-2 md:table-row md:py-0">
              <td className={`${cell} whitespace-nowrap text-gray-600`}>{formatDateTimeDMY(a.at, tz)}</td>
              <td className={cell}>
                {a.name && <div className="break-words font-medium text-gray-900">{a.name}</div>}
                <div className="break-all font-mono text-xs">{a.subject}</div>
              </td>
              <td className={cell}>
                <span
                  className={a.action === 'pause' ? 'font-medium text-red-700' : a.action === 'resume' ? 'font-medium text-green-700' : 'font-medium'}
                >
                  {BACKTEST_ACTION_LABELS[a.action]}
                </span>
              </td>
              <td className={`${cell} text-gray-700`}>
                {label('Cifras')}
                {alertFiguresText(a.figures, b.currency, b.rule.kind) || '-'}
              </td>
              <td className={`${cell} max-w-xl text-gray-700`}>
                {label('Por qué')}
                {a.reason}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {(pageCount > 1 || b.truncated > 0) && (
        <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
          <span className="text-xs text-gray-500">
            {formatInt(b.actions.length)} acciones
            {b.truncated > 0 ? ` … y ${formatInt(b.truncated)} más que la respuesta no lista` : ''}
          </span>
          {pageCount > 1 && <Pagination page={page} pageCount={pageCount} onPage={setPage} />}
        </div>
      )}
    </div>
  );
}

export function BacktestResult({ backtest: b, tz }: { backtest: AlertBacktest; tz: string }) {
  const s = b.summary;
  const money = (v: number) => formatMoney(v, b.currency);
  const figures: Array<{ key: string; label: string; value: string; tone?: string }> = [
    { key: 'alerts', label: 'Alertas', value: formatInt(s.alerts) },
    { key: 'pauses', label: 'Pausas', value: formatInt(s.pauses) },
    { key: 'resumes', label: 'Reactivaciones', value: formatInt(s.resumes) },
    { key: 'spend_avoided', label: 'Gasto evitado', value: money(s.spend_avoided) },
    { key: 'revenue_forgone', label: 'Revenue perdido', value: money(s.revenue_forgone) },
    {
      key: 'net',
      label: 'Efecto neto',
      value: money(s.net),
      tone: s.net > 0 ? 'text-green-700' : s.net < 0 ? 'text-red-700' : undefined,
    },
  ];
  return (
    <div className="space-y-4" data-testid="backtest-result">
      <p className="flex flex-wrap items-center gap-x-3 text-sm text-gray-600">
        <span>
          Del {formatDateTimeDMY(b.from, tz)} al {formatDateTimeDMY(b.to, tz)} · {formatInt(b.evaluations)} evaluaciones, una por hora
        </span>
        <ZoneNote />
      </p>
      <Flapping b={b} />
      <section aria-label="Resumen">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-6" data-testid="backtest-summary">
          {figures.map((f) => (
            <div key={f.key} className="rounded-md border border-gray-200 bg-white px-3 py-2">
              <dt className="text-xs text-gray-500">{f.label}</dt>
              <dd className={`text-base font-semibold tabular-nums ${f.tone ?? 'text-gray-900'}`} data-testid={`backtest-${f.key}`}>
                {f.value}
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-2 text-xs text-gray-500">
          Gasto evitado: lo gastado tras cada pausa hasta su reactivación. Revenue perdido: lo que esas horas habrían ganado. Efecto neto: la
          diferencia.
          {s.held.cooldown || s.held.daily_cap
            ? ` Retenidas: ${formatInt(s.held.cooldown)} por la espera y ${formatInt(s.held.daily_cap)} por el límite diario.`
            : ''}
        </p>
      </section>
      {b.notes.length > 0 && (
        <section className="rounded-md border border-gray-200 bg-gray-50 p-3 text-sm text-gray-700" data-testid="backtest-notes">
          <h4 className="font-medium text-gray-900">Notas: datos de hoy frente a lo que se sabía entonces</h4>
          <ul className="mt-1 list-disc space-y-0.5 pl-5">
            {b.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </section>
      )}
      {b.daily.length > 0 && (
        <section>
          <h4 className="mb-1 text-sm font-medium text-gray-900">Beneficio diario y pausas</h4>
          <BacktestChart backtest={b} tz={tz} />
        </section>
      )}
      <section>
        <h4 className="mb-1 text-sm font-medium text-gray-900">Lo que habría hecho</h4>
        {b.actions.length === 0 ? (
          <p className="text-sm text-gray-500">No habría hecho nada.</p>
        ) : (
          <ActionsTable b={b} tz={tz} campaigns={b.rule.kind === 'campaign_roi'} />
        )}
      </section>
    </div>
  );
}
