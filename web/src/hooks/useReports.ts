// Report data for the revenue screens: one hook per server report, each { data, error,
// loading, reload }, reloading when its query changes; plus the Dashboard's top lists
// (grouped zone and advertiser rows, ranked with core's totals and topN).
import { useMemo } from 'react';
import {
  MAX_ZONE_ROW_LIMIT,
  isInRange,
  topN,
  totals,
  type DailyDeltas,
  type DailyRow,
  type DashboardOverview,
  type DayRange,
  type RawOptions,
  type ReportFiltersInput,
  type SummaryRow,
  type ZoneDetails,
  type ZoneRow,
} from '@adops/core';
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

/** The 'Analytics' table: one row per day with data. */
export function useDashboardDaily(query: ReportQuery): AsyncState<DailyRow[]> {
  const api = useApi();
  return useReport(query, (q, signal) => api.dashboard.aggregated(q, { signal }));
}

/** Yesterday against the day before under the text filters (no range). */
export function useDashboardDeltas(filters: { advertiser?: string; publisher?: string; zone_id?: string }): AsyncState<DailyDeltas> {
  const api = useApi();
  const query = { advertiser: filters.advertiser, publisher: filters.publisher, zone_id: filters.zone_id };
  return useAsync((signal) => api.dashboard.deltas(query, { signal }), [api, JSON.stringify(query)]);
}

/** Zone rows of the Ad Report (limit rows at most; totals cover every matching row). */
export function useZoneDetails(query: ReportQuery, limit?: number): AsyncState<ZoneDetails> {
  const api = useApi();
  return useReport(query, (q, signal) => api.adReport.zoneDetails({ ...q, limit }, { signal }));
}

export function useSummary(query: ReportQuery, by: 'publisher' | 'advertiser'): AsyncState<SummaryRow[]> {
  const api = useApi();
  return useReport(query, async (q, signal) => {
    const answer = by === 'publisher' ? await api.adReport.publisherSummary(q, { signal }) : await api.adReport.advertiserSummary(q, { signal });
    return answer.data;
  });
}

export const TOP_LIST_SIZE = 5;

export interface TopZone {
  publisher: string;
  zone_id: string;
  revenue: number;
  margin: number | null;
}

export interface TopAdvertiser {
  advertiser: string;
  revenue: number;
  margin: number | null;
}

/** Rows grouped by a key, each group's sums taken by core's totals(). */
function groupTotals<R extends ZoneRow | SummaryRow>(rows: readonly R[], keyOf: (r: R) => string) {
  const groups = new Map<string, R[]>();
  for (const r of rows) {
    const key = keyOf(r);
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.entries()].map(([key, list]) => ({ key, first: list[0], sums: totals(list) }));
}

/**
 * 'Top Zones': zone rows inside the range (the Dashboard also filters client-side) with a
 * zone id, summed per publisher and zone; those with non-zero revenue, largest first.
 */
export function topZones(rows: readonly ZoneRow[], range: DayRange, n = TOP_LIST_SIZE): TopZone[] {
  const inRange = rows.filter((r) => r.zone_id.trim() !== '' && isInRange(r.date, range));
  const zones = groupTotals(inRange, (r) => JSON.stringify([r.publisher, r.zone_id]))
    .map(({ first, sums }) => ({ publisher: first.publisher, zone_id: first.zone_id, revenue: sums.revenue, margin: sums.margin }))
    .filter((z) => z.revenue !== 0);
  return topN(zones, 'revenue', n);
}

/** 'Top Advertisers': advertiser summary rows inside the range, summed per advertiser, largest revenue first. */
export function topAdvertisers(rows: readonly SummaryRow[], range: DayRange, n = TOP_LIST_SIZE): TopAdvertiser[] {
  const inRange = rows.filter((r) => isInRange(r.date, range));
  const advertisers = groupTotals(inRange, (r) => r.advertiser ?? '')
    .map(({ key, sums }) => ({ advertiser: key, revenue: sums.revenue, margin: sums.margin }))
    .filter((a) => a.advertiser !== '' && a.revenue !== 0);
  return topN(advertisers, 'revenue', n);
}

export interface DashboardTops {
  zones: TopZone[];
  advertisers: TopAdvertiser[];
  /** Zone rows matching in all, and how many were read (fewer when the range is very large). */
  zoneRowsTotal: number;
  zoneRowsRead: number;
}

/** The Dashboard's 'Top Zones' and 'Top Advertisers' for the range under the filters. */
export function useDashboardTops(query: ReportQuery): AsyncState<DashboardTops> {
  const api = useApi();
  const raw = useReport(query, async (q, signal) => {
    const [zones, advertisers] = await Promise.all([
      api.adReport.zoneDetails({ ...q, limit: MAX_ZONE_ROW_LIMIT }, { signal }),
      api.adReport.advertiserSummary(q, { signal }),
    ]);
    return { zones, advertisers: advertisers.data, range: { from: q.start_date, to: q.end_date } as DayRange };
  });
  const data = useMemo<DashboardTops | undefined>(() => {
    if (!raw.data) return undefined;
    const { zones, advertisers, range } = raw.data;
    return {
      zones: topZones(zones.data, range),
      advertisers: topAdvertisers(advertisers, range),
      zoneRowsTotal: zones.total_rows,
      zoneRowsRead: zones.data.length,
    };
  }, [raw.data]);
  return { ...raw, data };
}
