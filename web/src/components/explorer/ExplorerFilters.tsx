// The Api Explorer's filter form: Zone ID (substring), Advertiser ('Todos' plus the three
// fixed advertisers), Publisher (every publisher in the data), Desde/Hasta, Buscar, CSV.
import { CheckedForm } from '../CheckedForm';
import type { FormEvent, ReactNode } from 'react';
import { FIXED_ADVERTISERS } from '@adops/core';
import { inputClass, primaryButton } from '../styles';
import { FormField } from '../FormField';
import { DateInput } from '../DateInput';

export interface ExplorerDraft {
  zone_id: string;
  advertiser: string;
  publisher: string;
  from: string;
  to: string;
}

export interface ExplorerFiltersProps {
  draft: ExplorerDraft;
  onChange: (draft: ExplorerDraft) => void;
  onSearch: () => void;
  publishers: readonly string[];
  loading: boolean;
  /** The CSV button (an export of every matching row). */
  download: ReactNode;
}

export const ALL = 'Todos';

export function ExplorerFilters({ draft, onChange, onSearch, publishers, loading, download }: ExplorerFiltersProps) {
  const set = (key: keyof ExplorerDraft) => (value: string) => onChange({ ...draft, [key]: value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch();
  };
  // The chosen publisher stays selectable even when the list no longer has it.
  const publisherOptions = draft.publisher !== ALL && !publishers.includes(draft.publisher) ? [draft.publisher, ...publishers] : publishers;
  return (
    <CheckedForm
      onSubmit={submit}
      aria-label="Filtros del Api Explorer"
      className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto] lg:items-end"
    >
      <FormField id="explorer-zone" label="Zone ID" filter>
        <input
          id="explorer-zone"
          type="search"
          placeholder="Buscar Zone ID"
          value={draft.zone_id}
          onChange={(e) => set('zone_id')(e.target.value)}
          maxLength={100}
          className={inputClass}
        />
      </FormField>
      <FormField id="explorer-advertiser" label="Advertiser" filter>
        <select id="explorer-advertiser" value={draft.advertiser} onChange={(e) => set('advertiser')(e.target.value)} className={inputClass}>
          <option value={ALL}>{ALL}</option>
          {FIXED_ADVERTISERS.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </FormField>
      <FormField id="explorer-publisher" label="Publisher" filter>
        <select id="explorer-publisher" value={draft.publisher} onChange={(e) => set('publisher')(e.target.value)} className={inputClass}>
          <option value={ALL}>{ALL}</option>
          {publisherOptions.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </FormField>
      <FormField id="explorer-from" label="Desde" filter>
        <DateInput id="explorer-from" label="Desde" value={draft.from} onChange={set('from')} />
      </FormField>
      <FormField id="explorer-to" label="Hasta" filter>
        <DateInput id="explorer-to" label="Hasta" value={draft.to} onChange={set('to')} />
      </FormField>
      <div className="flex gap-2 whitespace-nowrap">
        <button type="submit" disabled={loading} className={`${primaryButton} flex-1`}>
          Buscar
        </button>
        {download}
      </div>
    </CheckedForm>
  );
}
