// The applied referrer filters of a screen (the bar edits a draft of them), the API filter
// they become, and the bar's option lists from GET /api/referrers/filters.
import { useCallback, useMemo, useState } from 'react';
import type { ReferrerFilter, ReferrerFilters } from '@adops/core';
import { useApi } from '../../hooks/useApi';
import { useAsync, type AsyncState } from '../../hooks/useAsync';
import { defaultFilters, initialFilters, toApiFilter, type ReferrerFilterState } from './filters';
import { reportingTimeZone } from '../../lib/timezone';

export interface ReferrerFiltersState {
  tz: string;
  applied: ReferrerFilterState;
  apply: (next: ReferrerFilterState) => void;
  /** Back to the defaults (today, every select 'Todos', preset custom). */
  reset: () => void;
  /** The applied filters as the API takes them. */
  query: ReferrerFilter;
  options: AsyncState<ReferrerFilters>;
}

export function useReferrerFilters(): ReferrerFiltersState {
  const api = useApi();
  const tz = useMemo(reportingTimeZone, []);
  const [applied, setApplied] = useState(() => initialFilters(new Date(), tz));
  const options = useAsync(
    (signal) =>
      api.referrers.filters(undefined, { signal }).catch((e: unknown) => {
        if (!signal.aborted) console.error('Error al cargar filtros de referrers', e);
        throw e;
      }),
    [api],
  );
  const reset = useCallback(() => setApplied(defaultFilters(new Date(), tz)), [tz]);
  const query = useMemo(() => toApiFilter(applied, tz), [applied, tz]);
  return { tz, applied, apply: setApplied, reset, query, options };
}
