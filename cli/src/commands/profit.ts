// `adops profit`: Rentabilidad (Meta spend against the zone revenue its visits earned) per
// campaign, ad set, ad, keyword or day — the server's table on the report screen, or its exports
// with --json/--csv; `adops spend sync` (admins) reads Meta's spend again; `adops rates` lists
// and keeps (admins) the monthly exchange rates. Every figure is the server's.
import type { Command } from 'commander';
import {
  profitRowLabel,
  PROFIT_DIMENSION_LABELS,
  PROFIT_DIMENSIONS,
  PROFIT_METRICS,
  PROFIT_PAGE_SIZE,
  PROFIT_SORT_KEYS,
  SCREEN_PRESETS,
  UNSYNCED_CELL,
  UNSYNCED_PROFIT_METRICS,
  completenessNotes,
  routes,
  daySpanText,
  formatProfitFigure,
  syncedAtText,
  type ExchangeRates,
  type ProfitDimension,
  type ProfitMetricKey,
  type ProfitTable,
  type ProfitTotals,
  type ProfitRow,
} from '@adops/core/lite';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../io.js';
import type { Column } from '../ui/Table.js';
import { pagingOf } from '../ui/paging.js';
import { totalsRow } from '../ui/columns.js';
import { addFilterOptions, rangeLabel, apiAndRange, reportingTz, resolveRange, type FilterFlags, type ResolvedRange } from './report-filters.js';
import { addTableOptions, machineOutput, parseLimit, parseSortFlag, type ServerTable, type TableFlags } from './table-output.js';
import { SCREEN_CHROME, pageFields, rangeOf, screenPageSize, showTable, sortOf } from './table-screen.js';

type ProfitFlags = FilterFlags & TableFlags & { by?: string; campaign?: string; adset?: string };

/** The figures on the screen, most telling first (the narrow terminal keeps the first ones). */
const SCREEN_FIGURES: readonly ProfitMetricKey[] = [
  'profit',
  'roi',
  'spend',
  'revenue',
  'visits',
  'rpv',
  'cpc',
  'break_even_cpc',
  'roas',
  'meta_clicks',
  'tq',
];

/** Marks a losing row in its first cell (colour alone is not enough), an estimated revenue, and revenue of unsynced days left apart. */
export const LOSING_MARK = '▼';
export const ESTIMATED_MARK = '*';
export const UNSYNCED_MARK = '†';

function parseBy(value: string | undefined): ProfitDimension {
  if (value === undefined) return 'campaign';
  const by = PROFIT_DIMENSIONS.find((d) => d === value.trim().toLowerCase());
  if (!by) throw new CliError(`--by no válido: ${value} (usa ${PROFIT_DIMENSIONS.join(', ')})`, EXIT.usage);
  return by;
}

/** The row's label (core's, as the web names it). */
export const rowLabel = profitRowLabel;

/** Groupings whose rows are Meta objects with a name and an id (--campaign / --adset take the id). */
const NAMED: readonly ProfitDimension[] = ['campaign', 'adset', 'ad'];

export function profitColumns(by: ProfitDimension, currency: string): Column<ProfitRow & { __totals?: boolean }>[] {
  const first: Column<ProfitRow & { __totals?: boolean }> = {
    key: 'name',
    header: PROFIT_DIMENSION_LABELS[by],
    maxWidth: 36,
    format: (_v, row) => (row.__totals ? 'Totales' : `${row.losing ? `${LOSING_MARK} ` : '  '}${rowLabel(by, row)}`),
    color: (_v, row) => (row.losing && !row.__totals ? 'red' : undefined),
  };
  return [
    first,
    ...SCREEN_FIGURES.map(
      (key): Column<ProfitRow & { __totals?: boolean }> => ({
        key,
        header: key === 'revenue' ? `${PROFIT_METRICS[key].label} ${ESTIMATED_MARK}` : PROFIT_METRICS[key].label,
        align: 'right',
        format: (v, row) => {
          if (row.spend_unsynced && UNSYNCED_PROFIT_METRICS.has(key)) return UNSYNCED_CELL;
          const text = formatProfitFigure(key, v as number | null, currency);
          if (key !== 'revenue') return text;
          return `${text}${row.estimated_visits > 0 ? ESTIMATED_MARK : ''}${row.unsynced_revenue > 0 ? UNSYNCED_MARK : ''}`;
        },
        color: (v, row) => ((key === 'profit' || key === 'roi') && typeof v === 'number' && v < 0 && !row.__totals ? 'red' : undefined),
      }),
    ),
    ...(NAMED.includes(by) ? [{ key: 'key', header: 'ID', format: (v: unknown) => (v == null ? '-' : String(v)) }] : []),
  ];
}

