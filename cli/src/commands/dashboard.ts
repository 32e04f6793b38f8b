// `adops dashboard`: the Dashboard's summary, deltas, trend, top lists and 'Analytics' table
// for a range (default 'Últimos 7 días (con hoy)') and an advertiser/publisher filter; with
// --compare, the cards against the previous period as the server compared them. The server
// answers every figure, sorts and pages the table and gives its totals.
import type { Command } from 'commander';
import { DEFAULT_PAGE_SIZE, SCREEN_PRESETS, type Api, type DailyTable, type PresetKey } from '@adops/core/lite';
import type { Cli } from '../context.js';
import type { DashboardData } from '../ui/Dashboard.js';
import type { TableQuery } from '../ui/ReportScreen.js';
import { keyboardAttached } from '../ui/screen.js';
import { addFilterOptions, canonicalFilters, filterLabel, rangeLabel, apiAndRange, type ResolvedRange } from './report-filters.js';
import { allRows } from './table-output.js';
import { pageFields, rangeOf } from './table-screen.js';
import { loadUi } from '../ui-loader.js';

export interface DashboardFilters {
  advertiser?: string;
  publisher?: string;
  /** --compare: the cards against the previous period (the server's like-with-like comparison). */
  compare?: boolean;
}

type Page = Pick<TableQuery, 'sort' | 'page' | 'pageSize'>;

/** The Analytics table's first page in its default order (date ascending, 10 rows). */
export const FIRST_PAGE: Page = { sort: null, page: 1, pageSize: DEFAULT_PAGE_SIZE.dashboard };

const reportQuery = (range: ResolvedRange, filters: Omit<DashboardFilters, 'compare'>) => ({
  start_date: range.from,
  end_date: range.to,
  advertiser: filters.advertiser,
  publisher: filters.publisher,
});

/** One page of the 'Analytics' table (rows with their rank levels, totals of every day). */
export function loadDailyPage(api: Api, range: ResolvedRange, filters: DashboardFilters, page: Page): Promise<DailyTable> {
  return api.dashboard.aggregated({ ...reportQuery(range, filters), ...pageFields(page) });
}

/** Loads every part of the Dashboard for a range in parallel. */
export async function loadDashboard(api: Api, range: ResolvedRange, filters: DashboardFilters, page: Page = FIRST_PAGE): Promise<DashboardData> {
  const q = reportQuery(range, filters);
  const [overview, daily, deltas, tops, comparison] = await Promise.all([
    api.dashboard.overview(q),
    loadDailyPage(api, range, filters, page),
    api.dashboard.deltas({ advertiser: filters.advertiser, publisher: filters.publisher }),
    api.dashboard.top(q),
    filters.compare ? api.dashboard.comparison(q) : undefined,
  ]);
  return {
    title: 'Dashboard',
    subtitle: [rangeLabel(range), filterLabel(filters)].filter(Boolean).join(' · '),
    overview,
    deltas,
    daily,
    topZones: tops.zones,
    topAdvertisers: tops.advertisers,
    ...(comparison ? { comparison } : {}),
  };
}

/**
 * The screen's loader: a new preset reloads the whole Dashboard; a new order, page or page
 * size only asks for that page of the table, keeping the cards of the range on screen.
 */
export function dashboardLoader(
  api: Api,
  rangeFor: (preset: PresetKey | null) => ResolvedRange,
  filters: DashboardFilters,
): (query: TableQuery, shown: TableQuery) => Promise<DashboardData> {
  const loaded = new Map<PresetKey | null, DashboardData>();
  return async (query, shown) => {
    const range = rangeFor(query.preset);
    const known = loaded.get(query.preset);
    if (query.preset !== shown.preset || !known) {
      const data = await loadDashboard(api, range, filters, query);
      loaded.set(query.preset, data);
      return data;
    }
    return { ...known, daily: await loadDailyPage(api, range, filters, query) };
  };
}

export function registerDashboard(program: Command, cli: Cli): void {
  const cmd = program
    .command('dashboard')
    .description("Dashboard: tarjetas, variación diaria, tendencia, tops y tabla 'Analytics' (por defecto los últimos 7 días con hoy)");
  addFilterOptions(cmd, 'dashboard', ['advertiser', 'publisher']);
  cmd
    .option('--compare', 'compara las tarjetas con el período anterior (días completos si el rango llega a hoy)')
    .option('--json', 'salida JSON')
    .action(async (flags: DashboardFilters & { preset?: string; from?: string; to?: string; json?: boolean }, command: Command) => {
      const { api, range } = await apiAndRange(cli, command, 'dashboard', flags);
      await canonicalFilters(api, flags);
      const filters = { advertiser: flags.advertiser, publisher: flags.publisher, compare: flags.compare === true };
      if (cli.machine(flags.json)) {
        const [data, days] = await Promise.all([
          loadDashboard(api, range, filters),
          allRows((page, page_size) => api.dashboard.aggregated({ ...reportQuery(range, filters), page, page_size })),
        ]);
        return cli.json({
          start_date: range.from,
          end_date: range.to,
          filters: { advertiser: filters.advertiser, publisher: filters.publisher },
          summary: data.overview.summary,
          deltas: data.deltas,
          ...(data.comparison ? { comparison: data.comparison } : {}),
          chart: data.overview.chart,
          top_zones: data.topZones,
          top_advertisers: data.topAdvertisers,
          daily: days.rows,
          totals: days.totals,
        });
      }
      const load = dashboardLoader(api, (preset) => rangeOf(cli, range, preset), filters);
      const initialQuery: TableQuery = { ...FIRST_PAGE, preset: range.preset };
      const [initial, { createElement }, { Dashboard }, { showScreen }] = await Promise.all([
        load(initialQuery, initialQuery),
        import('react'),
        loadUi(() => import('../ui/Dashboard.js')),
        loadUi(() => import('../ui/screen.js')),
      ]);
      const interactive = keyboardAttached(cli.io);
      await showScreen(
        cli,
        createElement(Dashboard, {
          initial,
          preset: range.preset,
          interactive,
          presets: SCREEN_PRESETS.dashboard,
          load,
          terminalRows: (cli.io.stdout as { rows?: number }).rows,
          fit: true,
        }),
        interactive,
      );
    });
}
