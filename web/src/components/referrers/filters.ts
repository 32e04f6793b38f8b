// The Referrers / Logs filter state (SPEC §3 referrer filter object, §4 draft and presets):
// defaults, preset fill, draft checks and the API filter (ISO instants) it turns into.
import { DATE_RANGE_REVERSED } from '../../lib/voice';
import {
  PRESET_LABELS,
  SCREEN_PRESETS,
  SCREEN_DEFAULT_PRESET,
  rangeToInstants,
  referrerPresetRange,
  todayIn,
  type ReferrerFilter,
  type Ymd,
} from '@adops/core';

export type ReferrerPreset = (typeof SCREEN_PRESETS.referrers)[number];
/** A preset, or 'custom' once dates are typed by hand (and after Reset). */
export type PresetChoice = ReferrerPreset | 'custom';

export const ALL = 'Todos';
export const CUSTOM_LABEL = 'Personalizado';

/** The preset select's options, in order. */
export const PRESET_OPTIONS: { value: PresetChoice; label: string }[] = [
  { value: 'custom', label: CUSTOM_LABEL },
  ...SCREEN_PRESETS.referrers.map((p) => ({ value: p, label: PRESET_LABELS[p] })),
];

/** What the bar shows and applies: text filters plus a day range (YYYY-MM-DD, in the browser's zone). */
export interface ReferrerFilterState {
  zoneId: string;
  advertiser: string;
  publisher: string;
  /** The Source select (a parent domain). */
  parentDomain: string;
  preset: PresetChoice;
  from: Ymd;
  to: Ymd;
  /** 'Incluir bots': also the events flagged as bots or spam (applied at once, not by Aplicar). */
  includeBots: boolean;
}

/** A filter bar's working copy: a date is null while its text is not a valid dd/MM/yyyy. */
export interface ReferrerFilterDraft extends Omit<ReferrerFilterState, 'from' | 'to'> {
  from: Ymd | null;
  to: Ymd | null;
}

/** The calendar days a referrer preset covers, read from core's instant range. */
export function presetDays(preset: ReferrerPreset, now: Date, tz: string): { from: Ymd; to: Ymd } {
  const range = referrerPresetRange(preset, now, tz);
  return { from: todayIn(tz, new Date(range.startDate)), to: todayIn(tz, new Date(range.endDate)) };
}

/**
 * Defaults: every select 'Todos', no zone, today from its start to the end of the day.
 * The screen opens on the 'Hoy' preset; Reset uses the same dates with preset 'custom'.
 */
export function defaultFilters(now: Date, tz: string, preset: PresetChoice = 'custom'): ReferrerFilterState {
  const today = todayIn(tz, now);
  return { zoneId: '', advertiser: ALL, publisher: ALL, parentDomain: ALL, preset, from: today, to: today, includeBots: false };
}

/** The state a screen opens with. */
export function initialFilters(now: Date, tz: string): ReferrerFilterState {
  return defaultFilters(now, tz, SCREEN_DEFAULT_PRESET.referrers);
}

/** Choosing a preset fills the draft's dates; 'custom' leaves them as they are. */
export function choosePreset<T extends ReferrerFilterDraft>(draft: T, preset: PresetChoice, now: Date, tz: string): T {
  if (preset === 'custom') return { ...draft, preset };
  return { ...draft, preset, ...presetDays(preset, now, tz) };
}

/** Why a draft cannot be applied, or null when it can. */
export function draftProblem(draft: ReferrerFilterDraft): string | null {
  if (!draft.from) return 'Fecha "Desde" no válida (dd/mm/aaaa)';
  if (!draft.to) return 'Fecha "Hasta" no válida (dd/mm/aaaa)';
  if (draft.from > draft.to) return DATE_RANGE_REVERSED;
  return null;
}

export function sameFilters(a: ReferrerFilterDraft, b: ReferrerFilterDraft): boolean {
  return (
    a.zoneId.trim() === b.zoneId.trim() &&
    a.advertiser === b.advertiser &&
    a.publisher === b.publisher &&
    a.parentDomain === b.parentDomain &&
    a.from === b.from &&
    a.to === b.to
  );
}

/** The filter object the API takes: 'Todos' and empty left out, days as the instants of their local bounds. */
export function toApiFilter(state: ReferrerFilterState, tz: string): ReferrerFilter {
  const choice = (v: string) => (v === ALL || v.trim() === '' ? undefined : v);
  const { startDate, endDate } = rangeToInstants({ from: state.from, to: state.to }, tz);
  return {
    zoneId: state.zoneId.trim() || undefined,
    advertiser: choice(state.advertiser),
    publisher: choice(state.publisher),
    parentDomain: choice(state.parentDomain),
    startDate,
    endDate,
    ...(state.includeBots ? { include_bots: true } : {}),
  };
}
