// `adops campaigns list|create`: campaign metrics from Meta (status and range filters; the
// server sorts, pages and totals them) and the campaign creator — suggested copy and images
// when not given, then the multipart form the web sends, answering the created ids and the
// tracking URL.
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
  campaignFormData,
  contract,
  daySpanText,
  formatInt,
  formatDateTimeDMY,
  formatMetric,
  formatNumber,
  presetRange,
  type CampaignFormInput,
  type CampaignInsight,
  type CampaignTable,
  type ImageSuggestion,
  type InsightsStatus,
} from '@adops/core';
import type { Cli } from '../context.js';
import { CliError, EXIT } from '../io.js';
import { pagingOf } from '../ui/paging.js';
import type { Column } from '../ui/Table.js';
import { totalsRow } from '../ui/columns.js';
import { parseDay } from './report-filters.js';
import { addTableOptions, machineOutput, parseLimit, parseSortFlag, type ServerTable, type TableFlags } from './table-output.js';
import { pageFields, screenPageSize, showTable, sortOf } from './table-screen.js';

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
      open: (format, s, signal) => api.open(contract.campaigns.insights, { ...query, sort: s, format }, { signal }),
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
      { key: 'spend', header: 'Spend', align: 'right', format: (v) => formatNumber(v as number, 2) },
      { key: 'cpc', header: 'CPC', align: 'right', format: (v) => formatNumber(v as number, 2) },
      { key: 'cpm', header: 'CPM', align: 'right', format: (v) => formatNumber(v as number, 2) },
      { key: 'created_at', header: 'Creada', format: (v) => formatDateTimeDMY(v as string, cli.tz) },
    ];
    await showTable<CampaignInsight>(cli, {
      columns: flags.columns,
      query: { sort: sortOf(sort), page: 1, pageSize: screenPageSize(cli, limit, DEFAULT_PAGE_SIZE.campaigns), preset: null },
      sortKeys: columns.map((c) => c.key).filter((k) => (CAMPAIGN_SORT_KEYS as readonly string[]).includes(k)),
      load: async (q) => {
        const answer = await api.campaigns.insights({ ...query, ...pageFields(q) });
        return {
          title: 'Campañas con métricas (Facebook)',
          subtitle: `${INSIGHTS_STATUS_LABELS[status]} · ${daySpanText({ from, to })}`,
          columns,
          rows: answer.rows,
          totals: answer.rows.length ? totalsRow({ ...answer.totals, name: `${formatInt(answer.totals.campaigns)} campañas` }) : null,
          emptyText: 'No se encontraron campañas con métricas.',
          notice: answer.totals.without_data > 0 ? `⚠ ${NO_DATA_TOOLTIP} (${formatInt(answer.totals.without_data)})` : undefined,
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
    .option('--daily-budget <euros>', `presupuesto diario en euros (por defecto ${CAMPAIGN_DEFAULTS.daily_budget.toFixed(2)})`)
    .option('--bid <euros>', `puja CPC en euros (por defecto ${CAMPAIGN_DEFAULTS.bid_amount.toFixed(2)})`)
    .option('--objective <objective>', `OUTCOME_TRAFFIC u OUTCOME_SALES (por defecto ${CAMPAIGN_DEFAULTS.objective})`)
    .option('--countries <codes>', 'países separados por comas (por defecto ES)')
    .option('--advantage-audience', 'deja que Meta amplíe la audiencia (Advantage+)')
    .option('--image <file>', 'imagen JPEG, PNG o WebP (máx. 8 MB)')
    .option('--pick <n>', 'usa la imagen sugerida número N')
    .option('--page <n>', `página de sugerencias de imágenes (1–${MAX_SUGGESTION_PAGE})`, '1')
    .option('--json', 'salida JSON')
    .action(async (flags: CreateFlags, cmd: Command) => {
      if (flags.image !== undefined && flags.pick !== undefined) throw new CliError('Usa --image o --pick, no ambos', EXIT.usage);
      const page = Number(flags.page);
      if (!/^\d+$/.test(flags.page) || page < 1 || page > MAX_SUGGESTION_PAGE)
        throw new CliError(`--page no válido: ${flags.page} (1–${MAX_SUGGESTION_PAGE})`, EXIT.usage);
      const upload = flags.image !== undefined ? await readImage(flags.image) : null;
      const { api } = await cli.api(cmd);
      const machine = cli.machine(flags.json);
      // People read the suggestions; with --json they go to stderr so stdout stays one document.
      const note = (text: string) => (machine ? cli.io.stderr : cli.io.stdout).write(`${text}\n`);
      const keyword = flags.keyword.trim();

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
        daily_budget: flags.dailyBudget,
        bid_amount: flags.bid,
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
