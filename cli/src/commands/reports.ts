// `adops report zones|publishers|advertisers`, `adops demand`, `adops finance`, `adops explorer`:
// the revenue reports with the web's filters and default ranges; an Ink screen on a terminal,
// JSON (--json, or not a terminal) or CSV with a BOM (--csv FILE) for scripts.
import React from 'react';
import type { Command } from 'commander';
import {
  AD_REPORT_COLUMNS,
  API_EXPLORER_COLUMNS,
  DEFAULT_PAGE_SIZE,
  METRICS,
  SCREEN_PRESETS,
  monthsBetween,
  roundMetric,
  presetRange,
  sortRows,
  todayIn,
  totals,
  startOfMonth,
  addDays,
  type MetricColumn,
  type MetricKey,
  type PresetKey,
  type SortState,
  type SummaryRow,
  type ZoneRow,
} from '@adops/core';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../io.js';
import { DemandView, FinanceView, RevenueCards, monthSum } from '../ui/ReportViews.js';
import { ReportScreen, type ReportView } from '../ui/ReportScreen.js';
import { metricColumns, totalsRow } from '../ui/columns.js';
import { keyboardAttached, showScreen } from '../ui/screen.js';
import {
  addFilterOptions,
  filterLabel,
  parseSort,
  rangeLabel,
  reportingTz,
  resolveRange,
  roundedRow,
  textFilters,
  writeCsv,
  type FilterFlags,
  type ResolvedRange,
  type Screen,
} from './report-filters.js';

interface OutputFlags {
  json?: boolean;
  csv?: string;
  sort?: string;
}
type ReportFlags = FilterFlags & OutputFlags & { limit?: string };

/** The Finance screen's fixed start (SPEC §9). */
export const FINANCE_START = '2025-01-01';

const subtitle = (range: ResolvedRange, flags: FilterFlags) => [rangeLabel(range), filterLabel(flags)].filter(Boolean).join(' · ');

const keysOf = (list: readonly MetricColumn[]) => list.map((c) => c.key);

/** The summary tables' columns: Date and the name, then the Ad Report's metrics. */
function summaryColumns(by: 'publisher' | 'advertiser'): MetricColumn[] {
  const zoneOnly = new Set<MetricKey>(['date', 'advertiser', 'publisher', 'zone_id', 'geo', 'source']);
  return [
    { key: 'date', header: 'Date' },
    { key: by, header: by === 'publisher' ? 'Publisher' : 'Advertiser' },
    ...AD_REPORT_COLUMNS.filter((c) => !zoneOnly.has(c.key)).map((c) => ({ key: c.key, header: METRICS[c.key].label })),
  ];
}

function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw new CliError(`--limit no válido: ${value}`, EXIT.usage);
  return Number(value);
}

/** Output for one table: JSON, CSV file, or the Ink screen. */
async function output<Row extends object>(
  cli: Cli,
  flags: OutputFlags,
  table: {
    list: readonly MetricColumn[];
    rows: Row[];
    sort: SortState | null;
    json: () => unknown;
    /** The screen's first view (only built for the terminal). */
    view: () => ReportView<Row> | Promise<ReportView<Row>>;
    pageSize: number;
    presets?: readonly PresetKey[];
    reload?: (preset: PresetKey) => Promise<ReportView<Row>>;
    csvDecimals?: Partial<Record<string, number>>;
  },
): Promise<void> {
  const sorted = sortRows(table.rows as Array<Record<string, unknown>>, table.sort as SortState<string> | null) as Row[];
  if (flags.csv !== undefined) {
    const written = await writeCsv(
      cli.io,
      flags.csv,
      table.list,
      sorted.map((r) => roundedRow(r, { decimals: table.csvDecimals })) as Array<Record<string, unknown>>,
    );
    if (written) cli.say(`${sorted.length} filas → ${written}`);
    return;
  }
  if (cli.machine(flags.json)) return cli.json(table.json());
  const interactive = keyboardAttached(cli.io);
  await showScreen(
    cli.io,
    React.createElement(ReportScreen<Row>, {
      initial: await table.view(),
      sortKeys: keysOf(table.list),
      initialSort: table.sort,
      pageSize: table.pageSize,
      interactive,
      presets: table.presets,
      load: table.reload,
    }),
    interactive,
  );
}

