// `adops campaigns list|create`: campaign metrics from Meta (status and range filters; the
// server sorts, pages and totals them) with Rentabilidad's revenue, profit and ROI (unsynced and
// estimated days marked and said, as on the web), and the campaign creator — budget and bid read
// the Spanish way and checked against the ad account's limits (a high budget confirmed), suggested
// copy and images when not given, then the multipart form the web sends, answering the created
// ids and the tracking URL.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import {
  CAMPAIGN_DEFAULTS,
  CAMPAIGN_SORT_KEYS,
  DEFAULT_PAGE_SIZE,
  IMAGE_REQUIRED_MESSAGE,
  INSIGHTS_STATUS_LABELS,
  MAX_IMAGE_BYTES,
  MAX_SUGGESTION_PAGE,
  amountForWire,
  budgetConfirmation,
  budgetNeedsConfirmation,
  budgetProblem,
  campaignFormData,
  completenessNotes,
  routes,
  daySpanText,
  formatAmount,
  formatDateTimeDMY,
  formatInt,
  formatMoney,
  formatProfitFigure,
  PROFIT_METRICS,
  syncedAtText,
  UNSYNCED_CELL,
  formatMetric,
  formatNumber,
  presetRange,
  readAmount,
  type CampaignFormInput,
  type CampaignInsight,
  type CampaignTable,
  type ImageSuggestion,
  type InsightsStatus,
} from '@adops/core/lite';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../io.js';
import { pagingOf } from '../ui/paging.js';
import type { Column } from '../ui/Table.js';
import { totalsRow } from '../ui/columns.js';
import { parseDay } from './report-filters.js';
import { addTableOptions, machineOutput, parseLimit, parseSortFlag, type ServerTable, type TableFlags } from './table-output.js';
import { SCREEN_CHROME, pageFields, screenPageSize, showTable, sortOf } from './table-screen.js';
import { ESTIMATED_MARK, UNSYNCED_MARK } from './profit.js';

export const NO_DATA_TOOLTIP = 'Esta campaña no tiene métricas en el rango de fechas seleccionado';

const IMAGE_TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp' };

interface ListFlags extends TableFlags {
  status: string;
  from?: string;
  to?: string;
}

interface CreateFlags {
  keyword: string;
  headline?: string;
  body?: string;
  cta?: string;
  alias?: string;
  baseUrl?: string;
  fbPage?: string;
  dailyBudget?: string;
  bid?: string;
  objective?: string;
  countries?: string;
  advantageAudience?: boolean;
  image?: string;
  pick?: string;
  page: string;
  json?: boolean;
  yes?: boolean;
}

/** An amount flag read the Spanish way ("1,50"); blank or absent takes the default. In cents. */
function amountFlag(text: string | undefined, label: string, flag: string, fallback: number): number {
  if (text === undefined || text.trim() === '') return Math.round(fallback * 100);
  const reading = readAmount(text);
  if (!reading.ok) throw new CliError(`${label} (${flag}): ${reading.problem}`, EXIT.usage);
  return reading.cents;
}

function parseStatus(value: string): InsightsStatus {
  const upper = value.trim().toUpperCase();
  const byLabel = Object.entries(INSIGHTS_STATUS_LABELS).find(([, label]) => label.toUpperCase() === upper)?.[0];
  const status = (Object.hasOwn(INSIGHTS_STATUS_LABELS, upper) ? upper : byLabel) as InsightsStatus | undefined;
  if (!status) throw new CliError(`--status no válido: ${value} (usa ACTIVE, PAUSED o ALL)`, EXIT.usage);
  return status;
}

/** 'Viajes Baratos!' → 'viajes-baratos' (the default alias). */
export function aliasFromKeyword(keyword: string): string {
  return (
    keyword
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 100) || 'campana'
  );
}

async function readImage(file: string): Promise<{ blob: Blob; name: string }> {
  const full = path.resolve(file);
  let size: number;
  try {
    size = (await stat(full)).size;
  } catch {
    throw new CliError(`No se encuentra la imagen: ${full}`, EXIT.usage);
  }
  if (size > MAX_IMAGE_BYTES) throw new CliError('La imagen supera el máximo de 8 MB', EXIT.usage);
  const type = IMAGE_TYPES[path.extname(full).toLowerCase()] ?? 'application/octet-stream';
  return { blob: new Blob([await readFile(full)], { type }), name: path.basename(full) };
}

/**
 * Revenue, profit or ROI of a campaign (or the totals) as Rentabilidad says them: profit and ROI
 * 'sin sincronizar' when no day of the range has synced spend, * beside an estimated revenue
 * and † beside one whose unsynced days' revenue was left apart.
 */
