// Report data for the revenue screens that are not tables (tables: useServerTable): one hook
// per server report, each { data, error, loading, reload }, reloading when its query changes.
import type { DailyDeltas, DashboardComparison, DashboardOverview, DashboardTops, RawOptions, ReportFiltersInput } from '@adops/core';
import { useApi } from './useApi';
import { useAsync, type AsyncState } from './useAsync';

/** A report query, or null while the filters cannot be asked for (no call is made). */
export type ReportQuery = ReportFiltersInput | null;

/** Runs load(query) whenever the query's content changes; nothing while it is null. */
function useReport<T>(query: ReportQuery, load: (q: ReportFiltersInput, signal: AbortSignal) => Promise<T>): AsyncState<T> {
  const key = query ? JSON.stringify(query) : '';
  const state = useAsync<T | undefined>((signal) => (query ? load(query, signal) : Promise.resolve(undefined)), [key]);
  return state as AsyncState<T>;
}

/** The Advertiser / Publisher / Geo / Source lists (all data, no range). */
export function useRawOptions(): AsyncState<RawOptions> {
  const api = useApi();
  return useAsync((signal) => api.dashboard.rawOptions(undefined, { signal }), [api]);
}

export function useDashboardOverview(query: ReportQuery): AsyncState<DashboardOverview> {
  const api = useApi();
  return useReport(query, (q, signal) => api.dashboard.overview(q, { signal }));
}

/** 'Comparar con el período anterior': the server's like-with-like comparison of the range (null query: none). */
export function useDashboardComparison(query: ReportQuery): AsyncState<DashboardComparison> {
  const api = useApi();
  return useReport(query, (q, signal) => api.dashboard.comparison(q, { signal }));
}

/** Yesterday against the day before under the text filters (no range). */
export function useDashboardDeltas(filters: { advertiser?: string; publisher?: string; zone_id?: string }): AsyncState<DailyDeltas> {
  const api = useApi();
  const query = { advertiser: filters.advertiser, publisher: filters.publisher, zone_id: filters.zone_id };
  return useAsync((signal) => api.dashboard.deltas(query, { signal }), [api, JSON.stringify(query)]);
}

/** The Dashboard's 'Top Zones' and 'Top Advertisers' (five each), ranked by the server. */
export function useDashboardTops(query: ReportQuery): AsyncState<DashboardTops> {
  const api = useApi();
  return useReport(query, (q, signal) => api.dashboard.top(q, { signal }));
}
