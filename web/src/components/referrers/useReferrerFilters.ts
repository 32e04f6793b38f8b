// The applied referrer filters of a screen (the bar edits a draft of them), the API filter
// they become, and the bar's option lists from GET /api/referrers/filters.
import { useCallback, useMemo } from 'react';
import { SCREEN_DEFAULT_PRESET, SCREEN_PRESETS, type ReferrerFilter, type ReferrerFilters } from '@adops/core';
import { useApi } from '../../hooks/useApi';
import { useAsync, type AsyncState } from '../../hooks/useAsync';
import { ALL, defaultFilters, presetDays, toApiFilter, type ReferrerFilterState, type ReferrerPreset } from './filters';
import { reportingTimeZone } from '../../lib/timezone';
import { clearPages, readChoice, readRange, readText, setParam, writeRange } from '../../lib/urlState';
import { useUrlParams, useUrlValue, type UrlParams } from '../../hooks/useUrlState';

/** The applied filters of a URL: zone_id, advertiser, publisher, source, preset or from/to (default: Hoy), and bots=1. */
export function readReferrerFilters(params: URLSearchParams, now: Date, tz: string): ReferrerFilterState {
  const range = readRange<ReferrerPreset>(params, {
    preset: SCREEN_DEFAULT_PRESET.referrers,
    presets: SCREEN_PRESETS.referrers,
    rangeOf: (p) => presetDays(p, now, tz),
  });
  return {
    zoneId: readText(params, 'zone_id').trim(),
    advertiser: readChoice(params, 'advertiser', ALL),
    publisher: readChoice(params, 'publisher', ALL),
    parentDomain: readChoice(params, 'source', ALL),
    ...range,
    includeBots: params.get('bots') === '1',
  };
}

export function writeReferrerFilters(params: URLSearchParams, f: ReferrerFilterState): void {
  setParam(params, 'zone_id', f.zoneId.trim());
  setParam(params, 'advertiser', f.advertiser, ALL);
  setParam(params, 'publisher', f.publisher, ALL);
  setParam(params, 'source', f.parentDomain, ALL);
  setParam(params, 'bots', f.includeBots ? '1' : undefined);
  writeRange(params, f, { preset: SCREEN_DEFAULT_PRESET.referrers });
  clearPages(params);
}

export interface ReferrerFiltersState {
  tz: string;
  applied: ReferrerFilterState;
  apply: (next: ReferrerFilterState) => void;
  /** Back to the defaults (today, every select 'Todos', preset custom). */
  reset: () => void;
  /** The applied filters as the API takes them. */
  query: ReferrerFilter;
  options: AsyncState<ReferrerFilters>;
  /** The URL the filters live in (the screen keeps its page there too). */
  url: UrlParams;
}

export function useReferrerFilters(): ReferrerFiltersState {
  const api = useApi();
  const tz = useMemo(reportingTimeZone, []);
  const url = useUrlParams();
  const [applied, setApplied] = useUrlValue(url, (p) => readReferrerFilters(p, new Date(), tz), writeReferrerFilters);
  const options = useAsync(
    (signal) =>
      api.referrers.filters(undefined, { signal }).catch((e: unknown) => {
        if (!signal.aborted) console.error('Error al cargar filtros de referrers', e);
        throw e;
      }),
    [api],
  );
  const reset = useCallback(() => setApplied(defaultFilters(new Date(), tz)), [tz, setApplied]);
  const query = useMemo(() => toApiFilter(applied, tz), [applied, tz]);
  return { tz, applied, apply: setApplied, reset, query, options, url };
}
