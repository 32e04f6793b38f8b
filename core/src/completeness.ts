// What a money answer lacks, in the words every face uses (Rentabilidad and Fb Campaigns on the
// web, `adops profit` and `adops campaigns list`): days without synced Meta spend, days whose
// revenue is estimated or whose zone report is partial, and when spend was last synced. Dates
// read dd/MM/yyyy, times are in the reporting time zone.
import { formatDateDMY, formatDateTime } from './format.js';
import type { ProfitMetricKey } from './metrics.js';
import { addDays } from './presets.js';

/** What a cell of an unknown spend (and what follows from it) says instead of a number. */
export const UNSYNCED_CELL = 'sin sincronizar';

/** The Rentabilidad figures a sync of Meta's spend brings, or that follow from one: unknown while it is not synced. */
export const UNSYNCED_PROFIT_METRICS: ReadonlySet<ProfitMetricKey> = new Set([
  'spend',
  'meta_clicks',
  'meta_impressions',
  'profit',
  'roi',
  'roas',
  'cpc',
  'break_even_cpc',
]);

/** Days as people read them: '27/11/2026 y 28/11/2026'; three or more in a row as 'del 20/11/2026 al 26/11/2026'. */
export function daysText(days: readonly string[]): string {
  const sorted = [...new Set(days)].sort();
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === addDays(sorted[j], 1)) j++;
    if (j - i >= 2) parts.push(`del ${formatDateDMY(sorted[i])} al ${formatDateDMY(sorted[j])}`);
    else for (let k = i; k <= j; k++) parts.push(formatDateDMY(sorted[k]));
    i = j + 1;
  }
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} y ${parts[parts.length - 1]}`;
}

export interface CompletenessFields {
  unsynced_days: readonly string[];
  estimated_days: readonly string[];
  partial_days: readonly string[];
  /** No day of the range has synced spend. */
  spend_unsynced: boolean;
  /** Revenue earned on the unsynced days, left out of the figures. */
  unsynced_revenue: number;
}

export interface CompletenessNote {
  kind: 'unsynced' | 'estimated' | 'partial';
  text: string;
}

/**
 * The notes under a money answer, one sentence each: unsynced spend (and the revenue left
 * apart, formatted by `money`), estimated revenue, partial reports. Empty when nothing lacks.
 */
export function completenessNotes(t: CompletenessFields, money: (value: number) => string): CompletenessNote[] {
  const notes: CompletenessNote[] = [];
  const push = (kind: CompletenessNote['kind'], text: string) => notes.push({ kind, text });
  if (t.unsynced_days.length > 0)
    push(
      'unsynced',
      t.spend_unsynced
        ? `Gasto de Meta sin sincronizar (${daysText(t.unsynced_days)}): el gasto, el beneficio, el ROI y el ROAS no se conocen (no son 0).`
        : `Gasto de Meta sin sincronizar el ${daysText(t.unsynced_days)}: esos días no cuentan en el gasto, el beneficio, el ROI ni el ROAS (no son 0)` +
            (t.unsynced_revenue > 0 ? `; el revenue de sus visitas, ${money(t.unsynced_revenue)}, va aparte.` : '.'),
    );
  if (t.estimated_days.length > 0)
    push(
      'estimated',
      `Revenue estimado el ${daysText(t.estimated_days)}: sin informe de zonas final, cada zona vale su RPV de los 7 días anteriores con informe final (no baja al llegar más visitas).`,
    );
  if (t.partial_days.length > 0)
    push('partial', `Informe de zonas parcial el ${daysText(t.partial_days)}: su revenue es una estimación hasta que se importe el informe final.`);
  return notes;
}

/** 'Gasto sincronizado el 28/11/2026 a las 10:15 (Europe/Madrid)', or that it never was. */
export function syncedAtText(iso: string | null, tz: string): string {
  if (iso === null) return 'El gasto de Meta no se ha sincronizado nunca';
  const local = formatDateTime(iso, tz);
  return `Gasto sincronizado el ${formatDateDMY(local.slice(0, 10))} a las ${local.slice(11)} (${tz})`;
}