export function campaignFigure(
  key: 'revenue' | 'profit' | 'roi',
  value: number | null,
  r: Pick<CampaignInsight, 'spend_unsynced' | 'unsynced_revenue'> & { estimated?: boolean },
  currency: string,
): string {
  if (key !== 'revenue' && r.spend_unsynced) return UNSYNCED_CELL;
  const text = formatProfitFigure(key, value, currency);
  return key === 'revenue' ? `${text}${r.estimated ? ESTIMATED_MARK : ''}${r.unsynced_revenue > 0 ? UNSYNCED_MARK : ''}` : text;
}

/**
 * A campaign's spend as the web shows it: the network's currency (Rentabilidad's, 'sin
 * sincronizar' while unknown), then Meta's own amount in the ad account's currency: "$74,04 · 67,31 EUR".
 */
export function spendFigure(
  r: Pick<CampaignInsight, 'spend' | 'spend_unsynced'> & { account_spend: number | null; account_currency: string | null },
  currency: string,
): string {
  const network = r.spend === null && r.spend_unsynced ? UNSYNCED_CELL : formatMoney(r.spend, currency);
  return r.account_spend !== null && r.account_currency ? `${network} · ${formatAmount(r.account_spend, r.account_currency)}` : network;
}

/** The list's notes on its Rentabilidad columns: when spend was last synced, unsynced, estimated and partial days. */
function profitNotes(totals: CampaignTable['totals'], tz: string): string[] {
  const money = (v: number) => formatProfitFigure('revenue', v, totals.currency);
  const notes = completenessNotes(totals, money);
  if (notes.length === 0) return [];
  const marks = { unsynced: `${UNSYNCED_MARK} `, estimated: `${ESTIMATED_MARK} `, partial: '' };
  return [`Revenue, beneficio y ROI · ${syncedAtText(totals.spend_synced_at, tz)}`, ...notes.map((n) => `${marks[n.kind]}${n.text}`)];
}

