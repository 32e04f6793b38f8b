// `adops dashboard`: the Dashboard's summary, deltas, trend, top lists and 'Analytics' table
// for a range (default 'Últimos 7 días' including today) and an advertiser/publisher filter.
import React from 'react';
import type { Command } from 'commander';
import {
  MAX_ZONE_ROW_LIMIT,
  SCREEN_PRESETS,
  presetRange,
  topN,
  totals,
  type Api,
  type PresetKey,
  type SummaryRow,
  type ZoneRow,
} from '@adops/core';
import type { Cli } from '../context.js';
import { Dashboard, type DashboardData, type TopAdvertiser, type TopZone } from '../ui/Dashboard.js';
import { keyboardAttached, showScreen } from '../ui/screen.js';
import { addFilterOptions, filterLabel, rangeLabel, reportingTz, resolveRange, type ResolvedRange } from './report-filters.js';

/** The SPEC's top lists hold 5. */
const TOP = 5;

export interface DashboardFilters {
  advertiser?: string;
  publisher?: string;
}

/** Groups rows by a key and sums each group with core's totals (revenue, margin). */
function groupTotals<Row extends ZoneRow | SummaryRow>(rows: readonly Row[], keyOf: (r: Row) => string): Map<string, { first: Row; revenue: number; margin: number | null }> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  const out = new Map<string, { first: Row; revenue: number; margin: number | null }>();
  for (const [key, list] of groups) {
    const sums = totals(list);
    out.set(key, { first: list[0], revenue: sums.revenue, margin: sums.margin });
  }
  return out;
}

/** Top Zones: rows with a zone id and non-zero revenue, by publisher and zone, top 5 by revenue. */
export function topZones(rows: readonly ZoneRow[]): TopZone[] {
  const counted = rows.filter((r) => r.zone_id !== '' && r.revenue !== 0);
  const groups = [...groupTotals(counted, (r) => JSON.stringify([r.publisher, r.zone_id])).values()].map((g) => ({
    publisher: g.first.publisher,
    zone_id: g.first.zone_id,
    revenue: g.revenue,
    margin: g.margin,
  }));
  return topN(groups, 'revenue', TOP);
}

/** Top Advertisers: the advertiser summary's days summed, top 5 by revenue. */
export function topAdvertisers(rows: readonly SummaryRow[]): TopAdvertiser[] {
  const groups = [...groupTotals(rows, (r) => r.advertiser ?? '').values()].map((g) => ({
    advertiser: g.first.advertiser ?? '',
    revenue: g.revenue,
    margin: g.margin,
  }));
  return topN(groups, 'revenue', TOP);
}

/** Loads every part of the Dashboard for a range in parallel. */
export async function loadDashboard(api: Api, range: ResolvedRange, filters: DashboardFilters): Promise<DashboardData> {
  const q = { start_date: range.from, end_date: range.to, advertiser: filters.advertiser, publisher: filters.publisher };
  const [overview, daily, deltas, zones, advertisers] = await Promise.all([
    api.dashboard.overview(q),
    api.dashboard.aggregated(q),
    api.dashboard.deltas({ advertiser: filters.advertiser, publisher: filters.publisher }),
    api.adReport.zoneDetails({ ...q, limit: MAX_ZONE_ROW_LIMIT }),
    api.adReport.advertiserSummary(q),
  ]);
  return {
    title: 'Dashboard',
    subtitle: [rangeLabel(range), filterLabel(filters)].filter(Boolean).join(' · '),
    overview,
    deltas,
    daily,
    topZones: topZones(zones.data),
    topAdvertisers: topAdvertisers(advertisers.data),
    topZonesPartial: zones.truncated,
  };
}

export function registerDashboard(program: Command, cli: Cli): void {
  const cmd = program
    .command('dashboard')
    .description("Dashboard: tarjetas, variación diaria, tendencia, tops y tabla 'Analytics' (por defecto los últimos 7 días con hoy)");
  addFilterOptions(cmd, 'dashboard', ['advertiser', 'publisher']);
  cmd.option('--json', 'salida JSON').action(async (flags: DashboardFilters & { preset?: string; from?: string; to?: string; json?: boolean }, command: Command) => {
    const range = resolveRange(cli.io, 'dashboard', flags);
    const { api } = await cli.api(command);
    const filters = { advertiser: flags.advertiser, publisher: flags.publisher };
    const data = await loadDashboard(api, range, filters);
    if (cli.machine(flags.json)) {
      return cli.json({
        start_date: range.from,
        end_date: range.to,
        filters,
        summary: data.overview.summary,
        deltas: data.deltas,
        chart: data.overview.chart,
        top_zones: data.topZones,
        top_advertisers: data.topAdvertisers,
        top_zones_partial: data.topZonesPartial,
        daily: data.daily,
        totals: totals(data.daily, { ctrBasis: 'impressions' }),
      });
    }
    const interactive = keyboardAttached(cli.io);
    const load = (preset: PresetKey) => loadDashboard(api, { ...presetRange(preset, new Date(), reportingTz(cli.io)), preset }, filters);
    await showScreen(cli.io, React.createElement(Dashboard, {
        initial: data,
        interactive,
        presets: SCREEN_PRESETS.dashboard,
        load,
        terminalRows: (cli.io.stdout as { rows?: number }).rows,
      }), interactive);
  });
}
