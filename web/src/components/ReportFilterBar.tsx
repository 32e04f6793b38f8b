// The report filter bar shared by the revenue screens (Dashboard, Ad Report, Demand, Api
// Explorer, Finance): Zone ID search, Advertiser/Publisher/Geo/Source selects ('Todos' first),
// a presets select that fills the dates, Desde/Hasta dates and Reset. Screens pick the fields.
import { DATE_RANGE_INCOMPLETE, DATE_RANGE_REVERSED, rangeTooLong } from '../lib/voice';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { MAX_REPORT_DAYS, PRESET_LABELS, daysBetween, isValidYmd, presetRange, type PresetKey, type ReportFiltersInput } from '@adops/core';
import { inputClass, secondaryButton } from './styles';
import { FormField } from './FormField';
import { reportingTimeZone } from '../lib/timezone';
import { clearPages, readChoice, readRange, readText, setParam, writeRange } from '../lib/urlState';
import { useUrlValue, type UrlParams } from '../hooks/useUrlState';
import { DateInput } from './DateInput';

/** The first option of every select: no filter. */
export const ALL_OPTION = 'Todos';
/** The preset select's value once a date was edited by hand. */
export const CUSTOM_PRESET = 'custom';
export type PresetChoice = PresetKey | typeof CUSTOM_PRESET;

export type FilterField = 'zone_id' | 'advertiser' | 'publisher' | 'geo' | 'source' | 'presets' | 'dates' | 'reset';

/** What the bar edits; 'Todos' (or '') in a select means no filter. */
export interface ReportFilterValues {
  zone_id: string;
  advertiser: string;
  publisher: string;
  geo: string;
  source: string;
  preset: PresetChoice;
  /** YYYY-MM-DD, inclusive. */
  from: string;
  to: string;
}

export interface ReportFilterOptions {
  advertisers?: readonly string[];
  publishers?: readonly string[];
  geos?: readonly string[];
  sources?: readonly string[];
}

/** Filters cleared, with the range of `preset` (a screen's default and its Reset). */
export function initialReportFilters(preset: PresetKey, now: Date = new Date(), tz: string = reportingTimeZone()): ReportFilterValues {
  const { from, to } = presetRange(preset, now, tz);
  return { zone_id: '', advertiser: ALL_OPTION, publisher: ALL_OPTION, geo: ALL_OPTION, source: ALL_OPTION, preset, from, to };
}

/** Why the range cannot be asked for (both dates, from ≤ to, at most 800 days), or null. */
export function rangeProblem(v: Pick<ReportFilterValues, 'from' | 'to'>): string | null {
  if (!isValidYmd(v.from) || !isValidYmd(v.to)) return DATE_RANGE_INCOMPLETE;
  if (v.from > v.to) return DATE_RANGE_REVERSED;
  if (daysBetween(v.from, v.to) > MAX_REPORT_DAYS) return rangeTooLong(MAX_REPORT_DAYS);
  return null;
}

const filterValue = (v: string) => (v.trim() === '' || v === ALL_OPTION ? undefined : v.trim());

/** The report query of the filters (start_date/end_date plus the set text filters). */
export function toReportQuery(v: ReportFilterValues): ReportFiltersInput {
  return {
    start_date: v.from,
    end_date: v.to,
    zone_id: filterValue(v.zone_id),
    advertiser: filterValue(v.advertiser),
    publisher: filterValue(v.publisher),
    geo: filterValue(v.geo),
    source: filterValue(v.source),
  };
}

export interface ReportFilterUrlOptions {
  /** The screen's opening preset (its range is left out of the URL). */
  preset: PresetKey;
  /** The presets the screen offers (another in a link is ignored). */
  presets: readonly PresetKey[];
  now?: Date;
  tz?: string;
}

const SELECTS = ['advertiser', 'publisher', 'geo', 'source'] as const;