export function registerCampaigns(program: Command, cli: Cli): void {
  const campaigns = program.command('campaigns').description('Campañas de Facebook: métricas y creación');

  const list = campaigns
    .command('list')
    .description('Campañas con métricas (Facebook) en un rango (por defecto ayer)')
    .option('--status <status>', 'ACTIVE (Activas), PAUSED (Pausadas) o ALL (Todas)', 'ACTIVE')
    .option('--from <date>', 'primer día (AAAA-MM-DD o dd/MM/aaaa; por defecto ayer)')
    .option('--to <date>', 'último día (por defecto el de --from, o ayer)');
  addTableOptions(list, { sortKeys: CAMPAIGN_SORT_KEYS.join(', ') }).action(async (flags: ListFlags, cmd: Command) => {
    const status = parseStatus(flags.status);
    const sort = parseSortFlag(flags.sort, CAMPAIGN_SORT_KEYS);
    const limit = parseLimit(flags.limit);
    const given = {
      from: flags.from !== undefined ? parseDay(flags.from, '--from') : undefined,
      to: flags.to !== undefined ? parseDay(flags.to, '--to') : undefined,
    };
    if (given.from && given.to && given.from > given.to) throw new CliError('❌ Rango de fechas no válido.', EXIT.usage);
    // Without dates the range is 'ayer' of the server's current zone, confirmed first.
    const { api } = await cli.api(cmd, { zone: given.from === undefined && given.to === undefined });
    const yesterday = presetRange('ayer', new Date(), cli.tz).from;
    const from = given.from ?? given.to ?? yesterday;
    const to = given.to ?? given.from ?? yesterday;
    const query = { from_date: from, to_date: to, status };
    const table: ServerTable<CampaignTable> = {
      page: (p) => api.campaigns.insights({ ...query, ...p }),
      open: (format, s, signal, csv) => api.open(routes.campaigns.insights, { ...query, sort: s, format, csv }, { signal }),
    };
    if (await machineOutput(cli, flags, table, { sort, limit, head: query })) return;
    const columns: Column<CampaignInsight>[] = [
      {
        key: 'effective_status',
        header: 'Estado',
        format: (v, r) => `${v === 'ACTIVE' ? '✅' : '⛔'}${r.has_data ? '' : ' ⚠'}`,
      },
      { key: 'name', header: 'Campaña', maxWidth: 48 },
      { key: 'id', header: 'ID' },
      { key: 'impressions', header: 'Impressions', align: 'right', format: (v) => formatInt(v as number) },
      { key: 'clicks', header: 'Clicks', align: 'right', format: (v) => formatInt(v as number) },
      { key: 'ctr', header: 'CTR%', align: 'right', format: (v) => formatMetric('ctr', v) },
      { key: 'spend', header: 'Gasto', align: 'right', format: (_, r) => spendFigure(r, currency) },
      { key: 'cpc', header: 'CPC', align: 'right', format: (v) => formatMoney(v as number | null, currency) },
      { key: 'cpm', header: 'CPM', align: 'right', format: (v) => formatMoney(v as number | null, currency) },
      ...(['revenue', 'profit', 'roi'] as const).map(
        (key): Column<CampaignInsight> => ({
          key,
          header: key === 'revenue' ? `${PROFIT_METRICS[key].label} ${ESTIMATED_MARK}` : PROFIT_METRICS[key].label,
          align: 'right',
          format: (v, r) => campaignFigure(key, v as number | null, r, currency),
          color: (v, r) => (key !== 'revenue' && typeof v === 'number' && v < 0 && !r.spend_unsynced ? 'red' : undefined),
        }),
      ),
      { key: 'created_at', header: 'Creada', format: (v) => formatDateTimeDMY(v as string, cli.tz) },
    ];
    const tz = cli.tz;
    let currency = 'USD';
    await showTable<CampaignInsight>(cli, {
      columns: flags.columns,
      // Room for the notice lines (no data, last sync, unsynced, estimated and partial days).
      query: { sort: sortOf(sort), page: 1, pageSize: screenPageSize(cli, limit, DEFAULT_PAGE_SIZE.campaigns, SCREEN_CHROME + 5), preset: null },
      sortKeys: columns.map((c) => c.key).filter((k) => (CAMPAIGN_SORT_KEYS as readonly string[]).includes(k)),
      load: async (q) => {
        const answer = await api.campaigns.insights({ ...query, ...pageFields(q) });
        currency = answer.totals.currency;
        const notices = [
          ...(answer.totals.without_data > 0 ? [`⚠ ${NO_DATA_TOOLTIP} (${formatInt(answer.totals.without_data)})`] : []),
          ...profitNotes(answer.totals, tz),
        ];
        return {
          title: 'Campañas con métricas (Facebook)',
          subtitle: `${INSIGHTS_STATUS_LABELS[status]} · ${daySpanText({ from, to })}`,
          columns,
          rows: answer.rows,
          totals: answer.rows.length ? totalsRow({ ...answer.totals, name: `${formatInt(answer.totals.campaigns)} campañas` }) : null,
          emptyText: 'No se encontraron campañas con métricas.',
          notice: notices.length ? notices.join('\n') : undefined,
          paging: pagingOf(answer),
        };
      },
    });
  });

  campaigns
    .command('create')
    .description('Crea una campaña en Facebook (en pausa) a partir de una keyword; sugiere texto e imágenes si faltan')
    .requiredOption('--keyword <keyword>', 'keyword (obligatoria)')
    .option('--headline <text>', 'título (por defecto el sugerido)')
    .option('--body <text>', 'texto principal (por defecto el sugerido)')
    .option('--cta <type>', 'llamada a la acción, p. ej. LEARN_MORE (por defecto la sugerida)')
    .option('--alias <alias>', 'alias de la URL de seguimiento (por defecto la keyword en minúsculas con guiones)')
    .option('--base-url <url>', 'URL base de la landing (por defecto la del sitio público)')
    .option('--fb-page <id>', 'id de la página de Facebook (por defecto la configurada)')
    .option(
      '--daily-budget <importe>',
      `presupuesto diario en la moneda de la cuenta publicitaria, con coma decimal: 1,50 (por defecto ${formatNumber(CAMPAIGN_DEFAULTS.daily_budget)})`,
    )
    .option('--bid <importe>', `puja CPC en la moneda de la cuenta publicitaria (por defecto ${formatNumber(CAMPAIGN_DEFAULTS.bid_amount)})`)
    .option('--objective <objective>', `OUTCOME_TRAFFIC u OUTCOME_SALES (por defecto ${CAMPAIGN_DEFAULTS.objective})`)
    .option('--countries <codes>', 'países separados por comas (por defecto ES)')
    .option('--advantage-audience', 'deja que Meta amplíe la audiencia (Advantage+)')
    .option('--image <file>', 'imagen JPEG, PNG o WebP (máx. 8 MB)')
    .option('--pick <n>', 'usa la imagen sugerida número N')
    .option('--page <n>', `página de sugerencias de imágenes (1–${MAX_SUGGESTION_PAGE})`, '1')
    .option('--json', 'salida JSON')
    .option('-y, --yes', 'no pedir confirmación de un presupuesto diario alto')
    .action(async (flags: CreateFlags, cmd: Command) => {
      if (flags.image !== undefined && flags.pick !== undefined) throw new CliError('Usa --image o --pick, no ambos', EXIT.usage);
      const budgetCents = amountFlag(flags.dailyBudget, 'Presupuesto diario', '--daily-budget', CAMPAIGN_DEFAULTS.daily_budget);
      const bidCents = amountFlag(flags.bid, 'Puja CPC', '--bid', CAMPAIGN_DEFAULTS.bid_amount);
      const page = Number(flags.page);
      if (!/^\d+$/.test(flags.page) || page < 1 || page > MAX_SUGGESTION_PAGE)
        throw new CliError(`--page no válido: ${flags.page} (1–${MAX_SUGGESTION_PAGE})`, EXIT.usage);
      const upload = flags.image !== undefined ? await readImage(flags.image) : null;
      const { api } = await cli.api(cmd);
      const machine = cli.machine(flags.json);
      // People read the suggestions; with --json they go to stderr so stdout stays one document.
      const note = (text: string) => (machine ? cli.io.stderr : cli.io.stdout).write(`${text}\n`);
      const keyword = flags.keyword.trim();

      // The ad account's limits before anything else: a budget it cannot take is said at once, a high one confirmed.
      const limits = await api.campaigns.budgetLimits();
      const amounts = { daily_budget: budgetCents / 100, bid_amount: bidCents / 100 };
      const problem = budgetProblem(amounts, limits);
      if (problem) throw new CliError(problem.message);
      if (budgetNeedsConfirmation(amounts.daily_budget, limits) && !flags.yes) {
        const { title, text } = budgetConfirmation(amounts.daily_budget, limits);
        if (!cli.prompt.interactive) throw new CliError(`${text} Confírmalo con --yes (la entrada no es una terminal).`, EXIT.usage);
        cli.io.stderr.write(`${text}\n`);
        if (!(await cli.prompt.confirm(title))) throw new CliError('Cancelado', EXIT.cancelled);
      }

      let { headline, body, cta } = flags;
      if (headline === undefined || body === undefined || cta === undefined) {
        const copy = await api.campaigns.generateCopy({ keyword });
        headline ??= copy.headline;
        body ??= copy.body;
        cta ??= copy.cta;
        note(`Texto sugerido para "${keyword}":\n  Título: ${copy.headline}\n  Texto:  ${copy.body}\n  CTA:    ${copy.cta}`);
      }

      let imageUrl: string | undefined;
      if (!upload) {
        const suggestions: ImageSuggestion[] = await api.campaigns.imageSuggestions({ query: keyword, page });
        if (suggestions.length === 0) throw new CliError(`No hay imágenes sugeridas para "${keyword}": usa --image FILE`, EXIT.usage);
        const list = suggestions.map((s, i) => `  ${String(i + 1).padStart(2)}  ${s.largeImageURL}`).join('\n');
        let chosen: number;
        if (flags.pick !== undefined) {
          chosen = Number(flags.pick);
          if (!/^\d+$/.test(flags.pick) || chosen < 1 || chosen > suggestions.length)
            throw new CliError(`--pick no válido: ${flags.pick} (hay ${suggestions.length} imágenes sugeridas)`, EXIT.usage);
        } else if (cli.prompt.interactive) {
          note(`Imágenes sugeridas:\n${list}`);
          const answer = await cli.prompt.ask(`Elige una imagen (1–${suggestions.length}): `, 'el número de imagen');
          chosen = Number(answer.trim());
          if (!Number.isInteger(chosen) || chosen < 1 || chosen > suggestions.length)
            throw new CliError(`Número de imagen no válido: ${answer}`, EXIT.usage);
        } else {
          note(`Imágenes sugeridas:\n${list}`);
          throw new CliError(`${IMAGE_REQUIRED_MESSAGE} (usa --image FILE o --pick N)`, EXIT.usage);
        }
        imageUrl = suggestions[chosen - 1].largeImageURL;
        note(`Imagen elegida: ${imageUrl}`);
      }

      const alias = flags.alias ?? aliasFromKeyword(keyword);
      const values: CampaignFormInput = {
        keyword,
        headline,
        body,
        cta: cta as CampaignFormInput['cta'],
        alias,
        base_url: flags.baseUrl,
        fb_page: flags.fbPage,
        daily_budget: amountForWire(budgetCents),
        bid_amount: amountForWire(bidCents),
        objective: flags.objective as CampaignFormInput['objective'],
        countries: flags.countries,
        advantage_audience: flags.advantageAudience ? '1' : '0',
        image_url: imageUrl,
      };
      const created = await api.campaigns.create(undefined, { rawBody: campaignFormData(values, upload?.blob, upload?.name) });
      if (machine) return cli.json(created);
      cli.say(
        [
          `Campaña creada en pausa para "${keyword}" (alias ${alias})`,
          `  campaign_id:  ${created.campaign_id}`,
          `  adset_id:     ${created.adset_id}`,
          `  ad_id:        ${created.ad_id}`,
          `  creative_id:  ${created.creative_id}`,
          `  URL de seguimiento: ${created.tracking_url}`,
        ].join('\n'),
      );
    });
}