/**
 * What the screen says under its table, as Rentabilidad on the web: when spend was last synced,
 * the unsynced days (and the revenue left apart, †), the estimated (*) and partial days, and the
 * exchange rates that are missing.
 */
export function profitNotice(totals: ProfitTotals, tz: string): string | undefined {
  const money = (v: number) => formatProfitFigure('revenue', v, totals.currency);
  const marks = { unsynced: `${UNSYNCED_MARK} `, estimated: `${ESTIMATED_MARK} `, partial: '' };
  const lines = [syncedAtText(totals.spend_synced_at, tz), ...completenessNotes(totals, money).map((n) => `${marks[n.kind]}${n.text}`)];
  if (totals.missing_rates.length)
    lines.push(
      `⚠ Sin tipo de cambio ${totals.missing_rates.map((m) => `${m.currency} ${m.month}`).join(', ')}: gasto y beneficio sin calcular (adops rates)`,
    );
  return lines.join('\n');
}

export function registerProfit(program: Command, cli: Cli): void {
  // ---- profit --------------------------------------------------------------------------------------
  const profit = program
    .command('profit')
    .description('Rentabilidad: gasto en Meta frente al revenue estimado de sus visitas, por campaña, conjunto, anuncio, keyword o día');
  profit.option('--by <grouping>', `agrupa por ${PROFIT_DIMENSIONS.join('|')} (por defecto campaign)`);
  profit.option('--campaign <id>', 'solo esta campaña (sus conjuntos, anuncios, keywords o días)');
  profit.option('--adset <id>', 'solo este conjunto de anuncios');
  addFilterOptions(profit, 'profit', []);
  addTableOptions(profit, { sortKeys: PROFIT_SORT_KEYS.join(', ') }).action(async (flags: ProfitFlags, cmd: Command) => {
    const by = parseBy(flags.by);
    const sort = parseSortFlag(flags.sort, PROFIT_SORT_KEYS);
    const limit = parseLimit(flags.limit);
    const { api, range } = await apiAndRange(cli, cmd, 'profit', flags);
    const tz = reportingTz(cli.io);
    const query = (r: ResolvedRange) => ({
      by,
      start_date: r.from,
      end_date: r.to,
      campaign_id: flags.campaign,
      adset_id: flags.adset,
    });
    const table: ServerTable<ProfitTable> = {
      page: (p) => api.profit.table({ ...query(range), ...p }),
      open: (format, s, signal, csv) => api.open(routes.profit.table, { ...query(range), sort: s, format, csv }, { signal }),
    };
    const head = { by, start_date: range.from, end_date: range.to, campaign_id: flags.campaign ?? null, adset_id: flags.adset ?? null };
    if (await machineOutput(cli, flags, table, { sort, limit, head })) return;
    const parents = [flags.campaign && `campaña ${flags.campaign}`, flags.adset && `conjunto ${flags.adset}`].filter(Boolean);
    await showTable<ProfitRow>(cli, {
      columns: flags.columns,
      query: {
        sort: sortOf(sort),
        page: 1,
        // Room for the notice lines (last sync, unsynced, estimated and partial days, missing rates).
        pageSize: screenPageSize(cli, limit, PROFIT_PAGE_SIZE, SCREEN_CHROME + 5),
        preset: range.preset,
      },
      sortKeys: ['name', ...SCREEN_FIGURES, 'key'],
      presets: SCREEN_PRESETS.profit,
      rowKey: (row) => row.key ?? '\u0000',
      load: async (q) => {
        const r = rangeOf(cli, range, q.preset);
        const answer = await api.profit.table({ ...query(r), ...pageFields(q) });
        return {
          title: `Rentabilidad por ${PROFIT_DIMENSION_LABELS[by].toLowerCase()}`,
          subtitle: [rangeLabel(r), ...parents, `importes en ${answer.totals.currency}`].join(' · '),
          columns: profitColumns(by, answer.totals.currency) as Column<ProfitRow>[],
          rows: answer.rows,
          totals: answer.rows.length ? totalsRow(answer.totals) : null,
          emptyText: 'No hay gasto ni visitas de campañas en este rango.',
          notice: profitNotice(answer.totals, tz),
          // On a narrow terminal: what the row earns or loses first.
          priority: SCREEN_FIGURES,
          paging: pagingOf(answer),
        };
      },
    });
  });

  // ---- spend sync ------------------------------------------------------------------------------------
  const spend = program.command('spend').description('Gasto en Meta (solo administradores)');
  spend
    .command('sync')
    .description('Lee de Meta el gasto por anuncio y día del rango y lo guarda (por defecto los últimos 7 días, hoy incluido)')
    .option('--from <date>', 'primer día (AAAA-MM-DD o dd/MM/aaaa)')
    .option('--to <date>', 'último día (por defecto hoy)')
    .option('--json', 'salida JSON')
    .action(async (flags: { from?: string; to?: string; json?: boolean }, cmd: Command) => {
      if (flags.from === undefined && flags.to !== undefined) throw new CliError('Indica también --from', EXIT.usage);
      let body = {};
      if (flags.from !== undefined) {
        const range = resolveRange(cli.io, null, { from: flags.from, to: flags.to });
        body = { start_date: range.from, end_date: range.to };
      }
      const { api } = await cli.api(cmd);
      const result = await api.profit.syncSpend(body);
      if (cli.machine(flags.json)) return cli.json(result);
      const days = daySpanText({ from: result.start_date, to: result.end_date });
      cli.say(
        `Gasto sincronizado (${days}): ${result.rows} filas anuncio-día de ${result.ads} anuncios — ` +
          `${result.inserted} nuevas, ${result.updated} cambiadas, ${result.unchanged} sin cambios` +
          (result.currencies.length ? ` · monedas: ${result.currencies.join(', ')}` : ''),
      );
    });

  // ---- rates ------------------------------------------------------------------------------------------
  const rates = program
    .command('rates')
    .description('Tipos de cambio mensuales del gasto a la moneda de la red (ver: cualquiera; cambiar: administradores)');
  rates
    .command('list', { isDefault: true })
    .description('Lista los tipos de cambio (lo que hace adops rates sin más)')
    .option('--json', 'salida JSON')
    .action(async (flags: { json?: boolean }, cmd: Command) => {
      const { api } = await cli.api(cmd);
      showRates(cli, await api.profit.rates(), flags.json);
    });
  rates
    .command('set')
    .description('Fija el tipo de un mes: 1 MONEDA = TIPO en la moneda de la red (reemplaza el que hubiera)')
    .argument('<month>', 'mes AAAA-MM')
    .argument('<currency>', 'moneda del gasto (EUR, USD…)')
    .argument('<rate>', 'unidades de la moneda de la red por 1 MONEDA (1.10 o 1,10)')
    .option('--json', 'salida JSON')
    .action(async (month: string, currency: string, rateText: string, flags: { json?: boolean }, cmd: Command) => {
      const rate = parseRate(rateText);
      parseMonth(month);
      const { api } = await cli.api(cmd);
      const answer = await api.profit.setRates({ rates: [{ month: month.trim(), currency, rate }] });
      if (cli.machine(flags.json)) return cli.json(answer);
      cli.say(`Tipo de cambio de ${month.trim()}: 1 ${currency.trim().toUpperCase()} = ${rateText6(rate)} ${answer.currency}`);
    });
  rates
    .command('delete')
    .description('Quita el tipo de un mes (el gasto de ese mes queda sin convertir y las pantallas lo dicen)')
    .argument('<month>', 'mes AAAA-MM')
    .argument('<currency>', 'moneda del gasto')
    .option('--json', 'salida JSON')
    .action(async (month: string, currency: string, flags: { json?: boolean }, cmd: Command) => {
      parseMonth(month);
      const { api } = await cli.api(cmd);
      const answer = await api.profit.setRates({ rates: [{ month: month.trim(), currency, rate: null }] });
      if (cli.machine(flags.json)) return cli.json(answer);
      cli.say(`Tipo de cambio de ${month.trim()} ${currency.trim().toUpperCase()} eliminado`);
    });
}

