// `adops report zones|publishers|advertisers`, `adops demand`, `adops finance`, `adops explorer`:
// the revenue reports with the web's filters and default ranges. The server filters, sorts,
// pages and totals every table; here an Ink screen draws its pages, or --csv / --json stream
// its exports (every matching row) for scripts.
import { offerValues } from './option-values.js';
import type { Command } from 'commander';
import {
  AD_REPORT_SCREEN_COLUMNS,
  ADVERTISER_SUMMARY_COLUMNS,
  ADVERTISER_SUMMARY_SORT_KEYS,
  API_EXPLORER_COLUMNS,
  API_EXPLORER_TOTAL_DECIMALS,
  DEFAULT_PAGE_SIZE,
  PUBLISHER_SUMMARY_COLUMNS,
  PUBLISHER_SUMMARY_SORT_KEYS,
  SCREEN_PRESETS,
  SUMMARY_PAGE_SIZE,
  ZONE_SORT_KEYS,
  routes,
  type Api,
  type CsvDialect,
  type FinanceAdvertiserTable,
  type FinancePublisherTable,
  type MetricColumn,
  type RevenueCards as Cards,
  type SummaryRow,
  type ZoneRow,
} from '@adops/core/lite';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../io.js';
import { pagingOf } from '../ui/paging.js';
import { metricColumns, totalsRow } from '../ui/columns.js';
import {
  addFilterOptions,
  filterLabel,
  rangeLabel,
  apiAndRange,
  textFilters,
  canonicalFilters,
  type FilterFlags,
  type ResolvedRange,
} from './report-filters.js';
import {
  addExcelOption,
  addTableOptions,
  allRows,
  csvDialect,
  exportCsv,
  machineOutput,
  parseLimit,
  parseSortFlag,
  type ServerTable,
  type TableFlags,
} from './table-output.js';
import { SCREEN_CHROME, pageFields, rangeOf, screenPageSize, showTable, sortOf } from './table-screen.js';
import { loadUi } from '../ui-loader.js';

type ReportFlags = FilterFlags & TableFlags & { table?: string };

/** The Finance screen's fixed start (SPEC §9). */
export const FINANCE_START = '2025-01-01';

const subtitle = (range: ResolvedRange, flags: FilterFlags) => [rangeLabel(range), filterLabel(flags)].filter(Boolean).join(' · ');

/** The shown columns the table sorts by, in screen order (what `s` cycles through). */
const sortableColumns = (list: readonly MetricColumn[], keys: readonly string[]) => list.map((c) => c.key as string).filter((k) => keys.includes(k));

const rangeFields = (range: ResolvedRange) => ({ start_date: range.from, end_date: range.to });

const EMPTY_REPORT = 'No hay datos para este rango de fechas.';

