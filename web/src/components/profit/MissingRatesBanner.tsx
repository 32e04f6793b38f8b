// The banner shown instead of guessed figures when spend is in a month and currency without an
// exchange rate (the answer's missing_rates): it names each one, says what is not shown, and
// lets an admin add it (or points to where it is added).
import { Link } from 'react-router-dom';
import type { MissingRate } from '@adops/core';

/** '2026-03' → 'marzo de 2026'. */
export function monthName(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat('es-ES', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, 1)));
}

export interface MissingRatesBannerProps {
  missing: readonly MissingRate[];
  /** The network's currency the rate converts to. */
  currency: string;
  isAdmin: boolean;
  /** Fills the rates form with a missing one (the Rentabilidad screen); without it, admins get a link there. */
  onAdd?: (m: MissingRate) => void;
  /** The figures left empty, as the screen names them. */
  hidden?: string;
}

export function MissingRatesBanner({
  missing,
  currency,
  isAdmin,
  onAdd,
  hidden = 'el gasto, el beneficio, el ROI, el ROAS y el CPC',
}: MissingRatesBannerProps) {
  if (missing.length === 0) return null;
  const one = missing.length === 1;
  return (
    <div
      role="alert"
      data-testid="missing-rates"
      className="space-y-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <p>
        <strong className="font-semibold">{one ? 'Falta un tipo de cambio' : 'Faltan tipos de cambio'}</strong> a {currency}:{' '}
        {missing.map((m, i) => (
          <span key={`${m.month}|${m.currency}`}>
            {i > 0 && ', '}
            <strong>
              {m.currency} de {monthName(m.month)}
            </strong>
          </span>
        ))}
        . Donde falta, {hidden} se muestran como «-» (no se estiman).
      </p>
      {isAdmin ? (
        onAdd ? (
          <div className="flex flex-wrap gap-2">
            {missing.map((m) => (
              <button
                key={`${m.month}|${m.currency}`}
                type="button"
                onClick={() => onAdd(m)}
                className="rounded-md border border-amber-400 bg-white px-2.5 py-1 text-xs font-medium text-amber-900 hover:bg-amber-100"
              >
                Añadir {m.currency} de {monthName(m.month)}
              </button>
            ))}
          </div>
        ) : (
          <p>
            Añádelos en{' '}
            <Link to="/profit#tipos-de-cambio" className="font-medium underline">
              Rentabilidad → Tipos de cambio
            </Link>
            .
          </p>
        )
      ) : (
        <p>Pide a un administrador que los añada en Tipos de cambio.</p>
      )}
    </div>
  );
}
