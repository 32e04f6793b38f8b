// The Referrers bar's date field (SPEC §9): its label over the shared dd/MM/yyyy DateInput.
import { useId } from 'react';
import type { Ymd } from '@adops/core';
import { DateInput } from '../DateInput';
import { FormField } from '../FormField';

export interface DateFieldProps {
  label: string;
  /** The chosen day, or null while the typed text is not a valid date. */
  value: Ymd | null;
  onChange: (value: Ymd | null) => void;
  invalid?: boolean;
}

export function DateField({ label, value, onChange, invalid }: DateFieldProps) {
  const id = useId();
  return (
    <FormField id={id} label={label}>
      <DateInput id={id} label={label} value={value ?? ''} onChange={(v) => onChange((v || null) as Ymd | null)} invalid={invalid} />
    </FormField>
  );
}