/** Flags for commands whose output is a single table. */
function addOutputOptions(cmd: Command, sortable: boolean): Command {
  if (sortable) cmd.option('--sort <key>', 'ordena por una columna: CLAVE[:asc|desc] (p. ej. revenue:desc)');
  return cmd.option('--csv <file>', 'escribe CSV (con BOM) en FILE ("-" = salida estándar)').option('--json', 'salida JSON');
}

function rejectSortWithoutTable(flags: OutputFlags): void {
  if (flags.sort !== undefined) throw new CliError('--sort no se aplica a este informe', EXIT.usage);
}

export function registerReports(program: Command, cli: Cli): void {
  const tz = () => reportingTz(cli.io);
  const report = program.command('report').description('Ad Report: resumen diario por zona, publisher o advertiser');

  // ---- report zones ------------------------------------------------------------------------
  const zones = report.command('zones').description("Resumen diario por zona (Ad Report; por defecto 'Últimos 7 días', los 7 días hasta ayer)");
  addFilterOptions(zones, 'adReport', ['zone', 'advertiser', 'publisher', 'geo', 'source']);
  zones.option('--limit <n>', 'filas como máximo (por defecto las del servidor, 20.000)');
  addOutputOptions(zones, true).action(async (flags: ReportFlags, cmd: Command) => {
    const list = AD_REPORT_COLUMNS;
    const sort = parseSort(flags.sort, keysOf(list));
    const limit = parseLimit(flags.limit);
    const { api } = await cli.api(cmd);
    const fetchView = async (range: ResolvedRange) => {
      const res = await api.adReport.zoneDetails({ start_date: range.from, end_date: range.to, ...textFilters(flags), limit });
      const view: ReportView<ZoneRow> = {
        title: 'Resumen diario por zona',
        subtitle: subtitle(range, flags),
        columns: metricColumns<ZoneRow>(list),
        rows: res.data,
        totals: totalsRow(res.totals),
        emptyText: 'No hay datos para este rango de fechas.',
        notice: res.truncated ? `Se muestran ${res.data.length} de ${res.total_rows} filas (los totales cubren todas); usa --limit o filtros.` : undefined,
      };
      return { res, view };
    };
    const range = resolveRange(cli.io, 'adReport', flags);
    const { res, view } = await fetchView(range);
    await output<ZoneRow>(cli, flags, {
      list,
      rows: res.data,
      sort,
      pageSize: DEFAULT_PAGE_SIZE.adReport,
      json: () => ({
        start_date: range.from,
        end_date: range.to,
        rows: sortRows(res.data, sort as SortState<keyof ZoneRow & string> | null),
        totals: res.totals,
        total_rows: res.total_rows,
        truncated: res.truncated,
        geoOptions: res.geoOptions,
        sourceOptions: res.sourceOptions,
      }),
      view: () => view,
      presets: SCREEN_PRESETS.adReport,
      reload: async (preset) => (await fetchView({ ...presetRange(preset, new Date(), tz()), preset })).view,
    });
  });

  // ---- report publishers | advertisers ---------------------------------------------------------
  for (const by of ['publisher', 'advertiser'] as const) {
    const cmd = report
      .command(`${by}s`)
      .description(by === 'publisher' ? 'Resumen publisher: una fila por día y publisher' : 'Resumen advertiser: una fila por día y advertiser');
    addFilterOptions(cmd, 'adReport', ['zone', 'advertiser', 'publisher', 'geo', 'source']);
    addOutputOptions(cmd, true).action(async (flags: ReportFlags, command: Command) => {
      const list = summaryColumns(by);
      const sort = parseSort(flags.sort, keysOf(list));
      const { api } = await cli.api(command);
      const fetchView = async (range: ResolvedRange) => {
        const q = { start_date: range.from, end_date: range.to, ...textFilters(flags) };
        const { data } = by === 'publisher' ? await api.adReport.publisherSummary(q) : await api.adReport.advertiserSummary(q);
        const view: ReportView<SummaryRow> = {
          title: by === 'publisher' ? 'Resumen publisher' : 'Resumen advertiser',
          subtitle: subtitle(range, flags),
          columns: metricColumns<SummaryRow>(list),
          rows: data,
          totals: totalsRow(totals(data)),
          emptyText: 'No hay datos para este rango de fechas.',
        };
        return { data, view };
      };
      const range = resolveRange(cli.io, 'adReport', flags);
      const { data, view } = await fetchView(range);
      await output<SummaryRow>(cli, flags, {
        list,
        rows: data,
        sort,
        pageSize: DEFAULT_PAGE_SIZE.adReport,
        json: () => ({
          start_date: range.from,
          end_date: range.to,
          rows: sortRows(data, sort as SortState<keyof SummaryRow & string> | null),
          totals: totals(data),
        }),
        view: () => view,
        presets: SCREEN_PRESETS.adReport,
        reload: async (preset) => (await fetchView({ ...presetRange(preset, new Date(), tz()), preset })).view,
      });
    });
  }

  // ---- explorer ----------------------------------------------------------------------------------
  const explorer = program.command('explorer').description('Api Explorer: filas por zona del rango (por defecto hoy) y revenue de ayer, hoy, mes y filtro');
  addFilterOptions(explorer, null, ['zone', 'advertiser', 'publisher']);
  explorer.option('--limit <n>', 'filas como máximo (por defecto las del servidor, 20.000)');
  addOutputOptions(explorer, true).action(async (flags: ReportFlags, cmd: Command) => {
    const list = API_EXPLORER_COLUMNS;
    const sort = parseSort(flags.sort, keysOf(list));
    const limit = parseLimit(flags.limit);
    const range = resolveRange(cli.io, null, flags);
    const { api } = await cli.api(cmd);
    const filters = { zone_id: flags.zone, advertiser: flags.advertiser, publisher: flags.publisher };
    const rows = await api.adReport.explorer({ start_date: range.from, end_date: range.to, ...filters, limit });
    const sums = totals(rows);
    // The cards: Revenue Ayer, Hoy, Mes (server sums under the same filters) and Filtro (the rows).
    const explorerView = async (): Promise<ReportView<ZoneRow>> => {
      const today = todayIn(tz());
      const revenueOf = async (from: string, to: string) =>
        (await api.dashboard.overview({ start_date: from, end_date: to, ...filters })).summary.revenue;
      const [yesterday, todayRevenue, month] = await Promise.all([
        revenueOf(addDays(today, -1), addDays(today, -1)),
        revenueOf(today, today),
        revenueOf(startOfMonth(today), today),
      ]);
      const cards = [
        ['Revenue Ayer', yesterday],
        ['Revenue Hoy', todayRevenue],
        ['Revenue Mes', month],
        ['Revenue Filtro', sums.revenue],
      ] as const;
      return {
        title: 'Api Explorer',
        subtitle: subtitle(range, flags),
        header: React.createElement(RevenueCards, { cards }),
        columns: metricColumns<ZoneRow>(list, { totalsDecimals: { cpc: 4 } }),
        rows,
        totals: totalsRow(sums),
        emptyText: 'No hay datos para este rango de fechas.',
      };
    };
    await output<ZoneRow>(cli, flags, {
      list,
      rows,
      sort,
      pageSize: DEFAULT_PAGE_SIZE.adReport,
      json: () => ({ start_date: range.from, end_date: range.to, rows: sortRows(rows, sort as SortState<keyof ZoneRow & string> | null), totals: sums }),
      view: explorerView,
    });
  });

  // ---- demand --------------------------------------------------------------------------------------
  const demand = program.command('demand').description('Demand: revenue y margin diarios por advertiser, en euros (por defecto el mes actual)');
  addFilterOptions(demand, 'demand', ['zone', 'advertiser', 'publisher']);
  addOutputOptions(demand, false).action(async (flags: ReportFlags, cmd: Command) => {
    rejectSortWithoutTable(flags);
    const range = resolveRange(cli.io, 'demand', flags);
    const { api } = await cli.api(cmd);
    const data = await api.demand.advertiserRevenue({
      start_date: range.from,
      end_date: range.to,
      zone_id: flags.zone,
      advertiser: flags.advertiser,
      publisher: flags.publisher,
    });
    if (flags.csv !== undefined) {
      const rows = Object.entries(data).flatMap(([advertiser, points]) =>
        points.map((p) => roundedRow({ advertiser, date: p.date, revenue: p.revenue, margin: p.margin })),
      );
      const columns = ['advertiser', 'date', 'revenue', 'margin'].map((key) => ({ key, header: key }));
      const written = await writeCsv(cli.io, flags.csv, columns, rows);
      if (written) cli.say(`${rows.length} filas → ${written}`);
      return;
    }
    if (cli.machine(flags.json)) return cli.json({ start_date: range.from, end_date: range.to, advertisers: data });
    await cli.draw(React.createElement(DemandView, { data, title: `Demand · ${subtitle(range, flags)}` }));
  });

  // ---- finance -------------------------------------------------------------------------------------
  const finance = program.command('finance').description(`Finance: revenue mensual por advertiser y publisher y margen mensual (por defecto desde ${FINANCE_START})`);
  addFilterOptions(finance, null, ['domain']);
  addOutputOptions(finance, false).action(async (flags: ReportFlags, cmd: Command) => {
    rejectSortWithoutTable(flags);
    const range = resolveRange(cli.io, null, flags, { defaultFrom: FINANCE_START });
    const { api } = await cli.api(cmd);
    const q = { start_date: range.from, end_date: range.to, domain: flags.domain };
    const [advertisers, publishers, margin] = await Promise.all([api.finance.advertisers(q), api.finance.publishers(q), api.finance.margin(q)]);
    const months = monthsBetween(range.from, range.to);
    if (flags.csv !== undefined) {
      const rows = [
        ...advertisers.map((r) => ({ table: 'advertisers', name: r.advertiser, ...r })),
        ...publishers.map((r) => ({ table: 'publishers', name: r.publisher, ...r })),
        ...margin.map((r) => ({ table: 'margin', name: r.segment, ...r.by_month, total: r.total })),
      ];
      const columns = [
        { key: 'table', header: 'table' },
        { key: 'name', header: 'name' },
        ...months.map((m) => ({ key: m, header: m })),
        { key: 'total', header: 'total' },
      ];
      const withTotals = rows.map((r) => {
        const out: Record<string, unknown> = { ...r };
        if (r.table !== 'margin') out.total = monthSum(r as Record<string, unknown>, months);
        for (const key of [...months, 'total']) if (typeof out[key] === 'number') out[key] = roundMetric('revenue', out[key]);
        return out;
      });
      const written = await writeCsv(cli.io, flags.csv, columns, withTotals);
      if (written) cli.say(`${withTotals.length} filas → ${written}`);
      return;
    }
    if (cli.machine(flags.json)) return cli.json({ start_date: range.from, end_date: range.to, advertisers, publishers, margin });
    await cli.draw(
      React.createElement(FinanceView, { subtitle: subtitle(range, flags), months, advertisers, publishers, margin: margin[0] ?? null }),
    );
  });
}
