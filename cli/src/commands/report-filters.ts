// The filter flags the report commands share (--zone, --advertiser, --preset, --from/--to, …),
// turned into report ranges with core's presets. Every CSV streams from the server's exports
// (table-output.ts): the CLI writes none of its own.
import { offerValues } from './option-values.js';
import {
  PRESET_LABELS,
  SCREEN_DEFAULT_PRESET,
  SCREEN_PRESETS,
  daySpanText,
  isValidYmd,
  parseDateDMY,
  presetRange,
  todayIn,
  type Api,
  type DayRange,
  type PresetKey,
} from '@adops/core/lite';
import { CliError, EXIT, reportingTz, type CliIO } from '../io.js';
import type { Command } from 'commander';
import type { Cli } from '../context.js';
import { LISTED } from './filter-list.js';

export { LISTED };

export type Screen = keyof typeof SCREEN_PRESETS;

export { reportingTz };

export interface FilterFlags {
  zone?: string;
  advertiser?: string;
  publisher?: string;
  geo?: string;
  source?: string;
  domain?: string;
  preset?: string;
  from?: string;
  to?: string;
}

export type FilterFlag = 'zone' | 'advertiser' | 'publisher' | 'geo' | 'source' | 'domain';

const FLAG_HELP: Record<FilterFlag, [string, string]> = {
  zone: ['--zone <id>', 'zona (coincidencia parcial del Zone ID)'],
  advertiser: ['--advertiser <name>', 'advertiser'],
  publisher: ['--publisher <name>', 'publisher'],
  geo: ['--geo <code>', 'geo (país)'],
  source: ['--source <name>', 'source'],
  domain: ['--domain <domain>', 'dominio'],
};

/** Adds the filter flags and --preset/--from/--to to a command. */
export function addFilterOptions(cmd: Command, screen: Screen | null, flags: readonly FilterFlag[]): Command {
  for (const flag of flags) cmd.option(...FLAG_HELP[flag]);
  if (screen) {
    const names = SCREEN_PRESETS[screen].join('|');
    cmd.option(
      `--preset <preset>`,
      `rango predefinido: ${names} (ultimos7: los 7 días hasta ayer; ultimos7_hoy: con hoy; por defecto ${SCREEN_DEFAULT_PRESET[screen]})`,
    );
    offerValues(cmd, '--preset', SCREEN_PRESETS[screen]);
  }
  cmd.option('--from <date>', 'primer día (AAAA-MM-DD o dd/MM/aaaa)');
  cmd.option('--to <date>', 'último día (AAAA-MM-DD o dd/MM/aaaa; por defecto hoy)');
  return cmd;
}

/** 'YYYY-MM-DD' or 'dd/MM/yyyy' → 'YYYY-MM-DD'. */
export function parseDay(text: string, flag: string): string {
  const trimmed = text.trim();
  const ymd = isValidYmd(trimmed) ? trimmed : parseDateDMY(trimmed);
  if (!ymd) throw new CliError(`Fecha no válida en ${flag}: ${text} (usa AAAA-MM-DD o dd/MM/aaaa)`, EXIT.usage);
  return ymd;
}

/** A --preset value → the screen's preset key (usage error when the screen does not offer it). */
export function parsePreset(screen: Screen, value: string): PresetKey {
  const offered = SCREEN_PRESETS[screen] as readonly PresetKey[];
  const key = offered.find((k) => k === value.trim().toLowerCase());
  if (!key) throw new CliError(`Preset no válido: ${value} (usa ${offered.join(', ')})`, EXIT.usage);
  return key;
}

export interface ResolvedRange extends DayRange {
  /** The preset the range comes from; null for --from/--to. */
  preset: PresetKey | null;
}

/**
 * --preset, or --from/--to (--from alone runs to today), or the screen's default preset; a
 * fixed default range (Finance: 2025-01-01 to today) replaces the preset default.
 */
export function resolveRange(
  io: CliIO,
  screen: Screen | null,
  flags: Pick<FilterFlags, 'preset' | 'from' | 'to'>,
  options: { now?: Date; defaultFrom?: string } = {},
): ResolvedRange {
  const now = options.now ?? new Date();
  const tz = reportingTz(io);
  if (flags.preset !== undefined && (flags.from !== undefined || flags.to !== undefined))
    throw new CliError('Usa --preset o --from/--to, no ambos', EXIT.usage);
  if (flags.preset !== undefined) {
    if (!screen) throw new CliError('Este comando no admite --preset', EXIT.usage);
    const preset = parsePreset(screen, flags.preset);
    return { ...presetRange(preset, now, tz), preset };
  }
  if (flags.from === undefined && flags.to !== undefined) throw new CliError('Indica también --from', EXIT.usage);
  if (flags.from !== undefined) {
    const from = parseDay(flags.from, '--from');
    const to = flags.to !== undefined ? parseDay(flags.to, '--to') : todayIn(tz, now);
    if (from > to) throw new CliError('❌ Rango de fechas no válido.', EXIT.usage);
    return { from, to, preset: null };
  }
  if (options.defaultFrom) return { from: options.defaultFrom, to: todayIn(tz, now), preset: null };
  if (!screen) return { ...presetRange('hoy', now, tz), preset: 'hoy' };
  const preset = SCREEN_DEFAULT_PRESET[screen];
  return { ...presetRange(preset, now, tz), preset };
}

