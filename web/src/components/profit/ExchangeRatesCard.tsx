// 'Tipos de cambio': the monthly rates that turn the ad account's currency into the network's
// (GET /api/rates, for everyone); admins set a month's rate or remove it (PUT /api/admin/rates).
// The missing-rate banner can fill the form with the month and currency it names.
import { CheckedForm } from '../CheckedForm';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { formatNumber, type ExchangeRates, type MissingRate } from '@adops/core';
import { Card } from '../Card';
import { ErrorBanner } from '../ErrorBanner';
import { Loading } from '../Loading';
import { dangerButton, inputClass, primaryButton } from '../styles';
import { FormField } from '../FormField';
import { useApi } from '../../hooks/useApi';
import { useFlash } from '../../hooks/useFlash';
import { errorText } from '../../lib/errors';
import { ScrollRegion } from '../ScrollRegion';

export interface ExchangeRatesCardProps {
  rates: ExchangeRates | undefined;
  loading: boolean;
  error: unknown;
  isAdmin: boolean;
  /** A month and currency to fill the form with (a missing rate the admin chose to add). */
  prefill: MissingRate | null;
  /** The table after a change (the screen reloads its figures). */
  onChanged: (after: ExchangeRates) => void;
}

/** '2026-03' → '03/2026'. */
const monthText = (month: string) => `${month.slice(5, 7)}/${month.slice(0, 4)}`;

export function ExchangeRatesCard({ rates, loading, error, isAdmin, prefill, onChanged }: ExchangeRatesCardProps) {
  const api = useApi();
  const id = useId();
  const [month, setMonth] = useState('');
  const [currency, setCurrency] = useState('EUR');
  const [rate, setRate] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, flashSaved] = useFlash();

  useEffect(() => {
    if (!prefill) return;
    setMonth(prefill.month);
    setCurrency(prefill.currency);
    setRate('');
    document.getElementById(`${id}-rate`)?.focus();
  }, [prefill, id]);

  const change = async (changes: Array<{ month: string; currency: string; rate: number | null }>, done: string) => {
    setBusy(true);
    setProblem(null);
    try {
      const after = await api.profit.setRates({ rates: changes });
      onChanged(after);
      flashSaved(done);
      return true;
    } catch (e) {
      setProblem(errorText(e, 'No se pudo guardar el tipo de cambio'));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = Number(rate.trim().replace(',', '.'));
    if (!/^\d{4}-\d{2}$/.test(month)) return setProblem('Elige el mes');
    if (!/^[A-Za-z]{3}$/.test(currency.trim())) return setProblem('La moneda debe ser un código ISO de 3 letras (EUR, USD…)');
    if (!rate.trim() || !Number.isFinite(value) || value <= 0) return setProblem('El tipo de cambio debe ser un número mayor que 0');
    const cur = currency.trim().toUpperCase();
    if (
      await change(
        [{ month, currency: cur, rate: value }],
        `Guardado: ${monthText(month)} 1 ${cur} = ${formatNumber(value, 4)} ${rates?.currency ?? ''}`,
      )
    )
      setRate('');
  };

  const network = rates?.currency ?? '';
  return (
    <Card title="Tipos de cambio">
      <div className="space-y-4" data-testid="exchange-rates">
        <p className="text-sm text-gray-500">
          El gasto de Meta llega en la moneda de la cuenta publicitaria; cada mes se convierte a {network || 'la moneda de la red'} con su tipo de
          cambio. Sin tipo de cambio, el gasto y el beneficio de ese mes no se muestran.
        </p>
        <ErrorBanner error={error} fallback="Error al cargar los tipos de cambio" />
        {loading && !rates ? (
          <Loading label="Cargando tipos de cambio…" />
        ) : rates && rates.rates.length === 0 ? (
          <p className="text-sm text-gray-500">No hay tipos de cambio.</p>
        ) : rates ? (
          <ScrollRegion label="Tipos de cambio" className="max-w-lg overflow-x-auto rounded-md border border-gray-200">
            <table className="min-w-full divide-y divide-gray-200 text-sm">
              <caption className="sr-only">Tipos de cambio</caption>
              <thead className="whitespace-nowrap bg-gray-50 text-xs font-semibold uppercase tracking-wide text-gray-600">
                <tr>
                  <th scope="col" className="px-2 py-2 sm:px-3 text-left">
                    Mes
                  </th>
                  <th scope="col" className="px-2 py-2 sm:px-3 text-left">
                    Moneda
                  </th>
                  <th scope="col" className="px-2 py-2 sm:px-3 text-right">
                    Tipo ({network})
                  </th>
                  {isAdmin && <th scope="col" className="px-2 py-2 sm:px-3" aria-label="Acciones" />}
                </tr>
              </thead>
              <tbody className="divide-y divide-gray-100">
                {[...rates.rates].reverse().map((r) => (
                  <tr key={`${r.month}|${r.currency}`}>
                    <td className="px-2 py-2 sm:px-3">{monthText(r.month)}</td>
                    <td className="px-2 py-2 sm:px-3">{r.currency}</td>
                    <td className="px-2 py-2 sm:px-3 text-right tabular-nums">{formatNumber(r.rate, 4)}</td>
                    {isAdmin && (
                      <td className="px-2 py-2 sm:px-3 text-right">
                        <button
                          type="button"
                          className={`${dangerButton} px-2 py-1 text-xs`}
                          disabled={busy}
                          aria-label={`Quitar ${r.currency} de ${monthText(r.month)}`}
                          onClick={() => void change([{ ...r, rate: null }], `Quitado: ${r.currency} de ${monthText(r.month)}`)}
                        >
                          Quitar
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        ) : null}

        {isAdmin && (
          <CheckedForm onSubmit={(e) => void submit(e)} className="flex flex-wrap items-end gap-3" aria-label="Fijar tipo de cambio">
            <FormField id={`${id}-month`} label="Mes">
              <input id={`${id}-month`} type="month" value={month} onChange={(e) => setMonth(e.target.value)} className={`${inputClass} w-40`} />
            </FormField>
            <FormField id={`${id}-currency`} label="Moneda">
              <input
                id={`${id}-currency`}
                value={currency}
                maxLength={3}
                onChange={(e) => setCurrency(e.target.value.toUpperCase())}
                className={`${inputClass} w-20 uppercase`}
              />
            </FormField>
            <FormField id={`${id}-rate`} label={<>Tipo ({network || 'red'} por unidad)</>}>
              <input
                id={`${id}-rate`}
                inputMode="decimal"
                value={rate}
                onChange={(e) => setRate(e.target.value)}
                className={`${inputClass} w-32`}
                placeholder="1,0850"
              />
            </FormField>
            <button type="submit" className={primaryButton} disabled={busy}>
              {busy ? 'Guardando…' : 'Guardar'}
            </button>
          </CheckedForm>
        )}
        {problem && (
          <p role="alert" className="text-sm text-red-600">
            {problem}
          </p>
        )}
        {saved && (
          <p role="status" className="text-sm text-green-700">
            {saved}
          </p>
        )}
      </div>
    </Card>
  );
}
