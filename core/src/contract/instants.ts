// An instant bound a query takes: a day (YYYY-MM-DD, UTC) or an ISO 8601 instant with its offset,
// parsed to what the stores compare (since ≤ at < until). Auditoría and the evaluation log share it.
import { z } from 'zod';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `since` / `until`: a day (YYYY-MM-DD, UTC; `until` takes the whole day) or an ISO instant
 * with its offset (`until` inclusive). Parsed to the bounds the store takes: since ≤ at < until.
 */
export const instantBound = (end: boolean) =>
  z
    .string()
    .trim()
    .max(40)
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const valid = (DAY.test(v) && z.iso.date().safeParse(v).success) || z.iso.datetime({ offset: true }).safeParse(v).success;
      const ms = valid ? Date.parse(DAY.test(v) ? `${v}T00:00:00Z` : v) : Number.NaN;
      if (!Number.isFinite(ms)) {
        ctx.addIssue({ code: 'custom', message: 'debe ser una fecha AAAA-MM-DD o un instante ISO 8601' });
        return z.NEVER;
      }
      return new Date(end ? ms + (DAY.test(v) ? 86_400_000 : 1) : ms).toISOString();
    });
