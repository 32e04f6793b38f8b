// How a Rentabilidad row is named on every face: the name Meta gave it, else its key; a day as
// dd/MM/yyyy; a row without a key (spend or visits that could not be tied to one) in words.
import type { ProfitDimension, ProfitRow } from './contract/profit.js';
import { formatDateDMY } from './format.js';

/** A row without a key, per breakdown. */
export const PROFIT_EMPTY_KEY: Record<ProfitDimension, string> = {
  campaign: '(sin campaña)',
  adset: '(sin conjunto)',
  ad: '(sin anuncio)',
  keyword: '(sin keyword)',
  day: '-',
};

/** The row's label: the name Meta gave it, or its key (the id column says the key beside a name). */
export function profitRowLabel(by: ProfitDimension, row: Pick<ProfitRow, 'key' | 'name'>): string {
  if (row.key === null) return PROFIT_EMPTY_KEY[by];
  if (by === 'day') return formatDateDMY(row.key);
  return row.name ?? row.key;
}