/** The filters of a URL (zone_id, advertiser, publisher, geo, source, preset or from/to); anything missing is the default. */
export function readReportFilters(params: URLSearchParams, o: ReportFilterUrlOptions): ReportFilterValues {
  const now = o.now ?? new Date();
  const tz = o.tz ?? reportingTimeZone();
  const range = readRange<PresetKey>(params, { preset: o.preset, presets: o.presets, rangeOf: (p) => presetRange(p, now, tz) });
  return {
    zone_id: readText(params, 'zone_id').trim(),
    advertiser: readChoice(params, 'advertiser', ALL_OPTION),
    publisher: readChoice(params, 'publisher', ALL_OPTION),
    geo: readChoice(params, 'geo', ALL_OPTION),
    source: readChoice(params, 'source', ALL_OPTION),
    ...range,
  };
}

/** Writes the filters, leaving defaults out, and sends every table of the screen back to page 1. */
export function writeReportFilters(params: URLSearchParams, v: ReportFilterValues, o: Pick<ReportFilterUrlOptions, 'preset'>): void {
  setParam(params, 'zone_id', v.zone_id.trim());
  for (const key of SELECTS) setParam(params, key, v[key], ALL_OPTION);
  writeRange(params, v, { preset: o.preset });
  clearPages(params);
}

/** The screen's filters kept in the URL; a range that cannot be asked for stays on screen only. */
export function useReportFiltersInUrl(url: UrlParams, o: ReportFilterUrlOptions): [ReportFilterValues, (next: ReportFilterValues) => void] {
  return useUrlValue(
    url,
    (p) => readReportFilters(p, o),
    (p, v) => writeReportFilters(p, v, o),
    (v) => rangeProblem(v) === null,
  );
}

export interface ReportFilterBarProps {
  value: ReportFilterValues;
  onChange: (next: ReportFilterValues) => void;
  /** Reset button: the screen decides its defaults (usually initialReportFilters(default preset)). */
  onReset: () => void;
  options?: ReportFilterOptions;
  /** The presets offered, in order (core's SCREEN_PRESETS.<screen>). */
  presets: readonly PresetKey[];
  /** Fields not shown on this screen. */
  hide?: readonly FilterField[];
  /** Time zone the presets are computed in (default the browser's). */
  tz?: string;
  /** The clock (tests). */
  now?: () => Date;
  disabled?: boolean;
  /** Quiet time after typing in Zone ID before the filter applies (ms). */
  zoneDebounceMs?: number;
  /** Label overrides, e.g. { from: 'From' }. */
  labels?: Partial<Record<'zone_id' | 'advertiser' | 'publisher' | 'geo' | 'source' | 'presets' | 'from' | 'to' | 'reset', string>>;
  /** Extra actions after Reset (a screen's Buscar or CSV button). */
  children?: ReactNode;
}

const DEFAULT_LABELS = {
  zone_id: 'Zone ID',
  advertiser: 'Advertiser',
  publisher: 'Publisher',
  geo: 'Geo',
  source: 'Source',
  presets: 'Presets',
  from: 'Desde',
  to: 'Hasta',
  reset: 'Reset',
};

function Field({ label, children, id, className = '' }: { label: string; id: string; children: ReactNode; className?: string }) {
  return (
    <FormField id={id} label={label} filter className={`min-w-0 ${className || 'min-w-[9rem] flex-1 basis-36'}`}>
      {children}
    </FormField>
  );
}