export function registerReports(program: Command, cli: Cli): void {
  const report = program.command('report').description('Ad Report: resumen diario por zona, publisher o advertiser');

  // ---- report zones ------------------------------------------------------------------------
  const zones = report.command('zones').description("Resumen diario por zona (Ad Report; por defecto 'Últimos 7 días', los 7 días hasta ayer)");
  addFilterOptions(zones, 'adReport', ['zone', 'advertiser', 'publisher', 'geo', 'source']);
  addTableOptions(zones, { sortKeys: ZONE_SORT_KEYS.join(', ') }).action(async (flags: ReportFlags, cmd: Command) => {
    const sort = parseSortFlag(flags.sort, ZONE_SORT_KEYS);
    const limit = parseLimit(flags.limit);
    const { api, range } = await apiAndRange(cli, cmd, 'adReport', flags);
    await canonicalFilters(api, flags);
    const query = (r: ResolvedRange) => ({ ...rangeFields(r), ...textFilters(flags) });
    const table: ServerTable<Awaited<ReturnType<Api['adReport']['zoneDetails']>>> = {
      page: (p) => api.adReport.zoneDetails({ ...query(range), ...p }),
      open: (format, s, signal, csv) => api.open(routes.adReport.zoneDetails, { ...query(range), sort: s, format, csv }, { signal }),
    };
    const done = await machineOutput(cli, flags, table, {
      sort,
      limit,
      head: rangeFields(range),
      extra: (first) => ({ geoOptions: first.geoOptions, sourceOptions: first.sourceOptions }),
    });
    if (done) return;
    const columns = metricColumns<ZoneRow>(AD_REPORT_SCREEN_COLUMNS);
    await showTable<ZoneRow>(cli, {
      columns: flags.columns,
      query: { sort: sortOf(sort), page: 1, pageSize: screenPageSize(cli, limit, DEFAULT_PAGE_SIZE.adReport), preset: range.preset },
      sortKeys: sortableColumns(AD_REPORT_SCREEN_COLUMNS, ZONE_SORT_KEYS),
      presets: SCREEN_PRESETS.adReport,
      load: async (q) => {
        const r = rangeOf(cli, range, q.preset);
        const answer = await api.adReport.zoneDetails({ ...query(r), ...pageFields(q) });
        return {
          title: 'Resumen diario por zona',
          subtitle: subtitle(r, flags),
          columns,
          rows: answer.rows,
          totals: totalsRow(answer.totals),
          emptyText: EMPTY_REPORT,
          paging: pagingOf(answer),
        };
      },
    });
  });

  // ---- report publishers | advertisers ---------------------------------------------------------
  for (const by of ['publisher', 'advertiser'] as const) {
    const keys = by === 'publisher' ? PUBLISHER_SUMMARY_SORT_KEYS : ADVERTISER_SUMMARY_SORT_KEYS;
    const list = by === 'publisher' ? PUBLISHER_SUMMARY_COLUMNS : ADVERTISER_SUMMARY_COLUMNS;
    const cmd = report
      .command(`${by}s`)
      .description(by === 'publisher' ? 'Resumen publisher: una fila por día y publisher' : 'Resumen advertiser: una fila por día y advertiser');
    addFilterOptions(cmd, 'adReport', ['zone', 'advertiser', 'publisher', 'geo', 'source']);
    addTableOptions(cmd, { sortKeys: keys.join(', ') }).action(async (flags: ReportFlags, command: Command) => {
      const sort = parseSortFlag(flags.sort, keys);
      const limit = parseLimit(flags.limit);
      const { api, range } = await apiAndRange(cli, command, 'adReport', flags);
      await canonicalFilters(api, flags);
      const route = by === 'publisher' ? routes.adReport.publisherSummary : routes.adReport.advertiserSummary;
      const fetchPage = by === 'publisher' ? api.adReport.publisherSummary : api.adReport.advertiserSummary;
      const query = (r: ResolvedRange) => ({ ...rangeFields(r), ...textFilters(flags) });
      const table: ServerTable<Awaited<ReturnType<typeof fetchPage>>> = {
        page: (p) => fetchPage({ ...query(range), ...p }),
        open: (format, s, signal, csv) => api.open(route, { ...query(range), sort: s, format, csv }, { signal }),
      };
      if (await machineOutput(cli, flags, table, { sort, limit, head: rangeFields(range) })) return;
      const columns = metricColumns<SummaryRow>(list);
      await showTable<SummaryRow>(cli, {
        columns: flags.columns,
        query: { sort: sortOf(sort), page: 1, pageSize: screenPageSize(cli, limit, SUMMARY_PAGE_SIZE), preset: range.preset },
        sortKeys: sortableColumns(list, keys),
        presets: SCREEN_PRESETS.adReport,
        rowKey: (row) => `${row.date}\u0000${row[by]}`,
        load: async (q) => {
          const r = rangeOf(cli, range, q.preset);
          const answer = await fetchPage({ ...query(r), ...pageFields(q) });
          return {
            title: by === 'publisher' ? 'Resumen publisher' : 'Resumen advertiser',
            subtitle: subtitle(r, flags),
            columns,
            rows: answer.rows,
            totals: totalsRow(answer.totals),
            emptyText: EMPTY_REPORT,
            paging: pagingOf(answer),
          };
        },
      });
    });
  }

  // ---- explorer ----------------------------------------------------------------------------------
  const explorer = program
    .command('explorer')
    .description('Api Explorer: filas por zona del rango (por defecto hoy) y revenue de ayer, hoy, mes y filtro');
  addFilterOptions(explorer, null, ['zone', 'advertiser', 'publisher']);
  addTableOptions(explorer, { sortKeys: ZONE_SORT_KEYS.join(', ') }).action(async (flags: ReportFlags, cmd: Command) => {
    const sort = parseSortFlag(flags.sort, ZONE_SORT_KEYS);
    const limit = parseLimit(flags.limit);
    const { api, range } = await apiAndRange(cli, cmd, null, flags);
    await canonicalFilters(api, flags);
    const query = { ...rangeFields(range), zone_id: flags.zone, advertiser: flags.advertiser, publisher: flags.publisher };
    const table: ServerTable<Awaited<ReturnType<Api['adReport']['explorer']>>> = {
      page: (p) => api.adReport.explorer({ ...query, ...p }),
      open: (format, s, signal, csv) => api.open(routes.adReport.explorer, { ...query, sort: s, format, csv }, { signal }),
    };
    // The cards: Ayer, Hoy and Mes over all traffic, Filtro the search's range under its filters (the web's numbers).
    const cards = flags.csv === undefined ? await api.adReport.revenueCards(query) : null;
    if (await machineOutput(cli, flags, table, { sort, limit, head: rangeFields(range), extra: () => (cards ? { cards } : {}) })) return;
    const [{ createElement }, { RevenueCards }] = await Promise.all([import('react'), loadUi(() => import('../ui/ReportViews.js'))]);
    const header = createElement(RevenueCards, { cards: cardList(cards!) });
    const columns = metricColumns<ZoneRow>(API_EXPLORER_COLUMNS, { totalsDecimals: API_EXPLORER_TOTAL_DECIMALS });
    await showTable<ZoneRow>(cli, {
      columns: flags.columns,
      query: { sort: sortOf(sort), page: 1, pageSize: screenPageSize(cli, limit, DEFAULT_PAGE_SIZE.adReport, SCREEN_CHROME + 6), preset: null },
      sortKeys: sortableColumns(API_EXPLORER_COLUMNS, ZONE_SORT_KEYS),
      load: async (q) => {
        const answer = await api.adReport.explorer({ ...query, ...pageFields(q) });
        return {
          title: 'Api Explorer',
          subtitle: subtitle(range, flags),
          header,
          columns,
          rows: answer.rows,
          totals: totalsRow(answer.totals),
          emptyText: EMPTY_REPORT,
          paging: pagingOf(answer),
        };
      },
    });
  });

  // ---- demand --------------------------------------------------------------------------------------
  const demand = program
    .command('demand')
    .description('Demand: revenue y margin diarios por advertiser, en la moneda de la red (por defecto el mes actual)');
  addFilterOptions(demand, 'demand', ['zone', 'advertiser', 'publisher']);
  demand.option('--csv <file>', 'exporta una fila por advertiser y día en CSV a FILE, con BOM ("-" = salida estándar, sin BOM)');
  addExcelOption(demand).option('--json', 'salida JSON');
  demand.action(async (flags: ReportFlags, cmd: Command) => {
    const dialect = csvDialect(flags);
    const { api, range } = await apiAndRange(cli, cmd, 'demand', flags);
    await canonicalFilters(api, flags);
    const query = { ...rangeFields(range), zone_id: flags.zone, advertiser: flags.advertiser, publisher: flags.publisher };
    // The server's export: the same file as the web's 'Descargar CSV'.
    if (flags.csv !== undefined) {
      const open = (format: 'csv' | 'ndjson', _sort: string | undefined, signal: AbortSignal, csv: CsvDialect) =>
        api.open(routes.demand.advertiserRevenue, { ...query, format, csv }, { signal });
      return exportCsv(cli, { open }, flags.csv as string, { dialect });
    }
    const data = await api.demand.advertiserRevenue(query);
    if (cli.machine(flags.json)) return cli.json({ ...rangeFields(range), ...data });
    const [{ createElement }, { DemandView }] = await Promise.all([import('react'), loadUi(() => import('../ui/ReportViews.js'))]);
    await cli.draw(createElement(DemandView, { data, title: `Demand · ${subtitle(range, flags)}` }));
  });

  // ---- finance -------------------------------------------------------------------------------------
  const finance = program
    .command('finance')
    .description(`Finance: revenue mensual por advertiser y publisher y margen mensual (por defecto desde ${FINANCE_START})`);
  addFilterOptions(finance, null, ['domain']);
  finance
    .option('--sort <key>', 'ordena ambas tablas en el servidor: name, total o un mes AAAA-MM, con :asc|desc (por defecto total:desc)')
    .option('--csv <file>', 'exporta en CSV la tabla de --table a FILE, con BOM ("-" = salida estándar, sin BOM); el mismo archivo que la web')
    .option('--table <table>', 'la tabla que exporta --csv: advertisers (por defecto), publishers o margin');
  offerValues(finance, '--table', ['advertisers', 'publishers', 'margin']);
  offerValues(finance, '--sort', ['name', 'total', 'name:desc', 'total:asc']);
  addExcelOption(finance)
    .option('--json', 'salida JSON')
    .action(async (flags: ReportFlags, cmd: Command) => {
      const dialect = csvDialect(flags);
      const sort = parseSortFlag(
        flags.sort,
        (k) => k === 'name' || k === 'total' || /^\d{4}-(0[1-9]|1[0-2])$/.test(k),
        'name, total o un mes AAAA-MM',
      );
      const table = parseFinanceTable(flags.table);
      const { api, range } = await apiAndRange(cli, cmd, null, flags, { defaultFrom: FINANCE_START });
      await canonicalFilters(api, flags);
      const q = { ...rangeFields(range), domain: flags.domain };
      const sortFor = (name: string) => sort?.replace(/^name(?=:|$)/, name);
      // The server's export of the chosen table: the file the web's 'Descargar CSV' saves.
      if (flags.csv !== undefined) {
        const open = (format: 'csv' | 'ndjson', _sort: string | undefined, signal: AbortSignal, csv: CsvDialect) =>
          table === 'margin'
            ? api.open(routes.finance.margin, { ...q, format, csv }, { signal })
            : api.open(
                table === 'advertisers' ? routes.finance.advertisers : routes.finance.publishers,
                { ...q, sort: sortFor(table.slice(0, -1)), format, csv },
                { signal },
              );
        return exportCsv(cli, { open }, flags.csv as string, { dialect });
      }
      const [advertisers, publishers, margin] = await Promise.all([
        allRows((page, page_size) => api.finance.advertisers({ ...q, sort: sortFor('advertiser'), page, page_size })),
        allRows((page, page_size) => api.finance.publishers({ ...q, sort: sortFor('publisher'), page, page_size })),
        api.finance.margin(q),
      ]);
      const months = advertisers.months;
      const tableOf = (t: FinanceAdvertiserTable | FinancePublisherTable) => ({ rows: t.rows, total_rows: t.total_rows, totals: t.totals });
      if (cli.machine(flags.json))
        return cli.json({ ...rangeFields(range), months, advertisers: tableOf(advertisers), publishers: tableOf(publishers), margin });
      const [{ createElement }, { FinanceView }] = await Promise.all([import('react'), loadUi(() => import('../ui/ReportViews.js'))]);
      await cli.draw(
        createElement(FinanceView, {
          subtitle: subtitle(range, flags),
          months,
          advertisers: { rows: advertisers.rows.map((r) => ({ ...r, name: r.advertiser })), totals: advertisers.totals },
          publishers: { rows: publishers.rows.map((r) => ({ ...r, name: r.publisher })), totals: publishers.totals },
          margin: margin[0] ?? null,
          width: cli.io.stdout.columns,
        }),
      );
    });
}

function cardList(cards: Cards): ReadonlyArray<readonly [string, number | null]> {
  return [
    ['Revenue Ayer', cards.yesterday],
    ['Revenue Hoy', cards.today],
    ['Revenue Mes', cards.month],
    ['Revenue Filtro', cards.filter],
  ];
}

const FINANCE_TABLES = ['advertisers', 'publishers', 'margin'] as const;

/** --table: which Finance table --csv exports (advertisers by default). */
function parseFinanceTable(value: string | undefined): (typeof FINANCE_TABLES)[number] {
  if (value === undefined) return 'advertisers';
  const table = FINANCE_TABLES.find((t) => t === value.trim().toLowerCase());
  if (!table) throw new CliError(`--table no válido: ${value} (usa advertisers, publishers o margin)`, EXIT.usage);
  return table;
}
