// Report filters in SQL, for both dialects: which rows a report reads and from where.
import type { Dimension, TextFilters } from '../types.js';

/** Whether text has letters (a search without them is matched as is, not lower-cased). */
export const hasCase = (text: string) => text.toLowerCase() !== text.toUpperCase();

/** Whether a query reads the rollup: every aggregate that needs no zone does (unless the engine has it off). */
export function usesRollup(db: { readonly rollup: boolean }, filters: Partial<TextFilters>, by: readonly Dimension[] = []): boolean {
  return db.rollup && filters.zone_id === undefined && !by.includes('zone_id');
}