/** A rate as written in Spanish, up to 6 decimals ('1,1'; '0,913242'). */
const rateText6 = (rate: number) => new Intl.NumberFormat('es-ES', { maximumFractionDigits: 6, useGrouping: false }).format(rate);

/** MONTH as the server takes it (AAAA-MM), checked before asking it. */
function parseMonth(text: string): void {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(text.trim())) throw new CliError(`Mes no válido: ${text} (usa AAAA-MM)`, EXIT.usage);
}

/** '1.10' or '1,10' → 1.1; anything else is a usage error (the server checks the range). */
function parseRate(text: string): number {
  const t = text.trim().replace(',', '.');
  if (!/^\d{1,7}(\.\d{1,10})?$/.test(t) || Number(t) <= 0)
    throw new CliError(`Tipo de cambio no válido: ${text} (un número mayor que 0, p. ej. 1.10)`, EXIT.usage);
  return Number(t);
}

function showRates(cli: Cli, answer: ExchangeRates, json: boolean | undefined): void {
  if (cli.machine(json)) {
    cli.json(answer);
    return;
  }
  if (answer.rates.length === 0) {
    cli.say(`No hay tipos de cambio: el gasto en ${answer.currency} no los necesita; en otra moneda, adops rates set MES MONEDA TIPO.`);
    return;
  }
  const lines = answer.rates.map((r) => `${r.month}  1 ${r.currency} = ${rateText6(r.rate)} ${answer.currency}`);
  cli.say([`Tipos de cambio a ${answer.currency}:`, ...lines].join('\n'));
}