function SelectField({
  label,
  value,
  options,
  onChange,
  disabled,
}: {
  label: string;
  value: string;
  options: readonly string[] | undefined;
  onChange: (v: string) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const list = options ?? [];
  // The chosen value stays listed even when the loaded options no longer include it.
  const shown = value && value !== ALL_OPTION && !list.includes(value) ? [value, ...list] : list;
  return (
    <Field label={label} id={id}>
      <select id={id} className={`${inputClass} h-10`} value={value || ALL_OPTION} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
        <option value={ALL_OPTION}>{ALL_OPTION}</option>
        {shown.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function ReportFilterBar({
  value,
  onChange,
  onReset,
  options = {},
  presets,
  hide = [],
  tz,
  now = () => new Date(),
  disabled,
  zoneDebounceMs = 400,
  labels: labelOverrides,
  children,
}: ReportFilterBarProps) {
  const labels = { ...DEFAULT_LABELS, ...labelOverrides };
  const shows = (f: FilterField) => !hide.includes(f);
  const ids = { zone: useId(), preset: useId(), from: useId(), to: useId() };

  // Latest props for the debounced Zone ID commit.
  const latest = useRef({ value, onChange });
  latest.current = { value, onChange };

  const [zoneDraft, setZoneDraft] = useState(value.zone_id);
  useEffect(() => setZoneDraft(value.zone_id), [value.zone_id]);
  useEffect(() => {
    if (zoneDraft === latest.current.value.zone_id) return;
    const timer = setTimeout(() => latest.current.onChange({ ...latest.current.value, zone_id: zoneDraft }), zoneDebounceMs);
    return () => clearTimeout(timer);
  }, [zoneDraft, zoneDebounceMs]);

  const set = (patch: Partial<ReportFilterValues>) => onChange({ ...value, zone_id: zoneDraft, ...patch });

  const choosePreset = (choice: string) => {
    if (choice === CUSTOM_PRESET) return set({ preset: CUSTOM_PRESET });
    const preset = choice as PresetKey;
    set({ preset, ...presetRange(preset, now(), tz ?? reportingTimeZone()) });
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is not in React 18's element types; role="search" is its ARIA equivalent
    <div role="search" aria-label="Filtros" className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-end gap-3">
        {shows('zone_id') && (
          <Field label={labels.zone_id} id={ids.zone}>
            <input
              id={ids.zone}
              type="search"
              className={`${inputClass} h-10`}
              placeholder="Buscar Zone ID"
              value={zoneDraft}
              maxLength={100}
              disabled={disabled}
              onChange={(e) => setZoneDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && zoneDraft !== value.zone_id) set({ zone_id: zoneDraft });
              }}
            />
          </Field>
        )}
        {shows('advertiser') && (
          <SelectField
            label={labels.advertiser}
            value={value.advertiser}
            options={options.advertisers}
            disabled={disabled}
            onChange={(advertiser) => set({ advertiser })}
          />
        )}
        {shows('publisher') && (
          <SelectField
            label={labels.publisher}
            value={value.publisher}
            options={options.publishers}
            disabled={disabled}
            onChange={(publisher) => set({ publisher })}
          />
        )}
        {shows('geo') && (
          <SelectField label={labels.geo} value={value.geo} options={options.geos} disabled={disabled} onChange={(geo) => set({ geo })} />
        )}
        {shows('source') && (
          <SelectField
            label={labels.source}
            value={value.source}
            options={options.sources}
            disabled={disabled}
            onChange={(source) => set({ source })}
          />
        )}
        {/* Range controls stay together: on a narrow bar they wrap as one group. */}
        <div className="flex max-w-full flex-none flex-wrap items-end gap-3">
          {shows('presets') && (
            <Field label={labels.presets} id={ids.preset} className="w-44">
              <select
                id={ids.preset}
                className={`${inputClass} h-10`}
                value={value.preset}
                disabled={disabled}
                onChange={(e) => choosePreset(e.target.value)}
              >
                {presets.map((p) => (
                  <option key={p} value={p}>
                    {PRESET_LABELS[p]}
                  </option>
                ))}
                <option value={CUSTOM_PRESET}>Personalizado</option>
              </select>
            </Field>
          )}
          {shows('dates') && (
            <>
              <Field label={labels.from} id={ids.from} className="w-[9.5rem] sm:w-40">
                <DateInput
                  id={ids.from}
                  label={labels.from}
                  className="h-10"
                  value={value.from}
                  disabled={disabled}
                  onChange={(from) => set({ from, preset: CUSTOM_PRESET })}
                />
              </Field>
              <Field label={labels.to} id={ids.to} className="w-[9.5rem] sm:w-40">
                <DateInput
                  id={ids.to}
                  label={labels.to}
                  className="h-10"
                  value={value.to}
                  disabled={disabled}
                  onChange={(to) => set({ to, preset: CUSTOM_PRESET })}
                />
              </Field>
            </>
          )}
          {(shows('reset') || children) && (
            <div className="flex max-w-full flex-none flex-wrap items-end gap-2">
              {shows('reset') && (
                <button
                  type="button"
                  className={`${secondaryButton} h-10`}
                  disabled={disabled}
                  onClick={() => {
                    setZoneDraft('');
                    onReset();
                  }}
                >
                  {labels.reset}
                </button>
              )}
              {children}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
