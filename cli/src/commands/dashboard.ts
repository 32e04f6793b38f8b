// `adops dashboard`: the Dashboard's summary, deltas, trend, top lists and 'Analytics' table
// for a range (default 'Últimos 7 días' including today) and an advertiser/publisher filter.
import React from 'react';
import type { Command } from 'commander';
import { SCREEN_PRESETS, presetRange, totals, type Api, type PresetKey } from '@adops/core';
import type { Cli } from '../context.js';
import { Dashboard, type DashboardData } from '../ui/Dashboard.js';
import { keyboardAttached, showScreen } from '../ui/screen.js';
import { addFilterOptions, filterLabel, rangeLabel, reportingTz, resolveRange, type ResolvedRange } from './report-filters.js';

export interface DashboardFilters {
  advertiser?: string;
  publisher?: string;
}

/** Loads every part of the Dashboard for a range in parallel. */
export async function loadDashboard(api: Api, range: ResolvedRange, filters: DashboardFilters): Promise<DashboardData> {
  const q = { start_date: range.from, end_date: range.to, advertiser: filters.advertiser, publisher: filters.publisher };
  const [overview, daily, deltas, tops] = await Promise.all([
    api.dashboard.overview(q),
    api.dashboard.aggregated(q),
    api.dashboard.deltas({ advertiser: filters.advertiser, publisher: filters.publisher }),
    api.dashboard.top(q),
  ]);
  return {
    title: 'Dashboard',
    subtitle: [rangeLabel(range), filterLabel(filters)].filter(Boolean).join(' · '),
    overview,
    deltas,
    daily,
    topZones: tops.zones,
    topAdvertisers: tops.advertisers,
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