/**
 * The range flags checked first (a usage error before any request), then resolved once the
 * server's reporting zone is confirmed (`cli.api(cmd, { zone: true })`): a preset's days are
 * the server's current days even right after its ADOPS_TZ changed.
 */
export async function apiAndRange(
  cli: Cli,
  cmd: Command,
  screen: Screen | null,
  flags: Pick<FilterFlags, 'preset' | 'from' | 'to'>,
  options: { defaultFrom?: string } = {},
) {
  resolveRange(cli.io, screen, flags, options);
  const session = await cli.api(cmd, { zone: true });
  return { ...session, range: resolveRange(cli.io, screen, flags, options) };
}

/** 'Últimos 7 días (01/03/2026 – 07/03/2026)'. */
export function rangeLabel(range: ResolvedRange): string {
  const days = daySpanText(range);
  return range.preset ? `${PRESET_LABELS[range.preset]} (${days})` : days;
}

/** The report query's text filters ('Todos'/empty mean no filter on the server too). */
export function textFilters(flags: FilterFlags): Record<string, string | undefined> {
  return {
    zone_id: flags.zone,
    advertiser: flags.advertiser,
    publisher: flags.publisher,
    geo: flags.geo,
    source: flags.source,
    domain: flags.domain,
  };
}

/** 'zona 380001 · advertiser AdNova' — the filters in use, for titles. */
export function filterLabel(flags: FilterFlags): string {
  const parts: string[] = [];
  if (flags.zone) parts.push(`zona ${flags.zone}`);
  if (flags.advertiser) parts.push(`advertiser ${flags.advertiser}`);
  if (flags.publisher) parts.push(`publisher ${flags.publisher}`);
  if (flags.geo) parts.push(`geo ${flags.geo}`);
  if (flags.source) parts.push(`source ${flags.source}`);
  if (flags.domain) parts.push(`dominio ${flags.domain}`);
  return parts.join(' · ');
}

/** The filters whose values come from a known list (the server's options). */

export type FilterOptions = Record<(typeof LISTED)[number]['flag'], readonly string[]>;

/** Every value the listed filters take, as the server knows them (`adops options`). */
export async function filterOptions(
  api: Api,
  which: ReadonlyArray<(typeof LISTED)[number]['flag']> = LISTED.map((l) => l.flag),
): Promise<FilterOptions> {
  const needsRaw = which.some((f) => f !== 'domain');
  const [raw, domains] = await Promise.all([needsRaw ? api.dashboard.rawOptions() : null, which.includes('domain') ? api.finance.domains() : null]);
  return {
    advertiser: raw?.advertisers ?? [],
    publisher: raw?.publishers ?? [],
    geo: raw?.geoOptions ?? [],
    source: raw?.sourceOptions ?? [],
    domain: domains?.domains ?? [],
  };
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase();

/** Edit distance (Levenshtein) of two short texts. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/** The closest known values to a text nobody has: containing it, or a few edits away. */
export function suggestions(value: string, known: readonly string[], max = 3): string[] {
  const v = fold(value);
  return known
    .map((k) => ({ k, f: fold(k) }))
    .map(({ k, f }) => ({ k, score: f.includes(v) || v.includes(f) ? 0 : distance(v, f) }))
    .filter(({ k, score }) => score <= Math.max(2, Math.floor(k.length / 3)))
    .sort((a, b) => a.score - b.score || a.k.localeCompare(b.k, 'es'))
    .slice(0, max)
    .map(({ k }) => k);
}

/**
 * The listed filter flags matched to the server's values regardless of case and accents
 * (`--advertiser adnova` → AdNova), in place. A value nobody has is a usage error that says
 * the closest ones ('¿quisiste decir …?') instead of an empty report.
 */
export async function canonicalFilters(api: Api, flags: FilterFlags, only?: ReadonlyArray<(typeof LISTED)[number]['flag']>): Promise<void> {
  const given = LISTED.filter(
    ({ flag }) => (only === undefined || only.includes(flag)) && flags[flag] !== undefined && flags[flag]!.trim() !== '' && flags[flag] !== 'Todos',
  );
  if (given.length === 0) return;
  const options = await filterOptions(
    api,
    given.map((g) => g.flag),
  );
  for (const { flag, label } of given) {
    const value = flags[flag]!;
    const known = options[flag];
    const match = known.find((k) => k === value) ?? known.find((k) => fold(k) === fold(value));
    if (match !== undefined) {
      flags[flag] = match;
      continue;
    }
    const close = suggestions(value, known);
    const hint = close.length ? ` ¿Quisiste decir ${close.join(', ')}?` : '';
    throw new CliError(`${label} desconocido: ${value}.${hint} (adops options los lista)`, EXIT.usage);
  }
}
