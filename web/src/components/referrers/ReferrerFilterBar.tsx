// The Referrers filter bar (SPEC §2, §4): Zone ID search, Advertiser / Publisher / Source
// selects, a preset and Desde/Hasta in dd/MM/yyyy, all kept as a draft that takes effect
// only on Aplicar; Reset returns draft and applied filters to the defaults. 'Incluir bots'
// (traffic flagged as bots or spam) applies at once.
import { CheckedForm } from '../CheckedForm';
import { useEffect, useId, useState } from 'react';
import type { ReferrerFilters } from '@adops/core';
import { errorText } from '../../lib/errors';
import { inputClass, primaryButton, secondaryButton } from '../styles';
import { FormField } from '../FormField';
import { DateField } from './DateField';
import {
  ALL,
  PRESET_OPTIONS,
  choosePreset,
  draftProblem,
  sameFilters,
  type PresetChoice,
  type ReferrerFilterDraft,
  type ReferrerFilterState,
} from './filters';

export interface ReferrerFilterBarProps {
  applied: ReferrerFilterState;
  onApply: (filters: ReferrerFilterState) => void;
  onReset: () => void;
  options?: ReferrerFilters;
  optionsLoading?: boolean;
  optionsError?: unknown;
  tz: string;
}

function Select({
  label,
  value,
  values,
  onChange,
  loading,
}: {
  label: string;
  value: string;
  values: readonly string[];
  onChange: (v: string) => void;
  loading?: boolean;
}) {
  const id = useId();
  // Keep the chosen value listed even when the lists failed or no longer hold it.
  const list = value !== ALL && !values.includes(value) ? [value, ...values] : values;
  return (
    <FormField id={id} label={label}>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className={inputClass} aria-busy={loading || undefined}>
        <option value={ALL}>{ALL}</option>
        {list.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </FormField>
  );
}

export function ReferrerFilterBar({ applied, onApply, onReset, options, optionsLoading, optionsError, tz }: ReferrerFilterBarProps) {
  const [draft, setDraft] = useState<ReferrerFilterDraft>(applied);
  // The draft follows the applied filters whenever they change (Aplicar, Reset).
  useEffect(() => setDraft(applied), [applied]);
  const zoneId = useId();
  const presetId = useId();

  const problem = draftProblem(draft);
  const pending = !sameFilters(draft, applied);
  const set = (patch: Partial<ReferrerFilterDraft>) => setDraft((d) => ({ ...d, ...patch }));

  const submit = () => {
    if (problem || !draft.from || !draft.to) return;
    onApply({ ...draft, zoneId: draft.zoneId.trim(), from: draft.from, to: draft.to });
  };

  return (
    <CheckedForm
      aria-label="Filtros de referrers"
      className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4 xl:grid-cols-[minmax(11rem,1.5fr)_repeat(6,minmax(0,1fr))]">
        <FormField id={zoneId} label="Zone ID">
          <div className="relative">
            <svg
              className="pointer-events-none absolute left-2.5 top-1/2 h-4 w-4 -translate-y-1/2 text-gray-500"
              viewBox="0 0 20 20"
              fill="currentColor"
              aria-hidden
            >
              <path
                fillRule="evenodd"
                d="M9 3.5a5.5 5.5 0 100 11 5.5 5.5 0 000-11zM2 9a7 7 0 1112.452 4.391l3.328 3.329a.75.75 0 11-1.06 1.06l-3.329-3.328A7 7 0 012 9z"
                clipRule="evenodd"
              />
            </svg>
            <input
              id={zoneId}
              type="search"
              placeholder="Buscar Zone ID"
              maxLength={64}
              value={draft.zoneId}
              onChange={(e) => set({ zoneId: e.target.value })}
              className={`${inputClass} pl-8`}
            />
          </div>
        </FormField>
        <Select
          label="Advertiser"
          value={draft.advertiser}
          values={options?.advertisers ?? []}
          loading={optionsLoading}
          onChange={(v) => set({ advertiser: v })}
        />
        <Select
          label="Publisher"
          value={draft.publisher}
          values={options?.publishers ?? []}
          loading={optionsLoading}
          onChange={(v) => set({ publisher: v })}
        />
        <Select
          label="Source"
          value={draft.parentDomain}
          values={options?.parentDomains ?? []}
          loading={optionsLoading}
          onChange={(v) => set({ parentDomain: v })}
        />
        <FormField id={presetId} label="Preset">
          <select
            id={presetId}
            value={draft.preset}
            onChange={(e) => setDraft((d) => choosePreset(d, e.target.value as PresetChoice, new Date(), tz))}
            className={inputClass}
          >
            {PRESET_OPTIONS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </FormField>
        <DateField
          label="Desde"
          value={draft.from}
          invalid={!!draft.from && !!draft.to && draft.from > draft.to}
          onChange={(from) => set({ from, preset: 'custom' })}
        />
        <DateField label="Hasta" value={draft.to} onChange={(to) => set({ to, preset: 'custom' })} />
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-end gap-3">
        {problem ? (
          <p className="mr-auto text-sm text-red-600" role="alert">
            {problem}
          </p>
        ) : pending ? (
          <p className="mr-auto text-sm text-amber-600">Hay cambios sin aplicar</p>
        ) : null}
        <label
          className="inline-flex cursor-pointer select-none items-center gap-2 text-sm font-medium text-gray-700"
          title="Tráfico marcado como bots o spam"
        >
          <input
            type="checkbox"
            checked={applied.includeBots}
            onChange={(e) => onApply({ ...applied, includeBots: e.target.checked })}
            className="h-4 w-4 rounded border-gray-300 text-blue-600 focus:ring-blue-500"
          />
          Incluir bots
        </label>
        {optionsError ? (
          <p className="mr-auto text-sm text-red-600" role="alert">
            Error al cargar filtros de referrers: {errorText(optionsError, 'error desconocido')}
          </p>
        ) : null}
        <button type="button" className={secondaryButton} onClick={onReset}>
          Reset
        </button>
        <button type="submit" className={primaryButton} disabled={!!problem}>
          Aplicar
        </button>
      </div>
    </CheckedForm>
  );
}
