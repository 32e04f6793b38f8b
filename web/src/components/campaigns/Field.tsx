// A field of the campaign creator: a label, its control (given its id and the ids that describe
// it), and the hint or error under it.
import { type ReactNode, useId } from 'react';
import { FormField } from '../FormField';

export function Field({
  label,
  required,
  hint,
  error,
  children,
}: {
  label: string;
  required?: boolean;
  hint?: string;
  error?: string;
  /** The control, given its id and the ids of the error and hint that describe it. */
  children: (id: string, describedBy: string | undefined) => ReactNode;
}) {
  const id = useId();
  const describedBy = [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ') || undefined;
  return (
    <FormField id={id} label={label} required={required} hint={hint} error={error}>
      {children(id, describedBy)}
    </FormField>
  );
}
